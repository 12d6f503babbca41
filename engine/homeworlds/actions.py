"""The four coloured actions, the sacrifice and the catastrophe, each checked then applied.

Each function takes the State and a step and gives the next State and the event it makes, or
raises IllegalMoveError naming the rule. Forgetting (REC-H2) happens in `State.with_system`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import IllegalMoveError
from ..kit.events import Event
from .notation import Action, Attack, Build, Catastrophe, Discover, Move, SacrificeStep, Trade
from .pieces import COLOUR_WORDS, ordered, size, smallest_in_bank
from .state import HOMEWORLD_NAMES, Sacrifice, State, System

COLOUR_OF: dict[type, str] = {Build: "g", Trade: "b", Move: "y", Discover: "y", Attack: "r"}


def take(state: State, step: Action, by: str, *, free: bool) -> tuple[State, Event]:
    """One action; `free` (not from a sacrifice) needs the colour at its system (REC-H5)."""
    where = step.origin if isinstance(step, (Move, Discover)) else step.system
    system = find(state, where)
    if free:
        _check_access(system, state.seat(by), COLOUR_OF[type(step)])
    if isinstance(step, Build):
        return _build(state, system, step, by)
    if isinstance(step, Trade):
        return _trade(state, system, step, by)
    if isinstance(step, Move):
        return _move(state, system, step, by)
    if isinstance(step, Discover):
        return _discover(state, system, step, by)
    return _attack(state, system, step, by)


def find(state: State, name: str) -> System:
    system = state.system(name)
    if system is None:
        raise IllegalMoveError(f"no system {name} is in play")
    return system


def check_in_bank(state: State, pieces: Iterable[str]) -> None:
    wanted: dict[str, int] = {}
    for piece in pieces:
        wanted[piece] = wanted.get(piece, 0) + 1
        if state.bank[piece] < wanted[piece]:
            raise IllegalMoveError(f"the bank has no {'more ' if wanted[piece] > 1 else ''}{piece}")


def _check_access(system: System, seat: int, colour: str) -> None:
    if any(p[0] == colour for p in system.stars) or any(p[0] == colour for p in system.ships[seat]):
        return
    word = COLOUR_WORDS[colour]
    raise IllegalMoveError(f"no {word} at {system.name}: a {word} star or one of your own {word} ships is needed")


def _own(system: System, seat: int, piece: str) -> tuple[str, ...]:
    """Your ships at `system` once `piece` (one of them) leaves; IllegalMoveError if you have none."""
    ships = system.ships[seat]
    if piece not in ships:
        raise IllegalMoveError(f"you have no {piece} at {system.name}")
    index = ships.index(piece)
    return ships[:index] + ships[index + 1 :]


def _build(state: State, system: System, step: Build, by: str) -> tuple[State, Event]:
    """REC-H6: the smallest piece of that colour in the bank, beside your own ship of its colour."""
    seat, colour, word = state.seat(by), step.piece[0], COLOUR_WORDS[step.piece[0]]
    if not any(p[0] == colour for p in system.ships[seat]):
        raise IllegalMoveError(f"building {word} needs your own {word} ship at {system.name}")
    smallest = smallest_in_bank(state.bank, colour)
    if smallest is None:
        raise IllegalMoveError(f"the bank has no {word} piece left")
    if smallest != step.piece:
        raise IllegalMoveError(f"the smallest {word} in the bank is {smallest}")
    after = state.with_system(system, system.with_ships(seat, ordered((*system.ships[seat], step.piece))))
    return after, _event("build", f"{by} builds {step.piece} at {system.name}", by, step)


def _trade(state: State, system: System, step: Trade, by: str) -> tuple[State, Event]:
    seat = state.seat(by)
    rest = _own(system, seat, step.piece)
    if size(step.new) != size(step.piece) or step.new[0] == step.piece[0]:
        raise IllegalMoveError(f"a trade swaps {step.piece} for the same size in another colour, not {step.new}")
    check_in_bank(state, (step.new,))
    after = state.with_system(system, system.with_ships(seat, ordered((*rest, step.new))))
    return after, _event("trade", f"{by} trades {step.piece} for {step.new} at {system.name}", by, step)


def _move(state: State, origin: System, step: Move, by: str) -> tuple[State, Event]:
    seat = state.seat(by)
    rest = _own(origin, seat, step.piece)
    destination = find(state, step.destination)
    if destination is origin:
        raise IllegalMoveError(f"{step.piece} is already at {origin.name}")
    if not origin.connected(destination):
        raise IllegalMoveError(f"{origin.name} and {destination.name} are not connected (they share a star size)")
    arrived = destination.with_ships(seat, ordered((*destination.ships[seat], step.piece)))
    after = state.with_system(destination, arrived).with_system(origin, origin.with_ships(seat, rest))
    return after, _event("move", f"{by} moves {step.piece} from {origin.name} to {destination.name}", by, step)


def _discover(state: State, origin: System, step: Discover, by: str) -> tuple[State, Event]:
    """REC-H13: the new name is unique among systems in play (without case); North/South never."""
    seat = state.seat(by)
    rest = _own(origin, seat, step.piece)
    if size(step.star) in origin.star_sizes:
        raise IllegalMoveError(f"a {step.star} star is not connected to {origin.name} (it shares a star size)")
    check_in_bank(state, (step.star,))
    if step.name.lower() in (name.lower() for name in HOMEWORLD_NAMES):
        raise IllegalMoveError(f"{step.name} is a homeworld's name: choose another")
    if state.system(step.name) is not None:
        raise IllegalMoveError(f"a system called {step.name} is in play: choose another name")
    ships = ((step.piece,), ()) if seat == 0 else ((), (step.piece,))
    found = System(step.name, None, (step.star,), ships)
    after = state.with_system(origin, origin.with_ships(seat, rest))
    after = after.evolve(systems=(*after.systems, found))
    text = f"{by} discovers {step.name} ({step.star}) with {step.piece} from {origin.name}"
    return after, _event("discover", text, by, step)


def _attack(state: State, system: System, step: Attack, by: str) -> tuple[State, Event]:
    seat = state.seat(by)
    enemy = 1 - seat
    if step.piece not in system.ships[enemy]:
        raise IllegalMoveError(f"{state.players[enemy]} has no {step.piece} at {system.name}")
    largest = max((size(p) for p in system.ships[seat]), default=0)
    if size(step.piece) > largest:
        raise IllegalMoveError(f"attacking {step.piece} needs your own ship of size {size(step.piece)} or more there")
    index = system.ships[enemy].index(step.piece)
    theirs = system.ships[enemy][:index] + system.ships[enemy][index + 1 :]
    taken = system.with_ships(enemy, theirs).with_ships(seat, ordered((*system.ships[seat], step.piece)))
    after = state.with_system(system, taken)
    return after, _event("attack", f"{by} captures {step.piece} at {system.name}", by, step)


def sacrifice(state: State, step: SacrificeStep, by: str) -> tuple[State, Event]:
    """REC-H7: the ship goes back to the bank; its size in actions of its colour follow."""
    system, seat = find(state, step.system), state.seat(by)
    rest = _own(system, seat, step.piece)
    after = state.with_system(system, system.with_ships(seat, rest))
    after = after.evolve(stage="sacrifice", sacrifice=Sacrifice(step.piece[0], size(step.piece)))
    word = COLOUR_WORDS[step.piece[0]]
    return after, _event(
        "sacrifice", f"{by} sacrifices {step.piece} at {system.name} for {size(step.piece)} {word} action(s)", by, step
    )


def catastrophe(state: State, step: Catastrophe, by: str) -> tuple[State, Event]:
    """REC-H9: every piece of the colour there goes back; with no star left, the whole system goes."""
    system, colour = find(state, step.system), step.colour
    word = COLOUR_WORDS[colour]
    if colour not in system.overpopulated:
        raise IllegalMoveError(f"{system.name} is not overpopulated in {word} (4 or more {word} pieces are needed)")
    stars = tuple(p for p in system.stars if p[0] != colour)
    kept = tuple(tuple(p for p in ships if p[0] != colour) for ships in system.ships)
    remains = System(system.name, system.home, stars, (kept[0], kept[1])) if stars else None
    after = state.with_system(system, remains)
    text = f"{by} sets off a {word} catastrophe at {system.name}" + ("" if stars else f": {system.name} leaves play")
    return after, _event("catastrophe", text, by, step)


def _event(kind: str, text: str, by: str, step: object) -> Event:
    return Event(kind, text, by, {"step": str(step)})
