"""Reads of the archive: the search, a player's profile and rating history, the leaderboard, feed items.

Lists are built from the denormalised ArchivedGame/ArchivedPlayer rows with a fixed number of
queries however long the page is (one for the rows, one for their players, one for the count).
Nothing here reads a seed, a hand or a deck order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Case, DateField, Exists, F, OuterRef, Prefetch, Q, QuerySet, Sum, Value, When
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast, Coalesce
from django.utils.functional import cached_property

from archive import rows
from archive.models import ArchivedGame, ArchivedPlayer, ArchiveTally, FeedToken, PlayerRating, PlayerTally
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
    exact = Q(username__iexact=text) | Q(profile__display_name__iexact=text)
    partial = users.filter(Q(username__icontains=text) | Q(profile__display_name__icontains=text))
    # One query for both (an exact match is a partial one too): the exact matches first, then the others.
    # (CASE, not the condition itself: a player without a profile has no display name, and NULL sorts first.)
    found = partial.annotate(exact=Case(When(exact, then=Value(True)), default=Value(False)))
    first = list(found.order_by("-exact", "pk").values_list("pk", "exact")[:PLAYER_MATCHES])
    if len(first) == PLAYER_MATCHES and first[-1][1]:  # as many exact matches as that: there may be more
        return list(users.filter(exact).values_list("pk", flat=True))
    exact_ids = [pk for pk, is_exact in first if is_exact]
    return exact_ids or [pk for pk, _ in first]


def archive_search(filters: dict[str, Any], viewer: Any = None) -> QuerySet[ArchivedGame]:
    """Finished games matching the (cleaned) search form, in the chosen order: the public ones, and
    the viewer's own private ones (a private game is listed to its players only)."""
    games = _visible(ArchivedGame.objects.all(), viewer, "pk")
    if filters.get("player"):
        ids = players_named(filters["player"].strip())
        games = games.filter(pk__in=ArchivedPlayer.objects.filter(user_id__in=ids).values("archived_game_id"))
    return _narrowed(games, filters).order_by(*_ordering(filters, "game_id"))


def _visible(rows: QuerySet[Any], viewer: Any, game: str) -> QuerySet[Any]:
    """Public games, and the viewer's own private ones; `game` is the rows' column holding the game id."""
    return _seen(rows, game, own_private_games(viewer))


def _seen(rows: QuerySet[Any], game: str, own: list[int]) -> QuerySet[Any]:
    return rows.filter(Q(is_private=False) | Q(**{f"{game}__in": own})) if own else rows.filter(is_private=False)


def _apart(rows: QuerySet[Any], game: str, own: list[int]) -> list[Any]:  # querysets; a caller may put in a Total
    """What _seen keeps as two disjoint sets, each counted through its own index: public games, own private ones."""
    return [rows.filter(is_private=False), *([rows.filter(**{f"{game}__in": own})] if own else [])]


def own_private_games(viewer: Any) -> list[int]:
    """The ids of the viewer's own private games, which the archive lists to them (usually none)."""
    if viewer is None or not viewer.is_authenticated:
        return []
    private = ArchivedPlayer.objects.filter(user_id=viewer.pk, is_private=True).order_by()
    return list(private.values_list("archived_game_id", flat=True))


def _narrowed(rows: QuerySet[Any], filters: dict[str, Any]) -> QuerySet[Any]:
    """The search's filters but the player's, on ArchivedGame or ArchivedPlayer rows (same column names)."""
    for field_name, column in (("game", "game_type"), ("players", "player_count"), ("reason", "reason")):
        if filters.get(field_name):
            rows = rows.filter(**{column: filters[field_name]})
    for option in game_options():  # each game's own options (GameInfo.options), e.g. Zark City's deck
        if filters.get(option):
            rows = rows.filter(**{f"options__{option}": filters[option]})
    if filters.get("since"):
        rows = rows.filter(finished_at__gte=_day_start(filters["since"]))
    if filters.get("until"):
        rows = rows.filter(finished_at__lt=_day_start(filters["until"]) + timedelta(days=1))
    if filters.get("min_plies") is not None:
        rows = rows.filter(plies__gte=filters["min_plies"])
    if filters.get("max_plies") is not None:
        rows = rows.filter(plies__lte=filters["max_plies"])
    return rows


