"""A sealed step's reads (engine/kit/core.py `Sealed`): whose commitment is in, and whom the game still
waits on. What a seat committed is its own: only `own_commitment` reads the notation. Even *that* a
seat has committed is public only when the game says so (`OpenCommitments`, its `committed_note`):
`announced` is the one read the pages and the game's columns (so the poll) make of it."""

from __future__ import annotations

from typing import Any, cast

from engine.interface import View
from engine.kit.core import Sealed, committed_note, has
from games.models import Commitment, Game


def sealed_step(game: Game, state: Any) -> tuple[str, ...]:
    """The seats that must each commit a move in `state`; empty when it is no sealed step."""
    rules = game.rules
    return tuple(cast(Sealed, rules).sealed_seats(state)) if has(rules, Sealed) else ()


def committed_colours(game: Game, state: Any) -> set[str]:
    """The seats whose commitment is in (the server's own knowledge: `announced` is what others may read)."""
    if not sealed_step(game, state):
        return set()
    return set(Commitment.objects.filter(game=game).values_list("seat__colour", flat=True))


def announced(game: Game, state: Any) -> dict[str, str]:
    """The seats whose commitment is in and public by the game's rules, each with the game's note."""
    notes = {colour: committed_note(game.rules, state, colour) for colour in committed_colours(game, state)}
    return {colour: note for colour, note in sorted(notes.items()) if note}


def waiting_on(game: Game, state: Any) -> tuple[str, ...]:
    """Who the game waits on, for everyone to read (the lists, the clock): the game's movers, less the
    seats whose sealed choice is in and announced. A game that keeps commitments secret keeps every
    sealed seat waited on, and on the clock, until the step resolves: stopping one would tell."""
    done = announced(game, state)
    return tuple(colour for colour in game.rules.movers(state) if colour not in done)


def own_commitment(game: Game, colour: str | None) -> str:
    """The notation `colour` committed in the sealed step now ("" for none, or for a spectator)."""
    if colour is None:
        return ""
    return Commitment.objects.filter(game=game, seat__colour=colour).values_list("notation", flat=True).first() or ""


def seat_view(game: Game, state: Any, viewer: str | None) -> View:
    """The game's view for `viewer`, whose movers are the seats the game still waits on: in a sealed
    step, a seat whose choice is announced is no longer asked (so the status reads "Waiting for blue
    ..."), nor, on its own page, the viewer once its own choice is in."""
    shown = game.rules.view(state, viewer)
    if not sealed_step(game, state):
        return shown
    mine = {viewer} & committed_colours(game, state)
    return cast(View, {**shown, "movers": [colour for colour in waiting_on(game, state) if colour not in mine]})
