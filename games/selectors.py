"""Reads: what a viewer may see of a game, and the public game record.

Everything a page, a JSON file or an email shows about a game is built here from the engine's
`view` (the one place hidden information is stripped) and the public text of the move log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce
from django.urls import NoReverseMatch, reverse

from accounts.selectors import display_name_of
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.notation import COLOURS, Resign, parse
from engine.zarkcity.position import from_position
from engine.zarkcity.record import make_record
from engine.zarkcity.state import HAND_LIMIT, State
from engine.zarkcity.views import public_move_text, view
from games.models import ChatMessage, DrawProposal, Game, Invitation, Move, Seat

# ----------------------------------------------------------------------------- a game, for one viewer

HISTORY_SHOWN = 60  # moves on the game page unless the viewer asks for the whole history
MOVE_KINDS = {
    "choose": "Choose your starter",
    "place": "Place your starter",
    "draw": "Draw",
    "grow": "Grow",
    "spawn": "Spawn",
    "build": "Build",
    "move": "Move a pyramid",
    "demolish": "Demolish",
    "convert": "Convert",
    "fly": "Fly",
    "hatch": "Hatch",
    "discard": "Discard down to the hand limit",
}


@dataclass(frozen=True)
class SeatInfo:
    colour: str
    name: str
    user_id: int
    resigned: bool
    hand_size: int
    stash: dict[str, int]
    is_viewer: bool
    to_move: bool
    has_chosen: bool


@dataclass(frozen=True)
class HistoryEntry:
    kind: str  # "move", "chat" or "draw" (an offer, its answer, or how the game ended without a move)
    colour: str
    name: str
    text: str  # the move in public notation, the chat line, or what happened to the draw offer
    words: str = ""  # the move in plain words, as this viewer may read them
    ply: int | None = None
    at: datetime | None = None

    @property
    def number(self) -> int | None:
        """The move's number as people count, from 1."""
        return None if self.ply is None else self.ply + 1


# How the history sorts: (moves made before it, rank within that slot, time, order, id).
HistoryKey = tuple[int, int, float, int, int]


@dataclass(frozen=True)
class MoveGroup:
    kind: str
    label: str
    moves: list[str]


@dataclass(frozen=True)
class DrawOffer:
    proposed_by: str
    accepted_by: list[str]
    waiting_for: list[str]
    viewer_may_answer: bool


@dataclass
class GameContext:
    """What one viewer may see of one game, ready for a template; built only from the engine view."""

    game: Game
    view: dict[str, Any]
    viewer: str | None  # the viewer's colour, None for spectators
    seat: Seat | None
    seats: list[SeatInfo]
    hand: list[str]
    movers: list[str]
    status_line: str
    starter_note: str
    can_act: bool  # seated, not resigned, game in progress: may resign, propose a draw
    my_move: bool  # the viewer is among the movers now
    legal: list[MoveGroup] = field(default_factory=list)
    discard_count: int = 0
    draw_offer: DrawOffer | None = None
    history: list[HistoryEntry] = field(default_factory=list)
    history_hidden: int = 0
    result: dict[str, Any] | None = None

    @property
    def legal_count(self) -> int:
        return sum(len(group.moves) for group in self.legal)


def state_of(game: Game) -> State:
    return from_position(game.snapshot)


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def game_visible_to(game: Game, user) -> bool:
    """A private game is its players' business until it ends; every other game is public."""
    if not game.is_private or game.status == Game.Status.FINISHED:
        return True
    return seat_of(game, user) is not None


def game_for_viewer(game: Game, user, *, whole_history: bool = False) -> GameContext:
    """The game page's data for `user` (a player, or a spectator when None or not seated)."""
    seats = list(game.seats.select_related("user__profile").all())
    seat = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
    colour = seat.colour if seat else None
    state = state_of(game)
    shown = view(state, colour)
    movers = list(shown["movers"])
    active = game.status == Game.Status.ACTIVE and seat is not None and not seat.resigned
    context = GameContext(
        game=game,
        view=shown,
        viewer=colour,
        seat=seat,
        seats=_seat_infos(seats, shown, colour),
        hand=list(shown.get("hand", [])),
        movers=movers,
        status_line=_status_line(shown, colour),
        starter_note=_starter_note(shown, colour),
        can_act=active,
        my_move=active and colour in movers,
        result=_result(game),
    )
    if context.my_move:
        context.legal = _legal_groups(state, colour)
        if shown["phase"] == "discard":
            context.discard_count = len(context.hand) - HAND_LIMIT
    context.draw_offer = _draw_offer(game, seats, seat) if game.status == Game.Status.ACTIVE else None
    context.history, context.history_hidden = _history(game, seats, colour, shown, whole_history)
    return context


