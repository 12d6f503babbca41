"""bench/load.py's own logic, fast: the arrival schedule, the percentiles, the verdict, and moves made
the bench's way (page, POST, poll over HTTP) against a live server. The whole bench with gunicorn,
Celery and an SMTP sink runs in `test_the_smoke_run_sets_up_measures_and_cleans_up` (PostgreSQL and Redis)."""

from __future__ import annotations

import asyncio
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench import common, load
from games.models import Game, Move

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------------------- the schedule


def test_even_arrivals_are_rate_times_seconds_evenly_spaced():
    times = load.arrivals(20, 3)
    assert len(times) == 60
    assert times[0] == 0 and times[-1] < 3
    assert all(math.isclose(later - earlier, 0.05) for earlier, later in zip(times, times[1:], strict=False))


def test_no_rate_or_no_time_offers_nothing():
    assert load.arrivals(0, 10) == [] and load.arrivals(5, 0) == []
    assert load.arrivals(5, 10, random.Random(1)) != [] and load.arrivals(0, 10, random.Random(1)) == []


def test_poisson_arrivals_are_reproducible_ordered_and_average_the_rate():
    times = load.arrivals(50, 200, random.Random(7))
    assert times == load.arrivals(50, 200, random.Random(7))
    assert times == sorted(times) and times[0] > 0 and times[-1] < 200
    assert abs(len(times) - 10_000) < 400  # Poisson: standard deviation 100


class NoGaps(random.Random):
    def expovariate(self, lambd):
        return 0.0


def test_poisson_arrivals_are_bounded_in_count():
    assert len(load.arrivals(10, 5, NoGaps())) == 10 * 5 * 2 + 10


# ----------------------------------------------------------------------------- the figures


def test_percentiles_interpolate_between_ranks():
    values = list(range(100, 0, -1))  # 1..100, unsorted
    assert load.percentile(values, 0) == 1 and load.percentile(values, 100) == 100
    assert load.percentile(values, 50) == pytest.approx(50.5)
    assert load.percentile(values, 99) == pytest.approx(99.01)
    assert load.percentile([42.0], 99) == 42.0
    assert math.isnan(load.percentile([], 50))


def step(offered: float, whole_ms: list[float], errors: int = 0) -> load.Step:
    measured = load.Step(offered=offered, seconds=10)
    measured.latency["whole"] = whole_ms
    measured.moves = len(whole_ms)
    if errors:
        measured.errors["move answered 500"] = errors
    return measured


def test_a_rate_holds_with_p99_under_the_limit_and_no_error():
    quick = [10.0] * 99 + [250.0]
    assert step(10, quick).held()
    assert not step(10, [10.0] * 98 + [400.0, 400.0]).held()  # p99 over 300 ms
    assert not step(10, quick, errors=1).held()
    assert not step(10, []).held()  # nothing measured holds nothing


def test_the_highest_rate_held_is_the_last_before_the_first_failure():
    good, bad = [20.0] * 100, [900.0] * 100
    assert load.highest_held([step(30, good), step(10, good), step(20, good)]) == 30
    assert load.highest_held([step(10, good), step(20, bad), step(30, good)]) == 10  # noise above a failure
    assert load.highest_held([step(10, bad), step(20, good)]) is None


def test_achieved_rate_counts_moves_over_the_window_or_their_late_end():
    measured = step(10, [10.0] * 100)
    assert measured.achieved == 10
    measured.last_done = 20  # the last move ended 20 s after the 10 s window opened: the server fell behind
    assert measured.achieved == 5


# ----------------------------------------------------------------------------- moves the bench's way


