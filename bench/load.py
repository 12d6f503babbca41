"""Load the whole service as production runs it and find the highest rate of moves it holds.

Run from the project root, against a PostgreSQL server and a Redis server (as production):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/load.py
        [--rates 10,20,30,40,50,60] [--seconds 30] [--warmup 5] [--games 200] [--opening 6-20]
        [--redis redis://127.0.0.1:6379/9] [--all-rates] [--open-pages 1] [--poll-seconds 10]
        [--memory-every 60] [--trace-web]
    ... bench/load.py --smoke     # 5 seconds at 5 moves a second on 20 games: only shows the bench works
It creates its own database on that server (a fresh zc_bench_load_... name, or --database NAME, which
must not exist yet) and refuses to run with DJANGO_DEBUG on. It takes the Redis database --redis
names only if that database is empty, and flushes it at the end only if it is still the bench's own.
Then it starts the production processes the documented way (docs/deployment.md, "Processes"):
gunicorn with 3 workers, the Celery worker (concurrency 3) and beat, plus an SMTP sink (aiosmtpd)
for the emails they send; all stop, and the database is dropped, at the end, on Ctrl-C or on error.
gunicorn also gets a config file of two hooks (no setting) that log each request's CPU time in its
worker. The processes' logs stay in a temporary folder (--logs), named at the start.

The games: Zark City and Deck Town, 2 and 3 players, each player in one game only, each game played
on through the services for a random 6 to 20 plies first (--opening), so the load meets every phase
of a game (the starter choice sends no turn email; later moves do), as production does; the bench
waits until the worker has sent the emails of those moves.

What one move is, as a player's browser does it (templates/games/game.html, static/js/game_page.js):
GET the game page as the player to move; POST one of the legal moves the page offers (the list its
board script builds moves from) through the page's notation form, with its CSRF token and the ply
it shows (the 302 is not followed: that page load is the next move's); then one GET of ply.json, the
poll with which an open page notices the move. The poll's answer says who moves next in that game.
Every poll asks as a seated player's page does (`mine=1`: their own games waiting, and that they are
watching the game, which holds their turn email while the page stays in view: notifications.watching).

The pages players keep open: --open-pages N (default 1) game pages per player stay open during each
rate, each polling ply.json?since=<its ply> every --poll-seconds (default: ZARKCITY_POLL_SECONDS, 10,
what the page's script is told: static/js/game_page.js), the pages' first polls spread over the first
interval; a poll that shows a new ply loads the page again, as the script does. Each poll is timed
from its scheduled time; a failed poll counts as an error of the rate. A fraction is a share of the
players: 0.3 gives three players in ten one open page (picked afresh each rate), the rest none; the
script polls only while its tab is in view (document.hidden), so this is the share looking at their
game. A player's first open page is the one they move from: after their move it shows the answer
(the browser followed the move's redirect), so it finds no news in it. --open-pages 0: only the one
poll a move (the bench before issue 29).

Why not locust: its users are closed loop (a user waits for an answer before the next request, so a
slow server is offered less work and its queueing never shows), and its gevent workers would compete
for the same 2 cores. Here arrivals are open loop: scheduled at a fixed rate (or --poisson) whatever
the answers, each move's latency counted from its scheduled start, so a late start is the server's
delay too (no coordinated omission). A move picks a game with no move in flight (the oldest free
one); if every game is busy it waits, and that wait counts. Every loop is bounded in count and time;
traffic goes only to 127.0.0.1.

The ramp: each rate runs --warmup seconds (not counted), then --seconds measured, then at most
--drain seconds for the moves still in flight; after each rate the bench waits (at most 2 minutes)
for the worker to send the emails still queued, so every rate starts with an empty outbox. The table
shows, per rate: offered and achieved moves a second, each request's p50/p99 and the whole move's
p50/p90/p99 in ms, errors, CPU per move of the web workers, the Celery processes, the database backends
and the bench itself, how busy the machine was, and the load average; below it, the open pages' polls
a second, their p50/p99 and the page loads they caused. The verdict: the highest rate held (every rate
up to it) with the whole move's p99 under 300 ms and no error (the open pages' included).

A soak (issue 29: the worker's memory flat over the last hour of several): --memory-every 60 samples
the resident memory of the worker's main process and each pool process, beat, and gunicorn's master
and workers every minute while the rates run, prints each sample as it is taken, and at the end each
process's memory at the start, an hour before the end and at the end, with the last hour's change.
For example `--rates 10 --seconds 10800 --games 1000 --memory-every 60`: three hours at 10 moves a second.
With --memory-every each gunicorn worker also writes, every 500 requests, its resident memory and glibc's
mallinfo2 (the heap, its bytes in use and free) to web-memory.tsv in the logs folder; --trace-web adds
Python's allocations (tracemalloc from the 500th request, a snapshot from the 1,000th on) and the summary
compares each worker's first snapshot with its last, by line: what the web's workers keep.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: import from the project root, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench import common  # noqa: E402

P99_LIMIT_MS = 300.0
GAMES = (("zarkcity", 2), ("decktown", 3), ("zarkcity", 3), ("decktown", 2))  # (game, seats), in turn
REQUESTS = ("page", "move", "poll")
REQUEST_TIMEOUT = 30.0  # seconds: a request still unanswered then is an error
WEB_WORKERS, CELERY_CONCURRENCY = 3, common.WORKER_CONCURRENCY  # docs/deployment.md, "Processes"
WEB_MEMORY_REQUESTS = 500  # with --memory-every: each web worker's memory logged every this many requests


# ----------------------------------------------------------------------------- the schedule and the figures


def arrivals(rate: float, seconds: float, rng: random.Random | None = None) -> list[float]:
    """Start times (seconds from 0) of the moves offered at `rate` a second for `seconds`: evenly
    spaced, or Poisson (exponential gaps) when an rng is given; at most 2 * rate * seconds + 10."""
    if rate <= 0 or seconds <= 0:
        return []
    if rng is None:
        return [i / rate for i in range(int(rate * seconds))]
    times: list[float] = []
    t, most = rng.expovariate(rate), int(rate * seconds * 2) + 10
    while t < seconds and len(times) < most:
        times.append(t)
        t += rng.expovariate(rate)
    return times


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), interpolated between the two nearest ranks; nan when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass
class Step:
    """What one offered rate measured (only moves scheduled after the warm-up count)."""

    offered: float
    seconds: float
    latency: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in (*REQUESTS, "whole")})
    errors: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    all_moves: int = 0  # warm-up included: what the CPU figures are divided by
    last_done: float = 0.0  # seconds after the measured window opened when the last counted move ended
    lag: list[float] = field(default_factory=list)  # ms the bench started moves late (its own health)
    games_over: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by process group during the step
    request_cpu: dict[str, list[float]] = field(default_factory=dict)  # ms in a web worker, by request kind
    busy: float = math.nan  # share of the machine's CPU time in use during the step, every process
    load: float = math.nan
    outbox: int = 0  # emails not yet sent when the step ended
    open_polls: list[float] = field(default_factory=list)  # ms, each open page's poll from its scheduled time
    open_reloads: list[float] = field(default_factory=list)  # ms, the page loads those polls caused
    open_pages: int = 0

    @property
    def achieved(self) -> float:
        return self.moves / max(self.seconds, self.last_done) if self.moves else 0.0

    def p(self, name: str, q: float) -> float:
        return percentile(self.latency[name], q)

    def held(self, limit_ms: float = P99_LIMIT_MS) -> bool:
        return self.moves > 0 and not self.errors and self.p("whole", 99) < limit_ms


def highest_held(steps: Iterable[Step], limit_ms: float = P99_LIMIT_MS) -> float | None:
    """The highest offered rate such that it and every lower rate held; None if the lowest did not."""
    best = None
    for step in sorted(steps, key=lambda s: s.offered):
        if not step.held(limit_ms):
            break
        best = step.offered
    return best


# ----------------------------------------------------------------------------- reading the game page

PLAY_DATA = re.compile(r'<script id="zc-play-data" type="application/json">(.*?)</script>', re.S)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass(frozen=True)
class Page:
    ply: int
    viewer: str | None
    movers: list[str]
    moves: list[str]  # the viewer's legal moves, resign apart (the board script's data)
    csrf: str


def read_page(html: str) -> Page:
    """What the page's board script and notation form hold; ValueError when the page has no move form."""
    data, token = PLAY_DATA.search(html), CSRF.search(html)
    if data is None or token is None:
        raise ValueError("no play data or no form on the page")
    play = json.loads(data.group(1))
    return Page(play["ply"], play["viewer"], list(play["movers"]), list(play["moves"]), token.group(1))


