"""Two requests answer the same position at once: the game row lock lets exactly one through.

select_for_update does nothing on SQLite, so this runs only on PostgreSQL:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/<a database of your own> .venv/bin/pytest -m postgres tests/service
"""

from __future__ import annotations

import threading
import time
from unittest import mock

import pytest
from django.db import connection

from engine import registry
from games import services
from games.models import Commitment, Game, Move
from games.services import StaleMove
from tests.service.gameplay import mover, pick, play_plies, start_game, user_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
RULES = registry.get("zarkcity")  # the same object every game.rules returns
real_apply = RULES.apply
real_check = RULES.check_commitment


def slow_apply(state, move, by):
    """Hold the lock a moment so the other request surely arrives while it is held."""
    time.sleep(0.3)
    return real_apply(state, move, by)


def slow_check(state, seat, move):
    time.sleep(0.3)
    return real_check(state, seat, move)


def race(game: Game, attempts: list[tuple[object, str]]) -> list[object]:
    """Submit each (user, text) for the current ply from its own thread and connection, all at once."""
    ply = game.ply
    start = threading.Barrier(len(attempts))
    outcomes: list[object] = [None] * len(attempts)

    def submit(index: int, user, text: str) -> None:
        try:
            start.wait()
            fresh = Game.objects.get(pk=game.pk)
            outcomes[index] = services.move_submit(game=fresh, user=user, text=text, seen_ply=ply)
        except Exception as error:  # noqa: BLE001 (the test inspects whatever happened)
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i, u, t)) for i, (u, t) in enumerate(attempts)]
    with (
        mock.patch.object(RULES, "apply", side_effect=slow_apply),
        mock.patch.object(RULES, "check_commitment", side_effect=slow_check),
    ):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    return outcomes


def assert_one_won(game: Game, outcomes: list[object], ply: int) -> None:
    won = [o for o in outcomes if isinstance(o, Move)]
    stale = [o for o in outcomes if isinstance(o, StaleMove)]
    assert len(won) == 1 and len(stale) == len(outcomes) - 1, outcomes
    assert "moved on since you loaded this page" in str(stale[0])
    game.refresh_from_db()
    assert game.ply == ply + 1
    assert list(game.moves.values_list("ply", flat=True)) == list(range(game.ply))  # no gap, no duplicate
    assert game.moves.get(ply=ply).notation == won[0].notation


def test_two_players_committing_at_the_same_moment_are_resolved_once(alice, bob):
    """Sealed choices: the second waits for the lock, finds the first's commitment, and resolves both
    in its own transaction; the first's answer is its commitment, the second's the move it became."""
    game = start_game(alice, bob)
    state = services.state_of(game)
    texts = {"red": pick(state, "red"), "yellow": pick(state, "yellow")}
    outcomes = race(game, [(alice, texts["red"]), (bob, texts["yellow"])])
    assert sorted(type(o).__name__ for o in outcomes) == ["Commitment", "Move"], outcomes
    game.refresh_from_db()
    assert game.ply == 2 and game.phase == "place" and not Commitment.objects.exists()
    assert {m.seat.colour: m.notation for m in game.moves.all()} == texts
    last = next(o for o in outcomes if isinstance(o, Move))
    assert last.ply == 1  # the later arrival is recorded second: commit order breaks a tie (rules.md 3.6)


def test_three_seats_committing_at_once_resolve_exactly_once(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    state = services.state_of(game)
    texts = {colour: pick(state, colour) for colour in ("red", "yellow", "green")}
    outcomes = race(game, [(alice, texts["red"]), (bob, texts["yellow"]), (charlie, texts["green"])])
    assert sorted(type(o).__name__ for o in outcomes) == ["Commitment", "Commitment", "Move"], outcomes
    game.refresh_from_db()
    assert list(game.moves.values_list("ply", flat=True)) == [0, 1, 2] and game.phase == "place"
    assert {m.seat.colour: m.notation for m in game.moves.all()} == texts


def test_a_double_click_on_confirm_plays_the_move_once(alice, bob):
    game = play_plies(start_game(alice, bob), 12)
    colour = mover(game)
    text = pick(services.state_of(game), colour)
    user = user_of(game, colour)
    outcomes = race(game, [(user, text), (user, text)])
    assert all(isinstance(o, Move) for o in outcomes) and outcomes[0].pk == outcomes[1].pk, outcomes
    game.refresh_from_db()
    assert game.ply == 13 and game.moves.get(ply=12).notation == text


def test_a_double_submit_of_two_different_moves(alice, bob):
    game = play_plies(start_game(alice, bob), 12)
    colour = mover(game)
    state = services.state_of(game)
    from engine.zarkcity.movegen import legal_moves

    first, second = [str(m) for m in legal_moves(state, colour) if str(m) != "resign"][:2]
    user = user_of(game, colour)
    outcomes = race(game, [(user, first), (user, second)])
    assert_one_won(game, outcomes, 12)


def test_engine_is_fast_enough_for_the_lock_wait():
    """Sanity: the race helpers above rely on PostgreSQL; this file must not run on SQLite."""
    assert connection.vendor == "postgresql"
