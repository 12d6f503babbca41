"""Homeworlds' evaluation for the kit's MCTS bot: a seat's chance of winning from where a line stops.

A seat's standing is its material (ships weighted by size), its technologies (which of the four
colours it can use at home and in its fleet) and any sacrifice actions it still has to take, less the
dangers to its homeworld: too few ships or a single star, enemy ships that can capture its defenders
(or its ships elsewhere), a colour one piece short of a catastrophe there, big enemy ships within one
move. The chance of winning is a logistic of the difference between the two seats' standings, so the
threats on the rival's homeworld (how close the seat is to a win) count as much as those on its own.
"""

from __future__ import annotations

import math

from .pieces import ATTACK_COLOUR, BUILD_COLOUR, MOVE_COLOUR, TRADE_COLOUR, size
from .state import State, System

WORTH = {1: 1.0, 2: 2.0, 3: 3.5}  # a ship by size: a large one can capture anything, and nothing larger can take it
# A technology at hand: building grows the fleet, trading changes colours, moving and capturing need
# the fleet to be there first. At home (a star or one of its own ships there) it is always at hand;
# elsewhere a ship of that colour gives it in its system, and as a sacrifice anywhere.
TECHNOLOGY = {BUILD_COLOUR: 1.5, TRADE_COLOUR: 1.2, MOVE_COLOUR: 1.0, ATTACK_COLOUR: 0.8}
FLEET_SHARE = 0.5  # a technology only in the fleet, not at home, counts for this share
SACRIFICE_ACTION = 1.0  # each action left of a sacrifice under way (its ship is already off the table)
DECIDED = 30.0  # lost at the end of this turn unless the rival errs: it can take the last defenders now
LETHAL = 8.0  # the rival could take the homeworld's last defenders or its last star, after a move of ours
LONE_DEFENDER = 1.5  # a single ship at home: one capture or one move away loses the game
LONE_STAR = 2.0  # a homeworld of one star: one catastrophe ends it
LATER = 0.5  # a danger the threatened seat can answer first (it is to move) counts this much
NEAR_CATASTROPHE = 0.25  # three of a colour at home: the rival needs one more piece there
APPROACH = 0.3  # an enemy ship one move away, as large as the largest defender, this share of its worth
SCALE = 0.15  # the logistic's steepness: a large ship more than the rival is a 63% chance; a blow
# that decides the game (30) about 99%, so the search still tells lesser leads apart


def evaluate(state: State, seat: str) -> float:
    """`seat`'s chance of winning from `state`, 0 to 1 (the kit's `Evaluate`, engine/bots/kit.py)."""
    if state.stage == "over":
        return 0.5 if state.winner is None else float(state.winner == seat)
    if seat not in state.players:
        return 0.0
    lead = standing(state, seat) - standing(state, state.other(seat))
    return 1 / (1 + math.exp(-SCALE * lead))


def standing(state: State, seat: str) -> float:
    """How well `seat` stands, on its own: what it has less what threatens its homeworld."""
    return material(state, seat) + technologies(state, seat) + _sacrifice_left(state, seat) - danger(state, seat)


def material(state: State, seat: str) -> float:
    me = state.seat(seat)
    return sum(WORTH[size(ship)] for system in state.systems for ship in system.ships[me])


def technologies(state: State, seat: str) -> float:
    """The colours `seat` can use: at home in full, in its fleet only (elsewhere) for a share."""
    home, me = state.home_of(seat), state.seat(seat)
    at_home = set() if home is None else {p[0] for p in (*home.stars, *home.ships[me])}
    fleet = {ship[0] for system in state.systems for ship in system.ships[me]}
    return sum(
        worth if colour in at_home else FLEET_SHARE * worth if colour in fleet else 0.0
        for colour, worth in TECHNOLOGY.items()
    )


def _sacrifice_left(state: State, seat: str) -> float:
    if state.to_move != seat or state.sacrifice is None:
        return 0.0
    return SACRIFICE_ACTION * state.sacrifice.left


def danger(state: State, seat: str) -> float:
    """The threats to `seat`: to its homeworld, and to its ships anywhere that the rival can capture."""
    home = state.home_of(seat)
    if home is None:  # not made yet (setup), or a catastrophe took its last star
        return 0.0 if state.stage == "setup" else DECIDED
    me = state.seat(seat)
    defenders = home.ships[me]
    if not defenders:  # lost at the end of a turn unless one comes back
        return DECIDED * (LATER if _to_act(state, seat) else 1.0)
    rival = state.other(seat)
    found = LONE_DEFENDER * (len(defenders) == 1) + LONE_STAR * (len(home.stars) == 1)
    found += _capture(state, home, rival) + _catastrophe(state, home, rival) + _approach(state, home, rival)
    return found


