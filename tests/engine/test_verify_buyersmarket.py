"""engine/buyersmarket/verify.py (the package's offline verifier) on Buyer's Market records:
the piles and die rolls from the seed, every move's
legality, the buildings' scores and the result (rules.md 15, B12-B15).

The tool is an independent standard-library re-implementation; the golden records and games played by
the engine must verify, and forged ones (a false score, an illegal move, a wrong winner) are rejected.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from engine.buyersmarket import rules
from engine.buyersmarket.game import GAME
from engine.buyersmarket.scoring import best_building
from engine.kit.base import RESIGN
from engine.shuffle import commitment

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("verify_game", ROOT / "engine" / "buyersmarket" / "verify.py")
verify_game = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_game)

GOLDEN = sorted((ROOT / "tests" / "engine" / "golden").glob("buyersmarket-*.record.json"))
OWNERS = ("S", "H", "D", "C", "T", "red")


def golden(name: str) -> dict:
    return json.loads((ROOT / "tests" / "engine" / "golden" / f"buyersmarket-{name}.record.json").read_text())


def rejected(forged: dict, match: str) -> None:
    with pytest.raises(verify_game.Rejected, match=match):
        verify_game.verify(forged)


def quiet(line: str) -> None:
    """The tool's log, unread here."""


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_a_golden_record_verifies_with_its_commitment(path, tmp_path):
    honest = json.loads(path.read_text())
    verdict = verify_game.verify(honest, commitment(honest["seed"]))
    assert f"all {len(honest['moves'])} moves" in verdict and "every score" in verdict
    assert verify_game.main([str(path), "--commitment", commitment(honest["seed"])]) == 0


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green"], ["red", "yellow", "green", "blue"]])
@pytest.mark.parametrize("seed", ["a", "setup"])
def test_the_setup_is_the_engines(players, seed):
    """Who starts, every pile's order, the four setup pallets (or the pile pick a setup atom asks for)."""
    state = rules.new_game(players, seed)
    market = verify_game.BuyersMarket(players, seed, quiet)
    assert market.first == state.first_player and market.rolls == state.rolls
    assert {s: tuple(cards) for s, cards in market.piles.items()} == dict(state.piles)
    assert [card for card, _ in market.pallets] == [p.card for p in state.pallets]
    assert market.picker == (state.pending.roller if state.pending else None)


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green"], ["red", "yellow", "green", "blue"]])
@pytest.mark.parametrize("rng_seed", range(3))
def test_random_games_verify(players, rng_seed):
    """Random legal games (purchases with change, calls, passes, a resignation now and then) verify."""
    rng, seed = random.Random(rng_seed), f"playout-{rng_seed}"
    state, moves = rules.new_game(players, seed), []
    while state.phase != "over" and len(moves) < 400:
        by = state.to_move
        legal = rules.legal_moves(state, by)
        move = rng.choice(legal) if rng.random() > 0.002 else RESIGN
        moves.append((by, str(move)))
        state = GAME.apply(state, move, by)
    made = GAME.make_record(players, {}, seed, moves, GAME.record_result(state))
    assert "reproduce" in verify_game.verify(json.loads(json.dumps(made)))


@pytest.mark.parametrize("rng_seed", range(60))
def test_the_best_building_is_the_engines(rng_seed):
    """Collected piles of every make-up a game can produce: the tool's search and the engine's agree."""
    rng = random.Random(rng_seed)
    pile = [(o, s) for s in "LMS" for o in OWNERS for _ in range(rng.randint(0, 2 if o == "red" else 4))]
    rng.shuffle(pile)
    pile, bank = pile[: rng.randint(0, len(pile))], rng.randint(0, 6)
    assert verify_game.best_building_score(pile, bank) == best_building(pile, bank).total


def test_rejects_a_false_score(tmp_path):
    """The issue's case: a player's score set to 99."""
    forged = golden("three")
    forged["result"]["scores"]["red"] = 99
    rejected(forged, r"the record gives the scores .*'red': 99.*, but the buildings score .*'red': 25")
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert verify_game.main([str(path)]) == 1


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"winner": "yellow", "winners": ["yellow"]}, "the record says yellow won by score"),
        ({"winner": "yellow"}, "winner 'yellow' and winners \\['red'\\] differ"),
        ({"reason": "resignation"}, "won by resignation"),
    ],
)
def test_rejects_a_wrong_result(change, why):
    forged = golden("three")
    forged["result"] = {**forged["result"], **change}
    rejected(forged, why)


def test_rejects_a_changed_seed():
    forged = golden("two")
    forged["seed"] = "forged"
    with pytest.raises(verify_game.Rejected):
        verify_game.verify(forged)


def first_move(kind: str) -> tuple[int, dict]:
    for index, entry in enumerate(golden("three")["moves"]):
        if entry["move"].startswith(kind):
            return index, entry
    raise AssertionError(f"no {kind} in the golden record")


@pytest.mark.parametrize(
    ("kind", "changed", "why"),
    [
        ("place", lambda m: "pass", "pass only with no action at all"),
        ("buy", lambda m: m.split(" with")[0] + " with LSS", "is no purchase \\(a\\)|at most|bank does not hold"),
        ("contribute", lambda m: m + " call", "may be called once, with 4 L, 3 M and 1 S"),
    ],
)
def test_rejects_an_illegal_move(kind, changed, why):
    index, entry = first_move(kind)
    forged = golden("three")
    forged["moves"] = forged["moves"][: index + 1]
    forged["moves"][index]["move"] = changed(entry["move"])
    forged["result"] = None
    rejected(forged, rf"move {index} .*({why})")


def test_rejects_both_kinds_of_change_in_one_purchase():
    """B13: a purchase (a) overpaying by 2 may send change back to the bank or to the GRP, not both."""
    market = verify_game.BuyersMarket(["red", "blue"], "b13", quiet)
    market.picker, market.to_move = None, "red"
    market.pallets = [["3C", [("C", "S")]]]
    market.crp["red"] = [("red", "S")]
    with pytest.raises(verify_game.Rejected, match="one kind of change per purchase"):
        market.play("red", "buy 3C with LS back S return S")
    market.play("red", "buy 3C with LS back S")
    assert sorted(market.crp["red"]) == [("C", "S"), ("red", "L"), ("red", "S")] and market.banks["red"]["S"] == 2
