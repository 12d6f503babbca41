"""The game page's reads: what one viewer may see of one game, built only from the game's `view`
for that viewer (the one place hidden information is stripped) through `game.rules`."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from accounts.selectors import bot_label_of, display_name_of
from engine.interface import BoardScript, HandPick, MoveKind, Table, View
from games.models import ChatMessage, DrawProposal, Game, Seat
from notifications.models import TURN_KINDS, Away, Mute, Notification, Watch
from zarkcity_site.prepared import Prepared

from .history import HistoryEntry, first_shown_ply, history, said_none
from .sealed import announced, committed_colours, own_commitment, seat_view

Viewer = User | AnonymousUser | None
# A seat with what the page and a move read of its player, in the one query that reads the table: the
# display name and bot label (profile), the time zone for the clocks and the email preferences
# (notification_preference; notifications.selectors.preference_for reads them there).
SEAT_RELATED = ("user__profile", "user__notification_preference")

# How the banner says why a game ended, after "<name> won as <colour>"; other reasons are given as they are.
WON_BY = {
    "power block": " with a power block",
    "timeout": ": the last opponent ran out of time",
    "resignation": ": every other player resigned",
}


@dataclass(frozen=True)
class SeatInfo:
    colour: str
    name: str
    user_id: int
    resigned: bool
    facts: tuple[str, ...]  # the game's public facts about this seat ("5 cards", "stash S2 M3 L3")
    note: str  # e.g. "has chosen a starter"
    is_viewer: bool
    to_move: bool
    bot: str = ""  # the bot's label ("MCTS") when a built-in bot holds the seat, "" for a person


@dataclass(frozen=True)
class MoveGroup:
    kind: str
    label: str
    moves: list[str]
    quick: bool  # offered as one-click buttons when short (the game's MoveKind.quick)


@dataclass(frozen=True)
class DrawOffer:
    proposed_by: str
    accepted_by: list[str]
    waiting_for: list[str]
    viewer_may_answer: bool


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, for the banner: the winners (colour, name) and the reason."""

    winners: tuple[tuple[str, str], ...]
    reason: str

    @property
    def winner(self) -> str | None:
        return self.winners[0][0] if len(self.winners) == 1 else None

    @property
    def how(self) -> str:
        return WON_BY.get(self.reason, f" ({self.reason})" if self.reason else "")


@dataclass
class GameContext:
    """What one viewer may see of one game, ready for a template; built only from the game's view."""

    game: Game
    view: View
    table: Table
    script: BoardScript
    viewer: str | None  # the viewer's colour, None for spectators
    seat: Seat | None
    seats: list[SeatInfo]
    hand: list[str]
    movers: list[str]
    can_act: bool  # seated, not resigned, game in progress: may resign, propose a draw
    my_move: bool  # the viewer is among the movers now
    legal: list[MoveGroup] = field(default_factory=list)
    draw_offer: DrawOffer | None = None
    history: list[HistoryEntry] = field(default_factory=list)
    history_hidden: int = 0
    result: Outcome | None = None
    # The seat rows, in order, with each player's profile and email preferences: the page's clocks
    # (games.clock.table_clocks) read the time zones from them instead of asking again.
    table_seats: list[Seat] = field(default_factory=list)

    @property
    def legal_count(self) -> int:
        return sum(len(group.moves) for group in self.legal)

    @property
    def status_line(self) -> str:
        return self.table.status

    @property
    def private_note(self) -> str:
        return self.table.private_note

    @property
    def pick(self) -> HandPick | None:
        """The viewer's own step of ticking cards in hand (`Table.pick`), when it is their move."""
        return self.table.pick if self.my_move else None


def state_of(game: Game) -> Any:
    return game.rules.from_position(game.snapshot)


# Whether the seat's player has any days away at all: where not, games.clock.table_clocks reads none.
HAS_DAYS_AWAY = Exists(Away.objects.filter(user_id=OuterRef("user_id")))


def table_of(game: Game) -> list[Seat]:
    """Every seat of the game in seat order, with SEAT_RELATED. Sorted by the seat's own column: the
    model's ordering would join the game row to sort by it. move_submit reads it once under the game's
    lock, then the acting seat, the descriptions, the bot check and the "your turn" rows use these rows.
    Each seat also says when its player's visible page of the game last polled (`watched_at`, or None):
    a "your turn" to a player watching is written already held (notifications.watching.held_until); and
    whether a turn email to them waits unsent (`turn_email_waiting`): their move answers it at once."""
    return _TABLE(game_id=game.pk)


