"""Homeworlds' evaluation (engine/homeworlds/bots.py) as a table of positions, each pair differing in
one thing the evaluation weighs, and its MCTS bot: legal steps only, several a turn, and `done`.

Positions are written as in homeworlds_helpers: `Name@home: stars / red's ships / yellow's ships`,
North yellow's homeworld, South red's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from homeworlds_helpers import NORTH, position

from engine import registry
from engine.bots import bot_factory, bots_for, choose_move
from engine.bots.kit import Mcts
from engine.homeworlds import MCTS
from engine.homeworlds.bots import evaluate
from engine.homeworlds.game import GAME
from engine.homeworlds.state import State

HOME = "South@red: g2 b3 / y3 y1 / -"  # red's homeworld: green and blue stars, yellow ships, two defenders
FAR = "Lorem: r2 / - / r3"  # a yellow ship in a system connected to neither homeworld (stars of size 2)


class Better(NamedTuple):
    """`better` is a position red stands better in than `worse` (red to move in both unless told)."""

    id: str
    better: tuple[str, ...]
    worse: tuple[str, ...]
    to_move: str = "red"
    worse_to_move: str = ""  # the seat to move in `worse`, when not `to_move`


CASES = [
    Better("an extra large ship", (NORTH, "South@red: g2 b3 / y3 y1 g3 / -"), (NORTH, HOME)),
    Better("large over small", (NORTH, "South@red: g2 b3 / y3 y1 g3 / -"), (NORTH, "South@red: g2 b3 / y3 y1 g1 / -")),
    Better("a bigger ship of the same colour", (NORTH, "South@red: g2 b3 / y3 y2 / -"), (NORTH, HOME)),
    Better("green at home (build)", (NORTH, "South@red: g2 b3 / y3 r1 / -"), (NORTH, "South@red: b2 b3 / y3 r1 / -")),
    Better("blue at home (trade)", (NORTH, "South@red: g2 b3 / y3 r1 / -"), (NORTH, "South@red: g2 g3 / y3 r1 / -")),
    Better("yellow at home (move)", (NORTH, "South@red: g2 b3 / y3 r1 / -"), (NORTH, "South@red: g2 b3 / r3 r1 / -")),
    Better("red at home (attack)", (NORTH, "South@red: g2 b3 / y3 r1 / -"), (NORTH, "South@red: g2 b3 / y3 y1 / -")),
    Better("red in the fleet, not at home", (NORTH, HOME, "Ipsum: b2 / r1 / g1"), (NORTH, HOME, "Ipsum: b2 / y1 / g1")),
    Better(
        "an attack threat on the homeworld",
        (NORTH, HOME, FAR),
        (NORTH, "South@red: g2 b3 / y3 y1 / r3", "Lorem: r2 / - / g1"),
        to_move="yellow",
    ),
    Better(
        "an attack threat on a ship away from home",
        (NORTH, HOME, "Ipsum: b2 / g3 / -", FAR),
        (NORTH, HOME, "Ipsum: b2 / g3 / r3", "Lorem: r2 / - / g1"),
        to_move="yellow",
    ),
    Better(
        "a threat to capture every defender: the homeworld",
        (NORTH, "South@red: g2 b3 / y3 / -", FAR),
        (NORTH, "South@red: g2 b3 / y3 / r3", "Lorem: r2 / - / g1"),
        to_move="yellow",
    ),
    Better(
        "a threat it answers first weighs less",
        (NORTH, "South@red: g2 b3 / y3 y1 / r3"),
        (NORTH, "South@red: g2 b3 / y3 y1 / r3"),
        worse_to_move="yellow",
    ),
    Better(
        "an enemy large ship one move from home",
        (NORTH, HOME, FAR),
        (NORTH, HOME, "Lorem: r1 / - / r3"),  # a size-1 star: connected to South (sizes 2 and 3)
        to_move="yellow",
    ),
    Better("a second defender", (NORTH, HOME), (NORTH, "South@red: g2 b3 / y3 / -", "Ipsum: b2 / y1 / -")),
    Better("a second star", (NORTH, "South@red: g2 b3 / y3 y1 / -"), (NORTH, "South@red: b3 / y3 y1 / -")),
    Better(
        "three of a colour at home: one short of a catastrophe",
        (NORTH, "South@red: g2 b3 / y3 y1 / -"),
        (NORTH, "South@red: g2 b3 / b2 b1 / -"),
    ),
    Better(
        "a threat on the rival's homeworld (closer to a win)",
        ("North@yellow: y2 b1 / r3 / g3 g1", HOME),
        ("North@yellow: y2 b1 / - / g3 g1", HOME, "Ipsum: g1 / r3 / -"),
    ),
    Better(
        "the rival's homeworld down to one defender",
        ("North@yellow: y2 b1 / - / g3", HOME, "Ipsum: g1 / - / y1"),
        ("North@yellow: y2 b1 / - / g3 y1", HOME),
    ),
]


def red_chance(systems: tuple[str, ...], to_move: str, **given: Any) -> float:
    return evaluate(position(*systems, to_move=to_move, **given), "red")


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_evaluation_weighs(case: Better) -> None:
    assert red_chance(case.better, case.to_move) > red_chance(case.worse, case.worse_to_move or case.to_move)


# --- symmetric between the seats ---------------------------------------------------------------------


def mirrored(state: State) -> State:
    """The same position with the seats' roles swapped: red's ships and homeworld are yellow's."""
    swap = {"red": "yellow", "yellow": "red"}
    data = GAME.to_position(state)
    for system in data["systems"]:
        system["home"] = swap.get(system["home"], system["home"])
        system["ships"] = {swap[seat]: ships for seat, ships in system["ships"].items()}
    data.update(to_move=swap[data["to_move"]], first_player=swap[data["first_player"]], last_turn=None)
    return GAME.from_position(data)


