"""What the service benches share: production settings (DEBUG off) and a database of their own.

Every bench that touches the database measures PostgreSQL, as production runs: DATABASE_URL names a
server (postgres://postgres@127.0.0.1:5432/postgres); the bench creates a database of its own there,
named afresh each run (zc_bench_<bench>_<UTC time>_<random>) or as `--database NAME` says, refuses a
name that already exists (it may be someone else's), and drops only the database it created itself.
Nothing is read from or written to the database DATABASE_URL names.
"""

from __future__ import annotations

import ctypes
import math
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
TRUE = ("1", "true", "yes", "on")
# The Celery worker's pool processes as docs/deployment.md ("Processes") runs it: the cores and one.
WORKER_CONCURRENCY = 3


def production_settings() -> None:
    """Run with DEBUG off, as production does; refuse DJANGO_DEBUG=1. Call before django.setup().

    DEBUG on keeps every SQL query in memory and serves static files another way: the figures would
    not be production's. A throw-away secret key, no HTTPS redirect (the test client speaks plain
    HTTP), static files collected into a temporary directory as the deployment does, a var directory
    of its own."""
    refuse_debug()
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")
    os.environ.setdefault("DJANGO_STATIC_ROOT", tempfile.mkdtemp(prefix="zarkcity-bench-static-"))
    # Cache, broker folders and mail of this run only, never the project's var/.
    os.environ.setdefault("ZARKCITY_VAR_DIR", tempfile.mkdtemp(prefix="zarkcity-bench-var-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarkcity_site.settings")


def refuse_debug() -> None:
    """Exit at once when DJANGO_DEBUG is on: every bench calls this (through production_settings, or itself
    when it has no Django) after reading its arguments and before touching anything."""
    if os.environ.get("DJANGO_DEBUG", "0").strip().lower() in TRUE:
        sys.exit("refusing to run with DJANGO_DEBUG on: the figures must be production's (unset it or set 0)")


def check_debug_off() -> None:
    """After django.setup(): the settings really have DEBUG off."""
    from django.conf import settings

    if settings.DEBUG:
        sys.exit("refusing to run with DEBUG on: the figures must be production's")


def collect_static() -> None:
    """The hashed, compressed static files WhiteNoise serves in production (pages name them)."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)


def server_url() -> str:
    """The PostgreSQL server DATABASE_URL names; exit if it names none."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit(
            "DATABASE_URL must name a PostgreSQL server, as production uses, e.g."
            " DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (the bench makes its own database there)"
        )
    return url


def fresh_name(bench: str) -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%d_%H%M%S")
    return f"zc_bench_{bench}_{stamp}_{secrets.token_hex(3)}"


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _admin(url: str):
    """A connection to the server (to the database DATABASE_URL names, or `postgres`), for CREATE and DROP only."""
    import psycopg

    if not urlsplit(url).path.strip("/"):
        url = with_database(url, "postgres")
    return psycopg.connect(url, autocommit=True)


