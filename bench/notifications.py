"""Fan-out benchmark: 1,000 "your turn" emails, queued by real moves, delivered by ONE Celery worker
process over real SMTP to a local sink (aiosmtpd on 127.0.0.1). Prints emails per second and the
median delay from the move to the sink receiving the email.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/notifications.py [--emails 1000] [--smoke] [--database NAME] [--keep]

The database is PostgreSQL, as in production: the bench creates its own database on the server
DATABASE_URL names (a fresh zc_bench_notifications_... name, or --database NAME, which must not exist
yet) and drops it at the end. The broker is Redis when REDIS_URL is set (a queue of the bench's own,
deleted at the end), else the filesystem broker in a throw-away var/ directory. DEBUG is off (the
bench refuses DJANGO_DEBUG=1). The games are Zark City. Each email is a full turn email: both parts,
the board rendered to PNG by cairosvg, the moves since the recipient's last turn. --smoke sends 20.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from email import message_from_bytes
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOT_SECONDS = 8
sys.path[0] = str(ROOT)  # the project root, not bench/

from bench import common  # noqa: E402


class Sink:
    """An SMTP server that accepts everything and notes when each Message-ID arrived."""

    def __init__(self) -> None:
        self.received: dict[str, float] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        arrived = time.time()
        message_id = message_from_bytes(envelope.content)["Message-ID"] or ""
        with self.lock:
            self.received[message_id.strip()] = arrived
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emails", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after this many seconds")
    parser.add_argument("--smoke", action="store_true", help="20 emails: only shows that the bench runs")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.smoke:
        args.emails = 20
    common.production_settings()
    server, name = common.own_database("notifications", args.database)
    try:
        bench(args)
    finally:
        if args.keep:
            print(f"kept database {name}")
        else:
            common.drop_database(server, name)


def bench(args: argparse.Namespace) -> None:
    var = Path(tempfile.mkdtemp(prefix="zarkcity-bench-"))
    port = free_port()
    env = {
        "ZARKCITY_VAR_DIR": str(var),
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "NOTIFICATIONS_QUEUE": f"bench-{uuid.uuid4().hex[:8]}",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    (var / "broker").mkdir(parents=True, exist_ok=True)
    (var / "broker-processed").mkdir(parents=True, exist_ok=True)

    import django

    django.setup()
    common.check_debug_off()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    common.collect_static()  # as deployed: pages and emails name the hashed static files
    broker = "redis" if os.environ.get("REDIS_URL") else "filesystem"
    database = django.conf.settings.DATABASES["default"]
    print(f"database: {database['ENGINE']} {database['NAME']}, broker: {broker}, var: {var}, DEBUG off")

    games = prepare(args.emails)
    sink = Sink()
    from aiosmtpd.controller import Controller

    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    worker = start_worker(env)
    time.sleep(BOOT_SECONDS)  # measure the steady state, not the worker's start-up
    try:
        run(games, sink, args)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        controller.stop()
        forget_queue(env["NOTIFICATIONS_QUEUE"])


def forget_queue(queue: str) -> None:
    """Leave nothing on a shared broker: the bench's queue and anything still in it."""
    from zarkcity_site.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        channel.queue_purge(queue)
        channel.queue_delete(queue)
        if hasattr(channel, "client"):  # Redis keeps the exchange's bindings under their own keys
            channel.client.delete(f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


def prepare(count: int):
    """`count` two-player games, each at the start of turn 1, with an empty outbox."""
    from django.contrib.auth import get_user_model

    from games import services
    from notifications import services as notify
    from notifications.models import Notification

    User = get_user_model()  # noqa: N806
    started = time.perf_counter()
    real_enqueue, notify.enqueue = notify.enqueue, lambda notification_id: True  # setup emails go nowhere
    try:
        games = []
        for n in range(count):
            red = User.objects.create(username=f"red{n}", email=f"red{n}@example.com")  # no password: no hashing
            blue = User.objects.create(username=f"blue{n}", email=f"blue{n}@example.com")
            game = services.game_create(
                creator=red,
                game="zarkcity",
                seats=2,
                options={"deck": "standard"},
                time_limit_days=3,
                is_private=False,
            )
            services.game_join(game=game, user=blue)
            game.refresh_from_db()
            while game.phase != "act":
                play_one(game)
            games.append(game)
    finally:
        notify.enqueue = real_enqueue
    Notification.objects.all().delete()
    print(f"set up {count} games at turn 1 in {time.perf_counter() - started:.1f}s")
    return games


def play_one(game, prefer: str = "draw"):
    """One legal move by the first player who must move (a Draw in the act phase, to keep it simple)."""
    from games import services

    rules = game.rules  # the game interface (engine/interface.py)
    state = rules.from_position(game.snapshot)
    colour = rules.movers(state)[0]
    options = [m for m in rules.legal_moves(state, colour) if not rules.is_resign(m)]
    move = next((m for m in options if str(m) == prefer), options[0])
    user = game.seats.get(colour=colour).user
    services.move_submit(game=game, user=user, text=str(move), seen_ply=game.ply)
    game.refresh_from_db()


def start_worker(env: dict[str, str]) -> subprocess.Popen:
    command = [
        str(ROOT / ".venv" / "bin" / "celery"),
        "-A",
        "zarkcity_site",
        "worker",
        "--pool",
        "solo",
        "--concurrency",
        "1",
        "-Q",
        env["NOTIFICATIONS_QUEUE"],
        "--without-mingle",
        "--without-gossip",
        "--loglevel",
        "WARNING",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=os.environ.copy())


def run(games, sink: Sink, args) -> None:
    """Each game's player finishes their turn: one "your turn" email to the other. Then wait for all."""
    from notifications.models import Notification

    first_move = time.time()
    moved_at: dict[int, float] = {}
    for game in games:
        mover = game.to_move
        play_one(game)
        while game.to_move == mover and game.status == "active":  # the discard step, if the draw went over 6
            play_one(game, prefer="")
        moved_at[game.pk] = time.time()
    queued = time.time() - first_move
    print(f"made {len(games)} turns in {queued:.1f}s ({len(games) / queued:.0f} turns/s, outbox written and queued)")

    rows = dict(Notification.objects.filter(kind="your_turn").values_list("pk", "game_id"))
    deadline = time.time() + args.timeout
    while len(sink.received) < len(rows) and time.time() < deadline:
        time.sleep(0.2)
    report(rows, moved_at, sink, first_move)


def report(rows: dict[int, int], moved_at: dict[int, float], sink: Sink, first_move: float) -> None:
    from urllib.parse import urlsplit

    from django.conf import settings

    host = urlsplit(settings.SITE_URL).hostname
    delays, arrivals = [], []
    for pk, game_id in rows.items():
        arrived = sink.received.get(f"<notification.{pk}@{host}>")
        if arrived is not None:
            delays.append(arrived - moved_at[game_id])
            arrivals.append(arrived)
    if not arrivals:
        print("no email arrived")
        return
    span = max(arrivals) - first_move
    print(
        f"delivered {len(arrivals)} of {len(rows)} turn emails to the SMTP sink in {span:.1f}s "
        f"from the first move: {len(arrivals) / span:.1f} emails/s (one worker, solo pool)"
    )
    print(
        f"delay from move to delivery: median {statistics.median(delays):.2f}s, "
        f"p90 {statistics.quantiles(delays, n=10)[-1]:.2f}s, max {max(delays):.2f}s"
    )
    duplicates = len(sink.received) - len(arrivals)
    print(f"duplicates or strays at the sink: {duplicates}")


if __name__ == "__main__":
    main()
