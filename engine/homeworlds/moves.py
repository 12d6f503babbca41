"""The legal-step list (spec, Notation): every step the player to move may take now, canonical.

Built straight from the position (no trial applies) except under `suicide=illegal`, where a step
that could leave the mover without a ship at home is tried once. A discovery is listed once per
ship, origin and star, under the first free Greek letter; any other free name is as legal.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from ..errors import IllegalMoveError
from .notation import (
    Attack,
    Build,
    Catastrophe,
    Discover,
    Done,
    Homeworld,
    Move,
    Pass,
    SacrificeStep,
    Step,
    Trade,
)
from .pieces import COLOURS, PIECES, SIZES, size, smallest_in_bank
from .rules import play
from .state import State, System

# The 24 Greek letters, in order: the names the list gives discoveries.
GREEK = tuple(
    "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu"  # noqa: SIM905
    " Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega".split()
)
KINDS = (Homeworld, Build, Trade, Move, Discover, Attack, SacrificeStep, Catastrophe, Pass, Done)
RANK: dict[type, int] = {kind: index for index, kind in enumerate(KINDS)}  # the notation table's order (VERBS)


def legal_steps(state: State, seat: str) -> list[Step]:
    if state.stage == "over" or seat != state.to_move:
        return []
    if state.stage == "setup":
        return _setups(state)
    steps = _unsorted(state, seat)
    if state.options.suicide == "illegal":
        steps = _survivors(state, steps, seat)
    return sorted(steps, key=lambda step: (RANK[type(step)], str(step)))


def free_name(state: State) -> str:
    """The first Greek letter naming no system in play (the listed name of a discovery)."""
    taken = {system.key for system in state.systems}
    return next(name for name in GREEK if name.lower() not in taken)


def _unsorted(state: State, seat: str) -> list[Step]:
    me = state.seat(seat)
    steps: list[Step] = []
    if state.stage == "start":
        for system in state.systems:
            if system.ships[me]:
                colours = {p[0] for p in system.stars} | {p[0] for p in system.ships[me]}
                steps += _actions(state, system, me, colours)
                steps += [SacrificeStep(piece, system.name) for piece in dict.fromkeys(system.ships[me])]
    elif state.stage == "sacrifice" and state.sacrifice is not None:
        colours = {state.sacrifice.colour}
        for system in state.systems:
            if system.ships[me]:
                steps += _actions(state, system, me, colours)
    steps += [Catastrophe(system.name, c) for system in state.systems for c in system.overpopulated]
    if state.stage == "start" and not state.this_turn:
        steps.append(Pass())
    if state.this_turn:
        steps.append(Done())
    return steps


def _actions(state: State, system: System, me: int, colours: set[str]) -> list[Step]:
    mine = tuple(dict.fromkeys(system.ships[me]))
    bank = state.bank
    steps: list[Step] = []
    if "g" in colours:
        built = (smallest_in_bank(bank, c) for c in dict.fromkeys(p[0] for p in mine))
        steps += [Build(piece, system.name) for piece in built if piece is not None]
    if "b" in colours:
        steps += [Trade(p, c + p[1], system.name) for p in mine for c in COLOURS if c != p[0] and bank[c + p[1]]]
    if "y" in colours:
        steps += _travels(state, system, mine)
    if "r" in colours:
        largest = max(size(p) for p in mine)
        targets = dict.fromkeys(p for p in system.ships[1 - me] if size(p) <= largest)
        steps += [Attack(piece, system.name) for piece in targets]
    return steps


def _travels(state: State, origin: System, mine: tuple[str, ...]) -> list[Step]:
    sizes = origin.star_sizes
    reachable = [s.name for s in state.systems if s is not origin and s.star_sizes.isdisjoint(sizes)]
    stars = [star for star in PIECES if state.bank[star] and size(star) not in sizes]
    name = free_name(state) if stars else ""
    steps: list[Step] = [Move(p, origin.name, there) for p in mine for there in reachable]
    return steps + [Discover(p, origin.name, star, name) for p in mine for star in stars]


def _survivors(state: State, steps: list[Step], seat: str) -> list[Step]:
    """Under suicide=illegal: the allowed steps. Most plainly keep a ship at home; the rest (home
    already empty, or the step may take your last ship from it) are tried."""
    home = state.home_of(seat)
    mine = () if home is None else home.ships[state.seat(seat)]
    return [
        step
        for step in steps
        if (home is not None and mine and _keeps_one(step, home, mine)) or _tried(state, step, seat)
    ]


def _tried(state: State, step: Step, seat: str) -> bool:
    try:
        play(state, step, seat)
    except IllegalMoveError:
        return False
    return True


def _keeps_one(step: Step, home: System, mine: tuple[str, ...]) -> bool:
    """Whether `step` surely leaves one of `mine` (your ships at `home`) there, and `home` in play."""
    if isinstance(step, (Move, Discover)):
        return step.origin.lower() != home.key or len(mine) > 1
    if isinstance(step, SacrificeStep):
        return step.system.lower() != home.key or len(mine) > 1
    if isinstance(step, Catastrophe):
        kept = any(p[0] != step.colour for p in mine) and any(p[0] != step.colour for p in home.stars)
        return step.system.lower() != home.key or kept
    return True


def _setups(state: State) -> list[Step]:
    """REC-H4: every homeworld the bank allows (setup=free: one or two stars, a ship of any size)."""
    bank, setups = state.bank, SETUPS[state.options.setup]
    if not state.systems:  # the whole bank: every homeworld
        return [step for step, _ in setups]
    return [step for step, wanted in setups if all(bank[p] >= n for p, n in wanted)]


def _all_setups(free: bool) -> list[tuple[Homeworld, tuple[tuple[str, int], ...]]]:
    """Every homeworld with the pieces it takes from the bank, sorted by text."""
    pairs: list[tuple[str, ...]] = [(star,) for star in PIECES] if free else []
    pairs += list(combinations_with_replacement(PIECES, 2))
    ships = PIECES if free else tuple(c + SIZES[-1] for c in COLOURS)
    setups = [Homeworld(stars, ship) for stars in pairs for ship in ships]
    wanted = [tuple(Counter((*step.stars, step.ship)).items()) for step in setups]
    return sorted(zip(setups, wanted, strict=True), key=lambda pair: str(pair[0]))


SETUPS = {"standard": _all_setups(False), "free": _all_setups(True)}
