"""The lobby's and the dashboard's reads: lists of games with public facts only, never a position.
Each list can be narrowed to one registered game (`game`, a registry id; an unknown one is ignored)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.urls import NoReverseMatch, reverse

from engine import registry
from games.models import Commitment, Game, Invitation, Seat

DASHBOARD_FINISHED_LIMIT = 20
OPEN_GAMES_LIMIT = 50


def game_page_url(game: Game) -> str:
    """Where a game lives: its waiting room until it starts, then the play page."""
    if game.status == Game.Status.OPEN:
        return reverse("game_lobby", args=[game.pk])
    try:
        return reverse("game_detail", args=[game.pk])
    except NoReverseMatch:  # the play pages are another module's; keep the lobby usable without them
        return f"/games/{game.pk}/"


@dataclass(frozen=True)
class GameListEntry:
    """One game as the lobby and the dashboard list it: public facts only, no position."""

    game: Game
    seats: tuple[Seat, ...]
    movers: tuple[Seat, ...]  # whose move it is (several while starters are being chosen)
    my_seat: Seat | None

    @property
    def is_my_turn(self) -> bool:
        return self.my_seat is not None and self.my_seat in self.movers

    @property
    def url(self) -> str:
        return game_page_url(self.game)

    @property
    def free_seats(self) -> int:
        return self.game.seats_wanted - len(self.seats)

    @property
    def name(self) -> str:
        """ "Deck Town #12"."""
        return f"{self.game.rules.info.name} #{self.game.pk}"

    @property
    def movers_label(self) -> str:
        """ "To move", or what the game calls its movers in this phase ("Choosing starters")."""
        return self.game.rules.info.movers_label(self.game.phase)

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.seats if seat.colour in self.game.winners)


@dataclass(frozen=True)
class Dashboard:
    my_turn: list[GameListEntry]
    waiting_on_others: list[GameListEntry]
    waiting_for_players: list[GameListEntry]
    finished: list[GameListEntry]
    invitations: list[Invitation]


def game_filter_choices() -> list[tuple[str, str]]:
    """(id, name) of every registered game, for the lists' ?game= filter."""
    return [(info.id, info.name) for info in registry.infos()]


def _of_game(games: QuerySet[Game], game: str) -> QuerySet[Game]:
    return games.filter(game=game) if game in registry.ids() else games


def _list_entry(game: Game, user: Any = None, committed: Collection[int] = ()) -> GameListEntry:
    """`committed`: the seats of `user` whose sealed choice is in, owing no move though a game whose
    commitments are unseen keeps them in Game.to_move (the user's own business: only their seat)."""
    seats = tuple(game.seats.all())  # prefetched, in seat order
    mover_colours = set(game.to_move.split(",")) if game.status == Game.Status.ACTIVE else set()
    movers = tuple(s for s in seats if s.colour in mover_colours and not s.resigned and s.pk not in committed)
    mine = next((seat for seat in seats if user is not None and seat.user_id == user.pk), None)
    return GameListEntry(game=game, seats=seats, movers=movers, my_seat=mine)


def _with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    seats = Seat.objects.order_by("order").select_related("user__profile")
    return games.select_related("created_by").prefetch_related(Prefetch("seats", queryset=seats))


def dashboard_for(*, user: Any, game: str = "") -> Dashboard:
    """A player's games: my turn (longest waiting first; My games shows them least time left first:
    selectors.turns), waiting on others, waiting for players, finished."""
    games = _with_seats(_of_game(Game.objects.filter(seats__user=user).distinct(), game))
    committed = set(Commitment.objects.filter(seat__user=user).values_list("seat_id", flat=True))
    entries = [_list_entry(row, user, committed) for row in games]
    active = [e for e in entries if e.game.status == Game.Status.ACTIVE]
    finished = [e for e in entries if e.game.status == Game.Status.FINISHED]
    finished.sort(key=lambda e: e.game.finished_at or e.game.created_at, reverse=True)
    return Dashboard(
        my_turn=sorted((e for e in active if e.is_my_turn), key=_turn_clock),
        waiting_on_others=sorted((e for e in active if not e.is_my_turn), key=_turn_clock),
        waiting_for_players=[e for e in entries if e.game.status == Game.Status.OPEN],
        finished=finished[:DASHBOARD_FINISHED_LIMIT],
        invitations=pending_invitations_for(user=user),
    )


def _turn_clock(entry: GameListEntry) -> datetime:
    """When the current turn started: the longest-waiting game sorts first."""
    game = entry.game
    return game.turn_started_at or game.started_at or game.created_at


def pending_invitations_for(*, user: Any) -> list[Invitation]:
    """Invitations still open to this user, by username or to one of their verified addresses."""
    emails = EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)
    addressed = Q(user=user) | Q(email__in=[email.lower() for email in emails])
    pending = Invitation.objects.filter(addressed, accepted_at__isnull=True, declined_at__isnull=True)
    pending = pending.filter(game__status=Game.Status.OPEN).exclude(game__seats__user=user)
    return list(pending.select_related("game", "invited_by__profile").order_by("-created_at"))


def open_games_list(*, limit: int = OPEN_GAMES_LIMIT, user: Any = None, game: str = "") -> list[GameListEntry]:
    """Public games still waiting for players, newest first."""
    games = _of_game(Game.objects.filter(status=Game.Status.OPEN, is_private=False), game)
    games = games.annotate(taken=Count("seats")).filter(taken__lt=F("seats_wanted"))
    user = user if user is not None and user.is_authenticated else None
    return [_list_entry(row, user) for row in _with_seats(games.order_by("-created_at"))[:limit]]


def lobby_game(*, game_id: int, user: Any = None) -> GameListEntry:
    """One game's waiting-room facts; raises Game.DoesNotExist."""
    user = user if user is not None and user.is_authenticated else None
    return _list_entry(_with_seats(Game.objects.all()).get(pk=game_id), user)


def lobby_visible_to(entry: GameListEntry, user: Any) -> bool:
    """A private waiting room is for its seated players and the people invited to it; anyone else gets a 404."""
    if not entry.game.is_private or entry.my_seat is not None:
        return True
    if user is None or not user.is_authenticated:
        return False
    return any(invitation_addressed_to(invitation, user) for invitation in entry.game.invitations.all())


def invitation_addressed_to(invitation: Invitation, user: Any) -> bool:
    """Whether this invitation names the user, or one of their verified email addresses."""
    if invitation.user_id is not None:
        return bool(invitation.user_id == user.pk)
    emails = EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)
    return bool(invitation.email) and invitation.email.lower() in {email.lower() for email in emails}


def invitation_get(*, invitation_id: int) -> Invitation:
    """The invitation a link names, with its game and inviter; raises Invitation.DoesNotExist."""
    return Invitation.objects.select_related("game", "invited_by").get(pk=invitation_id)


def lobby_invitations(*, game: Game) -> list[Invitation]:
    """The invitations of a waiting game, for its seated players to see who has been asked."""
    return list(game.invitations.select_related("user").order_by("created_at", "pk"))
