"""The starter choice as a sealed step (engine/kit/core.py `Sealed`) in Zark City and Deck Town: each
seat's commitment checked on arrival and kept unseen, then one `resolve` of them all, in arrival order,
giving the state the game record's `choose` entries give when replayed one by one (rules.md 3.5-3.6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.errors import IllegalMoveError
from engine.kit.core import OpenCommitments, Sealed, committed_note
from engine.launchpad23.game import GAME as LAUNCH_PAD
from engine.zarkcity.cards import CARDS
from engine.zarkcity.game import GAME as ZARK_CITY
from tests.engine.kit.tiny import RACE

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.game.json") if json.loads(p.read_text()).get("game") != "martianchess")


def opening(path: Path):
    record = json.loads(path.read_text())
    game = registry.get(record.get("game", "zarkcity"))
    options = {"deck": record["deck_type"]} if game.info.options else {}  # Zark City's record names its deck
    state = game.new_game(record["players"], record["seed"], options)
    chooses = [(m["by"], game.parse(m["move"])) for m in record["moves"][: len(record["players"])]]
    return game, state, chooses


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_one_resolve_is_the_records_choices_replayed_in_order(path):
    game, state, chooses = opening(path)
    assert isinstance(game, Sealed) and set(game.sealed_seats(state)) == {by for by, _ in chooses}
    one_by_one = state
    for by, move in chooses:
        game.check_commitment(state, by, move)  # each checked against the position nobody has changed
        one_by_one = game.apply(one_by_one, move, by)
    resolved = game.resolve(state, dict(chooses)).state
    assert game.to_position(resolved) == game.to_position(one_by_one)
    assert game.sealed_seats(resolved) == () and game.phase(resolved) == "place"


def tied_table():
    """Red and blue each hold a 9 (and nothing higher): the tie goes to whoever committed first."""
    game = registry.get("zarkcity")
    for n in range(500):
        state = game.new_game(["red", "blue"], f"tie-{n}", {"deck": "standard"})
        nines = {seat: [c for c in state.hands[seat] if CARDS[c].rank == "9"] for seat in ("red", "blue")}
        if all(nines.values()):
            return game, state, {seat: game.parse(f"choose {cards[0]}") for seat, cards in nines.items()}
    raise AssertionError("no deal gave both a nine")


@pytest.mark.parametrize("order", [("red", "blue"), ("blue", "red")])
def test_arrival_order_breaks_a_tie_for_first_player(order):
    game, state, choice = tied_table()
    resolved = game.resolve(state, {seat: choice[seat] for seat in order}).state
    assert resolved.first_player == order[0]


def test_a_commitment_is_checked_on_arrival():
    game, state, _ = opening(GOLDEN / "two-standard.game.json")
    hand = state.hands["red"]
    missing = next(c for c in ("2S", "3S", "4S", "5S", "6S") if c not in hand)
    with pytest.raises(IllegalMoveError, match="Choose"):
        game.check_commitment(state, "red", game.parse(f"choose {missing}"))
    with pytest.raises(IllegalMoveError, match="Place: not now"):
        game.check_commitment(state, "red", game.parse("place 1,0"))
    with pytest.raises(IllegalMoveError, match="Resign"):
        game.check_commitment(state, "red", game.parse("resign"))


def test_only_the_starter_choice_is_sealed():
    game, state, chooses = opening(GOLDEN / "two-decktown.game.json")
    assert game.simultaneous(state) and game.sealed_seats(state) == ("red", "blue")[: len(game.sealed_seats(state))]
    placed = game.resolve(state, dict(chooses)).state
    assert not game.simultaneous(placed) and game.sealed_seats(placed) == ()


@pytest.mark.parametrize(
    ("game", "note"),
    [
        (ZARK_CITY, "has chosen a starter"),  # rules.md: "Whether a player has committed is public"
        (LAUNCH_PAD, ""),  # issue 27 over launchpad23.md: even whether a player has chosen is secret
        (RACE, ""),  # a sealed bid without OpenCommitments: even that it is in stays secret
    ],
    ids=["zarkcity", "launchpad23", "race"],
)
def test_the_game_says_whether_a_commitment_being_in_is_public(game: Any, note: str) -> None:
    state = game.new_game(("red", "yellow"), "seed", {})
    assert isinstance(game, Sealed) and game.sealed_seats(state)
    assert committed_note(game, state, "red") == note
    assert isinstance(game, OpenCommitments) == bool(note)
