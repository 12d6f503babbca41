"""Reads of the archive: the search, a player's profile and rating history, the leaderboard, feed items.

Lists are built from the denormalised ArchivedGame/ArchivedPlayer rows with a fixed number of
queries however long the page is (one for the rows, one for their players, one for the count).
Nothing here reads a seed, a hand or a deck order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.functional import cached_property

from archive.models import ArchivedGame, ArchivedPlayer, FeedToken, PlayerRating
from engine import registry
from games.models import Game, Seat

ARCHIVE_PAGE_SIZE = 25
LEADERBOARD_PAGE_SIZE = 50
RECENT_RESULTS = 10
HISTORY_POINTS = 500
FEED_ITEMS = 30
PLAYER_MATCHES = 20  # a search for part of a name looks at this many players at most
COUNT_CAP = 10_000  # the archive counts matches up to here (400 pages of 25)

ORDERINGS = {
    "newest": ("-finished_at", "-game_id"),
    "longest": ("-plies", "-finished_at", "-game_id"),
    "shortest": ("plies", "finished_at", "game_id"),
}


# ----------------------------------------------------------------------------- the archive page


def players_named(text: str) -> list[int]:
    """Ids of the players a search box means: an exact username or display name, else a part of one."""
    users = get_user_model().objects
    exact = list(
        users.filter(Q(username__iexact=text) | Q(profile__display_name__iexact=text)).values_list("pk", flat=True)
    )
    if exact:
        return exact
    partial = users.filter(Q(username__icontains=text) | Q(profile__display_name__icontains=text))
    return list(partial.order_by("pk").values_list("pk", flat=True)[:PLAYER_MATCHES])


def archive_search(filters: dict[str, Any], viewer: Any = None) -> QuerySet[ArchivedGame]:
    """Finished games matching the (cleaned) search form, in the chosen order: the public ones, and
    the viewer's own private ones (a private game is listed to its players only)."""
    games = ArchivedGame.objects.filter(is_private=False)
    if viewer is not None and viewer.is_authenticated:
        own = ArchivedPlayer.objects.filter(user_id=viewer.pk, is_private=True).values("archived_game_id")
        games = ArchivedGame.objects.filter(Q(is_private=False) | Q(pk__in=own))
    if filters.get("player"):
        ids = players_named(filters["player"].strip())
        games = games.filter(pk__in=ArchivedPlayer.objects.filter(user_id__in=ids).values("archived_game_id"))
    for field_name, column in (("game", "game_type"), ("players", "player_count"), ("reason", "reason")):
        if filters.get(field_name):
            games = games.filter(**{column: filters[field_name]})
    for option in game_options():  # each game's own options (GameInfo.options), e.g. Zark City's deck
        if filters.get(option):
            games = games.filter(**{f"options__{option}": filters[option]})
    if filters.get("since"):
        games = games.filter(finished_at__gte=_day_start(filters["since"]))
    if filters.get("until"):
        games = games.filter(finished_at__lt=_day_start(filters["until"]) + timedelta(days=1))
    if filters.get("min_plies") is not None:
        games = games.filter(plies__gte=filters["min_plies"])
    if filters.get("max_plies") is not None:
        games = games.filter(plies__lte=filters["max_plies"])
    return games.order_by(*ORDERINGS.get(filters.get("sort") or "newest", ORDERINGS["newest"]))


def game_options() -> tuple[str, ...]:
    """The names of every registered game's options: the archive filters by each (`options__<name>`)."""
    return tuple(dict.fromkeys(option.name for info in registry.infos() for option in info.options))


def _day_start(day: Any) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def with_players(games: QuerySet[ArchivedGame]) -> QuerySet[ArchivedGame]:
    """One more query for every game's players and their display names, whatever the page size."""
    seats = ArchivedPlayer.objects.select_related("user__profile").order_by("seat_order")
    return games.select_related("winner__profile").prefetch_related(Prefetch("players", queryset=seats))


class CappedPaginator(Paginator):
    """Counting 100,000 matching rows costs more than showing a page of them, so count at most
    COUNT_CAP + 1 (a LIMIT inside the COUNT): past that the page says "more than 10,000"."""

    @cached_property
    def counted(self) -> int:
        return self.object_list.order_by()[: COUNT_CAP + 1].count()

    @cached_property
    def count(self) -> int:
        return min(self.counted, COUNT_CAP)

    @property
    def capped(self) -> bool:
        return self.counted > COUNT_CAP


def archive_page(filters: dict[str, Any], page_number: Any, viewer: Any = None) -> Page:
    paginator = CappedPaginator(with_players(archive_search(filters, viewer)), ARCHIVE_PAGE_SIZE)
    return paginator.get_page(page_number)


# ----------------------------------------------------------------------------- profiles


