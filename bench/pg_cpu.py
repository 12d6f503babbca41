"""PostgreSQL's own CPU for a move and for a turn email, with its statements prepared and without
(settings: ZARKCITY_PG_PREPARED), the two in turn, beside this process's own CPU for the same.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/pg_cpu.py \
        [--games 40] [--warm 8] [--rounds 3] [--database NAME] [--keep]

One database (bench/common.py's rules) holds `--games` two-player mid-game games (boards of 30 to 40
cards, bench/notifications.py's). Each round runs this script once more per setting, off then on, in a
process of its own (Django reads the setting as it starts): it plays a turn of each player in every
game through Django's test client (a move: the mover's POST /games/<id>/move/, then the game page it is
sent back to; a turn: a draw, and a discard when the hand is over the limit), each turn followed by the
delivery of the turn email it queued (notifications.delivery.deliver, as the worker's task does,
to an aiosmtpd sink). The first `--warm` games of a run are played but not counted: a process's first
requests compile its queries, and psycopg prepares a statement at its fifth run on a connection.

PostgreSQL's CPU is read from /proc/<pid>/schedstat of the server process behind this process's one
connection (same machine; nanoseconds, where /proc/<pid>/stat counts 10 ms ticks) before and after each
request and each delivery, so the bench's own queries between them (choosing the move) are not counted;
this process's is its thread CPU time over the same calls. Each is a mean over the counted calls: a POST
of a move, a game page, a delivery.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script: import from the project root, not bench/
    sys.path[0] = str(ROOT)

from bench import common  # noqa: E402
from bench.plans import backend_cpu, backend_pid  # noqa: E402

SETTINGS = ("0", "1")  # ZARKCITY_PG_PREPARED: off, then on, in each round


@dataclass
class Spent:
    """What one kind of call cost, summed over the counted calls: PostgreSQL's and this process's CPU."""

    postgres_s: float = 0.0
    python_s: float = 0.0
    calls: int = 0
    skipped: int = 0  # calls during which the connection was replaced, not counted
    backends: set[int] = field(default_factory=set)

    def measure(self, call: Callable[..., Any], *args: Any) -> Any:
        backend = backend_pid()
        postgres, python = backend_cpu(backend), time.thread_time()
        result = call(*args)
        python_after, backend_after = time.thread_time(), backend_pid()
        if backend_after != backend:  # the connection was replaced (CONN_MAX_AGE): the old process is gone
            self.skipped += 1
            return result
        self.postgres_s += backend_cpu(backend) - postgres
        self.python_s += python_after - python
        self.calls += 1
        self.backends.add(backend)
        return result

    def __str__(self) -> str:
        postgres, python = self.postgres_s * 1e3 / self.calls, self.python_s * 1e3 / self.calls
        return f"PostgreSQL {postgres:5.2f} ms, Python {python:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games (each player takes a turn in each, a run)")
    parser.add_argument("--warm", type=int, default=8, help="games of each run played first, not counted")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each a run with the setting off, then on")
    parser.add_argument("--run", metavar="IDS", help=argparse.SUPPRESS)  # a child: each player's turn in these games
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.run is not None:
        child(args)
    else:
        common.run_in_own_database("pg_cpu", args, rounds)


def rounds(args: argparse.Namespace) -> None:
    with common.smtp_sink():
        common.set_up_django()
        from django.db import connections

        from bench import notifications as emails_bench

        ids = ",".join(str(game.pk) for game in emails_bench.prepare_midgame(args.games))
        connections.close_all()
        for number in range(1, args.rounds + 1):
            for setting in SETTINGS:
                environment = os.environ | {"ZARKCITY_PG_PREPARED": setting}
                command = [sys.executable, __file__, "--run", ids, "--warm", str(args.warm)]
                subprocess.run(command, env=environment, check=True)
            print(f"  round {number} done; load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def child(args: argparse.Namespace) -> None:
    """One run: a turn in each game and its email, the first `args.warm` games not counted."""
    common.production_settings()
    import django

    django.setup()
    common.check_debug_off()
    from django.conf import settings

    from games.models import Game
    from notifications import services as notify

    notify.enqueue = lambda notification_id: True  # no broker: this process delivers each row itself
    games = list(Game.objects.filter(pk__in=[int(pk) for pk in args.run.split(",")]).order_by("pk"))
    warm, counted = games[: args.warm], games[args.warm :]
    for game in warm:
        for _ in game.seats.all():
            turn(game, Spent(), Spent(), Spent())
    post, page, email = Spent(), Spent(), Spent()
    for game in counted:
        for _ in game.seats.all():  # each player's turn: the two settings' runs see the same players' pages
            turn(game, post, page, email)
    skipped = post.skipped + page.skipped + email.skipped
    prepared = settings.DATABASES["default"].get("OPTIONS", {}).get("prepare_threshold") is not None
    print(
        f"prepared {'on ' if prepared else 'off'}: {email.calls} turns; a move's POST: {post}; "
        f"its game page: {page}; a turn email: {email}; "
        f"{len(post.backends | page.backends | email.backends)} connections, {skipped} calls not counted; "
        f"{kept_plans()}; "
        f"{common.machine_speed()}",
        flush=True,
    )


def kept_plans() -> str:
    """How many statements the connection has prepared, how often their runs were planned afresh (the first
    five of each, and any whose generic plan PostgreSQL judges costlier), and the server's memory for them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), sum(generic_plans), sum(custom_plans) FROM pg_prepared_statements")
        statements, generic, custom = cursor.fetchone()
        cursor.execute("SELECT sum(total_bytes) FROM pg_backend_memory_contexts WHERE name LIKE 'CachedPlan%'")
        (plans,) = cursor.fetchone()
    runs = f" (runs on a generic plan {generic}, planned afresh {custom})" if statements else ""
    return f"{statements} statements prepared{runs}, {(plans or 0) / 1024:.0f} kB of cached plans"


def turn(game: Any, post: Spent, page: Spent, email: Spent) -> None:
    """The mover draws (and discards down to the limit) through the web, then their opponent's email goes."""
    from django.test import Client

    from notifications import delivery
    from notifications.models import Notification

    mover = game.to_move
    user = game.seats.get(colour=mover).user
    client = Client()
    client.force_login(user)
    first = Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    prefer = "draw"
    while game.to_move == mover and game.status == "active":
        data = {"text": choose(game, prefer), "seen_ply": game.ply}
        response = post.measure(client.post, f"/games/{game.pk}/move/", data)
        assert response.status_code == 302, (response.status_code, response.content[:300])
        response = page.measure(client.get, response["Location"])
        assert response.status_code == 200, response.status_code
        game.refresh_from_db()
        prefer = ""
    turns = Notification.objects.filter(pk__gt=first, kind=Notification.Kind.YOUR_TURN)
    for pk in turns.values_list("pk", flat=True):
        outcome = email.measure(delivery.deliver, pk)
        assert outcome.value == "sent", outcome.value


def choose(game: Any, prefer: str) -> str:
    """The move `prefer`s if legal, else the first legal move that is not a resignation."""
    rules = game.rules
    state = rules.from_position(game.snapshot)
    colour = game.to_move.split(",")[0]
    options = [str(m) for m in rules.legal_moves(state, colour) if not rules.is_resign(m)]
    return prefer if prefer in options else options[0]


if __name__ == "__main__":
    main()
