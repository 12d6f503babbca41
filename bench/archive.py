"""Benchmark: the archive page at 10,000 and at 100,000 finished games, in PostgreSQL, in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/archive.py \
        [--games 100000] [--small 10000] [--runs 15] [--smoke] [--database NAME] [--keep]

It creates a database of its own on the server DATABASE_URL names (a fresh zc_bench_archive_... name, or
--database NAME, which must not exist yet), dropped at the end unless --keep; it never touches the data
of the database DATABASE_URL names. DEBUG is off (it refuses DJANGO_DEBUG=1).

The database holds two archives, each in a schema of its own: the first 10,000 games of one site's
history (`small`) and all 100,000 of them, the same players and games (the small one is the same site,
earlier). Each is migrated, filled with users, finished Zark City games, seats, the archive's rows with
real openskill ratings, and its list rows rendered as `game_archive` renders them, then VACUUM ANALYZE
(as autovacuum leaves a settled table). A server process per archive (this script, --serve) answers
requests through Django's test client, in-process: the server's time without the network. The bench
asks the two in turn, one request each, so the machine's load at any moment weighs on both alike; each
figure is the median of --runs requests, after one to warm the caches.

Printed per filter: the median at each size, the ratio, and PASS/FAIL against the targets: at most
50 ms at 100,000 games and at most 1.2 times the time at 10,000. The profile, feed and leaderboard pages
(which list archived games too) are measured the same way. --smoke: 200 and 2,000 games, 3 requests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project root, not bench/

from bench import common  # noqa: E402

GAME = "zarkcity"  # every archived game is Zark City, as in every earlier run
COLOURS = ("red", "yellow", "green", "blue", "black")
REASONS = (("power block", 70), ("resignation", 18), ("timeout", 9), ("draw", 3))
HISTORY_START, HISTORY_YEARS = datetime(2023, 1, 1, tzinfo=UTC), 3  # 100,000 games over three years
TARGET_MS, TARGET_RATIO = 50.0, 1.2
SIGNED_IN = "player5"  # a regular: the signed-in cases also list this player's private games
# The regular is player120 (of 2,000): 32 public games in the first 10,000, 331 in 100,000, so both pages
# of their games are full ones; player700, typical of most, has 4 at 10,000 (a shorter page) and 84.
REGULAR = 0.06
PARTIAL = 0.035  # "layer70" matches player70 and player700 to player709 (of 2,000): not one name exactly
REPLY = "@@ "  # the prefix of a server's answers on its stdout

# (label, path, query, signed in); the archive's filters first, then the other pages that list archived games.
ARCHIVE_PAGES: list[tuple[str, str, dict[str, str], bool]] = [
    ("newest, page 1", "/archive/", {}, False),
    ("newest, page 200", "/archive/", {"page": "200"}, False),
    ("player (busiest)", "/archive/", {"player": "player0"}, False),
    ("player (a regular)", "/archive/", {"player": "{regular}"}, False),
    ("3 players", "/archive/", {"players": "3"}, False),
    ("arcade + timeout", "/archive/", {"deck": "arcade", "reason": "timeout"}, False),
    ("draws, longest", "/archive/", {"reason": "draw", "sort": "longest"}, False),
    ("one month", "/archive/", {"since": "2023-02-01", "until": "2023-02-28"}, False),
    ("300+ moves, longest", "/archive/", {"min_plies": "300", "sort": "longest"}, False),
    ("shortest", "/archive/", {"sort": "shortest"}, False),
    ("player + 4 players + longest", "/archive/", {"player": "player3", "players": "4", "sort": "longest"}, False),
    ("one game (Zark City)", "/archive/", {"game": GAME}, False),
    ("part of a name (11 players)", "/archive/", {"player": "{partial}"}, False),
    ("newest, signed in", "/archive/", {}, True),
    ("player (busiest), signed in", "/archive/", {"player": "player0"}, True),
]
OTHER_PAGES: list[tuple[str, str, dict[str, str], bool]] = [
    ("profile (busiest player)", "/players/player0/", {}, False),
    ("profile (a regular)", "/players/{regular}/", {}, False),
    ("games feed (busiest player)", "/players/player0/games.atom", {}, False),
    ("leaderboard, page 1", "/leaderboard/", {}, False),
    ("leaderboard, page 20", "/leaderboard/", {"page": "20"}, False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="the large archive (default 100,000)")
    parser.add_argument("--small", type=int, default=10_000, help="the small archive: its first games (10,000)")
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=15, help="requests per page and size (the median is reported)")
    parser.add_argument("--smoke", action="store_true", help="200 and 2,000 games, 200 users, 3 requests per page")
    parser.add_argument("--serve", metavar="SCHEMA", help=argparse.SUPPRESS)  # a server process (internal)
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.small, args.users, args.runs = 2_000, 200, 200, 3
    common.production_settings()
    if args.serve:
        return serve(args)
    server, name = common.own_database("archive", args.database)
    try:
        bench(args, name)
    finally:
        if args.keep:
            print(f"kept database {name}")
        else:
            common.drop_database(server, name)
            print(f"dropped database {name}")


# ----------------------------------------------------------------------------- the bench (parent)


class Server:
    """A process serving one archive (its own schema), asked for one timed request at a time."""

    def __init__(self, args: argparse.Namespace, schema: str, games: int) -> None:
        self.schema, self.games = schema, games
        command = [sys.executable, __file__, "--serve", schema, "--games", str(games), "--users", str(args.users)]
        env = dict(os.environ, DATABASE_URL=in_schema(os.environ["DATABASE_URL"], schema))
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = self.answer()  # populated: {"games", "seconds", "rows_seconds"}

    def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(REPLY):
                return json.loads(line[len(REPLY) :])
        sys.exit(f"the {self.schema} server stopped (exit {self.process.wait()})")

    def ask(self, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self.answer()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def in_schema(url: str, schema: str) -> str:
    """The database URL with `schema` first on the search path (dj-database-url passes `options` to libpq)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query) + [("options", f"-c search_path={schema}")]
    return urlunsplit(parts._replace(query=urlencode(query)))