def _to_act(state: State, seat: str) -> bool:
    """Whether `seat` is to move with its action (or a sacrifice's actions) still to take."""
    return state.to_move == seat and state.stage in ("start", "sacrifice")


def _capture(state: State, home: System, rival: str) -> float:
    """The most the rival could capture in one turn (one free attack, or a red sacrifice's): in any
    system the largest of its ships there can reach, and the homeworld itself when its attacks reach
    every defender at home."""
    return max(_captures(state, system, rival, system is home) for system in state.systems)


def _captures(state: State, system: System, rival: str, home: bool) -> float:
    them, me = state.seat(rival), 1 - state.seat(rival)
    defenders = system.ships[me]
    if not system.ships[them] or not defenders:
        return 0.0
    best = 0.0
    for attacks, attackers in _attacks(state, system, rival):
        reach = max((size(ship) for ship in attackers), default=0)
        prey = sorted((WORTH[size(ship)] for ship in defenders if size(ship) <= reach), reverse=True)
        lethal = home and attacks >= len(defenders) == len(prey)
        best = max(best, sum(prey[:attacks]) + (_lethal(state, rival) if lethal else 0.0))
    return best * (1.0 if _to_act(state, rival) else LATER)


def _lethal(state: State, rival: str) -> float:
    """A blow that ends the homeworld: decided when the rival can strike it now, else a grave threat."""
    return DECIDED if _to_act(state, rival) else LETHAL


def _attacks(state: State, system: System, rival: str) -> list[tuple[int, tuple[str, ...]]]:
    """The rival's ways to capture at `system` in a turn, as (captures, its ships there to capture
    with): the actions left of a red sacrifice under way; else one free attack with red there (a star
    or its own ship), or as many as a red ship's size by sacrificing it (then not there to attack)."""
    them = state.seat(rival)
    attackers = system.ships[them]
    given = state.sacrifice
    if state.to_move == rival and given is not None:
        return [(given.left, attackers)] if given.colour == ATTACK_COLOUR else []
    ways = [(1, attackers)] if any(p[0] == ATTACK_COLOUR for p in (*system.stars, *attackers)) else []
    for where in state.systems:
        for ship in dict.fromkeys(where.ships[them]):
            if ship[0] == ATTACK_COLOUR:
                left = _without(attackers, ship) if where is system else attackers
                ways.append((size(ship), left))
    return ways


def _without(ships: tuple[str, ...], ship: str) -> tuple[str, ...]:
    at = ships.index(ship)
    return ships[:at] + ships[at + 1 :]


def _catastrophe(state: State, home: System, rival: str) -> float:
    """A colour with three or more pieces at `home`: the rival may destroy that colour's defenders and
    stars there (the whole homeworld when every star or every defender is of it), at once with four
    (a catastrophe may come at any point of its turn), after bringing a fourth with three."""
    me = 1 - state.seat(rival)
    counts: dict[str, int] = {}
    for piece in home.pieces():
        counts[piece[0]] = counts.get(piece[0], 0) + 1
    found = 0.0
    for colour, count in counts.items():
        if count < 3:
            continue
        stars = sum(star[0] == colour for star in home.stars)
        ends = stars == len(home.stars) or all(ship[0] == colour for ship in home.ships[me])
        lost = sum(WORTH[size(ship)] for ship in home.ships[me] if ship[0] == colour)
        if count < 4:
            found += NEAR_CATASTROPHE * (lost + (LETHAL if ends else LONE_STAR * stars))
        elif state.to_move == rival:
            found += lost + (DECIDED if ends else LONE_STAR * stars)
        else:
            found += LATER * (lost + (LETHAL if ends else LONE_STAR * stars))
    return found


def _approach(state: State, home: System, rival: str) -> float:
    """Enemy ships one move from `home` (in a system connected to it) as large as its largest defender."""
    them, me = state.seat(rival), 1 - state.seat(rival)
    largest = max((size(ship) for ship in home.ships[me]), default=0)
    near = (
        ship
        for system in state.systems
        if system is not home and system.connected(home)
        for ship in system.ships[them]
        if size(ship) >= largest
    )
    return APPROACH * sum(WORTH[size(ship)] for ship in near)
