"""Every throw event carries its dice as drawing-kit dice, faces matching its words (the history and the
emails draw them), and a die is carried only by the event that threw it."""

from __future__ import annotations

import random
import re

import pytest

from engine import registry
from engine.interface import Event, throw_svg, thrown
from engine.kit.core import Sealed

DICE_GAMES = ("icedice", "pharaoh", "launchpad23", "blackice")


def playout(game_id: str, seed: str, steps: int = 60) -> list[Event]:
    """The events of the setup and of up to `steps` random steps (a sealed step resolved at once)."""
    rules = registry.get(game_id)
    chooser = random.Random(seed)
    outcome = rules.start(["red", "yellow"], seed, {})
    state, events = outcome.state, list(outcome.events)
    for _ in range(steps):
        if rules.result(state) is not None:
            break
        if isinstance(rules, Sealed) and rules.sealed_seats(state):
            picks = {seat: _pick(rules, state, seat, chooser) for seat in rules.sealed_seats(state)}
            outcome = rules.resolve(state, picks)
        else:
            seat = rules.movers(state)[0]
            outcome = rules.step(state, _pick(rules, state, seat, chooser), seat)
        state = outcome.state
        events += outcome.events
    return events


def _pick(rules: object, state: object, seat: str, chooser: random.Random) -> object:
    moves = [m for m in rules.legal_moves(state, seat) if not rules.is_resign(m)]  # type: ignore[attr-defined]
    return chooser.choice(moves)


def said_in_order(faces: list[str], text: str) -> bool:
    """The faces appear in the line, in the order thrown, one after another ("S + green", "dig hop swap")."""
    return re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, faces)) + r"(?!\w)", text) is not None


@pytest.mark.parametrize("game_id", DICE_GAMES)
@pytest.mark.parametrize("seed", ["dice-1", "dice-2", "dice-3"])
def test_each_throw_carries_the_faces_its_words_name(game_id: str, seed: str) -> None:
    events = playout(game_id, seed)
    throws = [event for event in events if event.dice]
    assert throws, f"{game_id} threw nothing in {seed}"
    for event in throws:
        faces = [die.face for die in event.dice]
        assert said_in_order(faces, event.text), (faces, event.text)
        assert event.seat is not None
        assert not event.secret  # a die is public once thrown


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_thrown_keeps_each_throw_with_whose_it_was_and_draws_it(game_id: str) -> None:
    events = tuple(playout(game_id, "dice-4", steps=12))
    kept = thrown(events)
    assert [[d["face"] for d in throw["dice"]] for throw in kept] == [
        [die.face for die in event.dice] for event in events if event.dice
    ]
    picture = throw_svg(kept[0])
    assert picture.startswith("<svg") and picture.count("<rect") >= len(kept[0]["dice"])
    assert f"{kept[0]['seat']} threw " in picture


def test_events_without_dice_keep_nothing() -> None:
    assert thrown((Event("start", "red starts", "red"),)) == []