def bench(args: argparse.Namespace, name: str) -> None:
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        for schema in ("small", "large"):
            conn.execute(f"CREATE SCHEMA {schema}")
    print(f"archive bench in database {name} (schemas small and large), DEBUG off")
    servers = []
    try:
        for schema, games in (("small", args.small), ("large", args.games)):
            servers.append(Server(args, schema, games))
            ready = servers[-1].ready
            print(
                f"{schema}: {ready['games']:,} games populated in {ready['seconds']:.0f} s"
                f" (their list rows rendered in {ready['rows_seconds']:.1f} s of it)"
            )
        measure(servers, args.runs, args.users)
    finally:
        for server in servers:
            server.close()


def measure(servers: list[Server], runs: int, users: int) -> None:
    small, large = servers
    print(f"\nmedian of {runs} requests at each size, asked in turn (in-process test client: server time)")
    header = f"{'page':<30} {'ms at ' + format(small.games, ','):>12} {'ms at ' + format(large.games, ','):>13}"
    print(f"{header} {'ratio':>6} {'CPU ms':>7} {'SQL ms':>7} {'queries':>7} {'matches':>8}  verdict")
    failed = []
    named = {"regular": f"player{int(users * REGULAR)}", "partial": f"layer{int(users * PARTIAL)}"}
    for section, pages in (("the archive page", ARCHIVE_PAGES), ("other pages listing archived games", OTHER_PAGES)):
        print(f"-- {section}")
        for label, path, query, signed_in in pages:
            path, query = path.format(**named), {k: v.format(**named) for k, v in query.items()}
            line, ok = measure_page(servers, runs, label, path, query, signed_in)
            print(line)
            failed += [] if ok else [label]
    print(f"-- what the optimisations buy, at {large.games:,} games (ms, median of {runs}, the two asked in turn)")
    for name, words in COMPARISONS.items():
        answer = large.ask(compare=name, runs=runs)
        before, after = answer["before"], answer["after"]
        print(f"{words}: {before:.1f} / {after:.1f}")
    print(f"targets: at most {TARGET_MS:.0f} ms at {large.games:,} games and at most {TARGET_RATIO}x the time at")
    print(f"{small.games:,} (wall-clock medians); CPU ms is the server process's own time at {large.games:,}.")
    print("FAIL: " + "; ".join(failed) if failed else "every page PASS")


