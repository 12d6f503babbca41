"""A sealed step's reads (engine/kit/core.py `Sealed`): whose commitment is in, and whom the game still
waits on. What a seat committed is its own: only `own_commitment` reads the notation. In a game whose
commitments are unseen (`UnseenCommitments`: Launch Pad 23's opening pick) even whether a seat has
committed is its own: in public the game waits on every sealed seat until the last choice resolves
them all, and only the service (`committed_colours`) and the seat itself know better."""

from __future__ import annotations

from typing import Any, cast

from engine.interface import View
from engine.kit.core import Sealed, commitments_unseen
from games.models import Commitment, Game


def sealed_step(game: Game, state: Any) -> tuple[str, ...]:
    """The seats that must each commit a move in `state`; empty when it is no sealed step."""
    rules = game.rules
    return tuple(rules.sealed_seats(state)) if isinstance(rules, Sealed) else ()


def committed_colours(game: Game, state: Any) -> set[str]:
    """The seats whose commitment is in (public: whether a seat has committed, never what; unless the
    game keeps that unseen too: then only the service's and each seat's own business)."""
    if not sealed_step(game, state):
        return set()
    return set(Commitment.objects.filter(game=game).values_list("seat__colour", flat=True))


def waiting_on(game: Game, state: Any) -> tuple[str, ...]:
    """Who the game waits on in public (Game.to_move): the game's movers, less the seats whose sealed
    choice is in, unless the game keeps that unseen (then every sealed seat, until the resolve)."""
    if commitments_unseen(game.rules, state):
        return tuple(game.rules.movers(state))
    committed = committed_colours(game, state)
    return tuple(colour for colour in game.rules.movers(state) if colour not in committed)


def has_committed(game: Game, colour: str) -> bool:
    """Whether `colour`'s sealed choice is in: it owes no move, whatever Game.to_move says in public."""
    return Commitment.objects.filter(game=game, seat__colour=colour).exists()


def own_commitment(game: Game, colour: str | None) -> str:
    """The notation `colour` committed in the sealed step now ("" for none, or for a spectator)."""
    if colour is None:
        return ""
    return Commitment.objects.filter(game=game, seat__colour=colour).values_list("notation", flat=True).first() or ""


def seat_view(game: Game, state: Any, viewer: str | None) -> View:
    """The game's view for `viewer`, whose movers are the seats the game still waits on: in a sealed
    step, a seat whose choice is in is no longer asked (so the status reads "Waiting for blue ...");
    with unseen commitments only the viewer's own is taken off (theirs alone to know)."""
    shown = game.rules.view(state, viewer)
    if not sealed_step(game, state):
        return shown
    waiting = waiting_on(game, state)
    if commitments_unseen(game.rules, state) and viewer is not None and has_committed(game, viewer):
        waiting = tuple(colour for colour in waiting if colour != viewer)
    return cast(View, {**shown, "movers": list(waiting)})