@dataclass(frozen=True)
class TableSize:
    players: int
    played: int
    won: int

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class GameStanding:
    """A player's results and rating in one game."""

    game_type: str
    name: str
    played: int
    won: int
    drawn: int
    rating: PlayerRating | None
    rank: int | None

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass
class PlayerProfile:
    user: Any
    played: int = 0
    won: int = 0
    drawn: int = 0
    by_table_size: list[TableSize] = field(default_factory=list)
    per_game: list[GameStanding] = field(default_factory=list)
    current: list[Game] = field(default_factory=list)
    recent: list[ArchivedPlayer] = field(default_factory=list)
    private_hidden: int = 0  # finished private games counted above but not listed to this viewer

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def player_profile(*, user: Any, viewer: Any) -> PlayerProfile:
    """Counts include private games (a number reveals nothing); lists show them only to their own players."""
    profile = PlayerProfile(user=user)
    rows = (
        ArchivedPlayer.objects.filter(user=user)
        .values("player_count")
        .annotate(
            played=Count("pk"), won=Count("pk", filter=Q(outcome="won")), drawn=Count("pk", filter=Q(outcome="draw"))
        )
        .order_by("player_count")
    )
    for row in rows:
        profile.by_table_size.append(TableSize(row["player_count"], row["played"], row["won"]))
        profile.played += row["played"]
        profile.won += row["won"]
        profile.drawn += row["drawn"]
    profile.per_game = standings(user=user)
    profile.current = current_games(user=user, viewer=viewer)
    profile.recent = recent_results(user=user, viewer=viewer)
    if not _private_ok(viewer, user):
        profile.private_hidden = ArchivedPlayer.objects.filter(user=user, is_private=True).count()
    return profile


def standings(*, user: Any) -> list[GameStanding]:
    """Results and rating in every game the player has finished, in registry order."""
    results = {
        row["game_type"]: row
        for row in ArchivedPlayer.objects.filter(user=user)
        .values("game_type")
        .annotate(
            played=Count("pk"), won=Count("pk", filter=Q(outcome="won")), drawn=Count("pk", filter=Q(outcome="draw"))
        )
        .order_by("game_type")
    }
    ratings = {r.game_type: r for r in PlayerRating.objects.filter(user=user)}
    standing = []
    for info in registry.infos():
        row, rating = results.get(info.id), ratings.get(info.id)
        if row is None and rating is None:
            continue
        rank = None
        if rating is not None:
            better = PlayerRating.objects.filter(game_type=info.id, games__gt=0, rating__gt=rating.rating)
            rank = 1 + better.count()
        played, won, drawn = (row["played"], row["won"], row["drawn"]) if row else (0, 0, 0)
        standing.append(GameStanding(info.id, info.name, played, won, drawn, rating, rank))
    return standing


def _private_ok(viewer: Any, user: Any) -> bool:
    return viewer is not None and viewer.is_authenticated and viewer.pk == user.pk


def current_games(*, user: Any, viewer: Any) -> list[Game]:
    games = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user, seats__resigned=False)
    if not _private_ok(viewer, user):
        games = games.filter(Q(is_private=False) | Q(seats__user_id=getattr(viewer, "pk", None)))
    seats = Seat.objects.select_related("user__profile").order_by("order")
    return list(games.distinct().order_by("-started_at").prefetch_related(Prefetch("seats", queryset=seats)))


def recent_results(*, user: Any, viewer: Any) -> list[ArchivedPlayer]:
    results = ArchivedPlayer.objects.filter(user=user)
    if not _private_ok(viewer, user):
        results = results.filter(is_private=False)
    seats = ArchivedPlayer.objects.select_related("user__profile").order_by("seat_order")
    results = results.select_related("archived_game").prefetch_related(
        Prefetch("archived_game__players", queryset=seats)
    )
    return list(results.order_by("-finished_at")[:RECENT_RESULTS])


def rating_history(*, user: Any, game_type: str) -> list[tuple[datetime, float, float, float]]:
    """(finished_at, rating, mu, sigma) after each of the player's last rated games of one game, oldest
    first: a private game moves no rating, and the public chart does not show when one was played."""
    rows = ArchivedPlayer.objects.filter(user=user, game_type=game_type, is_private=False).order_by("-finished_at")
    points = rows.values_list("finished_at", "rating_after", "mu_after", "sigma_after")[:HISTORY_POINTS]
    return list(reversed(points))


def leaderboard_page(page_number: Any, game_type: str) -> Page:
    """One game's leaderboard: ratings are kept per game, so players are ranked within a game."""
    ratings = PlayerRating.objects.filter(game_type=game_type, games__gt=0).select_related("user__profile")
    ratings = ratings.order_by("-rating", "user_id")
    return Paginator(ratings, LEADERBOARD_PAGE_SIZE).get_page(page_number)


# ----------------------------------------------------------------------------- feeds


def finished_games_of(*, user: Any) -> list[ArchivedGame]:
    """A player's public finished games, newest first: the public Atom feed."""
    games = ArchivedGame.objects.filter(
        is_private=False, pk__in=ArchivedPlayer.objects.filter(user=user).values("archived_game_id")
    )
    return list(with_players(games.order_by("-finished_at", "-game_id"))[:FEED_ITEMS])


def user_for_feed_key(key: str) -> Any | None:
    token = FeedToken.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None else None


def games_awaiting(*, user: Any) -> list[tuple[Game, Seat]]:
    """Games in progress where `user` may move now (their colour is among the movers), oldest clock first."""
    seats = Seat.objects.filter(user=user, resigned=False, game__status=Game.Status.ACTIVE).select_related("game")
    waiting = [(s.game, s) for s in seats if s.colour in s.game.to_move.split(",")]
    return sorted(waiting, key=lambda pair: (pair[0].deadline or pair[0].started_at or pair[0].created_at, pair[0].pk))
