"""Turn emails through ONE Celery worker process over real SMTP to a local sink (in this process, on 127.0.0.1).

Two figures, as issue 14 asks:
(a) throughput: the moves are made first (each writes its outbox row and queues it, no worker running),
    then one worker process is started alone and drains the queue; emails per second from the first
    email at the sink to the last (the worker's start-up left out), and the worker's CPU time per email.
    Beside it, over the same span, the CPU an email of what else the drain keeps busy, read from /proc:
    this database's PostgreSQL backends, PostgreSQL's own processes (WAL writer, checkpointer...),
    redis-server, this bench's process (the SMTP sink runs in it), and the whole machine's, of which the
    rest is other processes' (anything else running: on a shared machine, redis-server and PostgreSQL's
    own processes work for others too), and the time the cores were idle meanwhile, an email.
    Repeated --runs times, each on a fresh queue with one new turn in every game; the median is printed.
(b) move-to-delivery delay with the worker running and moves arriving at --rate a second, open loop
    (a move is made at its time whether or not earlier emails are out): median, p90 and max.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/notifications.py [--emails 1000] [--runs 3] [--latency-moves 300] \
        [--rate 5] [--pool threads --concurrency 4] [--boards midgame|start] [--sink quick|aiosmtpd] [--smoke] \
        [--database NAME] [--keep]

--pool threads (the default): one process, its threads sharing one GIL, so one core's worth of Python.
--pool prefork: one worker as docs/deployment.md runs it, a main process handing tasks to --concurrency
(default 3, the cores and one) processes of its pool; the CPU time printed is theirs and the main process's.
--sink quick (the default): the SMTP sink takes each DATA whole (QuickSink); --sink aiosmtpd: aiosmtpd's
server, which reads it line by line, as the bench did before 2026-11-28 (its CPU is the bench's, not the
service's, but it shares the cores with the worker).

The database is PostgreSQL, as in production: the bench creates its own database on the server
DATABASE_URL names (a fresh zc_bench_notifications_... name, or --database NAME, which must not exist
yet) and drops it at the end. The broker is Redis when REDIS_URL is set (queues of the bench's own,
deleted at the end, with the binding deadline its worker's remote control leaves there unless another
worker still uses it), else the filesystem broker in a throw-away var/ directory. DEBUG is off (the
bench refuses DJANGO_DEBUG=1). The games are two-player Zark City games; each email is a full turn
email: both parts, the board drawn as a PNG, the moves since the recipient's last turn, a reply address.
--boards midgame (the default): boards of 30 to 40 cards, an even mix, each game a copy of one of 11
games played forward from fixed seeds (bench/midgame.py: the same boards every run), its move log
written as move_submit writes it. --boards start: every game at turn 1 with its 2-card board, the
bench's figure before issue 29 (kept to compare with). Every run plays one more turn in the same games:
a board nobody else is emailed is never kept in the picture cache (notifications/pictures.py), so a
later run draws every board again.
Every run checks that each email arrived once: duplicates, strays and lost emails are printed.
--smoke: 20 emails a run, 10 moves for the delay; it only shows that the bench runs.
--push: Web Push on as well (docs/notifications.md): every player has one subscribed browser at a
local push service in this process (an HTTP server that counts what it receives), so each turn email
also pushes one encrypted message; every run also prints the pushes received against those expected.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script: import from the project root, not bench/
    sys.path[0] = str(ROOT)

from bench import common, midgame  # noqa: E402

MESSAGE_ID = re.compile(rb"^Message-ID:[ \t]*(<[^>\r\n]+>)", re.IGNORECASE | re.MULTILINE)


class Sink:
    """An SMTP server that accepts everything and notes when each Message-ID arrived (and how often).

    It runs in this process beside the moves, so it reads only the Message-ID header, not the message:
    QuickSink's server (the default) or aiosmtpd's (--sink aiosmtpd) hands it each message's DATA."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.copies: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.watch: Watch | None = None
        self.pushes: PushSink | None = None  # --push: the local push service, checked with the emails

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.received(envelope.content)
        return "250 OK"

    def received(self, content: bytes) -> None:
        """One message's DATA (its header is all that is read): counted, and its arrival noted."""
        now = time.time()
        header_end = content.find(b"\r\n\r\n")
        found = MESSAGE_ID.search(content, 0, header_end if header_end >= 0 else len(content))
        message_id = found.group(1).decode() if found else ""
        with self.lock:
            self.copies[message_id] += 1
            self.arrived.setdefault(message_id, now)
            if self.watch is not None:
                self.watch.saw(message_id)

    def forget(self) -> None:
        with self.lock:
            self.arrived.clear()
            self.copies.clear()
        if self.pushes is not None:
            self.pushes.received.clear()