def measure_page(servers: list[Server], runs: int, label: str, path: str, query: dict, signed_in: bool):
    request = {"path": path, "query": query, "signed_in": signed_in}
    for server in servers:
        server.ask(**request)  # warm the caches
    wall: dict[str, list[float]] = {s.schema: [] for s in servers}
    cpu: dict[str, list[float]] = {s.schema: [] for s in servers}
    for run in range(runs):
        for server in servers if run % 2 == 0 else reversed(servers):
            timed = server.ask(**request)
            wall[server.schema].append(timed["ms"])
            cpu[server.schema].append(timed["cpu_ms"])
    facts = servers[1].ask(**request, explain=True)
    small, large = statistics.median(wall["small"]), statistics.median(wall["large"])
    ratio = large / small
    ok = large <= TARGET_MS and ratio <= TARGET_RATIO
    verdict = "PASS" if ok else f"FAIL ({'slow' if large > TARGET_MS else 'grows'})"
    line = (
        f"{label:<30} {small:>12.1f} {large:>13.1f} {ratio:>6.2f} {statistics.median(cpu['large']):>7.1f}"
        f" {facts['sql_ms']:>7.1f} {facts['queries']:>7} {facts['matches']:>8}  {verdict}"
    )
    return line, ok


# ----------------------------------------------------------------------------- a server (child process)


def serve(args: argparse.Namespace) -> None:
    """Populate this schema's archive, say so, then answer timed requests (one JSON line each) until EOF."""
    import django

    django.setup()
    common.check_debug_off()
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    common.collect_static()
    rows_seconds = populate(args.games, args.users)
    reply({"games": args.games, "seconds": time.perf_counter() - started, "rows_seconds": rows_seconds})
    from django.contrib.auth import get_user_model
    from django.test import Client

    anonymous, signed_in = Client(), Client()
    signed_in.force_login(get_user_model().objects.get(username=SIGNED_IN))
    for line in sys.stdin:
        request = json.loads(line)
        if "compare" in request:
            reply(compare(request["compare"], request["runs"]))
            continue
        client = signed_in if request["signed_in"] else anonymous
        reply(explain(client, request) if request.get("explain") else timed(client, request))


def reply(answer: dict[str, Any]) -> None:
    print(REPLY + json.dumps(answer), flush=True)


def timed(client, request: dict[str, Any]) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    response = client.get(request["path"], request["query"])
    cpu_ms, ms = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    assert response.status_code == 200, (request, response.status_code)
    return {"ms": ms, "cpu_ms": cpu_ms}


