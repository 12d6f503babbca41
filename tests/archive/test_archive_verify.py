"""Zark City's offline verifier (engine/zarkcity/verify.py, standard library only) and the "verify this game" page."""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from engine.shuffle import commitment
from engine.zarkcity.cards import CARDS, deck_cards
from engine.zarkcity.game import GAME
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.rules import new_game
from tests.archive.archive_helpers import play_random, store_game

SCRIPT = Path(__file__).resolve().parents[2] / "engine" / "zarkcity" / "verify.py"
_spec = importlib.util.spec_from_file_location("verify_game", SCRIPT)
verify_game = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_game)


def record_of(played, result=None) -> dict:
    moves = [(by, str(move)) for by, move in played.moves]
    result = result or GAME.record_result(played.final)
    return GAME.make_record(played.players, {"deck": played.deck}, played.seed, moves, result)


@pytest.fixture(scope="module")
def honest(golden_play):
    return record_of(golden_play)


def run(record: dict, *args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return subprocess.run([sys.executable, str(SCRIPT), str(path), *args], capture_output=True, text=True, timeout=60)


def test_the_script_imports_only_the_standard_library():
    tree = ast.parse(SCRIPT.read_text())
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_the_shuffle_and_deal_match_the_engine():
    for deck in ("standard", "arcade"):
        assert verify_game.deck_cards(deck) == list(deck_cards(deck))
        assert sorted(verify_game.deck_cards(deck), key=verify_game.card_order) == sorted(
            deck_cards(deck), key=lambda c: CARDS[c].order
        )
        for n, seed in enumerate(("a", "b" * 64, "zark")):
            state = new_game(["red", "yellow", "green", "blue", "black"][: 2 + n], seed, deck)
            game = verify_game.Game(list(state.players), seed, deck, log=lambda line: None)
            assert {c: tuple(h) for c, h in game.hands.items()} == dict(state.hands)
            assert tuple(game.deck) == state.deck and game.shuffles == state.shuffles


def test_accepts_an_honest_record(honest, tmp_path):
    assert GAME.replay(honest).phase == "over"  # the engine agrees it is honest
    done = run(honest, "--commitment", commitment(honest["seed"]), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "commitment: SHA-256(seed) matches" in done.stdout
    assert "verified" in done.stdout


@pytest.mark.parametrize("rng_seed,players", [(11, 3), (12, 4), (13, 5), (14, 2)])
def test_accepts_random_games_with_reshuffles_and_resignations(rng_seed, players):
    played = play_random(
        ["red", "yellow", "green", "blue", "black"][:players],
        f"r{rng_seed}",
        rng_seed=rng_seed,
        max_plies=220,
        finish=True,
    )
    verdict = verify_game.verify(record_of(played), commitment(played.seed))
    moves, shuffles = len(played.moves), played.final.shuffles
    assert verdict == f"verified: the deal and every draw of {moves} moves reproduce ({shuffles} reshuffles)"


def test_accepts_an_agreed_draw(golden_play):
    played = play_random(["red", "yellow"], "drawn", rng_seed=8, max_plies=20)
    verdict = verify_game.verify(record_of(played, {"winner": None, "reason": "draw"}))
    assert verdict.startswith("verified: the deal and every draw of 20 moves reproduce")


def test_rejects_a_changed_seed(honest, tmp_path):
    forged = dict(honest, seed=honest["seed"] + "0")
    done = run(forged, "--commitment", commitment(honest["seed"]), tmp_path=tmp_path)
    assert done.returncode == 1
    assert "not the commitment" in done.stderr
    # Without the commitment the deal differs, so some card played was never in that hand.
    done = run(forged, tmp_path=tmp_path)
    assert done.returncode == 1 and "REJECTED: move" in done.stderr


def test_rejects_a_changed_move(honest, tmp_path):
    forged = copy.deepcopy(honest)
    index, entry = next((i, m) for i, m in enumerate(forged["moves"]) if m["move"].startswith("build "))
    words = entry["move"].split()
    held = {card for hand in new_game(honest["players"], honest["seed"]).hands.values() for card in hand}
    words[1] = next(c for c in deck_cards("standard") if CARDS[c].is_number and c != words[1] and c not in held)
    entry["move"] = " ".join(words)
    done = run(forged, tmp_path=tmp_path)
    assert done.returncode == 1
    assert f"move {index} " in done.stderr or "REJECTED: move" in done.stderr


def test_rejects_a_changed_result_and_moves_after_the_end(honest):
    loser = next(c for c in honest["players"] if c != honest["result"]["winner"])
    with pytest.raises(verify_game.Rejected, match="the record says"):
        verify_game.verify(dict(honest, result={"winner": loser, "reason": honest["result"]["reason"]}))
    extended = dict(honest, moves=honest["moves"] + [{"by": loser, "move": "draw"}])
    with pytest.raises(verify_game.Rejected, match="already over"):
        verify_game.verify(extended)


def test_rejects_a_malformed_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    done = subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2


# ----------------------------------------------------------------------------- the page


@pytest.mark.django_db
def test_verify_page_of_a_finished_game(client, golden_game, golden_play):
    response = client.get(reverse("game_verify", args=[golden_game.pk]))
    check = response.context["check"]
    assert check.ok and check.commitment_ok and check.replay_ok and check.snapshot_ok and check.result_ok
    assert golden_game.seed in response.content.decode()
    assert "Verified." in response.content.decode()
    assert check.draws == drawn_in(golden_play)


def drawn_in(played) -> list[tuple[int, str, str, list[str]]]:
    """Each move's draws as the engine's own states show them: the cards that left the draw pile (or, on a
    reshuffle, the discard pile) for a hand, as (ply, colour, move, cards in hand order)."""
    rows = []
    for ply, ((_, move), before, after) in enumerate(
        zip(played.moves, played.states, played.states[1:], strict=False), 1
    ):
        pile = set(before.deck) | (set(before.discard) if after.shuffles > before.shuffles else set())
        for colour in after.players:
            cards = [c for c in after.hands.get(colour, ()) if c in pile and c not in before.hands.get(colour, ())]
            if cards:
                rows.append((ply, colour, str(move), cards))
    return rows


@pytest.mark.django_db
def test_verify_page_notices_a_tampered_game(client, golden_game):
    golden_game.seed = golden_game.seed + "x"
    golden_game.save(update_fields=["seed"])
    check = client.get(reverse("game_verify", args=[golden_game.pk])).context["check"]
    assert not check.commitment_ok and not check.ok


@pytest.mark.django_db
def test_verify_page_of_a_game_in_progress_keeps_the_seed(client, alice, bob):
    played = play_random(["red", "yellow"], "in-progress-seed", rng_seed=1, max_plies=10)
    game = store_game([alice, bob], played)
    response = client.get(reverse("game_verify", args=[game.pk]))
    assert game.seed_commitment in response.content.decode()
    assert game.seed not in response.content.decode()
    assert not response.context["check"].finished


@pytest.mark.django_db
def test_the_downloaded_record_verifies_offline(client, golden_game, tmp_path):
    record = client.get(reverse("game_record", args=[golden_game.pk])).json()
    done = run(record, "--commitment", golden_game.seed_commitment, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    log = client.get(reverse("game_log", args=[golden_game.pk])).content.decode()
    assert f"Seed: {golden_game.seed}" in log and len(log.splitlines()) > golden_game.ply


def test_a_starter_withdrawn_by_resigning_replays_and_verifies_as_played():
    """Red chooses a starter, then resigns while the others choose: the face-down starter goes with red's
    hand (rules.md 10), so the game is the same whether the choice was applied at once (here), held as a
    sealed commitment (the record's replay) or followed by the standalone verifier, reshuffles included."""
    players, seed = ["red", "yellow", "blue"], "withdrawn"
    state = GAME.new_game(players, seed, {"deck": "standard"})
    starter = next(card for card in state.hands["red"] if CARDS[card].is_number)
    moves = [("red", f"choose {starter}"), ("red", "resign")]
    rng = random.Random(4)
    for by, text in moves:
        state = GAME.apply(state, GAME.parse(text), by)
    while state.phase != "over" and len(moves) < 400:
        by = rng.choice(GAME.movers(state))
        move = rng.choice(legal_moves(state, by))
        moves.append((by, str(move)))
        state = GAME.apply(state, move, by)
    record = GAME.make_record(players, {"deck": "standard"}, seed, moves, GAME.record_result(state))
    assert state.shuffles > 0  # the discard pile's order, red's starter in it, reached the deck again
    assert GAME.replay(record) == state
    assert verify_game.verify(record).startswith("verified")