@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # the live server starts before the test's settings
def test_moves_made_the_bench_way_are_what_the_page_accepts(live_server):
    """One game, so one request at a time (SQLite too): the page as the player to move, a move from its
    list through its form with its CSRF token, the poll; each is measured and the game moves on."""
    tables = load.make_tables(1, random.Random(3))
    measured = load.Step(offered=10, seconds=0.4)
    asyncio.run(load.Load(live_server.url, tables, random.Random(4)).offer(measured, 0, 30, poisson=False))
    assert not measured.errors and measured.moves == 4
    assert all(len(measured.latency[name]) == 4 for name in (*load.REQUESTS, "whole"))
    game = Game.objects.get(pk=tables[0].game_id)
    assert game.ply == Move.objects.filter(game=game).count() == 4
    assert tables[0].movers == [c for c in game.to_move.split(",") if c]
    assert any("csrftoken" in player.cookies for player in tables[0].players.values())  # kept as a browser does


def test_a_share_of_the_players_keeps_a_page_open():
    """--open-pages 0.3: about three players in ten have one open page, the others none; 1.5: one each,
    and a second for about half."""
    tables = [
        load.Table(game_id=n, players={"red": load.Player({}), "yellow": load.Player({})}, movers=["red"])
        for n in range(500)
    ]
    for share, low, high in ((0.3, 240, 360), (1.5, 1400, 1600)):
        measured = load.Step(offered=1, seconds=1)
        pages = load.Load("http://127.0.0.1:9", tables, random.Random(5), open_pages=share).open_pages_of(measured)
        assert low <= len(pages) == measured.open_pages <= high
        assert all(table.moved_from[c] in pages for table in tables for c in table.moved_from)
    assert load.parse_args(["--open-pages", "0.3"]).open_pages == 0.3


@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # the live server starts before the test's settings
def test_the_page_a_player_moved_from_shows_their_move(live_server):
    """The mover's open page followed the move's redirect: it shows the ply after the move, so its next
    poll finds no news there and loads nothing (the other player's page still does)."""
    tables = load.make_tables(1, random.Random(3), opening=(4, 4))  # past the sealed choices: one mover a ply
    measured = load.Step(offered=2, seconds=1.0)
    bench = load.Load(live_server.url, tables, random.Random(4), open_pages=1, poll_seconds=600)  # no poll in time
    asyncio.run(bench.offer(measured, 0.0, 30, poisson=False))
    assert not measured.errors and measured.moves == 2
    game = Game.objects.get(pk=tables[0].game_id)
    last = Move.objects.filter(game=game).latest("ply")
    assert tables[0].moved_from[last.seat.colour].ply == game.ply


@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # the live server starts before the test's settings
def test_open_pages_poll_at_the_interval_and_reload_on_news(live_server):
    """Each player's open page polls every poll_seconds as the page's script does, and loads the page
    again when a poll shows a new ply; the moves go on meanwhile."""
    tables = load.make_tables(1, random.Random(3))  # two players: two open pages
    measured = load.Step(offered=4, seconds=1.0)
    bench = load.Load(live_server.url, tables, random.Random(4), open_pages=1, poll_seconds=0.2)
    asyncio.run(bench.offer(measured, 0.2, 30, poisson=False))
    assert not measured.errors and measured.moves >= 3 and measured.open_pages == 2
    assert 2 * 4 <= len(measured.open_polls) <= 2 * 6  # 1 s of polls every 0.2 s, the first spread over 0.2 s
    assert 1 <= len(measured.open_reloads) <= len(measured.open_polls)  # the moves were seen
    assert "polls/s answered" in load.open_pages_line(measured, 0.2)


def test_no_open_pages_poll_nothing():
    tables = [load.Table(game_id=1, players={"red": load.Player({})}, movers=["red"])]
    measured = load.Step(offered=1, seconds=1)
    assert load.Load("http://127.0.0.1:9", tables, random.Random(1)).open_pages_of(measured) == []
    assert measured.open_pages == 0
    assert load.parse_args(["--smoke"]).open_pages == 1 and load.parse_args(["--open-pages", "0"]).open_pages == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # the live server starts before the test's settings
def test_a_failing_game_is_counted_dropped_and_the_run_still_ends(live_server):
    missing = load.Table(game_id=999_999, players={"red": load.Player({})}, movers=["red"])
    measured = load.Step(offered=10, seconds=0.2)
    asyncio.run(load.Load(live_server.url, [missing], random.Random(1)).offer(measured, 0, 1, poisson=False))
    assert measured.moves == 0
    assert measured.errors["page answered 404"] == 1  # the game leaves the pool: the next move finds none
    assert measured.errors["still running 1 s after the last start"] == 1


