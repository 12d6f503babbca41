"""Hidden information: whole games played, and at every ply each seat and a spectator are shown
exactly the same things as in a twin state whose Codes they may not know are dealt again (a Code
they peeked, even swapped to another Lock, stays). Their views, tables, board texts and the lines
of every event are searched too."""

from __future__ import annotations

import json
import random
import re
from dataclasses import asdict

import pytest
from blackice_helpers import make, pick, redealt, steps

from engine import registry
from engine.blackice.game import GAME
from engine.blackice.state import State
from engine.kit import draw
from engine.kit.core import finished_words
from engine.kit.events import Event

VIEWERS = ("red", "blue", None)
OLD_CODE = re.compile(r"\(the old Code was \w+\)")


def shown(state: State, viewer: str | None) -> str:
    """Everything `viewer` reads of the position, as one text."""
    view = GAME.view(state, viewer)
    texts = (GAME.board_text(view), GAME.board_svg(view, interactive=True), draw.text(GAME.scene(view)))
    return json.dumps(view, sort_keys=True) + repr(asdict(GAME.table(view))) + "".join(texts)


def read(events: tuple[Event, ...], viewer: str | None) -> list[str]:
    """What `viewer` reads of `events`, less what the step itself tells it: a Reset's old Code (public),
    the Code `viewer` peeks now (its own secret), a declaration's Codes (the game is over)."""
    kept = (event for event in events if event.kind not in ("declare", "end"))
    seen = (event.seen_by(None) if viewer in event.to else event.seen_by(viewer) for event in kept)
    return [OLD_CODE.sub("", f"{e.text} {json.dumps({k: v for k, v in e.data.items() if k != 'old'})}") for e in seen]


def hidden(state: State, viewer: str | None) -> list[tuple[int, str]]:
    return [(place, lock.code) for place, lock in enumerate(state.locks, 1) if viewer not in lock.peeked_by]


def search(state: State, viewer: str | None) -> None:
    """No Code `viewer` may not know in its view, table, board text or picture; no Box order, no seed."""
    view = GAME.view(state, viewer)
    text = shown(state, viewer)
    for place, code in hidden(state, viewer):
        assert view["locks"][place - 1]["code"] is None  # type: ignore[typeddict-item]
        assert f"Lock {place}: {code}" not in text and f"Code of Lock {place}: {code}" not in text
    assert "box" not in view and "seed" not in view and state.seed not in text


@pytest.mark.parametrize("game", range(4))
def test_whole_games_leak_nothing(game: int) -> None:
    chooser = random.Random(game)
    state = GAME.new_game(["red", "blue"], f"leak-{game}", {})
    differed = 0
    while GAME.result(state) is None:
        seat, move = pick(state, chooser, declare=0.04)
        for viewer in VIEWERS:
            twin = redealt(state, viewer, random.Random(chooser.random()))
            differed += twin != state
            search(state, viewer)
            assert shown(twin, viewer) == shown(state, viewer)
            assert read(GAME.step(twin, move, seat).events, viewer) == read(GAME.step(state, move, seat).events, viewer)
            assert GAME.describe(move, seat, state, GAME.apply(state, move, seat), viewer) is not None
        state = GAME.apply(state, move, seat)
    assert differed > 0
    over = GAME.view(state, "blue")
    assert [lock["code"] for lock in over["locks"]] == [lock.code for lock in state.locks]  # type: ignore[typeddict-item]


def test_a_peeked_code_swapped_away() -> None:
    """Red peeks Lock 1 (green); blue swaps Locks 1 and 3: red still sees green, now at Lock 3; blue and a
    spectator see neither; the swap's line names no Code."""
    state = make(codes=("green", "yellow", "blue"))
    state, _ = steps(state, "peek 1; pass")
    state, events = steps(state, "swap locks 1 3", "blue")
    assert GAME.view(state, "red")["locks"][2]["code"] == "green"  # type: ignore[typeddict-item]
    assert "Lock 3: green" in GAME.board_text(GAME.view(state, "red"))
    for viewer in ("blue", None):
        search(state, viewer)
        assert all("green" not in line for line in read(events, viewer))
    search(state, "red")


def test_the_peek_secret_reaches_the_peeker_only() -> None:
    state = make(codes=("green", "yellow", "blue"))
    _, events = steps(state, "peek 2")
    peek = events[0]
    assert peek.to == frozenset({"red"}) and "yellow" in peek.seen_by("red").text
    for viewer in ("blue", None):
        seen = peek.seen_by(viewer)
        assert "yellow" not in seen.text and "code" not in seen.data


def test_a_reset_new_code_is_seen_by_nobody() -> None:
    state = make(
        codes=("green", "yellow", "blue"),
        marks=([], ["blue"], []),
        throw=["dig", "hop", "tip"],
        actions=["dig", "hop", "tip"],
    )
    after, events = steps(state, "reset 2")
    reset = next(e for e in events if e.kind == "reset")
    new = after.locks[1].code
    for viewer in VIEWERS:
        assert "new" not in reset.seen_by(viewer).data
        assert GAME.view(after, viewer)["locks"][1]["code"] is None  # type: ignore[typeddict-item]
    assert new in reset.seen_by(None, revealed=True).text


def test_the_picture_draws_unknown_codes_hidden() -> None:
    state, _ = steps(make(codes=("green", "yellow", "blue")), "peek 2")
    for viewer, expected in (("red", ["hidden", "yellow", "hidden"]), ("blue", ["hidden"] * 3), (None, ["hidden"] * 3)):
        scene = GAME.scene(GAME.view(state, viewer))
        codes = [
            item.spots[0].colour for item in scene.items if isinstance(item, draw.Box) and item.title.startswith("Lock")
        ]
        assert codes == expected
        assert draw.smallest_text_px(scene) >= 10


def test_after_the_game_its_words_tell_every_peek_and_reset() -> None:
    """The replay and the log of a finished game (the kit's `finished_words`) name the Code each Peek
    saw and each Reset drew; while it is on, a spectator reads neither. A game off the kit, or one on it
    that writes its own sentences, keeps its spectator's words."""
    state = make(
        codes=("green", "yellow", "blue"),
        marks=([], ["blue"], []),
        throw=["tip", "dig", "hop"],
        actions=["tip", "dig", "hop"],
    )
    after, _ = steps(state, "peek 1")
    peek = GAME.parse("peek 1")
    assert finished_words(GAME, peek, "red", state, after) == "red peeked Lock 1: green"
    assert GAME.describe(peek, "red", state, after, None) == "red peeked Lock 1"
    done, _ = steps(after, "reset 2")
    told = finished_words(GAME, GAME.parse("reset 2"), "red", after, done)
    assert told.endswith(f"the new Code is {done.locks[1].code}")
    for game_id in ("zarkcity", "martianchess"):  # off the kit; on it with sentences of its own
        other = registry.get(game_id)
        start = other.new_game(["red", "blue"], "words", {})
        seat = other.movers(start)[0]
        move = other.legal_moves(start, seat)[0]
        moved = other.apply(start, move, seat)
        assert finished_words(other, move, seat, start, moved) == other.describe(move, seat, start, moved, None)