def _ordering(filters: dict[str, Any], game: str) -> list[str]:
    """The chosen sort, ties broken by the game id (`game`: the rows' column holding it)."""
    sort = ORDERINGS.get(filters.get("sort") or "newest", ORDERINGS["newest"])
    return [column.replace("game_id", game) for column in sort]


def game_options() -> tuple[str, ...]:
    """The names of every registered game's options: the archive filters by each (`options__<name>`)."""
    return tuple(dict.fromkeys(option.name for info in registry.infos() for option in info.options))


def _day_start(day: Any) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def with_players(games: QuerySet[ArchivedGame]) -> QuerySet[ArchivedGame]:
    """One more query for every game's players and their display names, whatever the page size."""
    seats = ArchivedPlayer.objects.select_related("user__profile").order_by("seat_order")
    return games.select_related("winner__profile").prefetch_related(Prefetch("players", queryset=seats))


if TYPE_CHECKING:
    PaginatorBase = Paginator[Any]
else:  # Paginator is generic only to the type checker (as ModelAdmin in api/admin.py)
    PaginatorBase = Paginator


class CappedPaginator(PaginatorBase):
    """Counting 100,000 matching rows costs more than showing a page of them, so count at most
    COUNT_CAP + 1 (a LIMIT inside the COUNT): past that the page says "more than 10,000".

    `counting`: the matches as counts need them, when the list itself selects more than their ids: one
    queryset, or several disjoint ones whose counts add up (each then reads its own index), each of them
    possibly a Total of tallies instead."""

    def __init__(self, object_list: Any, per_page: int, counting: Any = None) -> None:
        super().__init__(object_list, per_page)
        counting = object_list if counting is None else counting
        self.counting = list(counting) if isinstance(counting, list | tuple) else [counting]

    @cached_property
    def counted(self) -> int:
        counted = 0
        for part in self.counting:
            if counted <= COUNT_CAP:
                limit = COUNT_CAP + 1 - counted
                counted += part.count_to(limit) if isinstance(part, Total) else part.order_by()[:limit].count()
        return counted

    @cached_property
    def count(self) -> int:
        return min(self.counted, COUNT_CAP)

    @property
    def capped(self) -> bool:
        return self.counted > COUNT_CAP


def archive_page(filters: dict[str, Any], page_number: Any, viewer: Any = None) -> Page[ArchivedGame]:
    """A page of matching ArchivedGames with their players (for readers that want the rows themselves)."""
    paginator = CappedPaginator(with_players(archive_search(filters, viewer)), ARCHIVE_PAGE_SIZE)
    return paginator.get_page(page_number)


def archive_list_page(filters: dict[str, Any], page_number: Any, viewer: Any = None) -> Page[Any]:
    """A page of the archive list: its object_list holds the games' stored rows (archive.rows.ListedRow)
    with the players' names filled in. Three queries (one more to find the players a name means; for a
    signed-in viewer one to find their private games, and one more count if there are any): the count, the
    page's rows, their players' names. None reads more than a page of rows (for part of a name, each of the
    players' first games up to the page's end) or, to count, a few tallies or COUNT_CAP + 1 entries (bar a
    name matching several players: their games)."""
    named = players_named(filters["player"].strip()) if filters.get("player") else None
    ids, counted = _search(filters, named, own_private_games(viewer))
    paginator = CappedPaginator(StoredRows(ids, _ordering(filters, "game_id")), ARCHIVE_PAGE_SIZE, counted)
    page = paginator.get_page(page_number)
    page.object_list = rows.listed(list(page.object_list))
    return page


