"""engine/martianchess/verify.py (the package's offline verifier) on Martian Chess records:
who starts from the seed, every move's legality, the result.

The tool is an independent standard-library re-implementation; the golden records (written by the engine)
must verify, and forged ones (a wrong starter, an illegal move, a wrong result) must be rejected.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path

import pytest

from engine.martianchess import rules
from engine.martianchess.game import GAME
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("verify_game", ROOT / "engine" / "martianchess" / "verify.py")
verify_game = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_game)

GOLDEN = sorted((ROOT / "tests" / "engine" / "golden").glob("martianchess-*.record.json"))


def golden(name: str) -> dict:
    return json.loads((ROOT / "tests" / "engine" / "golden" / f"martianchess-{name}.record.json").read_text())


def rejected(forged: dict, match: str) -> None:
    with pytest.raises(verify_game.Rejected, match=match):
        verify_game.verify(forged)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_a_golden_record_verifies_with_its_commitment(path):
    honest = json.loads(path.read_text())
    verdict = verify_game.verify(honest, commitment(honest["seed"]))
    assert f"all {len(honest['moves'])} moves" in verdict
    assert verify_game.main([str(path)]) == 0


@pytest.mark.parametrize("name", ["two", "four"])
def test_the_starter_is_the_engines(name):
    honest = golden(name)
    chess = verify_game.MartianChess(honest["players"], honest["seed"], log=lambda line: None)
    assert chess.to_move == rules.first_player(honest["players"], honest["seed"]) == honest["moves"][0]["by"]


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green", "blue"]])
def test_the_setup_is_the_engines(players):
    chess = verify_game.MartianChess(players, "any", log=lambda line: None)
    assert chess.board == dict(rules.new_game(players, "any").board)


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green", "blue"]])
@pytest.mark.parametrize("rng_seed", range(4))
def test_random_playouts_agree_with_the_engine_move_for_move(players, rng_seed):
    """Every position of a random game: the tool's legal steps are the engine's, then the record verifies."""
    rng, state = random.Random(rng_seed), rules.new_game(players, f"playout-{rng_seed}")
    chess = verify_game.MartianChess(players, f"playout-{rng_seed}", log=lambda line: None)
    moves = []
    while state.phase != "over" and len(moves) < 150:
        by = state.to_move
        engine_steps = {str(m) for m in rules.legal_moves(state, by)}
        tool_steps = {f"{_name(a)}-{_name(b)}" for a, b in chess.steps(by)} or {"pass"}
        assert tool_steps == engine_steps, f"ply {len(moves)}"
        move = rng.choice(sorted(engine_steps))
        moves.append((by, move))
        state = GAME.apply(state, GAME.parse(move), by)
        chess.play(by, move)
    if state.phase != "over":
        moves.append((state.to_move, "resign"))
        state = GAME.resign(state, state.to_move)
    made = GAME.make_record(players, {}, f"playout-{rng_seed}", moves, GAME.record_result(state))
    assert "reproduce" in verify_game.verify(made)


def _name(cell) -> str:
    return "abcdefgh"[cell[0]] + str(cell[1] + 1)


def test_rejects_a_wrong_starter(tmp_path):
    forged = golden("two")
    forged["players"] = list(reversed(forged["players"]))  # the same seed now shuffles the other seat first
    rejected(forged, "move 0 .*it is .*'s move")
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert verify_game.main([str(path)]) == 1


def test_rejects_a_changed_seed_as_the_wrong_starter():
    forged = golden("four")
    seeds = (f"forged-{n}" for n in range(100))
    forged["seed"] = next(s for s in seeds if rules.first_player(forged["players"], s) != forged["moves"][0]["by"])
    rejected(forged, "move 0 ")


@pytest.mark.parametrize(
    "ply,move,why",
    [
        (0, "b3-b4", "does not move like that"),  # a Pawn moves diagonally only
        (0, "a1-a4", "pass over"),  # the Queen may not jump its own Drone
        (0, "a2-b3", "own piece"),  # onto its own Pawn while it still has a Queen: no promotion
        (0, "d7-c6", "mover's zone"),  # blue's piece, red's turn
        (0, "pass", "pass only when"),
        (0, "e2-e3", "off the board"),  # the 2-player board has files a-d only
    ],
)
def test_rejects_an_illegal_move(ply, move, why):
    forged = golden("two")
    forged["moves"][ply]["move"] = move
    rejected(forged, rf"move {ply} \(red: {move}\): .*{why}")


def test_rejects_undoing_a_canal_crossing_with_two():
    """After red's a3-a5 crosses the canal, blue may not send that piece straight back a5-a3."""
    forged = golden("two")
    assert forged["moves"][2] == {"by": "red", "move": "a3-a5"}
    forged["moves"] = forged["moves"][:3] + [{"by": "blue", "move": "a5-a3"}]
    forged["result"] = None
    rejected(forged, "move 3 .*no undo with two")


@pytest.mark.parametrize(
    "change,why",
    [
        ({"winner": "red"}, "the record says red won by score"),
        ({"reason": "resignation"}, "won by resignation"),
        ({"scores": {"red": 18, "blue": 13}}, "the scores"),
    ],
)
def test_rejects_a_wrong_result(change, why):
    forged = golden("two")
    forged["result"] = {**forged["result"], **change}
    rejected(forged, why)


def test_rejects_moves_after_the_end_and_a_missing_result():
    honest = golden("two")
    extended = copy.deepcopy(honest)
    extended["moves"].append({"by": "blue", "move": "a1-b2"})
    rejected(extended, "already over")
    rejected(dict(honest, result=None), "has no result")


def test_a_resignation_and_an_agreed_draw_verify():
    honest = golden("four")
    early = dict(honest, moves=honest["moves"][:5], result={"winner": None, "reason": "draw"})
    assert "reproduce" in verify_game.verify(early)
    two = golden("two")
    resigned = dict(two, moves=[*two["moves"][:4], {"by": "red", "move": "resign"}])
    resigned["result"] = {"winner": "blue", "reason": "timeout"}
    assert "reproduce" in verify_game.verify(resigned)
