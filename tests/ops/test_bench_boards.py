"""bench/midgame.py: the benches' mid-game boards are the same on every run, of the sizes asked, and
copied into games as move_submit leaves them; bench/sweep.py's clocks are somewhere in their move."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bench import midgame, sweep
from games.models import Game, Move

RULES = midgame.RULES


def test_boards_are_played_forward_the_same_way_every_time():
    first, again = midgame.boards([30, 38]), midgame.boards([30, 38])
    assert [p.cards for p in first] == [30, 38]
    assert [p.moves for p in first] == [p.moves for p in again]
    assert [p.options["deck"] for p in first] == ["standard", "arcade"]  # the standard deck stops near 36
    assert RULES.result(first[0].final) is None  # mid-game: nobody has won


@pytest.mark.django_db
def test_a_copied_game_replays_to_its_snapshot(alice, bob):
    [played] = midgame.boards([30])
    [game] = midgame.make_games([played], [(alice, bob)], now=datetime.now(UTC))
    game.refresh_from_db()
    state = RULES.new_game(list(played.colours), game.seed, game.options)
    for move in Move.objects.filter(game=game).select_related("seat").order_by("ply"):
        state = RULES.apply(state, RULES.parse(move.notation), move.seat.colour)
    assert RULES.to_position(state) == game.snapshot and game.ply == len(played.moves)
    assert game.status == Game.Status.ACTIVE and game.to_move == ",".join(RULES.movers(state))
    assert Move.objects.get(game=game, ply=0).descriptions == midgame.descriptions(played, 0)


def test_a_bench_clock_is_mid_move_and_looked_at_next_at_its_next_share():
    now, chooser = datetime(2030, 1, 15, 12, tzinfo=UTC), random.Random(1)
    for _ in range(200):
        clock = sweep.clock_columns(now, chooser)
        limit = timedelta(days=clock["time_limit_days"])
        assert clock["turn_started_at"] <= now < now + sweep.QUIET < clock["clock_due_at"] <= clock["deadline"]
        used = (clock["clock_due_at"] - clock["turn_started_at"]) / limit
        assert used in (0.5, 0.8, 1.0)


def test_the_digest_zone_is_at_the_digest_hour_now(settings):
    now = datetime(2030, 1, 15, 21, 30, tzinfo=UTC)
    assert now.astimezone(ZoneInfo(sweep.eight_oclock_zone(now))).hour == settings.NOTIFICATIONS_DIGEST_HOUR
