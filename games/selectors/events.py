"""What happened at each move of a stored game, as the game's events, for one viewer.

Nothing is stored: the move log is folded again from the seed with the game's `step` (as the
archive's replay folds `apply`), and each event is read through `Event.seen_by`: a seat reads its
own secrets (the cards it drew), a spectator the public lines only, and everyone everything once
the game is over. The seed itself never leaves this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.interface import Event, Seen
from games.models import Game, Move


@dataclass(frozen=True)
class PlyEvents:
    """One move's events as one viewer may read them."""

    ply: int  # 0-based index of the move in the game record
    colour: str  # who made it
    events: tuple[Seen, ...]


def move_events(game: Game) -> list[tuple[int, str, tuple[Event, ...]]]:
    """Every logged move's events, unfiltered (ply, colour, events): the whole truth, for this module's
    callers to read through `seen_by` only."""
    rules = game.rules
    colours = dict(game.seats.order_by("order").values_list("pk", "colour"))
    state = rules.new_game(list(colours.values()), game.seed, game.options)
    told: list[tuple[int, str, tuple[Event, ...]]] = []
    moves = Move.objects.filter(game=game).order_by("ply").values_list("ply", "seat_id", "notation")
    for ply, seat_id, notation in moves:
        outcome = rules.step(state, rules.parse(notation), colours[seat_id])
        told.append((ply, colours[seat_id], outcome.events))
        state = outcome.state
    return told


def events_seen(game: Game, viewer: str | None, *, since: int = 0) -> list[PlyEvents]:
    """The events of moves `since` (a ply) onwards, as `viewer` (a seated colour, or None) may read them."""
    if game.status == Game.Status.OPEN:
        return []  # nothing dealt yet
    revealed = game.status == Game.Status.FINISHED
    return [
        PlyEvents(ply, colour, tuple(event.seen_by(viewer, revealed=revealed) for event in events))
        for ply, colour, events in move_events(game)
        if ply >= since
    ]