class QuickSmtp(asyncio.Protocol):
    """One SMTP session of QuickSink: the commands smtplib sends answered, and DATA taken whole.

    aiosmtpd reads DATA line by line in Python (some 1,300 base64 lines a turn email) and unquotes each;
    this looks for the end of the message (CRLF, period, CRLF) in what arrives, so the sink's CPU, which
    is the bench's and shares the machine with the worker, is a fraction of aiosmtpd's. The message is
    kept as sent, its periods not unquoted: only its header is read, and no header line starts with one."""

    REPLIES = {b"EHLO": b"250 127.0.0.1\r\n", b"DATA": b"354 End data with <CR><LF>.<CR><LF>\r\n"}

    def __init__(self, sink: Sink) -> None:
        self.sink, self.buffer, self.in_data, self.looked = sink, bytearray(), False, 0

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(b"220 127.0.0.1 bench sink\r\n")

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while self.buffer:
            if self.in_data:
                end = self.buffer.find(b"\r\n.\r\n", max(0, self.looked - 4))
                if end < 0:
                    self.looked = len(self.buffer)
                    return
                self.sink.received(bytes(self.buffer[: end + 2]))
                del self.buffer[: end + 5]
                self.in_data, self.looked = False, 0
                self.transport.write(b"250 OK\r\n")
                continue
            line_end = self.buffer.find(b"\r\n")
            if line_end < 0:
                return
            verb = bytes(self.buffer[:4]).upper()
            del self.buffer[: line_end + 2]
            self.command(verb)

    def command(self, verb: bytes) -> None:
        if verb == b"QUIT":
            self.transport.write(b"221 Bye\r\n")
            self.transport.close()
            return
        self.in_data = verb == b"DATA"
        self.transport.write(self.REPLIES.get(verb, b"250 OK\r\n"))


class QuickSink:
    """QuickSmtp's server on 127.0.0.1:`port`, in a thread of this process with an event loop of its own."""

    def __init__(self, sink: Sink, port: int) -> None:
        self.sink, self.port = sink, port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> None:
        self.thread.start()
        serving = self.loop.create_server(lambda: QuickSmtp(self.sink), "127.0.0.1", self.port)
        self.server = asyncio.run_coroutine_threadsafe(serving, self.loop).result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()


class Watch:
    """The machine's CPU time, by process class (`cpu_now`), when the first and the last expected email arrive."""

    def __init__(self, expected: set[str], pid: int, database: str) -> None:
        self.expected, self.pid, self.database = expected, pid, database
        self.left = set(expected)
        self.cpu_first: Cpu | None = None
        self.cpu_last: Cpu | None = None
        self.done = threading.Event()

    def saw(self, message_id: str) -> None:
        if message_id not in self.left:
            return
        if self.cpu_first is None:
            self.cpu_first = cpu_now(self.pid, self.database)
        self.left.discard(message_id)
        if not self.left:
            self.cpu_last = cpu_now(self.pid, self.database)
            self.done.set()


class PushSink:
    """A push service that takes every encrypted POST with 201 and counts them per subscription."""

    def __init__(self) -> None:
        self.received: Counter[str] = Counter()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (the standard library's name)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                sink.received[self.path] += 1
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def push_environment(sink: PushSink) -> dict[str, str]:
    """A VAPID key of the bench's own, and the local push service as the only one subscriptions may name."""
    from py_vapid import Vapid, b64urlencode

    vapid = Vapid()
    vapid.generate_keys()
    key = b64urlencode(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))
    return {"WEBPUSH_VAPID_PRIVATE_KEY": key, "WEBPUSH_PUSH_SERVICES": sink.url}


