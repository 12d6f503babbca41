"""The golden corpus: 300 Homeworlds games people played on Super Duper Games (2005-2020).

`golden/homeworlds-sdg-sample.jsonl.gz` is ../shared/data/homeworlds/sdg-sample.jsonl.gz (from the
public transcripts in Quuxplusone/Homeworlds, written as `homeworlds-game/1` records under
`catastrophes=end suicide=illegal setup=free`; its README in the shared data says how). Every game
replays through the engine's replay of the record; every game that ended by a homeworld's loss
ends there with the same winner; every step the players took is in the legal-step list where it
was taken (a discovery under any free name: the list names it with the first free Greek letter).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.homeworlds.game import GAME
from engine.homeworlds.moves import free_name
from engine.homeworlds.notation import Discover, Step, parse
from engine.homeworlds.state import State

CORPUS = Path(__file__).parent / "golden" / "homeworlds-sdg-sample.jsonl.gz"


def _games() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


GAMES = _games()


def test_the_corpus_is_the_300_games() -> None:
    assert len(GAMES) == 300
    assert sum(game["ends"] == "homeworld" for game in GAMES) == 131


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"sdg{game['sdg']}")
def test_the_game_replays_to_its_winner(game: dict[str, Any]) -> None:
    state = GAME.replay(game["record"])
    result = GAME.result(state)
    if game["ends"] == "homeworld":
        assert result is not None and (result.winner, result.reason) == (game["winner"], "homeworld")
    else:  # the transcript stops at a resignation or a time-out: both homeworlds stand
        assert result is None


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"sdg{game['sdg']}")
def test_every_step_taken_was_listed(game: dict[str, Any]) -> None:
    record = game["record"]
    state = GAME.new_game(record["players"], record["seed"], record["options"])
    for index, entry in enumerate(record["moves"]):
        step = parse(entry["move"])
        listed = GAME.legal_moves_of(state, entry["by"])
        assert _as_listed(step, state) in listed, f"move {index} ({entry['move']}) is not listed"
        state = GAME.apply(state, step, entry["by"])


def _as_listed(step: Step, state: State) -> Step:
    """A discovery is listed under the first free Greek letter; the player's own name is as legal."""
    if isinstance(step, Discover):
        return replace(step, name=free_name(state))
    return step
