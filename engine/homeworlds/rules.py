"""Homeworlds' rules (../shared/spec/homeworlds.md): the setup, one step applied, and a turn's end.

`play` checks a step against the stage of the turn (REC-H14), applies it, refuses a suicide under
`suicide=illegal` (REC-H12), and ends the turn when nothing is left to do, checking the homeworlds
then (REC-H11). Each action lives in engine/homeworlds/actions.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..errors import IllegalMoveError
from ..kit.events import Event, Outcome
from ..shuffle import shuffled
from . import actions
from .notation import Action, Catastrophe, Done, Homeworld, Pass, SacrificeStep, Step
from .pieces import COLOUR_WORDS, size
from .state import HOMEWORLD_NAMES, LastTurn, Options, Sacrifice, State, System


def start(players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
    """REC-H3: the seed's shuffle of the players picks who sets up first (their homeworld is North)."""
    first = shuffled(players, seed, 0)[0]
    state = State(tuple(players), first, seed, Options(**options), to_move=first)
    return Outcome(state, (Event("start", f"{first} sets up first", first),))


def play(state: State, step: Step, by: str) -> Outcome[State]:
    if state.stage == "over":
        raise IllegalMoveError("the game is over")
    if by != state.to_move:
        raise IllegalMoveError(f"it is {state.to_move}'s turn, not {by}'s")
    if state.stage == "setup":
        return _setup(state, step, by)
    if isinstance(step, Homeworld):
        raise IllegalMoveError("your homeworld is made: setup was your first turn")
    if isinstance(step, Done):
        return _done(state, by)
    if isinstance(step, Pass):
        return _pass(state, by)
    after, event = _take(state, step, by)
    after = after.evolve(this_turn=(*state.this_turn, str(step)))
    check_suicide(after, by)
    if after.stage == "acted" and not after.overpopulated():
        return end_turn(after, by, (event,))  # REC-H14: nothing left to do, the turn ends by itself
    return Outcome(after, (event,))


def _take(state: State, step: Step, by: str) -> tuple[State, Event]:
    if isinstance(step, Catastrophe):
        return _catastrophe(state, step, by)
    if isinstance(step, SacrificeStep):
        if state.stage != "start":
            raise IllegalMoveError(_spent(state) or "a sacrifice is instead of the turn's action")
        return actions.sacrifice(state, step, by)
    if isinstance(step, (Homeworld, Pass, Done)):
        raise IllegalMoveError(f"{step} is not an action")  # `play` took these before
    return _action(state, step, by)


def _action(state: State, step: Action, by: str) -> tuple[State, Event]:
    colour = actions.COLOUR_OF[type(step)]
    if state.stage == "acted":
        raise IllegalMoveError(_spent(state))
    if state.sacrifice is not None and state.sacrifice.colour != colour:
        have = COLOUR_WORDS[state.sacrifice.colour]
        raise IllegalMoveError(f"your sacrifice gives {have} actions, and {step} is a {COLOUR_WORDS[colour]} one")
    after, event = actions.take(state, step, by, free=state.sacrifice is None)
    if state.sacrifice is None or state.sacrifice.left == 1:
        return after.evolve(stage="acted", sacrifice=None), event
    return after.evolve(sacrifice=Sacrifice(colour, state.sacrifice.left - 1)), event


def _spent(state: State) -> str:
    if state.stage == "acted":
        return "your action is taken: only a catastrophe or `done` may follow"
    return ""


def _catastrophe(state: State, step: Catastrophe, by: str) -> tuple[State, Event]:
    after, event = actions.catastrophe(state, step, by)
    if state.stage == "sacrifice" and state.options.catastrophes == "end":
        after = after.evolve(stage="acted", sacrifice=None)  # REC-H10: it ends the sacrifice's actions
    return after, event