def create_database(url: str, name: str) -> None:
    """Create `name`; exit without touching it if it exists already (never reuse someone else's)."""
    if not NAME.match(name):
        sys.exit(f"database name {name!r}: use lower-case letters, digits and _ (at most 63)")
    with _admin(url) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            sys.exit(f"database {name} already exists: it may be someone else's, so the bench will not use it")
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str, name: str) -> None:
    """Drop the database this run created (and only that one: the caller passes the name it created)."""
    from django.db import connections

    connections.close_all()
    with _admin(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def own_database(bench: str, name: str | None) -> tuple[str, str]:
    """Create this run's database and point DATABASE_URL at it: (server url, database name)."""
    url = server_url()
    name = name or fresh_name(bench)
    create_database(url, name)
    os.environ["DATABASE_URL"] = with_database(url, name)
    return url, name


def run_in_own_database(bench: str, args, run) -> None:
    """Production settings, this run's own database (`args.database` or a fresh name), `run(args)`, and
    the database dropped at the end, on an error too, unless `args.keep`."""
    production_settings()
    server, name = own_database(bench, args.database)
    try:
        run(args)
    finally:
        if args.keep:
            print(f"kept database {name}")
        else:
            drop_database(server, name)


def add_database_arguments(parser) -> None:
    parser.add_argument(
        "--database", metavar="NAME", help="name of the database to create (default: a fresh zc_bench_... name)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards (default: drop it)")


def rss_mb(pid: int | str = "self") -> float | None:
    """A process's resident memory in MB (VmRSS; this one's by default), or None if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def own_rss_mb() -> float:
    """This process's resident memory in MB (NaN where /proc does not say)."""
    rss = rss_mb()
    return math.nan if rss is None else rss


# ----------------------------------------------------------------------------- CPU of processes (from /proc)

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ProcessCpu(NamedTuple):
    """A process as /proc/<pid>/stat has it: its command's name, its parent, its user + system CPU seconds."""

    name: str
    parent: int
    cpu: float


def process_cpu(pid: int) -> ProcessCpu | None:
    """A process's name, parent and CPU seconds so far, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    name = text[text.index("(") + 1 : text.rindex(")")]
    return ProcessCpu(name, int(fields[1]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)


def processes_now() -> dict[int, ProcessCpu]:
    """Every process on the machine now, by pid."""
    return {int(p): stat for p in os.listdir("/proc") if p.isdigit() and (stat := process_cpu(int(p)))}


def children_of(stats: dict[int, ProcessCpu]) -> dict[int, list[int]]:
    """Each process's children (parent pid -> pids), from `processes_now`."""
    children: dict[int, list[int]] = {}
    for pid, process in stats.items():
        children.setdefault(process.parent, []).append(pid)
    return children


def tree_of(pid: int, children: dict[int, list[int]]) -> list[int]:
    """A process and all its descendants, from `children_of`."""
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo += children.get(found[-1], [])
    return found


def command_line(pid: int) -> str:
    """A process's command line with spaces between its arguments ("" if it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def backends_of(database: str, stats: dict[int, ProcessCpu]) -> list[int]:
    """The PostgreSQL server processes (on this machine) working for `database`: its connections' backends
    and any autovacuum worker in it, whose titles name the database as a word of their own."""
    return [
        pid for pid, process in stats.items() if process.name == "postgres" and database in command_line(pid).split()
    ]


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def machine_speed() -> str:
    """The machine's speed beside a bench's figures: a Python loop of 10 million additions (0.46 s on the
    fastest machine docs/performance.md names, 2.0 to 2.5 s on the slowest), and the load average now."""
    started, total = time.perf_counter(), 0
    for n in range(10_000_000):
        total += n
    loop = time.perf_counter() - started
    return f"Python loop of 10M additions {loop:.2f} s, load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def set_up_django() -> None:
    """Django set up with DEBUG off, this run's database migrated, the static files collected as deployed
    (pages and emails name the hashed files)."""
    import django

    django.setup()
    check_debug_off()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    collect_static()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def smtp_sink() -> Iterator[None]:
    """An SMTP server that keeps nothing (aiosmtpd's Sink, a process of its own) for the whole block, and the
    environment pointing Django's email at it (set before django.setup(); processes started inside inherit it)."""
    port = free_port()
    sink = subprocess.Popen(
        [sys.executable, "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{port}"]
    )
    try:
        os.environ.update(
            {
                "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "127.0.0.1",
                "EMAIL_PORT": str(port),
                "DJANGO_LOG_LEVEL": "WARNING",
            }
        )
        yield
    finally:
        sink.terminate()
        sink.wait()


class MallInfo2(ctypes.Structure):
    """glibc's `struct mallinfo2`: `arena` the heap's bytes, `uordblks` those in use, `fordblks` the free ones."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def mallinfo() -> MallInfo2:
    """glibc's counts over all its arenas (and the blocks it mmapped) for this process, now."""
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    info: MallInfo2 = libc.mallinfo2()
    return info