def game_states(plies: int) -> list[State]:
    """The states of a game the MCTS bot plays against itself at a small budget."""
    state, states = GAME.new_game(["red", "yellow"], "symmetry", {}), []
    for ply in range(plies):
        if GAME.result(state) is not None:
            break
        seat = GAME.movers(state)[0]
        state = GAME.apply(state, GAME.parse(choose_move(GAME, "mcts", state, seat, f"p{ply}", effort=0.1)), seat)
        states.append(state)
    return states


@pytest.mark.parametrize("state", game_states(40), ids=lambda state: f"turn{state.turn}-{state.stage}")
def test_the_seats_chances_add_up_to_one_and_a_mirror_swaps_them(state: State) -> None:
    assert evaluate(state, "red") + evaluate(state, "yellow") == pytest.approx(1.0)
    if state.to_move is not None:
        assert evaluate(mirrored(state), "yellow") == pytest.approx(evaluate(state, "red"))


def test_a_finished_game_is_worth_its_result_and_an_unseated_seat_nothing() -> None:
    state = position(NORTH, HOME)
    assert evaluate(state.evolve(stage="over", to_move=None, winner="red", reason="homeworld"), "red") == 1.0
    assert evaluate(state.evolve(stage="over", to_move=None, winner="red", reason="homeworld"), "yellow") == 0.0
    assert evaluate(state.evolve(stage="over", to_move=None, reason="both homeworlds"), "red") == 0.5
    assert evaluate(state, "green") == 0.0


def test_no_defender_at_home_is_near_a_loss() -> None:
    """Mid-turn, red's only ship left home: unless it comes back, red loses at the turn's end."""
    moved = dict(stage="acted", this_turn=["move y3 South Ipsum"])
    gone = position(NORTH, "South@red: g2 b3 / - / -", "Ipsum: g1 / y3 / -", **moved)
    assert red_chance((NORTH, HOME), "red") > 0.5 > evaluate(gone, "red")


def test_a_seat_yet_to_make_its_homeworld_is_not_lost() -> None:
    """After the first setup the other seat has no homeworld yet: an even game, not a won one."""
    state = GAME.new_game(["red", "yellow"], "setup", {})
    first = GAME.movers(state)[0]
    made = GAME.apply(state, GAME.parse("homeworld g1 b2 y3"), first)
    assert 0.5 < evaluate(made, first) < 0.9
    assert evaluate(made, first) > evaluate(GAME.apply(state, GAME.parse("homeworld r1 r2 r3"), first), first)


# --- the MCTS bot with the evaluation ----------------------------------------------------------------------


def test_homeworlds_mcts_is_the_kits_with_the_evaluation() -> None:
    assert [bot.name for bot in bots_for("homeworlds")] == ["random", "mcts"]
    decide = bot_factory("homeworlds", "mcts")("seed").decide
    assert isinstance(decide, Mcts) and decide is MCTS and decide.evaluate is evaluate and decide.playout == 0


def bot_turn(state: State, seat: str = "red", effort: float = 1.0) -> tuple[State, list[str]]:
    """The MCTS bot's steps until `seat`'s turn ends, each checked legal when it is chosen."""
    steps = []
    while GAME.result(state) is None and GAME.movers(state) == (seat,):
        text = choose_move(GAME, "mcts", state, seat, f"turn{len(steps)}", effort=effort)
        assert text in {str(step) for step in GAME.legal_moves(state, seat)}
        state = GAME.apply(state, GAME.parse(text), seat)
        steps.append(text)
    return state, steps


def test_within_a_red_sacrifice_it_takes_both_captures_that_win() -> None:
    """Red has sacrificed its r2 for two attacks; its r3 at North can capture both of yellow's
    defenders there, one step each, and yellow loses when red's turn ends."""
    sacrificing = dict(stage="sacrifice", sacrifice={"colour": "red", "left": 2}, this_turn=["sacrifice r2 South"])
    state = position("North@yellow: y2 b1 / r3 / g1 y1", "South@red: g2 b3 / y3 / -", **sacrificing)
    after, steps = bot_turn(state)
    assert sorted(steps) == ["attack g1 North", "attack y1 North"]
    assert GAME.result(after) is not None and GAME.result(after).winners == ("red",)  # type: ignore[union-attr]


def test_it_ends_a_turn_left_open_with_a_catastrophe_or_done() -> None:
    """After a build that made four greens at home, only a catastrophe or `done` are left: it ends its
    turn with `done` rather than destroy its own green star and ships."""
    built = dict(stage="acted", this_turn=["build g1 South"])
    state = position(NORTH, "South@red: g2 b3 / y3 g1 g1 g2 / -", **built)
    assert [str(step) for step in GAME.legal_moves(state, "red")] == ["catastrophe South green", "done", "resign"]
    after, steps = bot_turn(state)
    assert steps == ["done"] and after.to_move == "yellow"


def test_a_whole_game_against_random_is_won_with_legal_steps() -> None:
    state = GAME.new_game(["red", "yellow"], "whole", {})
    for ply in range(400):
        if GAME.result(state) is not None:
            break
        seat = GAME.movers(state)[0]
        bot = "mcts" if seat == "red" else "random"
        text = choose_move(GAME, bot, state, seat, f"w{ply}", effort=0.2)
        assert text in {str(step) for step in GAME.legal_moves(state, seat)}
        state = GAME.apply(state, GAME.parse(text), seat)
    assert GAME.result(state) is not None and GAME.result(state).winners == ("red",)  # type: ignore[union-attr]


def test_the_game_is_registered_with_the_bots() -> None:
    assert registry.package("homeworlds").bots["mcts"] is MCTS
