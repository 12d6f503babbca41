"""The periodic tasks (settings.CELERY_BEAT_SCHEDULE) at 1,000, 10,000 and 100,000 games in progress.

For each size, on games filled in bulk as they stand mid-game (docs/notifications.md, "The sweep"), then
ANALYZEd as autovacuum does after a bulk fill:
(a) one round of the periodic tasks with nothing due: the notifications sweep, the outbox re-queue,
    the bot sweep and the replies sweep, each timed (median of --runs), wall and CPU time (this process
    and its PostgreSQL backend, which the machine's load moves far less), and its queries counted;
(b) the cost of each kind of due work: --due games or readers made due at once (50% reminders,
    timeouts, digests, outbox retries, bot turns), one sweep, its CPU time less (a)'s, per item, its
    queries per item and the most rows any of its statements reads (EXPLAIN ANALYZE of each statement's
    shape, bench/plans.py); a statement that reads a big table from end to end is printed.
--rounds N measures (a) and (b) N times at each size; --explain prints how PostgreSQL ran every
statement, and at each size the plans of (a) before the ANALYZE too.
Targets (issue 29): (a) at most 50 ms at 100,000 games; (b) flat from 1,000 to 100,000 games.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/sweep.py \\
        [--games 1000,10000,100000] [--due 100] [--runs 5] [--rounds 1] [--explain] [--smoke] \\
        [--database NAME] [--keep]

The games: two-player Zark City copies of boards of 30 to 40 cards played forward from fixed seeds
(bench/midgame.py), time limits of 1, 3 and 7 days, each clock somewhere in its move (some past the
50% reminder, which was sent, some past the 80%), every tenth player reading the daily digest, one
game in twenty with a bot at the table, a few players away, three sent emails a game and one email in
a hundred held for quiet hours; no clock and no digest comes due by itself for QUIET (3 hours). Their
move logs are left out: no periodic task reads them.
The emails and bot turns the due work queues go to the broker (Redis with REDIS_URL, in queues of the
bench's own, deleted at the end; else the filesystem broker in a throw-away folder); no worker runs:
after each kind the bench marks the emails written sent and the bot turns played (settle).
Each size prints the machine's speed (a Python loop of 10M additions) and load beside it: wall times
mean something only on a quiet machine. --smoke: 200 and 2,000 games, 20 due, 3 runs: only shows that
the bench runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script: import from the project root, not bench/
    sys.path[0] = str(ROOT)

from bench import common, midgame, notifications, plans  # noqa: E402

LIMITS = (1, 3, 3, 3, 7)  # days per move, as players pick them
KINDS = ("reminders", "timeouts", "digests", "outbox retries", "bot turns")
NOTIFICATIONS, BOTS = "notifications sweep (every 60 s)", "bot sweep (every 60 s)"
ZONES = ("Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Sydney")  # the digest readers'
# No clock and no digest of the games filled comes due by itself within this time: the bench's runs at a size,
# (a) and (b), take minutes; what is due is only what (b) makes due.
QUIET = timedelta(hours=3)
DONE = {"reminders": "reminders", "timeouts": "timeouts", "digests": "digests", "outbox retries": "requeued"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1000,10000,100000", help="sizes, comma-separated, ascending")
    parser.add_argument("--due", type=int, default=100, help="items of each kind made due at once for (b)")
    parser.add_argument("--runs", type=int, default=5, help="rounds timed for (a) (the median is printed)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="(a) and (b) measured this many times at each size (filled once)"
    )
    parser.add_argument(
        "--explain", action="store_true", help="print how PostgreSQL ran every statement (EXPLAIN ANALYZE)"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: only shows that the bench runs")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    args.sizes = [int(size) for size in args.games.split(",")]
    if args.smoke:
        args.sizes, args.due, args.runs = [200, 2000], 20, 3
    if args.sizes != sorted(args.sizes):
        sys.exit("--games: give the sizes in ascending order (each size adds games to the one before)")
    common.run_in_own_database("sweep", args, bench)


def bench(args: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")  # the sweep's one line a due item, not between the figures
    import django

    django.setup()
    common.check_debug_off()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    queue = f"bench-sweep-{uuid.uuid4().hex[:8]}"
    settings.NOTIFICATIONS_QUEUE = settings.ZARKCITY_BOT_QUEUE = queue
    # The games the timeouts end leave their headlines in the cache (games.news, 120 s): under this run's own
    # names, since another run's games on the same Redis database have the same numbers.
    settings.ZARKCITY_HEADLINE_KEY = f"{queue}:game-headline"
    database = settings.DATABASES["default"]
    print(f"database: {database['ENGINE']} {database['NAME']}, DEBUG off, queue {queue}")
    started = time.perf_counter()
    played = midgame.boards(list(range(30, 41)))
    print(f"{len(played)} boards of 30 to 40 cards played forward in {time.perf_counter() - started:.1f}s")
    try:
        filled = 0
        for size in args.sizes:
            started = time.perf_counter()
            fill(played, filled, size - filled)
            gc.collect()  # the fill's garbage, not the sweep's: else a collection of it lands in a timed run
            filled = size
            print(
                f"\n{size} games in progress (filled in {time.perf_counter() - started:.1f}s); {common.machine_speed()}"
            )
            if args.explain:
                print("(a) the plans before ANALYZE (right after the bulk fill):")
                nothing_due(1, explain=True)
            print(f"ANALYZE (as autovacuum does after a bulk fill) in {plans.analyze():.1f}s")
            for round_ in range(1, args.rounds + 1):
                if round_ > 1:
                    print(f"round {round_} of {args.rounds} at {size} games; {common.machine_speed()}")
                idle = nothing_due(args.runs, args.explain and round_ == 1)
                for kind in KINDS:
                    per_item(kind, args.due, idle, args.explain and round_ == 1)
    finally:
        notifications.forget([queue])  # the emails and bot turns the due work queued


# ----------------------------------------------------------------------------- filling


def fill(played: list[midgame.Playthrough], first: int, count: int) -> None:
    """`count` more games in progress (numbered from `first`), with their players, preferences and outbox."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from accounts.models import Profile
    from notifications.models import Away, Notification, Preference

    now, chooser = timezone.now(), random.Random(first)
    User = get_user_model()  # noqa: N806
    users = User.objects.bulk_create(
        (User(username=f"p{2 * first + n}", email=f"p{2 * first + n}@example.com") for n in range(2 * count)),
        batch_size=5000,
    )
    bots = {n for n in range(count) if (first + n) % 20 == 0}  # the second seat of every twentieth game
    Profile.objects.bulk_create(
        (Profile(user=user, bot="random" if n % 2 and n // 2 in bots else "") for n, user in enumerate(users)),
        batch_size=5000,
    )
    Preference.objects.bulk_create(
        (reader(user, now, chooser) for user in users[::10]),
        batch_size=5000,
    )
    tables = [(users[2 * n], users[2 * n + 1]) for n in range(count)]
    clocks = [clock_columns(now, chooser) for _ in range(count)]
    games = midgame.make_games(played, tables, now=now, with_moves=False, columns=lambda n: clocks[n])
    Away.objects.bulk_create(
        Away(user=user, first_day=(now + timedelta(days=2)).date(), last_day=(now + timedelta(days=4)).date())
        for user in users[::50]
    )
    rows = [email(game, Notification.Kind.YOUR_TURN, now, n) for game in games for n in range(3)]
    rows += [reminder(game, now) for game in games if game.clock_due_at > game.turn_started_at + half(game)]
    rows += [held(game, now) for game in games[::100]]
    Notification.objects.bulk_create(rows, batch_size=5000)


def half(game) -> timedelta:
    return timedelta(days=game.time_limit_days) / 2


def clock_columns(now: datetime, chooser: random.Random) -> dict:
    """A clock somewhere in its move, and when the sweep next looks at it (its next reminder or deadline):
    not within QUIET of `now`, so that nothing comes due by itself while the bench runs (at 100,000 games
    about one clock a second would, and "nothing due" would not be)."""
    limit = timedelta(days=chooser.choice(LIMITS))
    while True:
        started = now - limit * chooser.uniform(0, 0.95)
        check = next(started + limit * share for share in (0.5, 0.8, 1.0) if started + limit * share > now)
        if check > now + QUIET:
            break
    return {
        "time_limit_days": limit.days,
        "turn_started_at": started,
        "deadline": started + limit,
        "clock_due_at": check,
    }


def reader(user, now: datetime, chooser: random.Random):
    """A digest reader in one of ZONES whose next digest hour is not within QUIET of `now`."""
    from notifications import selectors
    from notifications.models import Preference

    while True:
        preference = Preference(user=user, mode=Preference.Mode.DIGEST, time_zone=chooser.choice(ZONES))
        preference.next_digest_at = selectors.next_digest_at(preference, now)
        if preference.next_digest_at > now + QUIET:
            return preference


def email(game, kind: str, now: datetime, n: int):
    from notifications.models import Notification

    at = now - timedelta(hours=3 * n + 1)
    return Notification(
        game=game,
        ply=game.ply - 2 * n,
        recipient_id=game.created_by_id,
        kind=kind,
        status=Notification.Status.SENT,
        created_at=at,
        queued_at=at,
        sent_at=at,
    )


def reminder(game, now: datetime):
    """The 50% reminder already sent for a clock past half its time."""
    from notifications.models import Notification

    at = game.turn_started_at + half(game)
    row = email(game, Notification.Kind.REMINDER_50, now, 0)
    row.created_at = row.queued_at = row.sent_at = at
    row.ply = game.ply
    return row


def held(game, now: datetime):
    """An email held for the recipient's quiet hours: pending, due in a few hours."""
    from notifications.models import Notification

    return Notification(
        game=game,
        ply=game.ply,
        recipient_id=game.created_by_id,
        kind=Notification.Kind.DRAW_PROPOSED,
        status=Notification.Status.PENDING,
        send_after=now + timedelta(hours=5),
        created_at=now,
    )


# ----------------------------------------------------------------------------- measuring


def tasks() -> dict:
    """Each periodic task's function, as its Celery task calls it."""
    from games import tasks as games_tasks
    from notifications import sweep as notifications_sweep
    from replies import sweep as replies_sweep

    return {
        NOTIFICATIONS: notifications_sweep.sweep,
        "outbox re-queue (every 15 s)": notifications_sweep.requeue,
        BOTS: games_tasks.requeue_waiting,
        "replies sweep (every 300 s)": lambda now: replies_sweep.sweep(now),
    }


def nothing_due(runs: int, explain: bool) -> dict[str, float]:
    """(a): each task run `runs` times with nothing due: the median wall time and CPU time (this process and
    its PostgreSQL backend), and its statements (with `explain`, how PostgreSQL ran each). Returns each
    task's median CPU time, in seconds."""
    from django.utils import timezone

    medians = {}
    for name, task in tasks().items():
        costs = []
        for _ in range(runs):
            with plans.measure() as cost:
                task(timezone.now())
            costs.append(cost)
        medians[name] = statistics.median(cost.cpu for cost in costs)
        print(
            f"(a) {name}, nothing due: {statistics.median(cost.wall for cost in costs) * 1000:.1f} ms, "
            f"CPU {medians[name] * 1000:.1f} ms (here {statistics.median(c.cpu_here for c in costs) * 1000:.1f}, "
            f"PostgreSQL {statistics.median(c.cpu_postgres for c in costs) * 1000:.1f}) (medians of {runs}), "
            f"{len(costs[-1].statements)} queries"
        )
        if explain:
            plans.report(plans.explain(costs[-1].statements))
    every_minute = medians[NOTIFICATIONS] + medians[BOTS]
    print(f"(a) the every-minute sweeps together (notifications and bots): CPU {every_minute * 1000:.1f} ms")
    return medians


def per_item(kind: str, due: int, idle: dict[str, float], explain: bool) -> None:
    """(b): `due` items of `kind` made due, one run of the task that does them: its wall and CPU time and
    its statements per item beyond (a)'s; the plans of its statements: every statement's shape once,
    with `explain`, else only those that read a big table from end to end."""
    from django.utils import timezone

    now = timezone.now()
    made = make_due(kind, due, now)
    task = BOTS if kind == "bot turns" else NOTIFICATIONS
    with plans.measure() as cost:
        counts = tasks()[task](now)
    did = max(counts if isinstance(counts, int) else counts[DONE[kind]], 1)
    found = plans.explain(cost.statements)
    most = max((plan.rows_read for plan in found), default=0)
    print(
        f"(b) {kind}: {made} made due, {did} done in {cost.wall * 1000:.0f} ms, CPU {cost.cpu * 1000:.0f} ms: "
        f"{(cost.cpu - idle[task]) * 1000 / did:.2f} ms of CPU each beyond the idle {task.split(' (')[0]} "
        f"(here {cost.cpu_here * 1000 / did:.2f}, PostgreSQL {cost.cpu_postgres * 1000 / did:.2f}), "
        f"{len(cost.statements)} queries, {len(cost.statements) / did:.2f} each ({len(found)} shapes, "
        f"the most rows one reads {most}, sequential scans of a big table {sum(bool(p.big_seq_scans) for p in found)})"
    )
    plans.report(found, show=lambda plan: explain or bool(plan.big_seq_scans))
    settle(now)


def settle(now: datetime) -> None:
    """No worker runs: do what one would have done with the work (b) queued, so that the next step (and the
    next size) does not find it due again: the emails written are sent, the bot turns played."""
    from games.models import Game
    from notifications.models import Notification

    written = Notification.objects.filter(status=Notification.Status.PENDING, send_after__isnull=True)
    written.update(status=Notification.Status.SENT, sent_at=now)
    Game.objects.filter(bot_due_at__lte=now).update(bot_due_at=None)


def make_due(kind: str, count: int, now: datetime) -> int:
    """Make `count` items of `kind` due at `now`; returns how many."""
    from django.db.models import F

    from games.models import Game
    from notifications.models import Notification, Preference

    if kind == "bot turns":  # the bot sits in the second seat: its turn, saved long ago, never played
        bots = Game.objects.filter(seats__user__profile__bot="random", status=Game.Status.ACTIVE)
        games = Game.objects.filter(pk__in=list(bots.values_list("pk", flat=True)[:count]))
        return games.update(to_move="yellow", bot_due_at=now - timedelta(seconds=1))
    if kind in ("reminders", "timeouts"):  # clocks not yet reminded, set to have used this share of their time
        active = Game.objects.filter(status=Game.Status.ACTIVE, clock_due_at__gt=now)
        ids = list(active.exclude(notifications__kind__startswith="reminder").values_list("pk", flat=True)[:count])
        games = Game.objects.filter(pk__in=ids)
        used = {"reminders": 0.6, "timeouts": 1.01}[kind]
        for game in games:
            started = now - timedelta(days=game.time_limit_days) * used
            game.turn_started_at, game.deadline = started, started + timedelta(days=game.time_limit_days)
        Game.objects.bulk_update(games, ["turn_started_at", "deadline"])
        return games.update(clock_due_at=now - timedelta(seconds=1))
    if kind == "digests":
        waiting = F("user__seats__colour")  # a reader some game waits on, and who has had no digest today
        readers = Preference.objects.filter(
            mode=Preference.Mode.DIGEST, user__seats__game__to_move=waiting, user__seats__game__status="active"
        ).exclude(user__notifications__kind="digest")
        ids = list(readers.values_list("pk", flat=True)[:count])
        zone = eight_oclock_zone(now)
        return Preference.objects.filter(pk__in=ids).update(
            time_zone=zone, next_digest_at=now - timedelta(seconds=1), updated_at=now - timedelta(days=1)
        )
    rows = Notification.objects.filter(status=Notification.Status.SENT, kind=Notification.Kind.YOUR_TURN)
    ids = list(rows.values_list("pk", flat=True)[:count])
    return Notification.objects.filter(pk__in=ids).update(
        status=Notification.Status.PENDING, queued_at=now - timedelta(minutes=10)
    )


def eight_oclock_zone(now: datetime) -> str:
    """A fixed-offset zone where it is now between 8:00 and 9:00 (the digest hour)."""
    from django.conf import settings

    for offset in range(-12, 15):
        zone = f"Etc/GMT{-offset:+d}" if offset else "UTC"  # Etc/GMT-2 is two hours ahead of UTC
        if now.astimezone(ZoneInfo(zone)).hour == settings.NOTIFICATIONS_DIGEST_HOUR:
            return zone
    raise RuntimeError("no zone has the digest hour now")


if __name__ == "__main__":
    main()