# ----------------------------------------------------------------------------- the games under load


@dataclass
class Player:
    cookies: dict[str, str]  # what a browser keeps: the session, and the CSRF cookie once the site sets it

    def header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def remember(self, response: Any) -> None:
        for name, morsel in response.cookies.items():
            if morsel.value and morsel.get("max-age") != "0":
                self.cookies[name] = morsel.value
            else:
                self.cookies.pop(name, None)


@dataclass
class Table:
    """One game under load: its players by colour and who is to move (from the last poll)."""

    game_id: int
    players: dict[str, Player]
    movers: list[str]
    stale: bool = False  # a move was cut off midway: ask the poll who moves before the next one
    # Each player's first open page is the one they move from: after their move it shows the answer.
    moved_from: dict[str, OpenPage] = field(default_factory=dict)

    @property
    def page_url(self) -> str:
        return f"/games/{self.game_id}/"


@dataclass
class OpenPage:
    """A game page a player keeps open: the ply it shows (None until its first poll)."""

    table: Table
    player: Player
    ply: int | None = None

    @property
    def poll_url(self) -> str:
        """As a seated player's page asks it (static/js/game_page.js): with `mine=1`, their own games waiting."""
        since = "" if self.ply is None else f"since={self.ply}&"
        return f"{self.table.page_url}ply.json?{since}mine=1"


