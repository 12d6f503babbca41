"""A sealed step's reads (engine/kit/core.py `Sealed`): whose commitment is in, and whom the game still
waits on. What a seat committed is its own: only `own_commitment` reads the notation."""

from __future__ import annotations

from typing import Any, cast

from engine.interface import View
from engine.kit.core import Sealed
from games.models import Commitment, Game


def sealed_step(game: Game, state: Any) -> tuple[str, ...]:
    """The seats that must each commit a move in `state`; empty when it is no sealed step."""
    rules = game.rules
    return tuple(rules.sealed_seats(state)) if isinstance(rules, Sealed) else ()


def committed_colours(game: Game, state: Any) -> set[str]:
    """The seats whose commitment is in (public: whether a seat has committed, never what)."""
    if not sealed_step(game, state):
        return set()
    return set(Commitment.objects.filter(game=game).values_list("seat__colour", flat=True))


def waiting_on(game: Game, state: Any) -> tuple[str, ...]:
    """Who the game waits on: the game's movers, less the seats whose sealed choice is in."""
    committed = committed_colours(game, state)
    return tuple(colour for colour in game.rules.movers(state) if colour not in committed)


def own_commitment(game: Game, colour: str | None) -> str:
    """The notation `colour` committed in the sealed step now ("" for none, or for a spectator)."""
    if colour is None:
        return ""
    return Commitment.objects.filter(game=game, seat__colour=colour).values_list("notation", flat=True).first() or ""


def seat_view(game: Game, state: Any, viewer: str | None) -> View:
    """The game's view for `viewer`, whose movers are the seats the game still waits on: in a sealed
    step, a seat whose choice is in is no longer asked (so the status reads "Waiting for blue ...")."""
    shown = game.rules.view(state, viewer)
    if not sealed_step(game, state):
        return shown
    return cast(View, {**shown, "movers": list(waiting_on(game, state))})