def _seat_infos(seats: list[Seat], shown: dict[str, Any], viewer: str | None) -> list[SeatInfo]:
    chosen = set(shown["starters"]["chosen"])
    return [
        SeatInfo(
            colour=s.colour,
            name=display_name_of(s.user),
            user_id=s.user_id,
            resigned=s.resigned,
            hand_size=shown["hand_sizes"].get(s.colour, 0),
            stash=shown["stashes"].get(s.colour, {}),
            is_viewer=s.colour == viewer,
            to_move=s.colour in shown["movers"],
            has_chosen=s.colour in chosen,
        )
        for s in seats
    ]


def _who(colour: str, viewer: str | None) -> str:
    return "you" if colour == viewer else colour


def _status_line(shown: dict[str, Any], viewer: str | None) -> str:
    """Whose move it is, in words: "waiting for blue and green to choose a starter", "your turn"."""
    phase, movers = shown["phase"], shown["movers"]
    if phase == "over":
        return "The game is over."
    names = " and ".join(_who(c, viewer) for c in movers)
    if phase == "choose":
        return f"Waiting for {names} to choose a starter card."
    mover = movers[0] if movers else ""
    if phase == "place":
        return "Your move: place your starter card." if mover == viewer else f"Waiting for {mover} to place a starter."
    if phase == "discard":
        excess = shown["hand_sizes"].get(mover, 0) - HAND_LIMIT
        cards = "1 card" if excess == 1 else f"{excess} cards"
        return f"You must discard {cards}." if mover == viewer else f"Waiting for {mover} to discard {cards}."
    return (
        f"Your turn (turn {shown['turn']})."
        if mover == viewer
        else f"{mover.capitalize()}'s turn (turn {shown['turn']})."
    )


def _starter_note(shown: dict[str, Any], viewer: str | None) -> str:
    """During the hidden starter choice: what the viewer chose, never what anyone else did."""
    if shown["phase"] != "choose":
        return ""
    mine = shown["starters"].get("mine")
    return f"You chose {mine}." if mine else ""


def _legal_groups(state: State, colour: str) -> list[MoveGroup]:
    groups: dict[str, list[str]] = {}
    for move in legal_moves(state, colour):
        if isinstance(move, Resign):
            continue  # its own button, with a confirm step
        text = str(move)
        groups.setdefault(text.split()[0], []).append(text)
    return [MoveGroup(kind, MOVE_KINDS.get(kind, kind), moves) for kind, moves in groups.items()]


def _result(game: Game) -> dict[str, Any] | None:
    if game.status != Game.Status.FINISHED:
        return None
    return {"winner": game.winner or None, "reason": game.result_reason}


def _draw_offer(game: Game, seats: list[Seat], seat: Seat | None) -> DrawOffer | None:
    proposal = DrawProposal.objects.filter(game=game, status=DrawProposal.Status.OPEN).first()
    if proposal is None:
        return None
    by_id = {s.pk: s for s in seats}
    accepted = set(proposal.accepted_by.values_list("pk", flat=True))
    waiting = [s.colour for s in seats if not s.resigned and s.pk not in accepted]
    return DrawOffer(
        proposed_by=by_id[proposal.proposed_by_id].colour,
        accepted_by=[by_id[pk].colour for pk in sorted(accepted) if pk in by_id],
        waiting_for=waiting,
        viewer_may_answer=seat is not None and seat.colour in waiting,
    )


