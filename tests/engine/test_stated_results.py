"""rules.md B15, for every game: a record's stated result (winners, reason, every score) must be what its
moves produce. `python -m engine replay` refuses a record whose result says anything else (exit 1), and
one that states what its game does not keep (scores in Zark City, tied players outside a tie) as malformed
(exit 2)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.errors import PositionError, ReplayError

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "engine" / "golden"
RECORDS = sorted([*GOLDEN.glob("*.record.json"), *GOLDEN.glob("*.game.json")])
SCORED = [path for path in RECORDS if (json.loads(path.read_text())["result"] or {}).get("scores")]
UNSCORED = [path for path in RECORDS if path not in SCORED]


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def replay(record: dict):
    return registry.get(record.get("game", "zarkcity")).replay(record)


def cli_replay(record: dict, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_the_goldens_cover_scored_and_unscored_games() -> None:
    assert {load(p)["game"] for p in SCORED} == {"buyersmarket", "martianchess"}
    assert {load(p).get("game", "zarkcity") for p in UNSCORED} >= {"zarkcity", "decktown"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_an_honest_record_replays(path: Path) -> None:
    assert replay(load(path)) is not None


@pytest.mark.parametrize("path", SCORED, ids=lambda p: p.name)
def test_a_false_score_is_refused(path: Path, tmp_path: Path) -> None:
    """The issue's case: one player's score set to 99 in a scored record."""
    forged = load(path)
    colour = next(iter(forged["result"]["scores"]))
    real = forged["result"]["scores"][colour]
    forged["result"]["scores"][colour] = 99
    with pytest.raises(ReplayError, match=f"the record gives {colour} 99 points, but after .* {colour} has {real}"):
        replay(forged)
    done = cli_replay(forged, tmp_path)
    assert done.returncode == 1 and f"{colour} 99 points" in done.stderr


@pytest.mark.parametrize("path", SCORED, ids=lambda p: p.name)
def test_a_missing_or_extra_score_is_refused(path: Path) -> None:
    missing = load(path)
    dropped = next(iter(missing["result"]["scores"]))
    del missing["result"]["scores"][dropped]
    with pytest.raises(ReplayError, match=f"{dropped} no score"):
        replay(missing)
    extra = load(path)
    absent = next(c for c in ("red", "yellow", "green", "blue", "black") if c not in extra["players"])
    extra["result"]["scores"][absent] = 0
    with pytest.raises(PositionError, match=f"'{absent}' is not seated"):
        replay(extra)


@pytest.mark.parametrize("path", SCORED, ids=lambda p: p.name)
def test_scores_that_are_not_numbers_are_malformed(path: Path) -> None:
    forged = load(path)
    forged["result"]["scores"] = {colour: str(points) for colour, points in forged["result"]["scores"].items()}
    with pytest.raises(PositionError, match="whole number"):
        replay(forged)


@pytest.mark.parametrize("path", SCORED, ids=lambda p: p.name)
def test_a_false_winner_is_refused(path: Path) -> None:
    forged = load(path)
    loser = next(c for c in forged["players"] if c != forged["result"]["winner"])
    forged["result"] = {**forged["result"], "winner": loser}
    forged["result"].pop("winners", None)
    with pytest.raises(ReplayError, match=f"the record says {loser} won by score"):
        replay(forged)


def test_buyers_market_winner_and_winners_must_agree() -> None:
    forged = load(GOLDEN / "buyersmarket-three.record.json")
    forged["result"]["winner"] = "yellow"  # "winners" still says red
    with pytest.raises(PositionError, match="name different players"):
        replay(forged)


def test_buyers_market_scores_on_a_game_that_was_not_scored_are_refused() -> None:
    forged = load(GOLDEN / "buyersmarket-two.record.json")
    forged["moves"] = forged["moves"][:3]
    forged["result"] = {"winner": None, "reason": "draw", "scores": {"red": 1, "blue": 1}}
    with pytest.raises(ReplayError, match="nobody is scored"):
        replay(forged)


@pytest.mark.parametrize("path", UNSCORED, ids=lambda p: p.name)
def test_a_game_without_scores_states_none(path: Path, tmp_path: Path) -> None:
    forged = load(path)
    forged["result"] = {**forged["result"], "scores": {colour: 3 for colour in forged["players"]}}
    with pytest.raises(PositionError, match="keeps no scores"):
        replay(forged)
    assert cli_replay(forged, tmp_path).returncode == 2


@pytest.mark.parametrize("path", UNSCORED, ids=lambda p: p.name)
def test_only_a_tie_lists_tied_players(path: Path) -> None:
    forged = copy.deepcopy(load(path))
    forged["result"] = {**forged["result"], "tied": list(forged["players"][:2])}
    with pytest.raises(PositionError, match="lists no tied players"):
        replay(forged)
