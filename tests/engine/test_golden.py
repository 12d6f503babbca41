"""Golden playthroughs: replay each stored game record and diff the final position and the log.

Regenerate with `.venv/bin/python tools/make_golden.py` after a deliberate change, and review the diff.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine import registry
from engine.files import pretty

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(GOLDEN.glob("*.game.json"))


@functools.cache
def make_golden() -> ModuleType:
    """tools/make_golden.py, the generator of these files: its playthrough log is the one diffed."""
    spec = importlib.util.spec_from_file_location("make_golden", ROOT / "tools" / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_the_golden_games_are_there() -> None:
    names = {path.name.removesuffix(".game.json") for path in RECORDS}
    assert {"two-standard", "three-arcade", "five-standard", "two-decktown", "four-decktown"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=[p.name.removesuffix(".game.json") for p in RECORDS])
def test_replay_matches_the_final_position(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    game = registry.get(record.get("game"))
    final = game.replay(record)
    expected = path.with_name(path.name.replace(".game.json", ".position.json")).read_text(encoding="utf-8")
    assert pretty(game.to_position(final)) + "\n" == expected
    assert game.from_position(json.loads(expected)) == final
    assert final.phase == "over" and final.reason == record["result"]["reason"] == final.ruleset.win_reason


@pytest.mark.parametrize("path", RECORDS, ids=[p.name.removesuffix(".game.json") for p in RECORDS])
def test_playthrough_log_matches(path: Path) -> None:
    name = path.name.removesuffix(".game.json")
    record = json.loads(path.read_text(encoding="utf-8"))
    expected = (GOLDEN / f"{name}.playthrough.txt").read_text(encoding="utf-8")
    assert make_golden().playthrough(name, record) == expected


def test_the_golden_games_exercise_the_rare_rules() -> None:
    tool = make_golden()
    shown: set[str] = set()
    for spec in tool.GAMES:
        record = json.loads((GOLDEN / f"{spec.name}.game.json").read_text(encoding="utf-8"))
        moves = [(m["by"], m["move"]) for m in record["moves"]]
        shown |= tool.features(spec, record["seed"], moves)
    assert set(tool.FEATURES) <= shown


@pytest.mark.parametrize("name", ["two-decktown", "four-decktown"])
def test_the_deck_town_golden_games_are_deck_town(name: str) -> None:
    """Two and four players, won by a poker block, with suit-matched conversions and no turn draw."""
    record = json.loads((GOLDEN / f"{name}.game.json").read_text(encoding="utf-8"))
    assert (record["game"], record["format"], record["deck_type"]) == ("decktown", "decktown-game/1", "myrmex")
    assert record["result"] == {"winner": record["result"]["winner"], "reason": "poker block"}
    log = (GOLDEN / f"{name}.playthrough.txt").read_text(encoding="utf-8")
    assert "drew 0 cards" not in log and "turn: red drew" not in log
    assert any(m["move"].startswith("convert") for m in record["moves"])
