"""Deck Town through the game interface: files, the command line, the verifier, views and pictures."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.decktown.game import GAME
from engine.errors import PositionError
from engine.files import pretty

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"


def run(*args: str, tool: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, tool] if tool else [sys.executable, "-m", "engine"]
    return subprocess.run([*command, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_registry_knows_deck_town() -> None:
    assert registry.get("decktown") is GAME
    assert GAME.info.player_counts == (2, 3, 4, 5) and GAME.info.options == ()
    assert "decktown" in {info.id for info in registry.infos()}


def test_a_new_position_names_its_game_and_reads_back() -> None:
    state = GAME.new_game(("red", "blue", "green"), "files", {})
    data = GAME.to_position(state)
    assert [data["format"], data["game"], data["rules"], data["deck_type"]] == [
        "decktown-position/1",
        "decktown",
        "decktown/1",
        "myrmex",
    ]
    assert GAME.from_position(json.loads(json.dumps(data))) == state
    assert sum(len(h) for h in data["hands"].values()) + len(data["deck"]) == 72


def test_options_are_refused() -> None:
    with pytest.raises(ValueError, match="no option 'deck'"):
        GAME.new_game(("red", "blue"), "s", {"deck": "arcade"})


def test_a_file_of_one_game_is_not_read_as_the_other() -> None:
    data = GAME.to_position(GAME.new_game(("red", "blue"), "s", {}))
    with pytest.raises(PositionError, match="this is a decktown file, not zarkcity"):
        registry.get("zarkcity").from_position(data)
    zark = registry.get("zarkcity").to_position(registry.get("zarkcity").new_game(("red", "blue"), "s", {}))
    del zark["game"]  # a file from before there were other games is Zark City
    with pytest.raises(PositionError, match="this is a zarkcity file, not decktown"):
        GAME.from_position(zark)
    assert registry.get("zarkcity").from_position(zark).game == "zarkcity"


def test_the_view_names_the_game_and_hides_the_other_hand() -> None:
    state = GAME.new_game(("red", "blue"), "view", {})
    shown = GAME.view(state, "red")
    assert (shown["format"], shown["game"], shown["hand_limit"]) == ("decktown-view/1", "decktown", 5)  # type: ignore[typeddict-item]
    assert "hands" not in shown and "deck" not in shown


def test_the_board_script_labels_only_the_viewers_cards() -> None:
    state = GAME.new_game(("red", "blue"), "script", {})
    data = GAME.board_script(GAME.view(state, "red")).data
    assert set(data["labels"]) == set(state.hands["red"])
    assert all(GAME.card(code).label == label for code, label in data["labels"].items())
    assert data["pips"] == {c: state.ruleset.cards[c].pips for c in state.hands["red"] if state.ruleset.cards[c].pips}


def test_the_board_script_tells_the_hand_limit_its_discard_prompt_names() -> None:
    state = GAME.new_game(("red", "blue"), "script", {})
    assert GAME.board_script(GAME.view(state, "red")).data["handLimit"] == 5
    zark = registry.get("zarkcity")
    assert zark.board_script(zark.view(zark.new_game(("red", "blue"), "script", {}), "red")).data["handLimit"] == 6


def test_the_pictures_show_names_ranks_and_suits() -> None:
    record = json.loads((GOLDEN / "two-decktown.game.json").read_text(encoding="utf-8"))
    final = GAME.replay(record)
    shown = GAME.view(final, "red")
    svg = GAME.board_svg(shown, interactive=True)
    assert "Lunatic" in svg and "\u263e" in svg and 'data-card="6MW"' in svg and "data-cell=" in svg
    hand_svg = GAME.hand_svg(GAME.view(GAME.new_game(("red", "blue"), "hand", {}), "red"))
    assert hand_svg.startswith("<svg") and "dt-card-face" in hand_svg
    assert "6MW" in GAME.board_text(shown)


@pytest.mark.parametrize(
    ("code", "label", "name"),
    [
        ("6MW", "Lunatic 6\u263e\u2248", "Lunatic (6 of Moons and Waves)"),
        ("KW", "Sea \u2248", "Sea (Crown of Waves, 3 pips)"),
        ("AM", "Ace \u263e", "Ace of Moons"),
        ("CMWK", "Consul \u263e\u2248\u2318", "Consul (Court of Moons, Waves and Knots, 2 pips)"),
    ],
)
def test_card_labels_and_names(code: str, label: str, name: str) -> None:
    card = GAME.card(code)
    assert (card.label, card.name) == (label, name)


def test_help_and_kinds_speak_deck_town() -> None:
    assert any("control" in meaning for _, meaning in GAME.notation_help())
    assert all(GAME.parse(example) for example, _ in GAME.notation_help())
    assert "poker block" in GAME.rules_summary()
    # D9: the help says the change draw is optional and shows how to write it
    assert "draw a card for each pip overpaid" in GAME.rules_summary()
    assert any(example.endswith(" draw 1") for example, _ in GAME.notation_help())
    assert [k.verb for k in GAME.move_kinds()] == [k.verb for k in registry.get("zarkcity").move_kinds()]


def test_cli_new_games_and_replay() -> None:
    new = run("new", "--game", "decktown", "--players", "red,blue", "--seed", "cli")
    assert new.returncode == 0 and json.loads(new.stdout)["game"] == "decktown"
    listing = run("games")
    assert listing.returncode == 0 and "decktown  Deck Town  2-5 players  no options" in listing.stdout
    bad = run("new", "--game", "decktown", "--players", "red,blue", "--seed", "cli", "--deck", "arcade")
    assert (bad.returncode, bad.stderr) == (2, "Deck Town has no option 'deck'\n")
    unknown = run("new", "--game", "chess", "--players", "red,blue", "--seed", "cli")
    assert unknown.returncode == 2 and "unknown game 'chess'" in unknown.stderr
    final = run("replay", str(GOLDEN / "four-decktown.game.json"))
    assert final.stdout == (GOLDEN / "four-decktown.position.json").read_text(encoding="utf-8")


def test_cli_moves_and_apply_read_the_game_from_the_file(tmp_path: Path) -> None:
    start = tmp_path / "start.json"
    start.write_text(run("new", "--game", "decktown", "--players", "red,blue", "--seed", "cli").stdout)
    moves = run("moves", str(start), "--as", "red").stdout.split("\n")
    choose = next(m for m in moves if m.startswith("choose"))
    after = run("apply", str(start), choose, "--as", "red")
    assert after.returncode == 0 and json.loads(after.stdout)["starters"][0][0] == "red"
    illegal = run("apply", str(start), "choose KM", "--as", "red")
    assert illegal.returncode == 1 and illegal.stderr.startswith("Choose: KM is not")
    unreadable = run("apply", str(start), "choose 7H", "--as", "red")
    assert unreadable.returncode == 2 and "not a Deck Town card" in unreadable.stderr


@pytest.mark.parametrize("name", ["two-decktown", "four-decktown"])
def test_the_verifier_follows_deck_town_records(name: str) -> None:
    checked = run(str(GOLDEN / f"{name}.game.json"), tool="tools/verify_game.py")
    assert checked.returncode == 0 and checked.stdout.startswith("verified:")


def test_the_verifier_rejects_a_deck_town_record_with_a_wrong_result(tmp_path: Path) -> None:
    record = json.loads((GOLDEN / "two-decktown.game.json").read_text(encoding="utf-8"))
    record["result"] = {"winner": "blue", "reason": "poker block"}
    path = tmp_path / "wrong.json"
    path.write_text(pretty(record))
    checked = run(str(path), tool="tools/verify_game.py")
    assert checked.returncode == 1 and "REJECTED" in checked.stderr


def test_the_verifier_rejects_a_deck_town_card_never_drawn(tmp_path: Path) -> None:
    record = json.loads((GOLDEN / "two-decktown.game.json").read_text(encoding="utf-8"))
    record["moves"][3]["move"] = "demolish blue S 0,1 pay KM"  # red was dealt KS, not the Huntress
    path = tmp_path / "forged.json"
    path.write_text(pretty(record))
    checked = run(str(path), tool="tools/verify_game.py")
    assert checked.returncode == 1 and "KM not in red's hand" in checked.stderr


def cut_short(name: str, moves: int, changed: str) -> dict[str, Any]:
    """The first `moves` moves of a golden record, the last one written as `changed`, the game still on."""
    record = json.loads((GOLDEN / f"{name}.game.json").read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:moves]
    record["moves"][-1]["move"] = changed
    record["result"] = None
    return record


@pytest.mark.parametrize(("draws", "hand"), [("draw 0", 0), ("draw 1", 1), ("", 2)])
def test_the_verifier_follows_optional_change_draws(draws: str, hand: int) -> None:
    """D9: move 3 of the golden game pays the Bard (3 pips) for a Small: up to 2 change cards."""
    record = cut_short("two-decktown", 4, f"demolish blue S 0,1 pay KS {draws}".strip())
    replayed = GAME.replay(record)
    none_drawn = GAME.replay(cut_short("two-decktown", 4, "demolish blue S 0,1 pay KS draw 0"))
    assert len(replayed.hands["red"]) - len(none_drawn.hands["red"]) == hand
    verifier = tool("verify_game")
    game = verifier.Game(record["players"], record["seed"], "myrmex", lambda line: None, "decktown")
    for entry in record["moves"]:
        verifier.play(game, entry["by"], entry["move"])
    assert game.hands == {c: list(h) for c, h in replayed.hands.items()} and game.deck == list(replayed.deck)
    assert verifier.verify(record).startswith("verified")


@pytest.mark.parametrize(
    ("name", "moves", "changed", "why"),
    [
        ("two-decktown", 4, "demolish blue S 0,1 pay KS draw 3", "may draw 0 to 2 change cards"),
        ("two-standard", 8, "demolish red S -1,1 pay KS draw 0", "Zark City's draws all"),
    ],
)
def test_the_verifier_refuses_a_change_draw_the_rules_do_not_allow(
    name: str, moves: int, changed: str, why: str
) -> None:
    verifier = tool("verify_game")
    with pytest.raises(verifier.Rejected, match=why):
        verifier.verify(cut_short(name, moves, changed))


def tool(name: str) -> Any:
    """A script of tools/, or "verify_game": Deck Town's verifier as its package declares it."""
    path = registry.package("decktown").verifier_path if name == "verify_game" else ROOT / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