class Load:
    """Offers moves at one rate and measures them (see the module docstring)."""

    def __init__(
        self, base: str, tables: list[Table], rng: random.Random, open_pages: float = 0, poll_seconds: float = 10
    ) -> None:
        self.base, self.rng, self.tables = base, rng, tables
        self.free: asyncio.Queue[Table] = asyncio.Queue()
        self.open_pages, self.poll_seconds = open_pages, poll_seconds

    async def offer(self, step: Step, warmup: float, drain: float, poisson: bool) -> None:
        import aiohttp

        loop = asyncio.get_running_loop()
        times = arrivals(step.offered, warmup + step.seconds, self.rng if poisson else None)
        connector = aiohttp.TCPConnector(limit=len(self.tables))  # at most one request in flight per game
        timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
        async with aiohttp.ClientSession(
            self.base, connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
        ) as session:
            for table in self.tables:  # before the clock starts: games a move was cut off in (the last drain)
                if not table.stale or await self.resync(session, table):
                    self.free.put_nowait(table)
            start = loop.time() + 0.1
            opened = start + warmup  # the measured window
            pages = self.open_pages_of(step)
            pollers = asyncio.create_task(self.keep_open(pages, step, start, opened, opened + step.seconds))
            tasks = []
            for offset in times:
                at = start + offset
                await asyncio.sleep(max(0.0, at - loop.time()))
                counted = offset >= warmup
                if counted:
                    step.lag.append((loop.time() - at) * 1000)
                tasks.append(asyncio.create_task(self.move(session, step, at, opened if counted else None)))
            done, pending = await asyncio.wait(tasks, timeout=drain) if tasks else (set(), set())
            for task in pending:
                task.cancel()
            if pending:
                step.errors[f"still running {drain:.0f} s after the last start"] += len(pending)
                await asyncio.wait(pending, timeout=5)
            await pollers

    def open_pages_of(self, step: Step) -> list[OpenPage]:
        """Each player's pages: the whole part of --open-pages for everyone, and one more for that share of
        the players (0.3: three players in ten look at their game), picked afresh each rate."""
        whole, share = divmod(self.open_pages, 1)
        pages = []
        for table in self.tables:
            table.moved_from = {}
            for colour, player in table.players.items():
                mine = [OpenPage(table, player) for _ in range(int(whole) + (self.rng.random() < share))]
                if mine:
                    table.moved_from[colour] = mine[0]
                pages += mine
        step.open_pages = len(pages)
        return pages

    async def keep_open(self, pages: list[OpenPage], step: Step, start: float, opened: float, until: float) -> None:
        """Every open page polls until the measured window closes, each from its own browser's connection."""
        if not pages:
            return
        import aiohttp

        connector = aiohttp.TCPConnector(limit=len(pages))
        timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
        async with aiohttp.ClientSession(
            self.base, connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
        ) as session:
            firsts = [start + self.rng.uniform(0, self.poll_seconds) for _ in pages]  # opened at different moments
            await asyncio.gather(
                *(self.poll_page(session, p, step, at, opened, until) for p, at in zip(pages, firsts, strict=True))
            )

    async def poll_page(self, session: Any, page: OpenPage, step: Step, at: float, opened: float, until: float) -> None:
        """One open page's polls, every poll_seconds from `at` (setInterval's schedule); counted from `opened`."""
        loop = asyncio.get_running_loop()
        while at < until:
            await asyncio.sleep(max(0.0, at - loop.time()))
            counted = at >= opened
            try:
                news = json.loads(await self.get(session, page.player, page.poll_url, "open page's poll", 200))
                if counted:
                    step.open_polls.append((loop.time() - at) * 1000)
                if page.ply is not None and news["ply"] != page.ply:  # the script fetches the page again
                    asked = loop.time()
                    await self.get(session, page.player, page.table.page_url, "open page's reload", 200)
                    if counted:
                        step.open_reloads.append((loop.time() - asked) * 1000)
                page.ply = news["ply"]
            except Exception as error:  # noqa: BLE001 - every failure is counted, none stops the run
                if counted:
                    step.errors[_error_name(error)] += 1
            at += self.poll_seconds

    async def move(self, session: Any, step: Step, at: float, opened: float | None) -> None:
        """One move in some free game; its figures count only when `opened` (the window's start) is set."""
        loop = asyncio.get_running_loop()
        table = await self.free.get()
        times: dict[str, float] = {}
        keep = True
        try:
            keep = await self.play(session, table, at, times)
            step.all_moves += 1
            if opened is not None:
                end = at
                for name in REQUESTS:
                    step.latency[name].append((times[name] - end) * 1000)
                    end = times[name]
                step.latency["whole"].append((end - at) * 1000)
                step.moves += 1
                step.last_done = max(step.last_done, loop.time() - opened)
                step.games_over += not keep
        except asyncio.CancelledError:  # the drain ran out: nobody knows how far this move got
            table.stale = True
            raise
        except Exception as error:  # noqa: BLE001 - every failure is counted, none stops the run
            if opened is not None:
                step.errors[_error_name(error)] += 1
            keep = await self.resync(session, table)
        finally:
            if keep:
                self.free.put_nowait(table)

    async def play(self, session: Any, table: Table, at: float, times: dict[str, float]) -> bool:
        """The page, the move, the poll; True while the game goes on. `times` gets when each ended."""
        loop = asyncio.get_running_loop()
        colour = self.rng.choice(table.movers)
        player = table.players[colour]
        html = await self.get(session, player, table.page_url, "page", 200)
        page = read_page(html)
        if page.viewer != colour or colour not in page.movers or not page.moves:
            raise BenchError(f"the page offers {colour} no move")
        times["page"] = loop.time()
        form = {"csrfmiddlewaretoken": page.csrf, "seen_ply": str(page.ply), "text": self.rng.choice(page.moves)}
        await self.post(session, player, f"{table.page_url}move/", form)
        times["move"] = loop.time()
        poll = f"{table.page_url}ply.json?since={page.ply}&mine=1"  # as the player's page asks it
        news = json.loads(await self.get(session, player, poll, "poll", 200))
        times["poll"] = loop.time()
        sealed = news["ply"] == page.ply and colour not in news["movers"]  # a sealed choice: no ply till all are in
        if not sealed and (news["ply"] <= page.ply or colour not in news["moved"]):
            raise BenchError("the poll does not show the move")
        table.movers = news["movers"]
        if colour in table.moved_from:  # the page they moved from shows the move's answer: no news for it
            table.moved_from[colour].ply = news["ply"]
        return news["status"] == "active" and bool(table.movers)

    async def get(self, session: Any, player: Player, url: str, what: str, status: int) -> str:
        async with session.get(url, headers={"Cookie": player.header()}, allow_redirects=False) as response:
            body = await response.text()
            player.remember(response)
            if response.status != status:
                raise BenchError(f"{what} answered {response.status}")
            return str(body)

    async def post(self, session: Any, player: Player, url: str, form: dict[str, str]) -> None:
        headers = {"Cookie": player.header(), "Origin": self.base, "Referer": self.base + url.rsplit("move/", 1)[0]}
        async with session.post(url, data=form, headers=headers, allow_redirects=False) as response:
            await response.read()
            player.remember(response)
            if response.status != 302:
                raise BenchError(f"move answered {response.status}")

    async def resync(self, session: Any, table: Table) -> bool:
        """After a failed move: ask the poll who moves now, so the game stays usable (False: drop it)."""
        try:
            player = next(iter(table.players.values()))
            news = json.loads(await self.get(session, player, f"{table.page_url}ply.json", "poll", 200))
        except Exception:  # noqa: BLE001 - the game leaves the pool, the run goes on
            table.movers = []
            return False
        table.movers, table.stale = news["movers"], False
        return news["status"] == "active" and bool(table.movers)