def test_the_bench_refuses_debug_on(monkeypatch):
    monkeypatch.setenv("DJANGO_DEBUG", "1")
    with pytest.raises(SystemExit, match="DJANGO_DEBUG"):
        load.main(["--smoke"])


# ----------------------------------------------------------------------------- the whole bench


def empty_redis_database(url: str) -> str | None:
    """An empty database on the Redis server of REDIS_URL (15 down to 10), for the bench to take."""
    import redis

    for number in range(15, 9, -1):
        candidate = url.rsplit("/", 1)[0] + f"/{number}"
        if not redis.Redis.from_url(candidate).dbsize():
            return candidate
    return None


@pytest.mark.postgres
@pytest.mark.redis
def test_the_smoke_run_sets_up_measures_and_cleans_up(settings):
    """gunicorn, the Celery worker and beat started as documented, 5 s of moves, then all stopped
    and the bench's database dropped."""
    import psycopg

    redis_url = empty_redis_database(os.environ["REDIS_URL"])
    if redis_url is None:
        pytest.skip("no empty Redis database among 10-15 for the bench")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ZARKCITY_"))}
    # The server's own `postgres` database to connect to: the one DATABASE_URL names exists only as test_<name>.
    env["DATABASE_URL"] = common.with_database(os.environ["DATABASE_URL"], "postgres")
    name = f"zc_bench_load_test_{os.getpid()}"
    command = [sys.executable, "bench/load.py", "--smoke", "--database", name, "--redis", redis_url]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "highest rate held with p99 < 300 ms and zero errors" in done.stdout
    server = settings.DATABASES["default"]
    with psycopg.connect(
        host=server["HOST"], port=server["PORT"], user=server["USER"], password=server["PASSWORD"], dbname="postgres"
    ) as conn:
        assert not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()


# ----------------------------------------------------------------------------- the web workers' memory (a soak)


class Served:
    """What gunicorn hands the hooks: the worker object, on which they keep their counts."""


def test_the_web_workers_memory_is_logged_every_n_requests_and_compared(tmp_path):
    """--memory-every gives gunicorn's config the memory hooks: a line of RSS and malloc's counts every
    WEB_MEMORY_REQUESTS, and with --trace-web a snapshot of Python's allocations from the second on,
    which the summary compares, first traced against last, by line."""
    import tracemalloc

    site = load.Site(tmp_path, 3)
    site.memory_every, site.trace_web = 2, True
    hooks: dict[str, object] = {}
    exec(compile(Path(site.hooks()).read_text(), "hooks", "exec"), hooks)  # noqa: S102 - the file gunicorn runs
    worker, kept = Served(), []
    try:
        for request in range(8):
            hooks["pre_request"](worker, Served())
            kept.append(bytearray(100_000))  # what a request leaves behind, to be found by the comparison
            hooks["post_request"](worker, type("Request", (), {"path": f"/games/{request}/"}), {}, None)
    finally:
        tracemalloc.stop()
    rows = [line.split("\t") for line in site.web_memory.read_text().splitlines()]
    assert [row[:2] for row in rows] == [[str(os.getpid()), str(n)] for n in (2, 4, 6, 8)]
    assert all(float(value) >= 0 for row in rows for value in row[2:]) and float(rows[-1][2]) > 0
    summary = load.web_memory_summary(site)
    assert summary[1].startswith(f"  {os.getpid()}: 4 requests ")  # the first snapshot: tracing began at 2
    added, _, _, _, place = summary[2].split(maxsplit=4)
    assert "test_load_bench.py" in place and 390 < float(added) < 392  # the 4 requests' 100 kB each, from 4 to 8


def test_without_memory_every_the_web_workers_log_no_memory(tmp_path):
    site = load.Site(tmp_path, 3)
    text = Path(site.hooks()).read_text()
    assert "zc_memory" in text and "def zc_memory" not in text and load.web_memory_summary(site) == []
