"""Buyer's Market files, views, pictures and the command line: the position and record round-trip,
a bad file names what is wrong, views hide the piles' order and the seed, the CLI plays a game."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.buyersmarket.game import GAME
from engine.buyersmarket.notation import Buy
from engine.buyersmarket.setup import ROLL_BASE, roll
from engine.errors import PositionError, ReplayError
from engine.interface import Game
from engine.kit.core import CardFaces, Hands, Hidden, Scores, TurnSteps
from engine.shuffle import shuffled
from tests.engine.test_buyersmarket_rules import market

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("red", "yellow", "green")


def played(seed: str = "files", plies: int = 400) -> tuple[object, list[tuple[str, str]]]:
    """A whole game by a simple policy: buy when possible, else the first action; call when allowed."""
    state = GAME.new_game(PLAYERS, seed, {})
    log: list[tuple[str, str]] = []
    while GAME.result(state) is None and len(log) < plies:
        by = GAME.movers(state)[0]
        moves = [m for m in GAME.legal_moves(state, by) if not GAME.is_resign(m)]
        move = next((m for m in moves if getattr(m, "call", False)), None) or next(
            (m for m in moves if isinstance(m, Buy)), moves[(len(log) * 5) % len(moves)]
        )
        state = GAME.apply(state, move, by)
        log.append((by, str(move)))
    return state, log


def test_the_game_is_registered_with_its_info() -> None:
    game = registry.get("buyersmarket")
    assert isinstance(game, Game)
    info = game.info
    assert (info.id, info.name, info.player_counts, info.hidden_information) == (
        "buyersmarket",
        "Buyer's Market",
        (2, 3, 4),
        False,
    )
    assert [k.verb for k in game.move_kinds()] == ["pile", "place", "contribute", "buy", "pass", "resign"]
    assert not isinstance(game, Hands)
    assert all(isinstance(game, capability) for capability in (CardFaces, Hidden, Scores, TurnSteps))


def test_setup_follows_the_seed_by_the_documented_method() -> None:
    state = GAME.new_game(("red", "blue"), "documented", {})
    assert state.first_player == shuffled(("red", "blue"), "documented", 0)[0]
    assert state.piles["S"][:1] != () and set(state.piles["H"]) | {
        p.card for p in state.pallets if p.card[-1] == "H"
    } <= {r + "H" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")}
    assert roll("documented", 0) == shuffled(("S", "H", "D", "C", "T", "atom"), "documented", ROLL_BASE)[0]
    assert state.grp["H"] == {"S": 3, "M": 3, "L": 3} and state.banks["red"] == {"S": 2, "M": 2, "L": 2}
    assert GAME.new_game(("red", "yellow", "green", "blue"), "four", {}).grp["T"] == {"S": 4, "M": 4, "L": 4}


def test_the_position_round_trips_and_a_missing_pyramid_is_refused() -> None:
    state, _ = played()
    data = json.loads(json.dumps(GAME.to_position(state)))
    assert GAME.from_position(data) == state
    broken = copy.deepcopy(data)
    broken["grp"]["H"]["L"] += 1
    with pytest.raises(PositionError, match="H L resource pyramids"):
        GAME.from_position(broken)
    doubled = copy.deepcopy(data)
    doubled["collected"]["red"].append(doubled["piles"]["H"][0] if doubled["piles"]["H"] else "AH")
    with pytest.raises(PositionError, match="card"):
        GAME.from_position(doubled)
    with pytest.raises(PositionError, match="not buyersmarket"):
        GAME.from_position(data | {"game": "martianchess"})


def test_the_record_replays_and_checks_its_result() -> None:
    state, log = played()
    record = json.loads(json.dumps(GAME.make_record(PLAYERS, {}, "files", log, GAME.record_result(state))))
    assert record["format"] == "buyersmarket-game/1" and record["game"] == "buyersmarket"
    assert GAME.replay(record) == state
    wrong = record | {"result": {"winner": "green" if state.winners != ("green",) else "red", "reason": "score"}}
    with pytest.raises(ReplayError, match="the record says"):
        GAME.replay(wrong)
    bad_move = record | {"moves": [*record["moves"][:3], {"by": record["moves"][3]["by"], "move": "buy AH"}]}
    with pytest.raises(ReplayError, match="move 3"):
        GAME.replay(bad_move | {"result": None})


def test_the_service_s_comma_joined_winners_and_a_draw_check() -> None:
    state = market(3)
    drawn = GAME.check_result(state, {"winner": None, "reason": "draw"}, 0)
    assert GAME.result(drawn) is not None and GAME.result(drawn).winners == ()
    tied = GAME.resign(GAME.resign(state, "green"), "yellow")
    assert GAME.check_result(tied, {"winner": "red", "reason": "resignation"}, 2).winners == ("red",)


def test_views_show_only_top_cards_and_no_seed_until_the_end() -> None:
    state = GAME.new_game(PLAYERS, "secret-seed", {})
    shown = GAME.view(state, "red")
    text = json.dumps(shown)
    assert "secret-seed" not in text and "seed" not in shown
    for suit, pile in state.piles.items():
        assert shown["piles"][suit] == {"top": pile[0], "size": len(pile)}  # type: ignore[typeddict-item]
        assert all(f'"{card}"' not in text for card in pile[1:])
    over, _ = played("secret-seed")
    assert GAME.view(over, None)["seed"] == "secret-seed"  # type: ignore[typeddict-item]


def test_the_finished_picture_draws_each_building_with_its_score_lines() -> None:
    over, _ = played()
    shown = GAME.view(over, None)
    svg = GAME.board_svg(shown)
    for colour in PLAYERS:
        assert f'data-colour="{colour}"' in svg
    for line in ("bricks", "levels", "cohesiveness", "diversity", "regality", "unused", "unspent", "total"):
        assert f">{line}<" in svg
    table = GAME.table(shown)
    assert any(note.startswith(f"{over.winners[0]}'s building") for note in table.notes)
    assert f"{over.winners[0]}'s building, " in GAME.board_text(shown)


def test_the_interactive_picture_marks_pallets_and_piles_for_the_script() -> None:
    state = GAME.new_game(PLAYERS, "clicks", {})
    svg = GAME.board_svg(GAME.view(state, "red"), interactive=True)
    for pallet in state.pallets:
        assert f'data-pallet="{pallet.card}"' in svg
    assert svg.count("data-pile=") == 5
    script = GAME.board_script(GAME.view(state, "red"))
    assert script.module == "games/buyersmarket/board.js"
    assert set(script.data["labels"]) >= {p.card for p in state.pallets}


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, input=stdin, timeout=60
    )


def test_the_command_line_deals_lists_applies_views_and_refuses(tmp_path: Path) -> None:
    new = cli("new", "--game", "buyersmarket", "--players", "red,blue", "--seed", "cli")
    assert new.returncode == 0, new.stderr
    position = tmp_path / "p.json"
    position.write_text(new.stdout)
    data = json.loads(new.stdout)
    assert data["format"] == "buyersmarket-position/1" and data["game"] == "buyersmarket"
    moves = cli("moves", str(position))
    first = moves.stdout.splitlines()[0]
    applied = cli("apply", str(position), first)
    assert applied.returncode == 0, applied.stderr
    assert json.loads(applied.stdout)["turn"] >= data["turn"]
    view = cli("view", str(position), "--as", "red")
    assert json.loads(view.stdout)["format"] == "buyersmarket-view/1"
    card = data["pallets"][0]["card"]
    refused = cli("apply", str(position), f"buy {card}")
    assert refused.returncode == 1 and "short of its value" in refused.stderr
    unreadable = cli("apply", str(position), "buy the lot")
    assert unreadable.returncode == 2
    assert "buyersmarket  Buyer's Market  2-4 players" in cli("games").stdout


def test_reveal_names_each_pile_s_order_for_the_replay_of_a_finished_game() -> None:
    over, _ = played()
    notes = GAME.table(GAME.reveal(over)).notes
    for suit, name in (("S", "Spades"), ("T", "Stars")):
        assert any(n.startswith(f"{name} pile, top first:") for n in notes), suit
    assert not any("pile, top first" in n for n in GAME.table(GAME.view(over, None)).notes)
