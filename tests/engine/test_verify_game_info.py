"""What each game says about itself for the apps (GameInfo): hands, the board hint, what the seed decides,
the reasons a game ends with; and `python -m engine games` wording player counts for any game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import registry
from engine.cli import games_list, player_counts

GAMES = registry.all_games()
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize(
    "counts,words", [((2, 3, 4, 5), "2-5"), ((2, 4), "2 or 4"), ((2, 3, 5), "2, 3 or 5"), ((2,), "2"), ((2, 3), "2-3")]
)
def test_player_counts_in_words(counts, words):
    assert player_counts(counts) == words


def test_games_lists_each_game_with_its_player_counts_in_words():
    lines = {line.split("  ")[0]: line for line in games_list()}
    assert set(lines) == set(registry.ids())
    for info in registry.infos():
        assert f"  {player_counts(info.player_counts)} players  " in lines[info.id]
    assert "(" not in "".join(line.split("--")[0] for line in lines.values())  # never "(2, 4) players"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.id)
def test_has_hands_is_what_the_table_shows(game):
    """A seated player's table lists a hand exactly for games that declare hands (emails show the line then)."""
    players = ["red", "yellow", "green", "blue", "black"][: game.info.player_counts[0]]
    state = game.new_game(players, "info", game.info.default_options())
    assert bool(game.table(game.view(state, players[0])).hand) == game.info.has_hands


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.id)
def test_each_game_words_its_board_its_chance_and_its_first_example(game):
    info = game.info
    assert info.board_hint.endswith(".") and info.chance and game.notation_help()[0][0]
    assert {"resignation", "timeout", "draw"} <= set(info.reasons)


def golden_results():
    for path in sorted(GOLDEN.glob("*.json")):
        data = json.loads(path.read_text())
        if isinstance(data.get("result"), dict):
            yield pytest.param(data.get("game", registry.DEFAULT), data["result"]["reason"], id=path.name)


@pytest.mark.parametrize("game_id,reason", list(golden_results()))
def test_every_golden_result_reason_is_declared_by_its_game(game_id, reason):
    assert reason in registry.get(game_id).info.reasons


def test_the_archive_offers_every_reason_once():
    reasons = registry.reasons()
    assert len(reasons) == len(set(reasons))
    assert {"power block", "poker block", "tie", "score"} <= set(reasons)