class BenchError(Exception):
    """A request answered, but not as a player's browser expects."""


def _error_name(error: BaseException) -> str:
    if isinstance(error, BenchError):
        return str(error)
    if isinstance(error, asyncio.TimeoutError):
        return f"no answer within {REQUEST_TIMEOUT:.0f} s"
    return type(error).__name__


# ----------------------------------------------------------------------------- the production processes


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path


class Site:
    """gunicorn, the Celery worker and beat, and an SMTP sink, started as docs/deployment.md says."""

    def __init__(self, logs: Path, web_workers: int) -> None:
        self.env: dict[str, str] = {}
        self.logs, self.web_workers = logs, web_workers
        self.memory_every, self.trace_web = 0, False  # the web workers' memory hooks: off unless asked
        self.port, self.smtp_port = common.free_port(), common.free_port()
        self.processes: list[Process] = []
        bin_dir = Path(sys.executable).parent
        self.gunicorn, self.celery = str(bin_dir / "gunicorn"), str(bin_dir / "celery")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def settings(self) -> dict[str, str]:
        """The environment every process shares: this site's address and its mail sink."""
        return {
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "ZARKCITY_SITE_URL": self.base,
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.smtp_port),
            "EMAIL_USE_TLS": "0",
        }

    def start(self, env: dict[str, str]) -> None:
        self.env = env
        sink = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.smtp_port}"]
        self.spawn("smtp sink", [*sink, "-c", "aiosmtpd.handlers.Sink"])
        wait_for(lambda: port_open(self.smtp_port), "the SMTP sink", self.processes[-1])
        web = [self.gunicorn, "zarkcity_site.wsgi:application", "--bind", f"127.0.0.1:{self.port}"]
        self.spawn("web", [*web, "--workers", str(self.web_workers), "--access-logfile", "-", "-c", self.hooks()])
        worker = [self.celery, "-A", "zarkcity_site", "worker", "--loglevel", "INFO"]
        self.spawn("worker", [*worker, "--concurrency", str(CELERY_CONCURRENCY)])
        self.spawn("beat", [self.celery, "-A", "zarkcity_site", "beat", "--loglevel", "INFO"])
        wait_for(lambda: answers(self.base + "/health"), "gunicorn", self.processes[1])
        wait_for(lambda: "ready." in self.processes[2].log.read_text(errors="replace"), "the worker", self.processes[2])

    @property
    def request_cpu(self) -> Path:
        return self.logs / "request-cpu.tsv"

    @property
    def web_memory(self) -> Path:
        return self.logs / "web-memory.tsv"

    def hooks(self) -> str:
        """A gunicorn config file of hooks and no setting: each request's CPU time in the worker (a sync
        worker serves one request at a time), a line in request-cpu.tsv; with `memory_every`, each
        worker's memory every that many requests, a line in web-memory.tsv (WEB_MEMORY_HOOKS)."""
        config = self.logs / "gunicorn_request_cpu.py"
        text = GUNICORN_HOOKS.format(out=str(self.request_cpu))
        if self.memory_every:
            text += WEB_MEMORY_HOOKS.format(out=str(self.web_memory), every=self.memory_every, trace=self.trace_web)
        config.write_text(text)
        return str(config)

    def spawn(self, name: str, command: list[str]) -> None:
        log = self.logs / f"{name.replace(' ', '-')}.log"
        with log.open("ab") as out:
            # A session of its own: Ctrl-C on the bench's terminal reaches the bench, which stops these.
            popen = subprocess.Popen(
                command, cwd=common.ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.processes.append(Process(name, popen, log))

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.popen.poll() is None:
                os.killpg(process.popen.pid, signal.SIGTERM)  # its own group: the started process and its children
        for process in reversed(self.processes):
            try:
                process.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.popen.pid, signal.SIGKILL)
                process.popen.wait(timeout=5)
        self.processes.clear()

    def died(self) -> list[str]:
        return [p.name for p in self.processes if p.popen.poll() is not None]


GUNICORN_HOOKS = """# Written by bench/load.py: the CPU time of each request, for the bench's table.
import time


def pre_request(worker, req):
    worker.zc_cpu = time.process_time()


def post_request(worker, req, environ, resp):
    spent = (time.process_time() - worker.zc_cpu) * 1000
    with open({out!r}, "a") as out:
        out.write(f"{{req.path}}\\t{{spent:.3f}}\\n")
    worker.zc_served = getattr(worker, "zc_served", 0) + 1
    if "zc_memory" in globals():
        zc_memory(worker)
"""

# Each web worker's memory every `every` requests, a line of web-memory.tsv: pid, requests served, VmRSS,
# glibc's arena, the bytes it has in use and free (mallinfo2: in use that grows is kept by someone; free
# that grows is the allocator's), and with `trace`, the bytes Python's allocations hold (tracemalloc),
# from the first line on, with a snapshot file beside each later one to compare (web_memory_summary).
WEB_MEMORY_HOOKS = """
import gc
import os
import tracemalloc

from bench import common as zc_common


def zc_memory(worker):
    if worker.zc_served % {every}:
        return
    if {trace!r} and not tracemalloc.is_tracing():
        tracemalloc.start(6)  # only now: tracing Django's start-up slows it past the bench's patience
    info, traced = zc_common.mallinfo(), 0
    if tracemalloc.is_tracing() and worker.zc_served > {every}:
        gc.collect()  # cycles not yet collected would count as kept
        traced = tracemalloc.get_traced_memory()[0]
        tracemalloc.take_snapshot().dump(f"{out}.{{os.getpid()}}.{{worker.zc_served}}")
    sizes = (info.arena, info.uordblks, info.fordblks, traced)
    fields = (os.getpid(), worker.zc_served, zc_common.own_rss_mb(), *(n / 2**20 for n in sizes))
    with open({out!r}, "a") as out:
        out.write("\\t".join(f"{{field:.1f}}" if isinstance(field, float) else str(field) for field in fields) + "\\n")
"""