def explain(client, request: dict[str, Any]) -> dict[str, Any]:
    """One more request with its queries captured: how many, their time, and how many games match."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from archive.forms import ArchiveSearchForm
    from archive.selectors import archive_search

    with CaptureQueriesContext(connection) as queries:
        client.get(request["path"], request["query"])
    matches = ""
    if request["path"] == "/archive/":
        form = ArchiveSearchForm(request["query"])
        form.is_valid()
        matches = f"{archive_search(form.cleaned_data).count():,}"
    sql_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
    return {"queries": len(queries), "sql_ms": sql_ms, "matches": matches}


# ----------------------------------------------------------------------------- what the optimisations buy
# Each pairs the way the server did a part of a page before issue 14 (kept here, not in the app) with the way
# it does it now, on the same data, timed in turn (wall-clock ms of that part alone, median of --runs).

COMPARISONS = {
    "rows": "the newest page's 25 rows: rendered on each request from the template / stored rows, names filled",
    "count": "counting the busiest player's public games (to 10,001): a join over the archive / their result rows",
    "profile": "the busiest player's counts on their profile: adding up their results / their tallies",
    "feed": "the busiest player's Atom feed, 30 items: the result read from each game / from the archived row",
    "tally": "counting the public arcade timeouts (to 10,001): along the reason index / adding up archive tallies",
    "names": "a page of the games of 11 players (part of a name): their rows ordered together / each one's first 25",
}

# The archive list's row as archive/index.html rendered it for each game of each page before rows were stored.
EVERY_TIME_ROWS = """{% load zarkcity_cards accounts archive_words %}{% for g in games %}
    <tr>
      <td><a href="{% url 'replay' g.game_id g.plies %}">#{{ g.game_id }}</a> <span class="muted small">\
{{ g.game_name }}{% if g.options_text %}, {{ g.options_text }}{% endif %}</span>{% if g.is_private %} <span \
class="badge badge--private" title="Listed to its players only">private</span>{% endif %}</td>
      <td>{% for p in g.players.all %}<span class="ar-player{% if p.outcome == 'won' %} ar-player--won{% endif %}">\
{{ p.colour|seat_chip }} <a href="{% url 'player_profile' p.user.username %}">{{ p.user|display_name }}</a>\
{{ p.user|bot_badge }}</span>{% if not forloop.last %}, {% endif %}{% endfor %}</td>
      <td>{{ g|outcome }}</td>
      <td class="ar-num">{{ g.plies }}</td>
      <td><time datetime="{{ g.finished_at|date:'c' }}">{{ g.finished_at|date:"j M Y" }}</time></td>
    </tr>
  {% endfor %}"""


def compare(name: str, runs: int) -> dict[str, float]:
    before, after = _compared(name)
    times: dict[str, list[float]] = {"before": [], "after": []}
    pair = (("before", before), ("after", after))
    for run in range(runs + 1):  # the first of each warms the caches
        for label, part in pair if run % 2 else pair[::-1]:
            began = time.perf_counter()
            part()
            if run:
                times[label].append((time.perf_counter() - began) * 1000)
    return {label: statistics.median(ms) for label, ms in times.items()}


def _compared(name: str):
    """(before, after) for one comparison: two functions doing the same part of a page."""
    from django.contrib.auth import get_user_model
    from django.db.models import Count, Exists, OuterRef, Q, Sum
    from django.template import Context, Template

    from archive import rows, selectors
    from archive.feeds import PlayerGamesFeed
    from archive.models import ArchivedGame, ArchivedPlayer, ArchiveTally, PlayerTally
    from archive.records import result_words

    busiest = get_user_model().objects.get(username="player0")
    public = ArchivedGame.objects.filter(is_private=False)
    if name == "rows":
        template = Template(EVERY_TIME_ROWS)
        newest = public.order_by("-finished_at", "-game_id")[: selectors.ARCHIVE_PAGE_SIZE]

        def rendered():
            template.render(Context({"games": list(selectors.with_players(newest))}))

        def stored():
            rows.listed(list(newest.values_list("game_id", "row__html", "row__key")))

        return rendered, stored
    if name == "count":
        games = ArchivedPlayer.objects.filter(user=busiest).values("archived_game_id")
        joined = public.filter(pk__in=games).values("pk").order_by()  # unordered, as CappedPaginator counts
        own = ArchivedPlayer.objects.filter(user=busiest, is_private=False).values("pk").order_by()
        return (lambda: joined[: selectors.COUNT_CAP + 1].count()), (lambda: own[: selectors.COUNT_CAP + 1].count())
    if name == "profile":
        counts = {"played": Count("pk"), "won": Count("pk", filter=Q(outcome="won"))}
        results = ArchivedPlayer.objects.filter(user=busiest)

        def added_up():
            list(results.values("player_count").annotate(**counts).order_by("player_count"))
            list(results.values("game_type").annotate(**counts).order_by("game_type"))
            results.filter(is_private=True).count()

        return added_up, (lambda: list(PlayerTally.objects.filter(user=busiest)))
    if name == "tally":
        arcade_timeouts = {"deck": "arcade", "reason": "timeout"}
        counted = selectors._narrowed(public, arcade_timeouts).values("pk").order_by()
        tallied = selectors.Total(selectors._narrowed(ArchiveTally.objects.all(), arcade_timeouts), Sum("games"))
        cap = selectors.COUNT_CAP + 1
        return (lambda: counted[:cap].count()), (lambda: tallied.count_to(cap))
    if name == "names":
        named = selectors.players_named(f"layer{int(get_user_model().objects.count() * PARTIAL)}")
        page = slice(0, selectors.ARCHIVE_PAGE_SIZE)
        newest = selectors._ordering({}, "game_id")

        def together():  # each game at its first matching seat, as before (and as on SQLite still)
            before = ArchivedPlayer.objects.filter(
                archived_game_id=OuterRef("archived_game_id"), user_id__in=named, seat_order__lt=OuterRef("seat_order")
            )
            seats = ArchivedPlayer.objects.filter(user_id__in=named, is_private=False).exclude(Exists(before))
            ids = seats.order_by("-finished_at", "-archived_game_id").values_list("archived_game_id", flat=True)
            list(public.filter(pk__in=ids[page]).order_by(*newest).values_list("game_id", "row__html"))

        def each_first():
            ids = selectors.Ids.of_each(named, {}, []).window(page, newest)
            list(public.filter(pk__in=ids).order_by(*newest).values_list("game_id", "row__html"))

        return together, each_first
    feed = PlayerGamesFeed()

    def from_games():
        for game in selectors.finished_games_of(user=busiest):
            result_words(game.game)

    def from_rows():
        for game in selectors.finished_games_of(user=busiest):
            feed.item_title(game)

    return from_games, from_rows


# ----------------------------------------------------------------------------- data


def populate(games: int, users: int) -> float:
    """The first `games` games of the site's history; returns the seconds spent rendering their list rows."""
    from django.db import connection

    from archive import rows
    from archive.models import ArchivedGame, ArchivedPlayer, ArchivedRow
    from archive.services import archive_tallies_recount, tallies_recount

    rng = random.Random(20260101)
    user_ids = make_users(users)
    # A few players play a lot (as on any site): weights fall off like 1/rank.
    weights = [1 / (rank + 1) ** 0.8 for rank in range(len(user_ids))]
    # 100,000 games over three years whatever the size asked: a smaller archive is the same site, earlier.
    pace = HISTORY_YEARS * 365.25 * 86400 / 100_000
    moments = [HISTORY_START + timedelta(seconds=pace * (n + rng.random())) for n in range(games)]
    ratings: dict[int, tuple[float, float]] = {}
    for first in range(0, games, 5_000):
        write_batch(rng, moments[first : first + 5_000], user_ids, weights, ratings)
    write_ratings(ratings)
    tallies_recount()  # as game_archive counts each game in its players' tallies
    archive_tallies_recount()  # and each public game in the archive's tally of its kind
    began = time.perf_counter()
    rows.render_stale(ArchivedGame, ArchivedPlayer, ArchivedRow)  # as game_archive renders each game's row
    rows_seconds = time.perf_counter() - began
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # a settled table, as autovacuum leaves it
    return rows_seconds


