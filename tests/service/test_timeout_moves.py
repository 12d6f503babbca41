"""A decision the rules make for a seat out of time (`TimeoutMoves`, engine/kit/core.py): the sweep's
time-out plays the rules' step for that seat instead of resigning it, and resigns every other seat out
of time as before. The tiny kit game (tests/engine/kit_tiny.py), with a `pass` played for a seat out of
time on its own turn, is registered for these tests only."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.interface import GameInfo
from engine.kit.core import TimeoutMoves, timeout_move
from games import clock, services
from games.models import Game
from tests.engine.kit_tiny import GAME as TINY
from tests.engine.kit_tiny import Pass, TinyGame, TinyMove, TinyState
from tests.registered import register
from tests.service.gameplay import mover, start_game

pytestmark = pytest.mark.django_db


class PatientTiny(TinyGame):
    """The tiny game whose rules pass for a seat out of time on its turn, once: twice in a row resigns it."""

    info = GameInfo(id="patienttiny", name="Patient Tiny", player_counts=(2,), hidden_information=False)

    def timeout_move(self, state: TinyState, seat: str) -> TinyMove | None:
        return Pass() if seat in self.movers(state) and not state.board else None


GAME = PatientTiny()


@pytest.fixture
def patient(monkeypatch):
    return register(monkeypatch, __name__)


def test_only_a_game_with_the_capability_decides_for_a_seat_out_of_time() -> None:
    start = GAME.new_game(["red", "yellow"], "seed", {})
    assert isinstance(GAME, TimeoutMoves) and not isinstance(TINY, TimeoutMoves)
    assert timeout_move(GAME, start, "red") == Pass() and timeout_move(GAME, start, "yellow") is None
    assert timeout_move(TINY, start, "red") is None


def test_the_rules_step_is_played_for_the_seat_out_of_time_and_the_game_goes_on(alice, bob, patient):
    game = start_game(alice, bob, game=patient)
    late = mover(game)
    assert clock.time_out(game_id=game.pk, now=game.deadline + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and mover(game) != late
    assert [(m.seat.colour, m.notation) for m in game.moves.select_related("seat")] == [(late, "pass")]
    assert not game.seats.filter(resigned=True).exists() and game.deadline > game.turn_started_at


def test_a_seat_out_of_time_the_rules_do_not_decide_for_resigns_as_before(alice, bob, patient):
    game = start_game(alice, bob, game=patient)
    first = mover(game)
    clock.time_out(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    second = mover(game)
    services.move_submit(game=game, user=game.seats.get(colour=second).user, text="enter S b2", seen_ply=game.ply)
    game.refresh_from_db()
    assert mover(game) == first
    assert clock.time_out(game_id=game.pk, now=game.deadline + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (Game.Status.FINISHED, second, "timeout")
    assert [m.notation for m in game.moves.all()] == ["pass", "enter S b2", "resign"]