def seats_in_order() -> QuerySet[Seat]:
    """Seats with SEAT_RELATED, in seat order by the seat's own column (the model's ordering would join
    the game row to sort by it): the move's table, the worker's, and the claim's prefetch of it."""
    return Seat.objects.select_related(*SEAT_RELATED).order_by("order")


def seats_for_clocks() -> QuerySet[Seat]:
    """As `seats_in_order`, each seat also saying whether its player has any days away."""
    return seats_in_order().annotate(user_has_days_away=HAS_DAYS_AWAY)


# The seat's player's watch of its game (one row at most: unique per player and game).
WATCHED_AT = Subquery(
    Watch.objects.filter(user_id=OuterRef("user_id"), game_id=OuterRef("game_id")).values("seen_at")[:1]
)
# ...and whether a turn email to them waits unsent (most often held while they watched: the worker would
# hand it out at the end of the grace only to skip it).
TURN_EMAIL_WAITING = Exists(
    Notification.objects.filter(
        game_id=OuterRef("game_id"),
        recipient_id=OuterRef("user_id"),
        status=Notification.Status.PENDING,
        kind__in=TURN_KINDS,
    )
)
_TABLE: Prepared[Seat] = Prepared(
    lambda *, game_id: (
        seats_in_order().filter(game_id=game_id).annotate(watched_at=WATCHED_AT, turn_email_waiting=TURN_EMAIL_WAITING)
    )
)


def table_for_clocks(game: Game) -> list[Seat]:
    """As `table_of`, each seat also saying whether its player has any days away (`user_has_days_away`):
    the turn email's clocks then read the days away of none but those (the worker asks it for every email)."""
    return _TABLE_FOR_CLOCKS(game_id=game.pk)


_TABLE_FOR_CLOCKS: Prepared[Seat] = Prepared(lambda *, game_id: seats_for_clocks().filter(game_id=game_id))


# The game page's first read (game_with_table), compiled once: joining five tables cost more to compile than to run.
# Each seat also says whether its own player muted the game (`muted`): the viewer's seat answers the mute
# button's state (a player's own business: only the viewer's seat is asked) without a query of its own.
# And whether there is anything to read for the rest of the page (`said_none` reads them): most games have
# no draw offer and no chat, and most players no days away, and each would be a query of every page.
_SEATS_WITH_GAME: Prepared[Seat] = Prepared(
    lambda *, game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("game", *SEAT_RELATED)
        .annotate(
            muted=Exists(Mute.objects.filter(user_id=OuterRef("user_id"), game_id=OuterRef("game_id"))),
            game_has_offers=Exists(DrawProposal.objects.filter(game_id=OuterRef("game_id"))),
            game_has_chat=Exists(ChatMessage.objects.filter(game_id=OuterRef("game_id"))),
            user_has_days_away=HAS_DAYS_AWAY,
        )
        .order_by("order")
    )
)


def game_with_table(game_id: int) -> tuple[Game | None, list[Seat] | None]:
    """The game page's first read: the game and its seats in order, with what the page shows of each
    player (SEAT_RELATED) and whether its player muted the game (`muted`), in one query that joins
    each seat to its game. (None, None) when there is no such game; the seats are None for a game
    nobody sits at (then read as usual)."""
    seats = _SEATS_WITH_GAME(game_id=game_id)
    if not seats:
        return Game.objects.filter(pk=game_id).first(), None
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one Game for the table, not one per joined row
    return game, seats


def seat_of(game: Game, user: Viewer, seats: list[Seat] | None = None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in (game.seats.all() if seats is None else seats) if seat.user_id == user.pk), None)


def game_visible_to(game: Game, user: Viewer, shared: Collection[int] = (), seats: list[Seat] | None = None) -> bool:
    """Every game is public but a private one: that is its players' business, and once it is over
    also of whoever opened its share link (`shared`: the ids a session was let into, games.sharing).
    `seats`: the game's seats when read already (game_with_table)."""
    if not game.is_private or seat_of(game, user, seats) is not None:
        return True
    return game.status == Game.Status.FINISHED and game.pk in shared


