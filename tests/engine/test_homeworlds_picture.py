"""The star map (engine/homeworlds/picture.py on the drawing kit), its click paths, the text board and
the command line, over games of the golden corpus (tests/engine/test_homeworlds_corpus.py)."""

from __future__ import annotations

import copy
import gzip
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.homeworlds import picture
from engine.homeworlds.game import GAME
from engine.homeworlds.state import State
from engine.kit import draw
from tests.engine.homeworlds_helpers import NORTH, SOUTH, position
from tests.engine.test_homeworlds_files import SPEC_RECORD

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "golden" / "homeworlds-sdg-sample.jsonl.gz"


def _records(count: int) -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        return [json.loads(line)["record"] for line, _ in zip(lines, range(count), strict=False)]


RECORDS = _records(4)


def _plies(record: dict[str, Any]) -> Iterator[State]:
    """Every state of the game, from the start, one step at a time."""
    state = GAME.new_game(record["players"], record["seed"], record["options"])
    yield state
    for entry in record["moves"]:
        state = GAME.apply(state, GAME.parse(entry["move"]), entry["by"])
        yield state


def _box_names(scene: draw.Scene) -> list[str]:
    return [
        item.target.removeprefix("system:")
        for item in scene.items
        if isinstance(item, draw.Box) and item.target.startswith("system:")
    ]


def test_it_is_registered_with_its_options() -> None:
    assert registry.get("homeworlds") is GAME
    assert [option.name for option in GAME.info.options] == ["catastrophes", "suicide", "setup"]


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: record["seed"])
def test_every_legal_step_is_clicked_on_targets_the_map_has(record: dict[str, Any]) -> None:
    for state in _plies(record):
        if state.to_move is None:
            continue
        view = GAME.view(state, state.to_move)
        targets = draw.targets(GAME.scene(view))
        for step in GAME.legal_moves_of(state, state.to_move):
            path = picture.click_path(step)
            assert set(path) <= targets, (str(step), path)
            assert path or str(step) in ("pass", "done")


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: record["seed"])
def test_the_text_board_lists_every_system_and_the_bank(record: dict[str, Any]) -> None:
    for state in _plies(record):
        text = GAME.board_text(GAME.view(state, None))
        lines = text.splitlines()
        for system in state.systems:
            line = next(line for line in lines if line.startswith(f"{system.name}"))
            assert all(star in line for star in system.stars)
            assert all(f"{seat}: " in line for seat in state.players)
            assert all(ship in line for ships in system.ships for ship in ships)
        assert lines[-1].startswith("Bank: ") or lines[-1].startswith("Sacrifice: ")


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: record["seed"])
def test_a_system_keeps_its_place_and_the_homeworlds_their_ends(record: dict[str, Any]) -> None:
    before: list[str] = []
    for state in _plies(record):
        names = _box_names(GAME.scene(GAME.view(state, None)))
        kept = [name for name in names if name in before]
        assert kept == [name for name in before if name in names]
        homes = {state.players.index(s.home): s.key for s in state.systems if s.home}
        if 0 in homes:
            assert names[0] == homes[0]
        if 1 in homes:
            assert names[-1] == homes[1]
        before = names


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: record["seed"])
def test_the_words_stay_readable_on_a_phone(record: dict[str, Any]) -> None:
    for state in _plies(record):
        assert draw.smallest_text_px(GAME.scene(GAME.view(state, state.to_move))) >= 10


def test_owners_by_direction_overpopulation_and_sacrifice_are_drawn() -> None:
    state = position(
        NORTH,
        SOUTH,
        "Lorem: r2 / r1 r3 / r1",
        stage="sacrifice",
        sacrifice={"colour": "red", "left": 2},
        this_turn=["sacrifice r2 South"],  # its 2 actions are still to come
    )
    scene = GAME.scene(GAME.view(state, "red"))
    lorem = next(item for item in scene.items if isinstance(item, draw.Box) and item.target == "system:lorem")
    ships = [spot for spot in lorem.spots if isinstance(spot, draw.Pyramid) and spot.lying]
    assert [(s.target, s.lying) for s in ships] == [
        ("ship:lorem:r3", "right"),
        ("ship:lorem:r1", "right"),
        ("enemy:lorem:r1", "left"),
    ]
    assert "catastrophe:lorem:red" in draw.targets(scene)
    labels = [item.text for item in scene.items if isinstance(item, draw.Label)]
    assert "Sacrifice: 2 red actions left" in labels


def test_a_discovery_is_clicked_and_named_by_the_engine() -> None:
    state = GAME.new_game(["red", "yellow"], "clicks", {})
    for line in ("homeworld y2 b1 g3", "homeworld r1 b2 y3"):
        state = GAME.apply(state, GAME.parse(line), state.to_move or "")
    mover = state.to_move or ""
    home = state.home_of(mover)
    assert home is not None
    steps = {picture.click_path(step): str(step) for step in GAME.legal_moves_of(state, mover)}
    ship = home.ships[state.seat(mover)][0]
    found = steps.get((f"ship:{home.key}:{ship}", "new", "bank:r3"))
    assert found is not None and found.endswith(" Alpha")


def _cli(*args: str, stdin: str | None = None) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )
    assert (run.returncode, run.stderr) == (0, "")
    return run.stdout


def test_the_command_line_starts_and_plays_a_game(tmp_path: Path) -> None:
    start = _cli("new", "--game", "homeworlds", "--players", "red,yellow", "--seed", "cli", "--suicide", "illegal")
    data = json.loads(start)
    assert (data["format"], data["stage"], data["options"]["suicide"]) == ("homeworlds-position/1", "setup", "illegal")
    path = tmp_path / "start.json"
    path.write_text(start)
    mover = data["to_move"]
    assert "homeworld y2 b1 g3" in _cli("moves", str(path)).split("\n")
    moved = json.loads(_cli("apply", str(path), "Homeworld B1 Y2 G3", "--as", mover))
    assert moved["systems"][0] == {"name": "North", "home": mover, "stars": ["y2", "b1"], "ships": {mover: ["g3"]}}


def test_the_command_line_replays_a_corpus_record() -> None:
    record = copy.deepcopy(RECORDS[0])
    final = json.loads(_cli("replay", "-", stdin=json.dumps(record)))
    assert final == GAME.to_position(GAME.replay(record))


def test_a_long_name_is_cut_on_the_map_and_whole_in_the_text() -> None:
    name = "Andromeda_Galaxy_Far_Far_Away_2026"
    state = position(NORTH, SOUTH, f"{name}: r2 / r1 / -")
    view = GAME.view(state, "red")
    titles = [item.title for item in GAME.scene(view).items if isinstance(item, draw.Box)]
    assert any(title.startswith("Andromeda_Galaxy_…") for title in titles)
    assert name in GAME.board_text(view)
    assert draw.smallest_text_px(GAME.scene(view)) >= 10


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("move y1 Lorem South; done; done", "step 2 (done): comes after your turn"),  # REC-H14: one trailing done
        ("move y1 Lorem South; resign", "step 2 (resign): resign goes on a line of its own"),
    ],
)
def test_the_command_line_refuses_a_line_the_spec_refuses(tmp_path: Path, line: str, message: str) -> None:
    """The spec's position: red is in a yellow sacrifice with one action left."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(GAME.to_position(GAME.replay(SPEC_RECORD))))
    run = subprocess.run(
        [sys.executable, "-m", "engine", "apply", str(path), line, "--as", "red"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and message in run.stderr and run.stdout == ""
    assert json.loads(_cli("apply", str(path), "move y1 Lorem South; done", "--as", "red"))["to_move"] == "yellow"