def make_users(count: int) -> list[int]:
    from django.contrib.auth import get_user_model

    from accounts.models import Profile

    User = get_user_model()
    made = User.objects.bulk_create(
        User(username=f"player{n}", password="!", email=f"p{n}@example.org") for n in range(count)
    )
    Profile.objects.bulk_create(Profile(user=u, display_name=f"Player {n}") for n, u in enumerate(made) if n % 2 == 0)
    return [u.pk for u in made]


def write_batch(rng, moments, user_ids, weights, ratings) -> None:
    from django.db import transaction

    from archive.models import ArchivedGame, ArchivedPlayer
    from archive.ratings import START, Skill, rate_game
    from games.models import Game, Seat

    with transaction.atomic():
        plans = [plan_game(rng, at, user_ids, weights) for at in moments]
        games = Game.objects.bulk_create(game_row(p) for p in plans)
        Seat.objects.bulk_create(
            Seat(game=g, user_id=uid, colour=COLOURS[i], order=i)
            for g, p in zip(games, plans, strict=True)
            for i, uid in enumerate(p["players"])
        )
        summaries, players = [], []
        for game, plan in zip(games, plans, strict=True):
            summaries.append(summary_row(game, plan))
            before = {uid: Skill(*ratings.get(uid, (START.mu, START.sigma))) for uid in plan["players"]}
            winners = [] if plan["winner"] is None else [plan["players"][plan["winner"]]]
            after = before if plan["private"] else rate_game(before, winners)  # a private game moves no rating
            for i, uid in enumerate(plan["players"]):
                players.append(player_row(game, plan, i, uid, before[uid], after[uid]))
                ratings[uid] = (after[uid].mu, after[uid].sigma)
        ArchivedGame.objects.bulk_create(summaries)
        ArchivedPlayer.objects.bulk_create(players, batch_size=5_000)


