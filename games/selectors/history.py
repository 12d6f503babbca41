"""The game page's history: moves in public notation, with table talk and draw offers between them.

A move's notation is passed through the game's `public_move_text` for this viewer (e.g. another
player's hidden starter choice reads "choose ?"); its words come from the descriptions fixed when
it was made, and only this viewer's own version is read out of the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from accounts.selectors import display_name_of
from engine.interface import Throw
from engine.kit.core import public_text
from games.models import ChatMessage, DrawProposal, Game, Move, Seat
from zarkcity_site.prepared import Prepared

HISTORY_SHOWN = 60  # moves on the game page unless the viewer asks for the whole history

# The closing line of a game ended by games.services.game_abandon; the archive's replay and log say the same.
NO_WINNER_ON_TIME = "Every remaining player ran out of time: the game ends with no winner."


@dataclass(frozen=True)
class HistoryEntry:
    kind: str  # "move", "chat", "draw" (an offer, its answer, or how the game ended without a move) or "opening"
    colour: str
    name: str
    text: str  # the move in public notation, the chat line, or what happened to the draw offer
    words: str = ""  # the move in plain words, as this viewer may read them
    ply: int | None = None
    at: datetime | None = None
    dice: list[Throw] = field(default_factory=list)  # the dice the move threw, shown as die faces

    @property
    def number(self) -> int | None:
        """The move's number as people count, from 1."""
        return None if self.ply is None else self.ply + 1


# How the history sorts: (moves made before it, rank within that slot, time, order, id).
HistoryKey = tuple[int, int, float, int, int]
Keyed = list[tuple[HistoryKey, HistoryEntry]]


def public_notation(game: Game, notation: str, colour: str, now: Any, viewer: str | None) -> str:
    """A logged move as `viewer` may read it while the game stands at `now` (hidden cards hidden)."""
    rules = game.rules
    return public_text(rules, rules.parse(notation), colour, now, viewer)


def first_shown_ply(game: Game, whole: bool) -> int:
    """The first move the history shows: the latest HISTORY_SHOWN unless the `whole` game."""
    return 0 if whole else max(0, game.ply - HISTORY_SHOWN)


def history(
    game: Game,
    seats: list[Seat],
    viewer: str | None,
    now: Any,
    whole: bool,
    proposals: list[DrawProposal] | None = None,
) -> tuple[list[HistoryEntry], int]:
    """Moves in public notation with chat and draw offers between them, oldest first; only the latest unless `whole`.

    Each entry is sorted by (moves made before it, rank, time, then order and id): a move comes first
    in its slot, then a draw offer it lapsed, then chat and draw events in the order they happened.
    `proposals`: the game's draw offers from first_shown_ply on (others may be among them) with who
    accepted each (prefetched), when the caller read them already.
    """
    first_ply = first_shown_ply(game, whole)
    colours = {s.pk: s.colour for s in seats}
    names = {s.pk: display_name_of(s.user) for s in seats}
    keyed = _moves(game, colours, names, viewer, now, first_ply)
    chat = () if said_none(seats, "game_has_chat") else _CHAT(game_id=game.pk, first_ply=first_ply)
    for pk, seat_id, after_ply, text, created in chat:
        entry = HistoryEntry("chat", colours[seat_id], names[seat_id], text, at=created)
        keyed.append(((after_ply, 2, created.timestamp(), 0, pk), entry))
    keyed += _draw_events(game, colours, names, first_ply, proposals)
    keyed += _opening(game, first_ply)
    keyed.sort(key=lambda pair: pair[0])
    return [entry for _, entry in keyed], first_ply


def said_none(seats: list[Seat], flag: str) -> bool:
    """Whether the seats' own read says there is none of something (the game page's first read annotates
    each seat: games.selectors.page); seats read otherwise say nothing, and it is read as ever."""
    return bool(seats) and getattr(seats[0], flag, None) is False


def _logged(viewer: str | None, *, game_id: int, first_ply: int) -> QuerySet[Move, tuple[Any, ...]]:
    """The moves from `first_ply` on, with `viewer`'s words: only theirs are read out of the JSON column,
    another player's own version stays in the database."""
    words = Coalesce(KT(f"descriptions__{viewer}"), KT("descriptions__*")) if viewer else KT("descriptions__*")
    rows = Move.objects.filter(game_id=game_id, ply__gte=first_ply).annotate(words=words).order_by("ply")
    return rows.values_list("ply", "seat_id", "notation", "words", "dice")