# Seeds the golden policy plays to a poker block (found by trying verify-N-0, -1, ...), and two it does not.
PLAYED = [
    (("red", "blue"), "verify-2-38", True),
    (("red", "green", "black"), "verify-3-12", True),
    (("red", "blue"), "verify-2-0", False),
]


@pytest.mark.parametrize(("players", "seed", "won"), PLAYED, ids=[seed for _, seed, _ in PLAYED])
def test_the_verifier_agrees_with_the_engine_on_played_games(players: tuple[str, ...], seed: str, won: bool) -> None:
    """Games played by the golden policy: the independent verifier reproduces every draw and finds the
    same winner (a poker block it saw too early would reject the next move, one it missed the result)."""
    golden = tool("make_golden")
    state, log = golden.play(golden.Golden("check", players, "myrmex", (), "decktown"), seed)
    assert (state.reason == "poker block") is won
    record = GAME.make_record(players, {}, seed, log, GAME.record_result(state))
    assert tool("verify_game").verify(json.loads(json.dumps(record))).startswith("verified")


def test_a_board_drawn_again_takes_its_card_faces_from_the_cache_and_reads_the_same() -> None:
    from engine.zarkcity import picture

    record = json.loads((GOLDEN / "two-decktown.game.json").read_text(encoding="utf-8"))
    shown = GAME.view(GAME.replay(record), None)
    picture._drawn_face.cache_clear()
    first = GAME.board_svg(shown)
    drawn = picture._drawn_face.cache_info()
    assert GAME.board_svg(shown) == first
    again = picture._drawn_face.cache_info()
    assert drawn.misses == again.misses == len(shown["board"]) and again.hits == drawn.hits + len(shown["board"])
