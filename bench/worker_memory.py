"""What grows in the Celery worker: its own tasks run in this process thousands of times, on real games,
with its resident memory (and, with --tracemalloc, Python's allocations) sampled as they go.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/worker_memory.py \
        [--emails 6000] [--every 500] [--games 200] [--tracemalloc] [--seed 29] [--database NAME] [--keep] [--smoke]

The work, as a worker serving the load of bench/load.py meets it: Zark City and Deck Town games of 2
and 3 seats, half of them fresh games played a random 6 to 20 plies in and half copies of the
mid-game boards of 30 to 40 cards of bench/midgame.py. Each round one game gets a random legal move
(never a resignation) through games.services.move_submit, the web's part, here only to move the games
on; the outbox rows it writes are not handed to a broker but run at once, in this process, through
the worker's own task (`notifications.tasks.deliver`, by Celery's `apply`): claimed, re-checked,
built (both parts, the board drawn as a PNG by librsvg), sent over SMTP to a sink in a process of its
own (aiosmtpd's Sink, which keeps nothing) on a connection kept open as the worker keeps it. A game
that ends is replaced by a new one (its start emails go out too). Beat's tasks run at their pace at
10 moves a second: the outbox re-queue every 150 moves (15 s), the notifications sweep and the bot
sweep every 600 (a minute), the replies sweep every 3,000 (5 minutes).

Every --every emails it prints the resident memory (VmRSS of /proc/self/status), the emails and moves
so far and the CPU time an email; at the end, the growth over the run after the first --every emails
(the warm-up) and over its last half, in MB per 1,000 emails. --tracemalloc also compares Python's
allocations after the warm-up with those at the end, by file and by where they were made (tracemalloc
slows the run some threefold and holds memory of its own, so the RSS of such a run is not the figure).
The web's part runs in this process too: what it keeps shows among the files (games/services, the
engine), and in the RSS; a worker that plays email replies or bot turns runs it as well.

The database is PostgreSQL, one of the bench's own (bench/common.py), DEBUG off; the cache is Redis
when REDIS_URL is set (as production), else the file cache in a throw-away directory. --log-queries:
every query logged in the connection's list (Django's force_debug_cursor), as DEBUG does in the
embedded default's worker (scripts/serve.sh), the rest as in production. --smoke: 300
emails on 20 games, only to show that it runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script: import from the project root, not bench/
    sys.path[0] = str(ROOT)

from bench import common, midgame  # noqa: E402

GAMES = (("zarkcity", 2), ("decktown", 3), ("zarkcity", 3), ("decktown", 2))  # as bench/load.py, in turn
OPENING = (6, 20)  # random plies played into a fresh game before the run
# Beat's schedule (settings.CELERY_BEAT_SCHEDULE) counted in moves at 10 moves a second.
BEAT = (
    (150, "zarkcity_site.requeue_outbox"),
    (600, "notifications.tasks.sweep"),
    (600, "games.tasks.bot_sweep"),
    (3000, "replies.tasks.sweep"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emails", type=int, default=6000, help="emails to send (default 6000)")
    parser.add_argument("--every", type=int, default=500, help="print a sample every N emails (default 500)")
    parser.add_argument("--games", type=int, default=200, help="games in play at once (default 200)")
    parser.add_argument("--tracemalloc", action="store_true", help="compare Python's allocations too (slower)")
    parser.add_argument(
        "--log-queries", action="store_true", help="log every query as DEBUG does (the embedded default's worker)"
    )
    parser.add_argument("--seed", type=int, default=29, help="seed of the random moves (default 29)")
    parser.add_argument("--smoke", action="store_true", help="300 emails on 20 games: only shows that it runs")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.smoke:
        args.emails, args.every, args.games = 300, 100, 20
    # Stopped with a TERM (a background job ignores Ctrl-C's INT): still drop the database, stop the sink.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    common.run_in_own_database("worker_memory", args, bench)


def bench(args: argparse.Namespace) -> None:
    port = common.free_port()
    sink = subprocess.Popen(
        [sys.executable, "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
    )
    os.environ.update(
        {
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(port),
            "DJANGO_LOG_LEVEL": "WARNING",
        }
    )
    try:
        run(args)
    finally:
        from notifications import outgoing

        outgoing.hang_up_all()
        sink.terminate()
        sink.wait(timeout=30)


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    common.check_debug_off()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    common.collect_static()  # as deployed: emails name the hashed static files
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"database: PostgreSQL {settings.DATABASES['default']['NAME']}, cache: {cache}, DEBUG off")
    print(common.machine_speed())
    queued: list[int] = []
    hold_outbox(queued)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    games = setup(args.games, rng)
    from notifications.models import Notification

    queued.clear()  # the setup's emails go nowhere: neither now nor by the sweep
    Notification.objects.all().delete()
    print(f"set up {len(games)} games in {time.perf_counter() - started:.0f}s; {load()}")
    if args.log_queries:  # Django's SQL log, as DEBUG keeps it, without DEBUG's other ways
        from django.db import connection

        connection.force_debug_cursor = True
        print("every query logged, as with DEBUG on (the embedded default's worker)")
    Loop(args, games, queued, rng).run()
    print(common.machine_speed())


def hold_outbox(queued: list[int]) -> None:
    """Rows the services write are noted here instead of being handed to a broker: run() delivers them."""
    from notifications import services as notify

    def enqueue(notification_id: int) -> bool:
        queued.append(notification_id)
        return True

    notify.enqueue = enqueue


# ----------------------------------------------------------------------------- the games


def setup(count: int, rng: random.Random) -> list[Any]:
    """Half fresh games played a few plies in, half copies of the mid-game boards of bench/midgame.py."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    fresh = [new_game(f"g{n}", GAMES[n % len(GAMES)], rng) for n in range(count - count // 2)]
    played = midgame.boards(list(range(30, 41)))
    User = get_user_model()  # noqa: N806
    users = User.objects.bulk_create(
        User(username=f"m{n}{colour}", email=f"m{n}{colour}@example.com")
        for n in range(count // 2)
        for colour in ("red", "yellow")
    )
    tables = [(users[2 * n], users[2 * n + 1]) for n in range(count // 2)]
    now = timezone.now()
    copies = midgame.make_games(played, tables, now=now, columns=lambda n: clock(now))
    return [g for g in fresh if g.status == "active"] + copies


def clock(now: Any) -> dict[str, Any]:
    from datetime import timedelta

    return {"turn_started_at": now, "deadline": now + timedelta(days=7), "clock_due_at": now + timedelta(days=3.5)}


def new_game(name: str, kind: tuple[str, int], rng: random.Random) -> Any:
    """A started game of `kind` (game, seats), players of its own, played a random few plies in."""
    from django.contrib.auth import get_user_model

    from games import services

    game_id, seats = kind
    User = get_user_model()  # noqa: N806
    users = [
        User.objects.create(username=f"{name}p{seat}", email=f"{name}p{seat}@example.com") for seat in range(seats)
    ]
    game = services.game_create(
        creator=users[0], game=game_id, seats=seats, options={}, time_limit_days=7, is_private=False
    )
    for user in users[1:]:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    for _ in range(rng.randint(*OPENING)):
        if not move(game, rng):
            break
    return game


def move(game: Any, rng: random.Random) -> bool:
    """One random legal move (never a resignation) by one of the players to move; False if the game is over."""
    from games import services

    if game.status != "active":
        return False
    rules = game.rules
    colour = rng.choice(game.to_move.split(","))
    legal = [m for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
    user = game.seats.get(colour=colour).user
    services.move_submit(game=game, user=user, text=str(rng.choice(legal)), seen_ply=game.ply)
    game.refresh_from_db()
    return game.status == "active"


# ----------------------------------------------------------------------------- the run


class Loop:
    def __init__(self, args: argparse.Namespace, games: list[Any], queued: list[int], rng: random.Random) -> None:
        from zarkcity_site.celery import app

        self.args, self.games, self.queued, self.rng = args, games, queued, rng
        app.loader.import_default_modules()  # CELERY_IMPORTS, as a worker starting: beat's tasks
        self.app, self.tasks = app, app.tasks
        self.emails = self.moves = self.replaced = 0
        self.outcomes: dict[str, int] = {}
        self.samples: list[tuple[int, float, float]] = []  # (emails, RSS MB, CPU s)
        self.warm: tracemalloc.Snapshot | None = None

    def run(self) -> None:
        if self.args.tracemalloc:
            tracemalloc.start(5)
        self.sample()
        next_sample = self.args.every
        while self.emails < self.args.emails:
            self.step()
            if self.emails >= next_sample:
                self.sample()
                if self.warm is None and self.args.tracemalloc:
                    self.warm = tracemalloc.take_snapshot()
                next_sample += self.args.every
        if self.samples[-1][0] != self.emails:
            self.sample()
        self.summary()

    def step(self) -> None:
        n = self.moves % len(self.games)
        game = self.games[n]
        if not move(game, self.rng):
            self.games[n] = new_game(f"r{self.replaced}", GAMES[self.replaced % len(GAMES)], self.rng)
            self.replaced += 1
        self.moves += 1
        for every, name in BEAT:
            if self.moves % every == 0:
                self.task(name)
        while self.queued:
            outcome = str(self.task("notifications.tasks.deliver", self.queued.pop(0)))
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
            self.emails += 1

    def task(self, name: str, *args: Any) -> Any:
        """Run one task as the worker runs a message it took (Celery's tracer, not eager: its signals,
        so zarkcity_site.celery's tidying around each task, run as in the worker)."""
        from celery.app.trace import trace_task

        task_id = str(uuid.uuid4())
        request = {"id": task_id, "hostname": "bench", "delivery_info": {}, "is_eager": False}
        return trace_task(self.tasks[name], task_id, args, {}, request, app=self.app, hostname="bench").retval

    def sample(self) -> None:
        gc.collect()
        rss = common.own_rss_mb()
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        seconds = cpu.ru_utime + cpu.ru_stime
        traced = (
            f", Python's allocations {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MB"
            if self.args.tracemalloc
            else ""
        )
        if self.samples:
            emails, _, before = self.samples[-1]
            per = (seconds - before) * 1000 / max(1, self.emails - emails)
            speed = f", {per:.0f} ms of CPU an email since the last sample"
        else:
            speed = ""
        print(f"{self.emails:6d} emails, {self.moves:6d} moves: RSS {rss:6.1f} MB{traced}{speed}", flush=True)
        self.samples.append((self.emails, rss, seconds))

    def summary(self) -> None:
        print(f"outcomes: {self.outcomes}; games ended and replaced: {self.replaced}; {load()}")
        after_warmup = self.samples[1:] if len(self.samples) > 2 else self.samples
        print(f"RSS after the warm-up ({after_warmup[0][0]} emails) to the end: " + growth(after_warmup))
        last = [s for s in self.samples if s[0] >= self.samples[-1][0] / 2]
        print(f"RSS over the last half ({last[0][0]} to {last[-1][0]} emails): " + growth(last))
        print(f"peak RSS {peak_mb():.1f} MB")
        if self.warm is not None:
            grown(self.warm, tracemalloc.take_snapshot())
        tracemalloc.stop()  # the machine's speed is measured next: a loop of 10M new ints, each traced


def growth(samples: list[tuple[int, float, float]]) -> str:
    (first, start, _), (last, end, _) = samples[0], samples[-1]
    rate = (end - start) * 1000 / max(1, last - first)
    return f"{start:.1f} to {end:.1f} MB, {end - start:+.1f} MB ({rate:+.2f} MB per 1,000 emails)"


def grown(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot) -> None:
    """What Python holds now that it did not after the warm-up: by file, then by where it was allocated."""
    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
    ]
    before, after = before.filter_traces(ignore), after.filter_traces(ignore)
    print("tracemalloc, grown since the warm-up, by file:")
    for stat in after.compare_to(before, "filename")[:15]:
        print(f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  {stat.traceback[0].filename}")
    print("tracemalloc, grown since the warm-up, by where (the innermost frames):")
    for stat in after.compare_to(before, "traceback")[:8]:
        print(f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
        for frame in stat.traceback.format(limit=4, most_recent_first=True):
            print(f"        {frame.strip()}")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
