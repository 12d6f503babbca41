"""Launch Pad 23's secret opening pick: nothing another seat (or a spectator) reads before every
pick is made depends on it: views, tables, event lines, move texts and the bots' determinization;
not even whether a seat has chosen (issue 27, over the spec's "hidden"). And the kit's MCTS bot plays on."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine.bots import choose_move, mcts_iterations
from engine.bots.kit import mcts_bot
from engine.bots.rng import Rng
from engine.kit.events import lines
from engine.launchpad23.bots import evaluate
from engine.launchpad23.game import GAME
from engine.launchpad23.notation import Start
from engine.launchpad23.state import State
from tests.engine.launchpad23_helpers import state as at

SEATINGS = [("red", "blue"), ("red", "yellow", "green"), ("red", "yellow", "green", "blue")]


def seen_by(players: tuple[str, ...], size: str, viewer: str | None) -> dict[str, Any]:
    """Everything `viewer` may read after red chose `size` (and, in bigger games, yellow chose S)."""
    current = GAME.new_game(players, "secret", {})
    outcome = GAME.step(current, Start(size), "red")
    current = outcome.state
    events = list(outcome.events)
    if len(players) > 2:
        more = GAME.step(current, Start("S"), "yellow")
        current, events = more.state, [*events, *more.events]
    shown = GAME.view(current, viewer)
    return {
        "view": json.dumps(shown, sort_keys=True),
        "table": repr(GAME.table(shown)),
        "board": GAME.board_text(shown),
        "svg": GAME.board_svg(shown),
        "events": lines(tuple(events), viewer),
        "data": [event.seen_by(viewer).data for event in events],
        "text": GAME.public_move_text(Start(size), "red", current, viewer),
        "describe": GAME.describe(Start(size), "red", GAME.new_game(players, "secret", {}), current, viewer),
        "guess": GAME.determinize(current, viewer, Rng.from_text("same")) if viewer else None,
        "moves": [str(m) for m in GAME.legal_moves(current, viewer)] if viewer else [],
    }


@pytest.mark.parametrize("players", SEATINGS, ids=len)
def test_a_pick_never_shows_to_others_before_all_chose(players: tuple[str, ...]) -> None:
    for viewer in (None, *players[1:]):
        seen = [seen_by(players, size, viewer) for size in ("S", "M", "L")]
        assert seen[0] == seen[1] == seen[2], viewer
        assert json.loads(seen[0]["view"])["starts"]["red"] is None


def test_the_chooser_sees_their_own_pick_and_nobody_sees_whether_others_chose() -> None:
    current = GAME.apply(GAME.new_game(("red", "yellow", "green"), "s", {}), Start("L"), "red")
    assert GAME.view(current, "red")["starts"] == {"red": "L", "yellow": None, "green": None}
    assert GAME.table(GAME.view(current, "red")).private_note == "You chose a Large opening piece."
    assert GAME.public_move_text(Start("L"), "red", current, "red") == "start L"
    assert [seat.note for seat in GAME.table(GAME.view(current, "green")).seats] == ["", "", ""]
    assert GAME.view(current, "green")["movers"] == ["red", "yellow", "green"]
    assert GAME.view(current, "red")["movers"] == ["yellow", "green"]
    fresh = GAME.new_game(("red", "yellow", "green"), "s", {})
    assert GAME.view(current, "green") == GAME.view(fresh, "green")


def test_the_picks_show_once_all_chose() -> None:
    current = GAME.apply(GAME.new_game(("red", "blue"), "s", {}), Start("L"), "red")
    current = GAME.apply(current, Start("S"), "blue")
    assert GAME.view(current, "blue")["starts"] == {"red": "L", "blue": "S"}
    assert GAME.public_move_text(Start("L"), "red", current, "blue") == "start L"


def play_out(current: State, limit: int) -> State:
    bot = mcts_bot(evaluate, playout=8)  # random lines almost never build a rocket: value them by progress
    for number in range(limit):
        if GAME.result(current) is not None:
            break
        seat = GAME.movers(current)[0]
        current = GAME.apply(current, bot(f"bot{number}", effort=0.3).choose(GAME, current, seat), seat)
    return current


def test_the_kit_mcts_bot_plays_a_game_to_the_end() -> None:
    """From a late position (random lines almost never build a rocket): red's fifth colour is one move away."""
    board = {"a1": ["red:S", "yellow:S", "green:S", "blue:S"], "a2": ["black:S"], "c3": ["blue:M"]}
    final = play_out(at(board, moves_left=2), 20)
    assert GAME.result(final) is not None and final.reason == "rocket"


def test_the_kit_mcts_bot_makes_the_sealed_pick() -> None:
    opened = play_out(GAME.new_game(("red", "blue"), "bots", {}), 2)
    assert opened.phase != "start" and all(opened.starts)


# --- the bots decide only from what their seat may know ------------------------------------------


@pytest.mark.parametrize("bot", ["random", "mcts"])
def test_a_bots_pick_does_not_depend_on_the_others_picks_or_whether_they_were_made(bot: str) -> None:
    """Blue's bot at the sealed step: red has not chosen, or chose S, or chose L: one move."""
    fresh = GAME.new_game(("red", "yellow", "blue"), "knows", {})
    worlds = [fresh, *(GAME.apply(fresh, Start(size), "red") for size in ("S", "L"))]
    worlds.append(GAME.apply(worlds[1], Start("M"), "yellow"))
    made = [choose_move(GAME, bot, world, "blue", "same seed", effort=0.05) for world in worlds]
    assert len(set(made)) == 1 and made[0].startswith("start ")


@pytest.mark.parametrize("bot", ["random", "mcts"])
def test_a_bots_step_does_not_depend_on_the_future_throws(bot: str) -> None:
    """Two states differing only in the seed the next throws come from: the bot samples its own dice."""
    board = {"a1": ["red:S", "yellow:S", "green:S"], "b2": ["blue:S"], "a2": ["black:S"], "c3": ["blue:M"]}
    current = at(board, moves_left=2)
    other = replace(current, seed="another seed")
    assert GAME.to_position(current) != GAME.to_position(other)
    mine = choose_move(GAME, bot, current, "red", "same seed", effort=0.1)
    assert mine == choose_move(GAME, bot, other, "red", "same seed", effort=0.1)


def test_the_arena_reads_the_kit_mcts_budget_of_a_game_with_its_own_evaluation() -> None:
    """`--mcts-iterations 20` is 20 iterations a move, not 20 / the Zark City search's budget x the kit's."""
    assert mcts_iterations("launchpad23") == 100 == mcts_iterations("icedice")