def game_for_viewer(
    game: Game, user: Viewer, *, whole_history: bool = False, seats: list[Seat] | None = None
) -> GameContext:
    """The game page's data for `user` (a player, or a spectator when None or not seated); `seats`: every
    seat in order read with SEAT_RELATED (game_with_table), else read here."""
    rules = game.rules
    if seats is None:
        seats = table_of(game)
    seat = seat_of(game, user, seats)
    colour = seat.colour if seat else None
    state = state_of(game)
    shown = seat_view(game, state, colour)
    table = _with_commitments(game, rules.table(shown), colour, state)
    active = game.status == Game.Status.ACTIVE and seat is not None and not seat.resigned
    context = GameContext(
        game=game,
        view=shown,
        table=table,
        script=rules.board_script(shown),
        viewer=colour,
        seat=seat,
        seats=_seat_infos(seats, table, shown, colour),
        hand=list(table.hand),
        movers=list(shown["movers"]),
        can_act=active,
        my_move=active and colour in shown["movers"],
        result=_outcome(game, seats),
        table_seats=seats,
    )
    if context.my_move and colour is not None:
        context.legal = legal_groups(game, state, colour)
    first_ply = first_shown_ply(game, whole_history)
    proposals = [] if said_none(seats, "game_has_offers") else _DRAW_OFFERS(game_id=game.pk, first_ply=first_ply)
    if game.status == Game.Status.ACTIVE:
        context.draw_offer = _draw_offer(proposals, seats, seat)
    context.history, context.history_hidden = history(game, seats, colour, state, whole_history, proposals)
    return context


# One read of the draw offers for both the panel (the open one) and the history (those it shows).
_DRAW_OFFERS = Prepared(
    lambda *, game_id, first_ply: (
        DrawProposal.objects.filter(Q(at_ply__gte=first_ply) | Q(status=DrawProposal.Status.OPEN), game_id=game_id)
        .order_by("pk")
        .prefetch_related("accepted_by")
    )
)


def _with_commitments(game: Game, table: Table, viewer: str | None, state: Any) -> Table:
    """In a sealed step, the game's note beside each seat whose commitment is in and announced (the
    game's state does not hold commitments, so its table cannot say), and the viewer's own choice
    (theirs alone)."""
    notes = announced(game, state)
    # The game's note for a choice that is in outranks its table's, written from a state without it ("choosing").
    seats = tuple(replace(s, note=notes[s.colour]) if s.colour in notes else s for s in table.seats)
    mine = own_commitment(game, viewer) if viewer in committed_colours(game, state) else ""
    note = f"Your sealed choice: {mine}." if mine else table.private_note
    return replace(table, seats=seats, private_note=note)


def _seat_infos(seats: list[Seat], table: Table, shown: View, viewer: str | None) -> list[SeatInfo]:
    summaries = {summary.colour: summary for summary in table.seats}
    infos = []
    for s in seats:
        summary = summaries.get(s.colour)
        infos.append(
            SeatInfo(
                colour=s.colour,
                name=display_name_of(s.user),
                user_id=s.user_id,
                resigned=s.resigned,
                facts=summary.facts if summary else (),
                note=summary.note if summary else "",
                is_viewer=s.colour == viewer,
                to_move=s.colour in shown["movers"],
                bot=bot_label_of(s.user),
            )
        )
    return infos


def legal_groups(game: Game, state: Any, colour: str) -> list[MoveGroup]:
    """The viewer's legal moves grouped by verb in the game's order (MoveKind); resign has its own button."""
    rules = game.rules
    kinds: dict[str, MoveKind] = {kind.verb: kind for kind in rules.move_kinds()}
    groups: dict[str, list[str]] = {verb: [] for verb in kinds}
    for move in rules.legal_moves(state, colour):
        if rules.is_resign(move):
            continue  # its own button, with a confirm step
        groups.setdefault(rules.move_kind(move), []).append(str(move))
    return [
        MoveGroup(verb, kinds[verb].label if verb in kinds else verb, moves, verb in kinds and kinds[verb].quick)
        for verb, moves in groups.items()
        if moves
    ]


def _outcome(game: Game, seats: list[Seat]) -> Outcome | None:
    if game.status != Game.Status.FINISHED:
        return None
    names = {s.colour: display_name_of(s.user) for s in seats}
    winners = tuple((colour, names.get(colour, colour)) for colour in game.winners)
    return Outcome(winners=winners, reason=game.result_reason)


def _draw_offer(proposals: list[DrawProposal], seats: list[Seat], seat: Seat | None) -> DrawOffer | None:
    """The open offer among `proposals` (read with who accepted it), if any: there is at most one."""
    proposal = next((p for p in proposals if p.status == DrawProposal.Status.OPEN), None)
    if proposal is None:
        return None
    by_id = {s.pk: s for s in seats}
    accepted = {s.pk for s in proposal.accepted_by.all()}
    waiting = [s.colour for s in seats if not s.resigned and s.pk not in accepted]
    return DrawOffer(
        proposed_by=by_id[proposal.proposed_by_id].colour,
        accepted_by=[by_id[pk].colour for pk in sorted(accepted) if pk in by_id],
        waiting_for=waiting,
        viewer_may_answer=seat is not None and seat.colour in waiting,
    )