def _search(filters: dict[str, Any], named: list[int] | None, own: list[int]) -> tuple[Ids, list[Any]]:
    """The matches' game ids in order, as the list's pages take them (Ids), and the matches as they are counted.

    A search by player runs on the players' result rows, which carry every column the search filters and
    sorts by: a walk along their games in an index, not a join over the archive. A name matching several
    players (part of one) lists a game two of them played once, and counts the games' ids among their rows
    once each. A search by the filters the tallies keep (game, table size, result, options; or one player,
    game and table size) counts their public games by adding up tallies."""
    if named is None:
        games = _narrowed(ArchivedGame.objects.all(), filters)
        counted: list[Any] = _apart(games, "game_id", own)
        if _kept_in(filters, ARCHIVE_TALLIED):
            counted[0] = Total(_narrowed(ArchiveTally.objects.all(), filters), Sum("games"))
        return Ids(_seen(games, "game_id", own).order_by(*_ordering(filters, "game_id")), "game_id"), counted
    seats = _narrowed(ArchivedPlayer.objects.filter(user_id__in=named), filters)
    counted = _apart(seats, "archived_game_id", own)
    if len(named) <= 1:  # one player, or nobody of that name
        if named and _kept_in(filters, PLAYER_TALLIED):
            tallies = _narrowed(PlayerTally.objects.filter(user_id=named[0]), filters)
            counted[0] = Total(tallies, Sum(F("played") - F("private")))
        ordered = _seen(seats, "archived_game_id", own).order_by(*_ordering(filters, "archived_game_id"))
        return Ids(ordered, "archived_game_id"), counted
    counted = [part.values("archived_game_id").distinct() for part in counted]
    return Ids.of_each(named, filters, own), counted


# The filters a tally can count: ArchiveTally keeps public games by game, table size, result and options;
# PlayerTally one player's by game and table size.
ARCHIVE_TALLIED = ("game", "players", "reason")
PLAYER_TALLIED = ("game", "players")


def _kept_in(filters: dict[str, Any], tallied: tuple[str, ...]) -> bool:
    """Whether `filters` (the player's apart) filter by nothing but what these tallies are kept by."""
    kept = {*tallied, *(game_options() if tallied == ARCHIVE_TALLIED else ())}
    unkept = (name for name, value in filters.items() if name not in kept and name not in ("player", "sort"))
    return all(value is None or value == "" for value in (filters[name] for name in unkept))


class Total:
    """A count added up from tally rows, as CappedPaginator counts a part of the matches (up to a limit)."""

    def __init__(self, tallies: QuerySet[Any], total: Any) -> None:
        self.tallies, self.total = tallies, total

    def count_to(self, limit: int) -> int:
        total: int = self.tallies.order_by().aggregate(n=Coalesce(self.total, 0))["n"]
        return min(total, limit)


ANYONE = -(2**31) + 1  # a user id no player has: where each player's id goes in a query compiled once


class Ids:
    """The matching games' ids in the chosen order, a window of them (a page) at a time.

    Mostly one ordered query along an index. A name matching several players (part of one): each player's
    own first `window.stop` games, each along their index, the union of them ordered; a game of the window is
    among the first `window.stop` of each of its players, so the union holds the window. SQLite takes no
    LIMIT in a part of a UNION: there the players' rows are ordered together, each game at its first seat."""

    def __init__(self, ordered: QuerySet[Any] | None, game: str, tops: Any = None) -> None:
        self.ordered, self.game, self.tops = ordered, game, tops

    @classmethod
    def of_each(cls, named: list[int], filters: dict[str, Any], own: list[int]) -> Ids:
        seats = _seen(_narrowed(ArchivedPlayer.objects.all(), filters), "archived_game_id", own)
        ordered = seats.order_by(*_ordering(filters, "archived_game_id"))
        if connection.features.supports_slicing_ordering_in_compound:
            ids = ordered.values_list("archived_game_id", flat=True)

            def tops(first: int) -> RawSQL:
                # The parts differ by their player only: compiled once, not once each (as a queryset's union
                # would be, which costs more than the query itself).
                sql, params = ids.filter(user_id=ANYONE)[:first].query.sql_with_params()
                assert params.count(ANYONE) == 1
                each = [tuple(user if param == ANYONE else param for param in params) for user in named]
                return RawSQL(" UNION ".join([f"({sql})"] * len(named)), [p for part in each for p in part])

            return cls(None, "game_id", tops)
        before = ArchivedPlayer.objects.filter(
            archived_game_id=OuterRef("archived_game_id"), user_id__in=named, seat_order__lt=OuterRef("seat_order")
        )
        return cls(ordered.filter(user_id__in=named).exclude(Exists(before)), "archived_game_id")

    def window(self, window: slice, ordering: list[str]) -> QuerySet[Any]:
        """The ids of the games in `window` (a slice of the matches, as the paginator takes a page) as a
        subquery; `ordering`: the chosen sort on ArchivedGame's columns."""
        if self.tops is None:
            assert self.ordered is not None
            return self.ordered.values_list(self.game, flat=True)[window]
        games = ArchivedGame.objects.filter(pk__in=self.tops(window.stop))
        return games.order_by(*ordering).values_list("game_id", flat=True)[window]