def _setup(state: State, step: Step, by: str) -> Outcome[State]:
    """REC-H4: two stars and a large ship from the bank (`setup=free`: one or two stars, any ship)."""
    if not isinstance(step, Homeworld):
        raise IllegalMoveError("first make your homeworld, e.g. `homeworld y2 b1 g3`")
    free = state.options.setup == "free"
    if len(step.stars) != 2 and not free:
        raise IllegalMoveError("a homeworld has two stars (one is allowed only with setup=free)")
    if size(step.ship) != 3 and not free:
        raise IllegalMoveError(
            f"your first ship must be large (size 3), not {step.ship} (any size only with setup=free)"
        )
    actions.check_in_bank(state, (*step.stars, step.ship))
    name = HOMEWORLD_NAMES[0] if by == state.first_player else HOMEWORLD_NAMES[1]
    ships = ((step.ship,), ()) if state.seat(by) == 0 else ((), (step.ship,))
    after = state.evolve(systems=(*state.systems, System(name, by, step.stars, ships)), this_turn=(str(step),))
    event = Event("homeworld", f"{by} makes {name} ({' '.join(step.stars)}) with a {step.ship}", by, {"system": name})
    return end_turn(after, by, (event,))


def _pass(state: State, by: str) -> Outcome[State]:
    if state.this_turn:
        raise IllegalMoveError("`pass` is a whole turn: after a step, end the turn with `done`")
    after = state.evolve(this_turn=("pass",))
    check_suicide(after, by)
    return end_turn(after, by, (Event("pass", f"{by} passes", by),))


def _done(state: State, by: str) -> Outcome[State]:
    if not state.this_turn:
        raise IllegalMoveError("`done` ends a turn after a step: to do nothing at all, `pass`")
    if state.options.suicide == "illegal" and not state.has_ship_at_home(by):
        raise IllegalMoveError("suicide=illegal: you may not end your turn without a ship at your homeworld")
    after = state.evolve(this_turn=(*state.this_turn, "done"))
    return end_turn(after, by, (Event("done", f"{by} ends the turn", by),))


def spelled(state: State, step: Step) -> Step:
    """REC-H13: `step` with each system it names written as spelled at that system's discovery."""
    names = {field: getattr(step, field) for field in ("system", "origin", "destination") if hasattr(step, field)}
    known = {field: state.system(name) for field, name in names.items()}
    respelled: dict[str, Any] = {field: system.name for field, system in known.items() if system is not None}
    return replace(step, **respelled)


def check_suicide(state: State, by: str) -> None:
    """REC-H12 `illegal`: no step may leave you without a ship at home, except inside a yellow
    sacrifice with actions left while one of your ships is in a system connected to your homeworld."""
    if state.options.suicide != "illegal" or state.has_ship_at_home(by):
        return
    home, seat = state.home_of(by), state.seat(by)
    moving = state.sacrifice is not None and state.sacrifice.colour == "y" and home is not None
    if moving and any(s is not home and s.ships[seat] and s.connected(home) for s in state.systems):  # type: ignore[arg-type]
        return
    raise IllegalMoveError("suicide=illegal: that would leave you without a ship at your homeworld")


def end_turn(state: State, by: str, events: tuple[Event, ...]) -> Outcome[State]:
    """REC-H11: from turn 2 on, a player without a ship of their own at home (or without a home) loses."""
    last = LastTurn(by, state.this_turn)
    losers = [seat for seat in state.players if not state.has_ship_at_home(seat)] if state.turn >= 2 else []
    if not losers:
        nxt = state.evolve(to_move=state.other(by), turn=state.turn + 1, stage="setup" if state.turn < 2 else "start")
        return Outcome(nxt.evolve(sacrifice=None, this_turn=(), last_turn=last), events)
    lost = tuple(Event("homeworld lost", _lost(state, seat), seat) for seat in losers)
    winner = state.other(losers[0]) if len(losers) == 1 else None
    over = state.evolve(stage="over", to_move=None, sacrifice=None, this_turn=(), last_turn=last, winner=winner)
    over = over.evolve(reason="homeworld" if winner else "both homeworlds")
    said = Event("end", f"{winner} wins" if winner else "both homeworlds are lost: a draw", winner)
    return Outcome(over, (*events, *lost, said))


def _lost(state: State, seat: str) -> str:
    if state.home_of(seat) is None:
        return f"{seat}'s homeworld has left play"
    return f"{seat} has no ship at their homeworld"