def plan_game(rng, finished_at, user_ids, weights) -> dict:
    count = rng.choices((2, 3, 4, 5), weights=(45, 30, 17, 8))[0]
    players: list[int] = []
    while len(players) < count:
        uid = rng.choices(user_ids, weights=weights)[0]
        if uid not in players:
            players.append(uid)
    reason = rng.choices([r for r, _ in REASONS], weights=[w for _, w in REASONS])[0]
    return {
        "players": players,
        "deck": "arcade" if rng.random() < 0.25 else "standard",
        "reason": reason,
        "winner": None if reason == "draw" else rng.randrange(count),
        "plies": rng.randint(20, 420),
        "finished_at": finished_at,
        "private": rng.random() < 0.05,
        "seed": secrets.token_hex(32),
    }


def game_row(plan: dict):
    from engine import registry
    from engine.shuffle import commitment
    from games.models import Game

    return Game(
        created_by_id=plan["players"][0],
        status=Game.Status.FINISHED,
        game=GAME,
        options={"deck": plan["deck"]},
        seats_wanted=len(plan["players"]),
        is_private=plan["private"],
        seed=plan["seed"],
        seed_commitment=commitment(plan["seed"]),
        rules_version=registry.get(GAME).info.rules_version,
        ply=plan["plies"],
        phase="over",
        winner="" if plan["winner"] is None else COLOURS[plan["winner"]],
        result_reason=plan["reason"],
        started_at=plan["finished_at"] - timedelta(days=12),
        finished_at=plan["finished_at"],
    )


def summary_row(game, plan: dict):
    from archive.models import ArchivedGame

    return ArchivedGame(
        game=game,
        finished_at=plan["finished_at"],
        started_at=game.started_at,
        game_type=GAME,
        options={"deck": plan["deck"]},
        player_count=len(plan["players"]),
        plies=plan["plies"],
        reason=plan["reason"],
        winner_colour=game.winner,
        winner_id=None if plan["winner"] is None else plan["players"][plan["winner"]],
        is_private=plan["private"],
    )


def player_row(game, plan: dict, seat: int, uid: int, before, after):
    from archive.models import ArchivedPlayer

    outcome = "draw" if plan["winner"] is None else ("won" if seat == plan["winner"] else "lost")
    return ArchivedPlayer(
        archived_game_id=game.pk,
        user_id=uid,
        colour=COLOURS[seat],
        seat_order=seat,
        outcome=outcome,
        finished_at=plan["finished_at"],
        game_type=GAME,
        options={"deck": plan["deck"]},
        player_count=len(plan["players"]),
        plies=plan["plies"],
        reason=plan["reason"],
        is_private=plan["private"],
        mu_before=before.mu,
        sigma_before=before.sigma,
        mu_after=after.mu,
        sigma_after=after.sigma,
        rating_after=after.rating,
    )


def write_ratings(ratings: dict[int, tuple[float, float]]) -> None:
    """Each player's rating row, its counts from their public games (private ones move no rating)."""
    from django.db.models import Count, Q

    from archive.models import ArchivedPlayer, PlayerRating

    public = ArchivedPlayer.objects.filter(is_private=False)
    counts = {
        row["user_id"]: row
        for row in public.values("user_id").annotate(n=Count("pk"), w=Count("pk", filter=Q(outcome="won")))
    }
    PlayerRating.objects.bulk_create(
        PlayerRating(
            user_id=uid,
            game_type=GAME,
            mu=mu,
            sigma=sigma,
            rating=mu - 3 * sigma,
            games=counts[uid]["n"],
            wins=counts[uid]["w"],
        )
        for uid, (mu, sigma) in ratings.items()
        if uid in counts
    )


if __name__ == "__main__":
    main()