def port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def answers(url: str) -> bool:
    """Any HTTP answer (/health may say 503 until the first sweep): the server is up."""
    try:
        urllib.request.urlopen(url, timeout=2).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


def wait_for(ready: Callable[[], bool], what: str, process: Process, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        if process.popen.poll() is not None:
            break
        time.sleep(0.25)
    tail = "\n".join(process.log.read_text(errors="replace").splitlines()[-15:])
    raise RuntimeError(f"{what} did not start (log {process.log}):\n{tail}")


class OwnRedis:
    """A Redis database for this run only: taken only if empty, flushed at the end only if still ours."""

    MARK = "zarkcity-bench-load:owner"

    def __init__(self, url: str) -> None:
        import redis

        self.url, self.run = url, secrets.token_hex(8)
        self.client = redis.Redis.from_url(url)
        if self.client.dbsize():
            sys.exit(f"Redis database {url} is not empty: it may be someone else's (choose another with --redis)")
        if not self.client.set(self.MARK, self.run, nx=True):
            sys.exit(f"Redis database {url} was taken meanwhile (choose another with --redis)")

    def release(self) -> None:
        if self.client.get(self.MARK) == self.run.encode():
            self.client.flushdb()  # this database held only the run's broker queue and cache (never FLUSHALL)


# ----------------------------------------------------------------------------- CPU accounting (from /proc)


def groups_of(site: Site, database: str, stats: dict[int, common.ProcessCpu]) -> dict[int, str]:
    """Which process belongs to which group: the web's tree, the worker's and beat's, this database's
    PostgreSQL backends, and the bench itself."""
    children = common.children_of(stats)
    group_of = {os.getpid(): "bench"}
    for process in site.processes:
        group = {"web": "web", "worker": "celery", "beat": "celery"}.get(process.name)
        if group:
            group_of.update(dict.fromkeys(common.tree_of(process.popen.pid, children), group))
    for pid in common.backends_of(database, stats):
        group_of.setdefault(pid, "postgres")
    return group_of


class CpuMeter(threading.Thread):
    """CPU seconds each group spends while it runs, sampled from /proc every second. A process that
    appears meanwhile (a new database backend, a restarted worker) counts from its start; one that ends
    loses at most its last second."""

    def __init__(self, site: Site, database: str) -> None:
        super().__init__(daemon=True)
        self.site, self.database = site, database
        self.first: dict[int, float] = {}
        self.last: dict[int, tuple[str, float]] = {}
        self.stopping = threading.Event()
        self.sample(at_start=True)

    def sample(self, at_start: bool = False) -> None:
        stats = common.processes_now()
        for pid, group in groups_of(self.site, self.database, stats).items():
            if pid in stats:
                self.first.setdefault(pid, stats[pid].cpu if at_start else 0.0)
                self.last[pid] = (group, stats[pid].cpu)

    def run(self) -> None:
        while not self.stopping.wait(1.0):
            self.sample()

    def stop(self) -> dict[str, float]:
        self.stopping.set()
        self.join()
        self.sample()
        spent = dict.fromkeys(("web", "celery", "postgres", "bench"), 0.0)
        for pid, (group, cpu) in self.last.items():
            spent[group] += cpu - self.first[pid]
        return spent


class MemoryMeter(threading.Thread):
    """The resident memory of the service's long-running processes, sampled every `every` seconds and
    printed as it goes: the worker's main process and each of its pool processes, beat, gunicorn's
    master and its workers (their sum). At the end, `summary` says how each grew over the whole run
    and over its last hour: issue 29's soak target is the worker's memory flat over the last hour.
    A pool process that is replaced (a recycled child) shows as a new pid; the pool's sum stays."""

    def __init__(self, site: Site, every: float) -> None:
        super().__init__(daemon=True)
        self.site, self.every = site, every
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.started = time.monotonic()
        self.stopping = threading.Event()

    def roles(self) -> dict[str, float]:
        children = common.children_of(common.processes_now())
        found: dict[str, float] = {}
        for process in self.site.processes:
            if process.name not in ("web", "worker", "beat") or (own := common.rss_mb(process.popen.pid)) is None:
                continue
            found[f"{process.name} main"] = own
            kids = [(pid, rss) for pid in sorted(children.get(process.popen.pid, [])) if (rss := common.rss_mb(pid))]
            if process.name == "worker":
                found.update({f"pool {pid}": rss for pid, rss in kids})
            if kids:
                found[f"{process.name} children"] = sum(rss for _, rss in kids)
        return found

    def sample(self) -> None:
        minutes = (time.monotonic() - self.started) / 60
        found = self.roles()
        self.samples.append((minutes, found))
        shown = "  ".join(f"{role} {rss:.0f}" for role, rss in found.items())
        print(f"memory at {minutes:6.1f} min (MB): {shown}", flush=True)

    def run(self) -> None:
        self.sample()
        while not self.stopping.wait(self.every):
            self.sample()

    def stop(self) -> None:
        self.stopping.set()
        self.join()
        self.sample()

    def summary(self) -> list[str]:
        """Per process: MB at the start, an hour before the end, at the end, and the last hour's change."""
        if len(self.samples) < 2:
            return []
        end, last = self.samples[-1]
        hour_ago = min(self.samples, key=lambda sample: abs(sample[0] - (end - 60)))
        window = end - hour_ago[0]
        lines = [f"resident memory over {end:.0f} min, at the start / {window:.0f} min before the end / the end:"]
        for role in last:
            first = next((found[role] for _, found in self.samples if role in found), None)
            before = hour_ago[1].get(role)
            if first is None or before is None:
                lines.append(f"  {role}: {last[role]:.0f} MB at the end (appeared during the run)")
                continue
            lines.append(
                f"  {role}: {first:.0f} / {before:.0f} / {last[role]:.0f} MB, last {window:.0f} min"
                f" {last[role] - before:+.1f} MB ({100 * (last[role] - before) / before:+.1f}%)"
            )
        return lines


def web_memory_summary(site: Site) -> list[str]:
    """Each web worker's memory from its hooks' first line to its last (WEB_MEMORY_HOOKS), and with
    --trace-web what Python's allocations added between its first snapshot and its last, by line."""
    if not site.web_memory.exists():
        return []
    lines = ["web workers (every N requests: RSS, malloc arena / in use / free, traced by Python, MB):"]
    by_pid: dict[str, list[list[str]]] = {}
    for line in site.web_memory.read_text().splitlines():
        by_pid.setdefault(line.split("\t")[0], []).append(line.split("\t"))
    for pid, rows in by_pid.items():
        first, last = rows[1 if len(rows) > 2 else 0], rows[-1]  # the first traced, after the warm-up
        lines.append(f"  {pid}: {first[1]} requests " + " / ".join(first[2:]) + f"; {last[1]}: " + " / ".join(last[2:]))
        lines += compare_snapshots(
            Path(f"{site.web_memory}.{pid}.{first[1]}"), Path(f"{site.web_memory}.{pid}.{last[1]}")
        )
    return lines


def compare_snapshots(first: Path, last: Path, top: int = 12) -> list[str]:
    """What Python's allocations added from one tracemalloc snapshot file to another, the largest first."""
    if not (first.exists() and last.exists()) or first == last:
        return []
    import tracemalloc

    before, after = tracemalloc.Snapshot.load(str(first)), tracemalloc.Snapshot.load(str(last))
    stats = after.compare_to(before, "lineno")[:top]
    return [f"    {stat.size_diff / 1024:+9.1f} kB {stat.count_diff:+7d} blocks  {stat.traceback[0]}" for stat in stats]


# ----------------------------------------------------------------------------- setting up (Django)


def make_tables(count: int, rng: random.Random, opening: tuple[int, int] = (0, 0)) -> list[Table]:
    """`count` started games (Zark City and Deck Town, 2 and 3 seats), each with players of its own
    and a logged-in session per player (made directly, as a login would: no login page, no rate limit),
    each played on through the services for a number of random plies in `opening` (a game ended by
    them is left out): the load then meets games in every phase, as production does, not only openings."""
    from games import services
    from games.models import Game

    tables = []
    for number in range(count):
        game_id, seats = GAMES[number % len(GAMES)]
        users = [player(f"g{number}p{seat}") for seat in range(seats)]
        game = services.game_create(
            creator=users[0], game=game_id, seats=seats, options={}, time_limit_days=7, is_private=False
        )
        for user in users[1:]:
            services.game_join(game=game, user=user)
        game.refresh_from_db()
        by_colour = {seat.colour: seat.user for seat in game.seats.select_related("user")}
        game = play_opening(game, by_colour, rng.randint(*opening), rng)
        if game.status != Game.Status.ACTIVE:
            continue
        players = {colour: Player({"sessionid": session_for(user)}) for colour, user in by_colour.items()}
        tables.append(Table(game.pk, players, [c for c in game.to_move.split(",") if c]))
    rng.shuffle(tables)
    return tables


def play_opening(game: Any, users: dict[str, Any], plies: int, rng: random.Random) -> Any:
    """Random legal moves (never a resignation) through the services, as players would make them."""
    from games import services
    from games.models import Game

    rules = game.rules
    for _ in range(plies):
        if game.status != Game.Status.ACTIVE:
            break
        colour = rng.choice(game.to_move.split(","))
        legal = [m for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
        services.move_submit(game=game, user=users[colour], text=str(rng.choice(legal)), seen_ply=game.ply)
        game.refresh_from_db()
    return game


def player(name: str) -> Any:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def session_for(user: Any) -> str:
    """A logged-in session in the session store, as django.contrib.auth.login writes it; its key."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return str(session.session_key)


def outbox_waiting() -> int:
    """Emails not sent yet (due now or later, or being sent)."""
    from notifications.models import Notification

    waiting = (Notification.Status.PENDING, Notification.Status.SENDING)
    return Notification.objects.filter(status__in=waiting).count()


def wait_for_outbox(site: Site, seconds: float) -> int:
    """Wait (at most `seconds`) until the worker has sent every queued email; how many are left."""
    deadline = time.monotonic() + seconds
    while (left := outbox_waiting()) and time.monotonic() < deadline and not site.died():
        time.sleep(1)
    return left


# ----------------------------------------------------------------------------- the run


def run_step(
    site: Site, database: str, tables: list[Table], rate: float, args: argparse.Namespace, rng: random.Random
) -> Step:
    step = Step(offered=rate, seconds=args.seconds)
    meter, ticks = CpuMeter(site, database), common.machine_ticks()
    logged = site.request_cpu.stat().st_size if site.request_cpu.exists() else 0
    meter.start()
    try:
        load = Load(site.base, tables, rng, args.open_pages, args.poll_seconds)
        asyncio.run(load.offer(step, args.warmup, args.drain, args.poisson))
    finally:
        step.cpu = meter.stop()
    step.request_cpu = request_cpu(site.request_cpu, logged)
    ticks_after = common.machine_ticks()
    step.busy = (ticks_after[0] - ticks[0]) / max(1, ticks_after[1] - ticks[1])
    step.load = os.getloadavg()[0]
    step.outbox = outbox_waiting()
    tables[:] = [t for t in tables if t.movers]
    return step


REQUEST_KINDS = (
    ("page", re.compile(r"^/games/\d+/$")),
    ("move", re.compile(r"/move/$")),
    ("poll", re.compile(r"/ply\.json$")),
)


def request_cpu(log: Path, offset: int) -> dict[str, list[float]]:
    """The web workers' CPU ms per request since `offset` in the hooks' log, by kind (page, move, poll, other)."""
    kinds: dict[str, list[float]] = {name: [] for name, _ in REQUEST_KINDS} | {"other": []}
    if not log.exists():
        return kinds
    with log.open() as lines:
        lines.seek(offset)
        for line in lines:
            path, _, spent = line.rstrip("\n").partition("\t")
            kind = next((name for name, pattern in REQUEST_KINDS if pattern.search(path)), "other")
            kinds[kind].append(float(spent))
    return kinds


HEADER = (
    f"{'offered':>7} {'achieved':>8} {'moves':>6} {'errors':>6} "
    f"{'page p50/p99':>13} {'POST p50/p99':>13} {'poll p50/p99':>13} {'move p50/p90/p99':>17} "
    f"{'CPU ms/move web/celery/pg/bench':>32} {'busy':>5} {'load':>5} {'outbox':>6}"
)


def row(step: Step) -> str:
    def pair(name: str) -> str:
        return f"{step.p(name, 50):.0f}/{step.p(name, 99):.0f}"

    per = {name: 1000 * cpu / max(1, step.all_moves) for name, cpu in step.cpu.items()}
    cpu = "/".join(f"{per.get(name, math.nan):.1f}" for name in ("web", "celery", "postgres", "bench"))
    whole = f"{step.p('whole', 50):.0f}/{step.p('whole', 90):.0f}/{step.p('whole', 99):.0f}"
    return (
        f"{step.offered:>7.0f} {step.achieved:>8.1f} {step.moves:>6} {sum(step.errors.values()):>6} "
        f"{pair('page'):>13} {pair('move'):>13} {pair('poll'):>13} {whole:>17} "
        f"{cpu:>32} {step.busy:>5.0%} {step.load:>5.2f} {step.outbox:>6}"
    )


def request_cpu_line(step: Step) -> str:
    def mean(values: list[float]) -> str:
        return f"{sum(values) / len(values):.1f}/{percentile(values, 50):.1f}" if values else "-"

    kinds = step.request_cpu
    said = ", ".join(f"{name} {mean(kinds.get(name, []))}" for name, _ in REQUEST_KINDS)
    return f"web worker CPU ms per request (mean/median): {said}; {len(kinds.get('other', []))} other requests"


def open_pages_line(step: Step, poll_seconds: float) -> str:
    """The open pages' polls in the measured window: how many a second, how fast, the reloads they caused."""
    polls, reloads = step.open_polls, step.open_reloads
    expected = step.open_pages / poll_seconds
    return (
        f"open pages: {step.open_pages}, polling every {poll_seconds:g} s ({expected:.1f} polls/s expected): "
        f"{len(polls) / step.seconds:.1f} polls/s answered, p50/p99 {percentile(polls, 50):.0f}/"
        f"{percentile(polls, 99):.0f} ms; {len(reloads)} page reloads on news, p50/p99 "
        f"{percentile(reloads, 50):.0f}/{percentile(reloads, 99):.0f} ms"
    )


def ramp(site: Site, database: str, tables: list[Table], args: argparse.Namespace) -> list[Step]:
    rng = random.Random(args.seed)
    steps: list[Step] = []
    print(HEADER, flush=True)
    for rate in args.rates:
        step = run_step(site, database, tables, rate, args, rng)
        steps.append(step)
        print(row(step), flush=True)
        for reason, count in step.errors.most_common():
            print(f"{'':>9}error x{count}: {reason}")
        print(f"{'':>9}{request_cpu_line(step)}")
        if step.open_pages:
            print(f"{'':>9}{open_pages_line(step, args.poll_seconds)}")
        if step.lag and percentile(step.lag, 99) > 20:
            print(f"{'':>9}the bench started moves late: p99 {percentile(step.lag, 99):.0f} ms (counted as latency)")
        if step.games_over:
            print(f"{'':>9}{step.games_over} games ended; {len(tables)} left")
        if dead := site.died():
            print(f"stopping: {', '.join(dead)} exited (logs in {site.logs})")
            break
        if not step.held(args.p99) and not args.all_rates:
            break
        left = wait_for_outbox(site, 120)
        if left:
            print(f"{'':>9}{left} emails still unsent 2 minutes after the step")
    return steps


def report(steps: list[Step], args: argparse.Namespace) -> None:
    best = highest_held(steps, args.p99)
    said = f"{best:g} moves/s" if best is not None else f"none of the rates offered (lowest {min(args.rates):g})"
    print(f"highest rate held with p99 < {args.p99:g} ms and zero errors: {said}")
    if steps:
        print(ceiling(steps[0]))
    print(f"uptime: {uptime()}")


def ceiling(step: Step) -> str:
    """What the CPU time a move cost at the lowest rate allows at most, were the machine the service's alone."""
    per = {name: 1000 * cpu / max(1, step.all_moves) for name, cpu in step.cpu.items()}
    total, cores = sum(per.values()), os.cpu_count() or 1
    parts = " + ".join(f"{name} {per[name]:.1f}" for name in ("web", "celery", "postgres", "bench"))
    most = f"{1000 * cores / total:.0f}" if total else "?"
    return (
        f"CPU per move at {step.offered:g} moves/s: {parts} = {total:.1f} ms; {cores} cores busy with nothing else"
        f" could serve at most {most} moves/s"
    )


def uptime() -> str:
    found = shutil.which("uptime")
    if found:
        return subprocess.run([found], capture_output=True, text=True, check=False).stdout.strip()
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rates", default="10,20,30,40,50,60", help="moves a second, ascending (default 10..60)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds per rate (default 30)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds per rate before measuring (default 5)")
    parser.add_argument("--drain", type=float, default=30, help="seconds to wait for moves in flight (default 30)")
    parser.add_argument("--games", type=int, default=200, help="games under load (default 200)")
    parser.add_argument(
        "--opening", default="6-20", help="random plies each game is played on before the load, MIN-MAX (default 6-20)"
    )
    parser.add_argument("--poisson", action="store_true", help="Poisson arrivals instead of evenly spaced")
    parser.add_argument("--p99", type=float, default=P99_LIMIT_MS, help="p99 limit of a move in ms (default 300)")
    parser.add_argument("--all-rates", action="store_true", help="go on after a rate that did not hold")
    parser.add_argument("--web-workers", type=int, default=WEB_WORKERS, help="gunicorn workers (default 3: documented)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9", help="an empty Redis database for this run")
    parser.add_argument("--seed", type=int, default=14, help="seed of the bench's own choices (moves, Poisson)")
    parser.add_argument("--smoke", action="store_true", help="5 s at 5 moves/s on 20 games: shows the bench works")
    parser.add_argument("--logs", help="folder for the processes' logs (default: a temporary one, kept)")
    parser.add_argument(
        "--open-pages",
        type=float,
        default=1,
        help="game pages each player keeps open, polling (default 1; 0: none; 0.3: three players in ten have one)",
    )
    parser.add_argument(
        "--poll-seconds", type=float, help="how often an open page polls (default: ZARKCITY_POLL_SECONDS, 10)"
    )
    parser.add_argument(
        "--memory-every",
        type=float,
        default=0,
        help="sample the processes' resident memory every N seconds and print how it grew (a soak; default off)",
    )
    parser.add_argument(
        "--trace-web",
        action="store_true",
        help="with --memory-every: the web workers trace Python's allocations (tracemalloc; slower) and compare",
    )
    common.add_database_arguments(parser)
    args = parser.parse_args(argv)
    try:
        args.rates = sorted(float(r) for r in args.rates.split(","))
    except ValueError:
        parser.error(f"--rates {args.rates!r}: give moves a second separated by commas, e.g. 10,20,30")
    try:
        low, _, high = args.opening.partition("-")
        args.opening = (int(low), int(high or low))
    except ValueError:
        parser.error(f"--opening {args.opening!r}: give the fewest and most plies, e.g. 6-20")
    if args.smoke:
        args.rates, args.seconds, args.warmup, args.drain, args.games, args.opening = [5.0], 5.0, 1.0, 15.0, 20, (0, 6)
    if any(r <= 0 for r in args.rates) or args.games < 1 or args.seconds <= 0:
        parser.error("rates, --seconds and --games must be positive")
    if not 0 <= args.opening[0] <= args.opening[1]:
        parser.error("--opening MIN-MAX: 0 <= MIN <= MAX")
    if args.open_pages < 0 or (args.poll_seconds is not None and args.poll_seconds <= 0):
        parser.error("--open-pages must be 0 or more, --poll-seconds positive")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    common.production_settings()
    args.logs = args.logs or tempfile.mkdtemp(prefix="zarkcity-bench-load-logs-")
    Path(args.logs).mkdir(parents=True, exist_ok=True)
    redis_db = OwnRedis(args.redis)
    site = Site(Path(args.logs), args.web_workers)
    site.memory_every, site.trace_web = (WEB_MEMORY_REQUESTS if args.memory_every else 0), args.trace_web
    # Broker and shared cache of this run, the site's address and mail sink: for every process and the bench.
    os.environ.update(site.settings() | {"REDIS_URL": args.redis})
    server = name = None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))  # still runs the clean-up below
    try:
        server, name = common.own_database("load", args.database)
        import django

        django.setup()
        common.check_debug_off()
        deploy()
        args.poll_seconds = args.poll_seconds or poll_seconds()
        print(f"zarkcity load bench: database {name}, Redis {args.redis}, logs in {args.logs}")
        print(f"uptime: {uptime()}")
        site.start(dict(os.environ))
        started = time.monotonic()
        tables = make_tables(args.games, random.Random(args.seed), args.opening)
        made = time.monotonic()
        left = wait_for_outbox(site, 600)
        sent = f"{left} emails still unsent" if left else f"their emails sent {time.monotonic() - made:.0f} s later"
        low, high = args.opening
        print(f"{len(tables)} games set up and played {low}-{high} plies in {made - started:.0f} s, {sent}")
        print(f"gunicorn {args.web_workers} workers, worker concurrency {CELERY_CONCURRENCY}, beat, {site.base}")
        print(
            f"open pages: {args.open_pages} a player, polling every {args.poll_seconds:g} s; {common.machine_speed()}"
        )
        memory = MemoryMeter(site, args.memory_every) if args.memory_every else None
        if memory:
            memory.start()
        steps = ramp(site, name, tables, args)
        if memory:
            memory.stop()
            print("\n".join(memory.summary() + web_memory_summary(site)))
        report(steps, args)
    finally:
        site.stop()
        if server and name:
            if args.keep:
                print(f"kept database {name}")
            else:
                common.drop_database(server, name)
        redis_db.release()


def poll_seconds() -> float:
    """How often the game page's script polls (games/views_play.py hands it ZARKCITY_POLL_SECONDS)."""
    from django.conf import settings

    return float(settings.ZARKCITY_POLL_SECONDS)


def deploy() -> None:
    """The schema and the static files, as a deployment makes them before starting the processes."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    common.collect_static()


if __name__ == "__main__":
    main()