class StoredRows:
    """The matching games in order, as the paginator slices them: a page's ids are chosen first (a subquery
    on the search's own index), then only those games' stored rows are read, in one query."""

    def __init__(self, ids: Ids, ordering: list[str]) -> None:
        self.ids, self.ordering = ids, ordering

    def __getitem__(self, window: slice) -> list[tuple[int, str | None, str | None]]:
        page = ArchivedGame.objects.filter(pk__in=self.ids.window(window, self.ordering)).order_by(*self.ordering)
        return list(page.values_list("game_id", "row__html", "row__key"))

    def __len__(self) -> int:  # the paginator counts through CappedPaginator.counting instead
        raise TypeError("count the matches with CappedPaginator(counting=...)")


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
    """Counts include private games (a number reveals nothing); lists show them only to their own players.
    The counts come from the player's tallies (PlayerTally: a row per game and table size), not their results."""
    profile = PlayerProfile(user=user)
    tallies = list(PlayerTally.objects.filter(user=user).order_by("player_count", "game_type"))
    sizes: dict[int, list[PlayerTally]] = {}
    for tally in tallies:
        sizes.setdefault(tally.player_count, []).append(tally)
    for players, at_size in sizes.items():
        profile.by_table_size.append(TableSize(players, sum(t.played for t in at_size), sum(t.won for t in at_size)))
    profile.played, profile.won = sum(t.played for t in tallies), sum(t.won for t in tallies)
    profile.drawn = sum(t.drawn for t in tallies)
    profile.per_game = standings(user=user, tallies=tallies)
    profile.current = current_games(user=user, viewer=viewer)
    profile.recent = recent_results(user=user, viewer=viewer)
    if not _private_ok(viewer, user):
        profile.private_hidden = sum(t.private for t in tallies)
    return profile


def standings(*, user: Any, tallies: list[PlayerTally]) -> list[GameStanding]:
    """Results and rating in every game the player has finished, in registry order."""
    ratings = {r.game_type: r for r in PlayerRating.objects.filter(user=user)}
    standing = []
    for info in registry.infos():
        played = [t for t in tallies if t.game_type == info.id]
        rating = ratings.get(info.id)
        if not played and rating is None:
            continue
        rank = None
        if rating is not None:
            better = PlayerRating.objects.filter(game_type=info.id, games__gt=0, rating__gt=rating.rating)
            rank = 1 + better.count()
        counts = (sum(t.played for t in played), sum(t.won for t in played), sum(t.drawn for t in played))
        standing.append(GameStanding(info.id, info.name, *counts, rating, rank))
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


def rating_history(*, user: Any, game_type: str) -> list[tuple[date, float, float, float]]:
    """(day finished, rating, mu, sigma) after each of the player's last rated games of one game, oldest
    first: a private game moves no rating, and the public chart does not show when one was played.

    The day (UTC), not the moment: the chart shows days, and reading the days costs a fraction of reading
    timestamps, which Django gives their time zone one by one (1.7 ms more for a regular's 331 games in
    bench/archive.py). Read from one index alone (`archive_player_rating_chart`), newest first."""
    rows = ArchivedPlayer.objects.filter(user=user, game_type=game_type, is_private=False).order_by("-finished_at")
    day = Cast("finished_at", output_field=DateField())
    points = rows.values_list(day, "rating_after", "mu_after", "sigma_after")[:HISTORY_POINTS]
    return list(reversed(points))


def leaderboard_page(page_number: Any, game_type: str) -> Page[PlayerRating]:
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
    seats = Seat.objects.filter(user=user, resigned=False, game__status=Game.Status.ACTIVE, commitments__isnull=True)
    waiting = [(s.game, s) for s in seats.select_related("game") if s.colour in s.game.to_move.split(",")]
    return sorted(waiting, key=lambda pair: (pair[0].deadline or pair[0].started_at or pair[0].created_at, pair[0].pk))