def _history(
    game: Game, seats: list[Seat], viewer: str | None, shown: dict[str, Any], whole: bool
) -> tuple[list[HistoryEntry], int]:
    """Moves in public notation with chat and draw offers between them, oldest first; only the latest unless `whole`.

    Each entry is sorted by (moves made before it, rank, time, then order and id): a move comes first
    in its slot, then a draw offer it lapsed, then chat and draw events in the order they happened.
    """
    first_ply = 0 if whole else max(0, game.ply - HISTORY_SHOWN)
    colours = {s.pk: s.colour for s in seats}
    names = {s.pk: display_name_of(s.user) for s in seats}
    revealed = shown["phase"] != "choose"
    # Only this viewer's words are read out of the JSON column: another player's own version stays in the database.
    words = Coalesce(KT(f"descriptions__{viewer}"), KT("descriptions__*")) if viewer else KT("descriptions__*")
    rows = Move.objects.filter(game=game, ply__gte=first_ply).annotate(words=words)
    keyed: list[tuple[HistoryKey, HistoryEntry]] = []
    for ply, seat_id, notation, said in rows.values_list("ply", "seat_id", "notation", "words"):
        colour = colours[seat_id]
        if notation.startswith("choose"):  # the only notation with a secret in it (another's starter)
            notation = public_move_text(parse(notation), colour, revealed, viewer)
        keyed.append(
            ((ply + 1, 0, 0.0, 0, ply), HistoryEntry("move", colour, names[seat_id], notation, said or "", ply))
        )
    chat = ChatMessage.objects.filter(game=game, after_ply__gte=first_ply)
    for pk, seat_id, after_ply, text, created in chat.values_list("pk", "seat_id", "after_ply", "text", "created_at"):
        entry = HistoryEntry("chat", colours[seat_id], names[seat_id], text, at=created)
        keyed.append(((after_ply, 2, created.timestamp(), 0, pk), entry))
    keyed += _draw_events(game, colours, names, first_ply)
    keyed.sort(key=lambda pair: pair[0])
    return [entry for _, entry in keyed], first_ply


def _draw_events(
    game: Game, colours: dict[int, str], names: dict[int, str], first_ply: int
) -> list[tuple[HistoryKey, HistoryEntry]]:
    """Each draw offer where it was made, and what became of it: declined (by whom, when it was, among
    the talk; right after the offer for rows settled before that was stored), lapsed (after the move
    that ended it) or agreed (the game's end).
    A game that ended with no winner and no move (everyone out of time) gets its closing line too."""
    events: list[tuple[HistoryKey, HistoryEntry]] = []
    proposals = DrawProposal.objects.filter(game=game, at_ply__gte=first_ply).prefetch_related("accepted_by")
    for proposal in proposals:
        by, at, pk = proposal.proposed_by_id, proposal.at_ply, proposal.pk
        made = proposal.created_at.timestamp()
        events.append(
            (
                (at, 2, made, 0, pk),
                HistoryEntry("draw", colours[by], names[by], "proposed a draw", at=proposal.created_at),
            )
        )
        decided, who = proposal.decided_at, proposal.decided_by_id
        if proposal.status == DrawProposal.Status.DECLINED:
            if decided is None or who not in colours:  # settled before who and when were stored
                events.append(((at, 2, made, 1, pk), HistoryEntry("draw", "", "", "The draw offer was declined.")))
            else:  # a move would have lapsed it, so it was declined at the ply it was made
                entry = HistoryEntry("draw", colours[who], names[who], "declined the draw offer", at=decided)
                events.append(((at, 2, decided.timestamp(), 1, pk), entry))
        elif proposal.status == DrawProposal.Status.LAPSED and at < game.ply:
            said = "The draw offer lapsed: a move was made before everyone agreed."
            events.append(((at + 1, 1, 0.0, 0, pk), HistoryEntry("draw", "", "", said, at=decided)))
        elif proposal.status == DrawProposal.Status.ACCEPTED:
            agreed = " and ".join(seat.colour for seat in sorted(proposal.accepted_by.all(), key=lambda s: s.order))
            said = f"Draw agreed by {agreed}: the game ends with no winner."
            events.append((_closing_key(game, pk), HistoryEntry("draw", "", "", said, at=decided or game.finished_at)))
    if game.status == Game.Status.FINISHED and not game.winner and game.result_reason == Game.Reason.TIMEOUT:
        events.append((_closing_key(game, 0), HistoryEntry("draw", "", "", NO_WINNER_ON_TIME, at=game.finished_at)))
    return events