def subscribe_browser(user, push_url: str) -> None:
    """One subscribed browser for this player, with keys of its own, at the local push service."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from notifications.models import PushSubscription

    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    encode = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    PushSubscription.objects.create(
        user=user, endpoint=f"{push_url}/push/{user.username}", p256dh=encode(point), auth=encode(os.urandom(16))
    )


# The classes of processes whose CPU the drain is read for, as printed. PostgreSQL's own: the postmaster,
# checkpointer, background and WAL writers, launchers (shared with anything else the server serves).
CLASSES = {
    "worker": "worker",
    "postgres": "PostgreSQL's backends of this database",
    "postgres server": "PostgreSQL's own processes",
    "redis": "redis-server",
    "bench": "this bench's process (the SMTP sink)",
}
BACKEND_TITLE = re.compile(r"\S+\(\d+\)|\[local\]|autovacuum worker")  # a connection's or a vacuum's


@dataclass
class Cpu:
    """CPU seconds so far: each process of the classes (pid -> class, seconds), the whole machine's busy
    ones and its idle ones (all cores')."""

    processes: dict[int, tuple[str, float]]
    machine: float
    idle: float

    def spent_since(self, before: Cpu) -> dict[str, float]:
        """CPU seconds each class, and the machine ("machine"), spent since `before`, and the seconds the
        cores were idle ("idle"); a process that began meanwhile counts from its start, one that ended is
        left out."""
        spent = dict.fromkeys([*CLASSES, "machine", "idle"], 0.0)
        for pid, (group, seconds) in self.processes.items():
            earlier = before.processes.get(pid)
            spent[group] += seconds - (earlier[1] if earlier and earlier[0] == group else 0.0)
        spent["machine"], spent["idle"] = self.machine - before.machine, self.idle - before.idle
        return spent


def cpu_now(worker: int, database: str) -> Cpu:
    """The CPU time so far of the worker and its pool's processes, this database's PostgreSQL backends,
    PostgreSQL's own processes, redis-server and this process, from Linux /proc; and the machine's."""
    stats = common.processes_now()
    group_of = dict.fromkeys(common.tree_of(worker, common.children_of(stats)), "worker")
    group_of.update(dict.fromkeys(common.backends_of(database, stats), "postgres"))
    for pid, process in stats.items():
        if process.name == "redis-server":
            group_of[pid] = "redis"
        elif process.name == "postgres" and pid not in group_of and not BACKEND_TITLE.search(common.command_line(pid)):
            group_of[pid] = "postgres server"
    group_of[os.getpid()] = "bench"
    busy, total = common.machine_ticks()
    processes = {pid: (group, stats[pid].cpu) for pid, group in group_of.items() if pid in stats}
    return Cpu(processes, busy / common.CLOCK_TICKS, (total - busy) / common.CLOCK_TICKS)


def cpu_line(spent: dict[str, float], emails: int) -> str:
    """Each class's CPU an email, the machine's, and what other processes (anything else running) took."""
    per = {group: seconds * 1000 / emails for group, seconds in spent.items()}
    parts = ", ".join(f"{CLASSES[group]} {per[group]:.1f}" for group in CLASSES)
    rest = per["machine"] - sum(per[group] for group in CLASSES)
    machine = f"the machine {per['machine']:.1f}, of which other processes {rest:.1f}; cores idle {per['idle']:.1f}"
    return f"CPU ms per email during the drain: {parts}; {machine}"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emails", type=int, default=1000, help="turn emails per throughput run")
    parser.add_argument("--runs", type=int, default=3, help="throughput runs (the median is printed)")
    parser.add_argument("--latency-moves", type=int, default=300, help="moves for the delay figure")
    parser.add_argument("--rate", type=float, default=5.0, help="moves a second for the delay figure")
    parser.add_argument(
        "--pool", default="threads", choices=["threads", "solo", "prefork"], help="the worker's pool (default threads)"
    )
    parser.add_argument(
        "--concurrency", type=int, help="threads of the worker process, or its pool's processes (default 4, prefork 3)"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="give up on a run after this many seconds")
    parser.add_argument(
        "--boards",
        default="midgame",
        choices=["midgame", "start"],
        help="midgame: boards of 30 to 40 cards (default); start: turn 1, 2 cards, the figure before issue 29",
    )
    parser.add_argument(
        "--sink",
        default="quick",
        choices=["quick", "aiosmtpd"],
        help="the SMTP sink in this process: quick (default: DATA taken whole) or aiosmtpd (line by line, before)",
    )
    parser.add_argument("--smoke", action="store_true", help="tiny runs: only shows that the bench runs")
    parser.add_argument("--push", action="store_true", help="Web Push on too: one browser per player")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.smoke:
        args.emails, args.latency_moves = 20, 10
    if args.pool == "solo":
        args.concurrency = 1
    elif args.concurrency is None:
        args.concurrency = common.WORKER_CONCURRENCY if args.pool == "prefork" else 4  # prefork: as deployed
    common.run_in_own_database("notifications", args, bench)


def bench(args: argparse.Namespace) -> None:
    var = Path(tempfile.mkdtemp(prefix="zarkcity-bench-"))
    port = common.free_port()
    os.environ.update(
        {
            "ZARKCITY_VAR_DIR": str(var),
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(port),
            "DJANGO_LOG_LEVEL": "WARNING",
        }
    )
    pushes = PushSink() if args.push else None
    if pushes is not None:
        os.environ.update(push_environment(pushes))  # this process's settings and the worker's
    import django

    django.setup()
    common.check_debug_off()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    common.collect_static()  # as deployed: pages and emails name the hashed static files
    broker = "redis" if os.environ.get("REDIS_URL") else "filesystem"
    database = django.conf.settings.DATABASES["default"]
    print(f"database: {database['ENGINE']} {database['NAME']}, broker: {broker}, DEBUG off, {os.cpu_count()} cores")
    processes = "one process" if args.pool != "prefork" else f"one main process and {args.concurrency} in its pool"
    print(f"worker: {processes}, --pool {args.pool} --concurrency {args.concurrency}; {common.machine_speed()}")
    print(f"Web Push: {'on, one browser per player at ' + pushes.url if pushes else 'off'}")

    count, push_url = max(args.emails, args.latency_moves), pushes.url if pushes else ""
    games = prepare(count, push_url) if args.boards == "start" else prepare_midgame(count, push_url)
    sink = Sink()
    sink.pushes = pushes
    controller = QuickSink(sink, port) if args.sink == "quick" else aiosmtpd_controller(sink, port)
    controller.start()
    queues: list[str] = []
    try:
        rates = [throughput(games[: args.emails], sink, args, queues, n) for n in range(1, args.runs + 1)]
        print(f"(a) throughput, median of {len(rates)} runs: {statistics.median(rates):.1f} emails/s")
        if args.latency_moves:  # 0: the throughput runs alone
            delay(games[: args.latency_moves], sink, args, queues)
    finally:
        controller.stop()
        forget(queues)


def aiosmtpd_controller(sink: Sink, port: int):
    from aiosmtpd.controller import Controller

    return Controller(sink, hostname="127.0.0.1", port=port)


def prepare(count: int, push_url: str = ""):
    """`count` two-player games, each at the start of turn 1, with an empty outbox (and with `push_url`,
    each player with one browser subscribed there)."""
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
            for player in (red, blue) if push_url else ():
                subscribe_browser(player, push_url)
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


def prepare_midgame(count: int, push_url: str = ""):
    """`count` two-player games with boards of 30 to 40 cards, in turn, each a copy of a game played
    forward from a fixed seed (bench/midgame.py), with its move log and a fresh clock (and with
    `push_url`, each player with one browser subscribed there)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    User = get_user_model()  # noqa: N806
    started, now = time.perf_counter(), timezone.now()
    played = midgame.boards(list(range(30, 41)))
    users = User.objects.bulk_create(
        User(username=f"{colour}{n}", email=f"{colour}{n}@example.com")
        for n in range(count)
        for colour in ("red", "blue")
    )
    for user in users if push_url else ():
        subscribe_browser(user, push_url)
    clock = {"turn_started_at": now, "deadline": now + timedelta(days=3), "clock_due_at": now + timedelta(days=1.5)}
    tables = [(users[2 * n], users[2 * n + 1]) for n in range(count)]
    games = midgame.make_games(played, tables, now=now, columns=lambda n: clock)
    sizes = Counter(played[n % len(played)].cards for n in range(count))
    mix = ", ".join(f"{sizes[cards]} of {cards}" for cards in sorted(sizes))
    print(f"set up {count} games with boards of {mix} cards in {time.perf_counter() - started:.1f}s")
    return games


def play_one(game, prefer: str = "draw"):
    """One legal move by the first player who must move (a Draw in the act phase, to keep it simple)."""
    from games import services

    rules = game.rules  # the game interface (engine/interface.py)
    state = rules.from_position(game.snapshot)
    colour = game.to_move.split(",")[0]  # whom the game waits on: not a seat whose sealed choice is in
    options = [m for m in rules.legal_moves(state, colour) if not rules.is_resign(m)]
    move = next((m for m in options if str(m) == prefer), options[0])
    user = game.seats.get(colour=colour).user
    services.move_submit(game=game, user=user, text=str(move), seen_ply=game.ply)
    game.refresh_from_db()


def play_turn(game) -> None:
    """The player to move finishes their turn: a Draw, and the discard if the hand went over the limit.
    One "your turn" email to the other player."""
    mover = game.to_move
    play_one(game)
    while game.to_move == mover and game.status == "active":
        play_one(game, prefer="")


def new_queue(queues: list[str]) -> str:
    from django.conf import settings

    queue = f"bench-{uuid.uuid4().hex[:8]}"
    settings.NOTIFICATIONS_QUEUE = queue  # where this process queues the outbox rows from now on
    queues.append(queue)
    return queue


def start_worker(args: argparse.Namespace, queue: str) -> subprocess.Popen:
    command = [
        str(ROOT / ".venv" / "bin" / "celery"),
        "--quiet",  # no banner between the figures
        "-A",
        "zarkcity_site",
        "worker",
        "--pool",
        args.pool,
        "--concurrency",
        str(args.concurrency),
        "-Q",
        queue,
        "--without-mingle",
        "--without-gossip",
        "--without-heartbeat",
        "--loglevel",
        "WARNING",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=os.environ | {"NOTIFICATIONS_QUEUE": queue})


def stop(worker: subprocess.Popen) -> None:
    worker.terminate()  # a warm shutdown: it finishes what it holds
    try:
        worker.wait(timeout=60)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def rows_since(first_pk: int) -> dict[int, str]:
    """{row id: Message-ID} of the turn emails written since `first_pk`."""
    from urllib.parse import urlsplit

    from django.conf import settings

    from notifications.models import Notification

    host = urlsplit(settings.SITE_URL).hostname
    ids = Notification.objects.filter(kind="your_turn", pk__gte=first_pk).values_list("pk", flat=True)
    return {pk: f"<notification.{pk}@{host}>" for pk in ids}


def next_pk() -> int:
    from notifications.models import Notification

    last = Notification.objects.order_by("-pk").values_list("pk", flat=True).first()
    return (last or 0) + 1


def throughput(games, sink: Sink, args, queues: list[str], run: int) -> float:
    """Moves first (rows written and queued, no worker), then one worker alone drains the queue."""
    queue = new_queue(queues)
    sink.forget()
    first_pk = next_pk()
    started = time.time()
    for game in games:
        play_turn(game)
    made = time.time() - started
    expected = rows_since(first_pk)
    print(f"run {run}: made {len(games)} turns in {made:.1f}s (worker not running), {len(expected)} emails queued")
    print(f"run {run}: before the drain, {common.machine_speed()}")  # the machine's speed moves between runs
    worker = start_worker(args, queue)
    from django.conf import settings

    watch = sink.watch = Watch(set(expected.values()), worker.pid, settings.DATABASES["default"]["NAME"])
    begun = time.time()
    try:
        watch.done.wait(timeout=args.timeout)
    finally:
        sink.watch = None
        time.sleep(0.5)  # anything sent twice would arrive now
        stop(worker)
    arrivals = [sink.arrived[m] for m in expected.values() if m in sink.arrived]
    if len(arrivals) < 2:
        print(f"run {run}: {len(arrivals)} emails arrived; no rate")
        return 0.0
    span = max(arrivals) - min(arrivals)
    rate = (len(arrivals) - 1) / span
    spent = watch.cpu_last.spent_since(watch.cpu_first) if watch.cpu_first and watch.cpu_last else None
    cpu = spent["worker"] * 1000 / (len(arrivals) - 1) if spent else float("nan")
    print(
        f"run {run}: {len(arrivals)} emails in {span:.1f}s from the first at the sink to the last "
        f"(first {min(arrivals) - begun:.1f}s after the worker started): {rate:.1f} emails/s, "
        f"worker CPU {cpu:.1f} ms per email; {load()}"
    )
    if spent:
        print(f"    {cpu_line(spent, len(arrivals) - 1)}")
    check(expected, sink)
    return rate


def delay(games, sink: Sink, args, queues: list[str]) -> None:
    """The worker running, moves arriving at args.rate a second: from each move to its email at the sink."""
    queue = new_queue(queues)
    sink.forget()
    worker = start_worker(args, queue)
    try:
        warm_up(games[0], sink, args)
        sink.forget()
        first_pk = next_pk()
        moved_at: dict[int, float] = {}
        started, late = time.time(), 0.0
        for n, game in enumerate(games):
            due = started + n / args.rate
            time.sleep(max(0.0, due - time.time()))  # open loop: each move at its time, whatever is queued
            late = max(late, time.time() - due)
            play_turn(game)
            moved_at[game.pk] = time.time()
        made = time.time() - started
        expected = rows_since(first_pk)
        deadline = time.time() + args.timeout
        while any(m not in sink.arrived for m in expected.values()) and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
    finally:
        stop(worker)
    print(
        f"(b) made {len(games)} turns in {made:.1f}s, one every {1 / args.rate:g}s (open loop, the latest "
        f"{late * 1000:.0f} ms behind its time); {load()}"
    )
    from notifications.models import Notification

    game_of = dict(Notification.objects.filter(pk__in=list(expected)).values_list("pk", "game_id"))
    delays = [sink.arrived[m] - moved_at[game_of[pk]] for pk, m in expected.items() if m in sink.arrived]
    if len(delays) >= 2:
        print(
            f"(b) delay from move to delivery at {args.rate:g} moves/s: median {statistics.median(delays):.2f}s, "
            f"p90 {statistics.quantiles(delays, n=10)[-1]:.2f}s, max {max(delays):.2f}s"
        )
    check(expected, sink)


def warm_up(game, sink: Sink, args) -> None:
    """One email through the fresh worker, so the delays measure the steady state, not its start-up."""
    first_pk = next_pk()
    play_turn(game)
    [message_id] = rows_since(first_pk).values()
    deadline = time.time() + args.timeout
    while message_id not in sink.arrived and time.time() < deadline:
        time.sleep(0.1)


def check(expected: dict[int, str], sink: Sink) -> None:
    wanted = set(expected.values())
    lost = len(wanted - set(sink.arrived))
    duplicates = sum(n - 1 for m, n in sink.copies.items() if m in wanted)
    strays = sum(n for m, n in sink.copies.items() if m not in wanted)
    print(f"    checked: {len(wanted)} expected, {lost} lost, {duplicates} duplicates, {strays} strays")
    if sink.pushes is not None:  # one push per turn email, to the recipient's one browser
        received = sink.pushes.received
        print(f"    pushes: {len(wanted)} expected, {sum(received.values())} received, at {len(received)} browsers")


# kombu's own sweep, run now for the remote-control exchange: its deadline goes once no queue is bound.
FORGET_UNBOUND = """
if redis.call('EXISTS', KEYS[2]) == 0 then
    return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


def forget(queues: list[str]) -> None:
    """Leave nothing on a shared broker: the bench's queues and anything still in them, and on Redis
    their exchange bindings and the deadline the workers' remote-control exchange (celery.pidbox) keeps
    after they stop, for kombu to sweep an hour later, unless another worker is still bound to it."""
    from zarkcity_site.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        for queue in queues:
            channel.queue_purge(queue)
            channel.queue_delete(queue)
        if hasattr(channel, "client"):  # Redis keeps these under their own keys; the filesystem broker does not
            for queue in queues:
                channel.client.delete(channel.keyprefix_queue % queue, channel.keyprefix_binding_permanent % queue)
            forget_unbound(channel, app.control.mailbox.exchange.name)


def forget_unbound(channel, exchange: str) -> bool:
    """Drop the exchange's binding deadline if no queue is bound to it any more; True if dropped."""
    keys = [channel.keyprefix_binding_deadlines, channel.keyprefix_queue % exchange]
    return bool(channel.client.eval(FORGET_UNBOUND, len(keys), *keys, exchange))


if __name__ == "__main__":
    main()