# Compiled once for each viewer's colour (and spectators): every page reads them.
_LOGGED = Prepared(_logged)
_CHAT = Prepared(
    # No ORDER BY (the model's ordering joins the game row to sort by it): the entries are sorted by history.
    lambda *, game_id, first_ply: (
        ChatMessage.objects.filter(game_id=game_id, after_ply__gte=first_ply)
        .order_by()
        .values_list("pk", "seat_id", "after_ply", "text", "created_at")
    )
)


def _moves(
    game: Game, colours: dict[int, str], names: dict[int, str], viewer: str | None, now: Any, first_ply: int
) -> Keyed:
    keyed: Keyed = []
    for ply, seat_id, notation, said, dice in _LOGGED(viewer, game_id=game.pk, first_ply=first_ply):
        colour = colours[seat_id]
        text = public_notation(game, notation, colour, now, viewer)
        entry = HistoryEntry("move", colour, names[seat_id], text, said or "", ply, dice=dice)
        keyed.append(((ply + 1, 0, 0.0, 0, ply), entry))
    return keyed


def _opening(game: Game, first_ply: int) -> Keyed:
    """The setup's throw (a first mover's dice, thrown before any move), first of all when shown."""
    if first_ply > 0 or not game.opening_dice:
        return []
    seat = game.opening_dice[0]["seat"] or ""
    return [((0, 0, 0.0, 0, 0), HistoryEntry("opening", seat, "", "The opening throw", dice=game.opening_dice))]


def _draw_events(
    game: Game, colours: dict[int, str], names: dict[int, str], first_ply: int, read: list[DrawProposal] | None
) -> Keyed:
    """Each draw offer where it was made, and what became of it: declined (by whom, when it was, among
    the talk; right after the offer for rows settled before that was stored), lapsed (after the move
    that ended it) or agreed (the game's end).
    A game that ended with no winner and no move (everyone out of time) gets its closing line too."""
    events: Keyed = []
    if read is None:
        read = list(DrawProposal.objects.filter(game=game, at_ply__gte=first_ply).prefetch_related("accepted_by"))
    for proposal in (p for p in read if p.at_ply >= first_ply):
        by, at, pk = proposal.proposed_by_id, proposal.at_ply, proposal.pk
        offered = HistoryEntry("draw", colours[by], names[by], "proposed a draw", at=proposal.created_at)
        events.append(((at, 2, proposal.created_at.timestamp(), 0, pk), offered))
        events += _what_became_of(game, proposal, colours, names)
    if game.status == Game.Status.FINISHED and not game.winner and game.result_reason == Game.Reason.TIMEOUT:
        events.append((_closing_key(game, 0), HistoryEntry("draw", "", "", NO_WINNER_ON_TIME, at=game.finished_at)))
    return events


def _what_became_of(game: Game, proposal: DrawProposal, colours: dict[int, str], names: dict[int, str]) -> Keyed:
    at, pk, made = proposal.at_ply, proposal.pk, proposal.created_at.timestamp()
    decided, who = proposal.decided_at, proposal.decided_by_id
    if proposal.status == DrawProposal.Status.DECLINED:
        if decided is None or who is None or who not in colours:  # settled before who and when were stored
            return [((at, 2, made, 1, pk), HistoryEntry("draw", "", "", "The draw offer was declined."))]
        # a move would have lapsed it, so it was declined at the ply it was made
        entry = HistoryEntry("draw", colours[who], names[who], "declined the draw offer", at=decided)
        return [((at, 2, decided.timestamp(), 1, pk), entry)]
    if proposal.status == DrawProposal.Status.LAPSED and at < game.ply:
        said = "The draw offer lapsed: a move was made before everyone agreed."
        return [((at + 1, 1, 0.0, 0, pk), HistoryEntry("draw", "", "", said, at=decided))]
    if proposal.status == DrawProposal.Status.ACCEPTED:
        agreed = " and ".join(seat.colour for seat in sorted(proposal.accepted_by.all(), key=lambda s: s.order))
        said = f"Draw agreed by {agreed}: the game ends with no winner."
        return [(_closing_key(game, pk), HistoryEntry("draw", "", "", said, at=decided or game.finished_at))]
    return []


def _closing_key(game: Game, pk: int) -> HistoryKey:
    """After the last move and any talk before the end; chat after the end follows it."""
    ended = game.finished_at.timestamp() if game.finished_at else float("inf")
    return (game.ply, 2, ended, 0, pk)