# The closing line of a game ended by games.services.game_abandon; the archive's replay and log say the same.
NO_WINNER_ON_TIME = "Every remaining player ran out of time: the game ends with no winner."


def _closing_key(game: Game, pk: int) -> HistoryKey:
    """After the last move and any talk before the end; chat after the end follows it."""
    ended = game.finished_at.timestamp() if game.finished_at else float("inf")
    return (game.ply, 2, ended, 0, pk)


def game_record(game: Game, viewer: str | None = None) -> dict[str, Any]:
    """The zarkcity-game/1 record: moves as public text; the seed only once the game is over."""
    colours = dict(game.seats.values_list("pk", "colour"))
    revealed = game.phase != "choose"
    moves = [
        (colours[seat_id], public_move_text(parse(notation), colours[seat_id], revealed, viewer))
        for seat_id, notation in Move.objects.filter(game=game).values_list("seat_id", "notation")
    ]
    finished = game.status == Game.Status.FINISHED
    record = make_record(
        [c for _, c in sorted(colours.items(), key=lambda item: _seat_order(item[1]))],
        game.deck,
        game.seed if finished else "",
        moves,
        _result(game),
    )
    if not finished:
        del record["seed"]  # secret until the end: the commitment below lets anyone check it then
    record["seed_commitment"] = game.seed_commitment
    return record


def _seat_order(colour: str) -> int:
    return COLOURS.index(colour)


# ----------------------------------------------------------------------------- lobby and dashboard
# (the accounts/lobby helper's reads: lists of games, never a game's position)


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


@dataclass(frozen=True)
class Dashboard:
    my_turn: list[GameListEntry]
    waiting_on_others: list[GameListEntry]
    waiting_for_players: list[GameListEntry]
    finished: list[GameListEntry]
    invitations: list[Invitation]


DASHBOARD_FINISHED_LIMIT = 20
OPEN_GAMES_LIMIT = 50


def _list_entry(game: Game, user: Any = None) -> GameListEntry:
    seats = tuple(game.seats.all())  # prefetched, in seat order
    mover_colours = set(game.to_move.split(",")) if game.status == Game.Status.ACTIVE else set()
    movers = tuple(seat for seat in seats if seat.colour in mover_colours and not seat.resigned)
    mine = next((seat for seat in seats if user is not None and seat.user_id == user.pk), None)
    return GameListEntry(game=game, seats=seats, movers=movers, my_seat=mine)


def _with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    seats = Seat.objects.order_by("order").select_related("user__profile")
    return games.select_related("created_by").prefetch_related(Prefetch("seats", queryset=seats))


def dashboard_for(*, user: Any) -> Dashboard:
    """A player's games: my turn (longest waiting first), waiting on others, waiting for players, finished."""
    games = _with_seats(Game.objects.filter(seats__user=user).distinct())
    entries = [_list_entry(game, user) for game in games]
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


def open_games_list(*, limit: int = OPEN_GAMES_LIMIT, user: Any = None) -> list[GameListEntry]:
    """Public games still waiting for players, newest first."""
    games = Game.objects.filter(status=Game.Status.OPEN, is_private=False)
    games = games.annotate(taken=Count("seats")).filter(taken__lt=F("seats_wanted"))
    user = user if user is not None and user.is_authenticated else None
    return [_list_entry(game, user) for game in _with_seats(games.order_by("-created_at"))[:limit]]


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
        return invitation.user_id == user.pk
    emails = EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)
    return bool(invitation.email) and invitation.email.lower() in {email.lower() for email in emails}


def invitation_get(*, invitation_id: int) -> Invitation:
    """The invitation a link names, with its game and inviter; raises Invitation.DoesNotExist."""
    return Invitation.objects.select_related("game", "invited_by").get(pk=invitation_id)


def lobby_invitations(*, game: Game) -> list[Invitation]:
    """The invitations of a waiting game, for its seated players to see who has been asked."""
    return list(game.invitations.select_related("user").order_by("created_at", "pk"))
