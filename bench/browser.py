"""Measure a move as a browser makes it, request by request: CPU and queries of the page, the move, the polls.

Run from the project root, against a PostgreSQL server and (as production) a Redis database for the cache:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/browser.py \
        --redis redis://127.0.0.1:6379/N [--samples 100] [--sql]
It creates its own database on that server (as bench/service.py: a fresh zc_bench_browser_... name, or
--database NAME, dropped at the end unless --keep) and runs with DEBUG off. Without --redis the cache is
the embedded default's (files in a var directory of this run). The Redis database given must be one
nobody else uses: the bench empties it (`FLUSHDB`) at the start and at the end.

The requests go through Django's test client (the WSGI handler with every middleware, sessions, CSRF;
no network, no gunicorn), logged in with `force_login` as the load bench's players are. One "move" is
what bench/load.py and a player's browser do (issue 29): GET the game page as the player to move, POST
the move, then GET ply.json?since=<the page's ply>&mine=1 (a seated player's page asks for its own
games waiting, static/js/game_page.js). Beside it, the polls of the pages players keep
open, with nothing new to tell (ply.json?since=<the ply now>): a spectator's page, and a seated
player's page, which also asks for the viewer's own games (`&mine=1`, as static/js/game_page.js does).

It prints, for each kind of request, the median CPU time of the process (time.process_time: Django's
and the database driver's work in this process, not PostgreSQL's or Redis's) and wall time over
`samples` requests, and the number of SQL queries (counted on one extra request), each kind interleaved
with the others move by move, so that the machine's load weighs on all alike; --sql prints the queries.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project root, not bench/

from bench import common  # noqa: E402
from bench.service import Timings  # noqa: E402

GAMES = 4  # two-player Zark City games, played in turn: each move is made on the next one


class Kind(Timings):
    """One kind of request: its CPU and wall milliseconds (Timings), and the queries of one more request."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label
        self.queries: list[str] = []

    def count(self, call: Callable[[], Any]) -> Any:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            result = call()
        self.queries = [query["sql"] for query in captured.captured_queries]
        return result

    def line(self) -> str:
        cpu, wall = statistics.median(self.cpu), statistics.median(self.wall)
        return f"{self.label:<44} {cpu:6.2f} ms CPU {wall:6.2f} ms wall {len(self.queries):3d} queries"


def check(response, status: int) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:300])
    return response


class Table:
    """A game in progress, its players' logged-in clients and a spectator's."""

    def __init__(self, number: int) -> None:
        from django.test import Client

        from bench.service import clients_for, new_started_game, players

        names = (f"p{number}a", f"p{number}b")
        self.game = new_started_game(players(*names), "zarkcity", {"deck": "standard"}, f"bench-browser-{number}")
        self.users, self.clients = clients_for(self.game)
        self.spectator = Client()
        self.url = f"/games/{self.game.pk}/"

    def mover(self) -> str:
        return self.game.to_move.split(",")[0]

    def move(self, kinds: dict[str, Kind], counting: bool) -> None:
        """The page as the player to move, the POST of a move it offers, the poll after it; then the
        open pages' polls with nothing new (a spectator's, the other player's)."""
        from bench.service import first_legal
        from games import services

        def run(name: str, call: Callable[[], Any]) -> Any:
            return kinds[name].count(call) if counting else kinds[name].measure(call)

        colour, ply = self.mover(), self.game.ply
        client = self.clients[colour]
        run("page", lambda: check(client.get(self.url), 200))
        text = first_legal(self.game.rules, services.state_of(self.game), colour)
        run("move", lambda: check(client.post(f"{self.url}move/", {"text": text, "seen_ply": ply}), 302))
        run("poll", lambda: check(client.get(f"{self.url}ply.json?since={ply}&mine=1"), 200))
        self.game.refresh_from_db()
        now = self.game.ply
        run("open", lambda: check(self.spectator.get(f"{self.url}ply.json?since={now}"), 200))
        other = next(c for c in self.clients if c != self.mover()) if len(self.clients) > 1 else colour
        run("mine", lambda: check(self.clients[other].get(f"{self.url}ply.json?since={now}&mine=1"), 200))


LABELS = {
    "page": "game page (GET), the player to move",
    "move": "move (POST)",
    "poll": "poll after the move (?since=<page's ply>&mine=1)",
    "open": "open page's poll, nothing new (spectator)",
    "mine": "open page's poll, nothing new (&mine=1)",
}


def run(args) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    common.collect_static()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    session = settings.SESSION_ENGINE
    print(
        f"zarkcity browser bench on {connection.vendor} ({connection.settings_dict['NAME']}), DEBUG {settings.DEBUG},"
        f" cache {cache}, sessions {session}; {args.samples} moves"
    )
    print(common.machine_speed())
    tables = [Table(n) for n in range(GAMES)]
    kinds = {name: Kind(label) for name, label in LABELS.items()}
    for table in tables:  # warm: templates, the first session reads
        table.move(kinds, counting=False)
    for kind in kinds.values():
        kind.cpu.clear()
        kind.wall.clear()
    for n in range(args.samples):
        tables[n % GAMES].move(kinds, counting=False)
    tables[0].move(kinds, counting=True)
    for kind in kinds.values():
        print(kind.line())
        if args.sql:
            for sql in kind.queries:
                print("    " + sql[:300])
    per_move = sum(statistics.median(kinds[name].cpu) for name in ("page", "move", "poll"))
    queries = sum(len(kinds[name].queries) for name in ("page", "move", "poll"))
    print(f"a move (page + move + poll): {per_move:.2f} ms CPU, {queries} queries")
    print(common.machine_speed())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100, help="moves timed (default 100)")
    parser.add_argument("--redis", metavar="URL", help="the cache's Redis database (emptied at start and end)")
    parser.add_argument("--sql", action="store_true", help="print each request's SQL")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    common.production_settings()
    os.environ.setdefault("RATE_LIMIT_MOVE", "1000000/m")  # the bench's players move faster than anyone can
    os.environ["DJANGO_EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"  # nothing leaves
    if args.redis:
        os.environ["REDIS_URL"] = args.redis
        os.environ.pop("ZARKCITY_CACHE_URL", None)
    else:
        os.environ.pop("REDIS_URL", None)
    server, name = common.own_database("browser", args.database)
    try:
        import django

        django.setup()
        common.check_debug_off()
        _flush(args.redis)
        import logging

        logging.disable(logging.WARNING)
        run(args)
    finally:
        _flush(args.redis)
        if args.keep:
            print(f"kept database {name}")
        else:
            common.drop_database(server, name)


def _flush(url: str | None) -> None:
    if url:
        import redis

        redis.Redis.from_url(url).flushdb()


if __name__ == "__main__":
    main()
