"""Benchmark: the archive page with 100,000 finished games in PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/archive.py \
        [--games N] [--smoke] [--database NAME] [--keep]

It creates a database of its own on the server DATABASE_URL names (a fresh zc_bench_archive_...
name, or --database NAME, which must not exist yet), dropped at the end unless --keep; it never
touches the data of the database DATABASE_URL names. It migrates it, bulk-creates users, finished
Zark City games, seats and the archive's summary rows with real openskill ratings (per game), then
requests the archive page in-process (Django's test client: the server's time without the network,
DEBUG off: it refuses DJANGO_DEBUG=1) with several filters and prints the median time and the query
count of each. --smoke: 2,000 games, 3 requests per filter, only to show the bench works.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project root, not bench/

from bench import common  # noqa: E402

GAME = "zarkcity"  # every archived game is Zark City, as in every earlier run
COLOURS = ("red", "yellow", "green", "blue", "black")
REASONS = (("power block", 70), ("resignation", 18), ("timeout", 9), ("draw", 3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=15, help="requests per filter (the median is reported)")
    parser.add_argument("--smoke", action="store_true", help="2,000 games, 200 users, 3 requests per filter")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.users, args.runs = 2_000, 200, 3
    common.production_settings()
    server, name = common.own_database("archive", args.database)
    try:
        run(args, name)
    finally:
        if args.keep:
            print(f"kept database {name}")
        else:
            common.drop_database(server, name)
            print(f"dropped database {name}")


def run(args: argparse.Namespace, name: str) -> None:
    import django

    django.setup()
    common.check_debug_off()
    from django.core.management import call_command

    print(f"archive bench in database {name}, DEBUG off")
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    common.collect_static()
    populate(args.games, args.users)
    print(f"populated {args.games:,} games in {time.perf_counter() - started:.0f} s")
    measure(args.runs)


# ----------------------------------------------------------------------------- data


def populate(games: int, users: int) -> None:
    from django.db import connection

    rng = random.Random(20260101)
    user_ids = make_users(users)
    # A few players play a lot (as on any site): weights fall off like 1/rank.
    weights = [1 / (rank + 1) ** 0.8 for rank in range(len(user_ids))]
    start = datetime(2023, 1, 1, tzinfo=UTC)
    span = (datetime(2026, 1, 1, tzinfo=UTC) - start).total_seconds()
    moments = sorted(start + timedelta(seconds=rng.random() * span) for _ in range(games))
    ratings: dict[int, tuple[float, float]] = {}
    for first in range(0, games, 5_000):
        write_batch(rng, moments[first : first + 5_000], user_ids, weights, ratings)
    write_ratings(ratings)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


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
            after = rate_game(before, winners)
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
        player_count=len(plan["players"]),
        is_private=plan["private"],
        mu_before=before.mu,
        sigma_before=before.sigma,
        mu_after=after.mu,
        sigma_after=after.sigma,
        rating_after=after.rating,
    )


def write_ratings(ratings: dict[int, tuple[float, float]]) -> None:
    from django.db.models import Count, Q

    from archive.models import ArchivedPlayer, PlayerRating

    counts = {
        row["user_id"]: row
        for row in ArchivedPlayer.objects.values("user_id").annotate(
            n=Count("pk"), w=Count("pk", filter=Q(outcome="won"))
        )
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
    )


# ----------------------------------------------------------------------------- timing


def filters() -> list[tuple[str, dict[str, str]]]:
    return [
        ("newest, page 1", {}),
        ("newest, page 200", {"page": "200"}),
        ("player (busiest)", {"player": "player0"}),
        ("player (typical)", {"player": "player700"}),
        ("3 players", {"players": "3"}),
        ("arcade + timeout", {"deck": "arcade", "reason": "timeout"}),
        ("draws, longest", {"reason": "draw", "sort": "longest"}),
        ("one month", {"since": "2024-03-01", "until": "2024-03-31"}),
        ("300+ moves, longest", {"min_plies": "300", "sort": "longest"}),
        ("shortest", {"sort": "shortest"}),
        ("player + 4 players + longest", {"player": "player3", "players": "4", "sort": "longest"}),
        ("one game (Zark City)", {"game": GAME}),  # since several games: not in runs before 2026-11-23
    ]


def measure(runs: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from archive.forms import ArchiveSearchForm
    from archive.models import ArchivedGame
    from archive.selectors import archive_search

    client = Client()
    total = ArchivedGame.objects.count()
    print(f"\narchive page, {total:,} archived games, median of {runs} requests (in-process, server time)")
    print(f"{'filter':<32} {'median ms':>9} {'p90 ms':>7} {'SQL ms':>7} {'queries':>7} {'matches':>8}")
    medians = []
    for label, query in filters():
        client.get("/archive/", query)  # warm the caches
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            response = client.get("/archive/", query)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.status_code
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/archive/", query)
        median = statistics.median(times)
        medians.append(median)
        p90 = sorted(times)[int(len(times) * 0.9) - 1]
        form = ArchiveSearchForm(query)
        form.is_valid()
        matches = archive_search(form.cleaned_data).count()
        sql = sum(float(q["time"]) for q in queries.captured_queries) * 1000
        print(f"{label:<32} {median:>9.1f} {p90:>7.1f} {sql:>7.1f} {len(queries):>7} {matches:>8,}")
    print(
        f"{'median over the first eleven':<32} {statistics.median(medians[:11]):>9.1f}   (the filters of earlier runs)"
    )
    print(f"{'median over all the filters':<32} {statistics.median(medians):>9.1f}")
    print("(SQL ms: the database's share of one request, as Django timed its queries)")


if __name__ == "__main__":
    main()
