"""Measure the service through the Django test client: the game page and a move, at ply ~10 and ~1,000.

Run from the project root, against a PostgreSQL server (as production):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/service.py [--samples 50]
It creates its own database on that server (a fresh zc_bench_service_... name, or --database NAME,
which must not exist yet), runs with DEBUG off (it refuses DJANGO_DEBUG=1) and production's settings
otherwise, and drops the database at the end (--keep keeps it). The requests go through Django's test
client: the WSGI handler with every middleware, sessions and CSRF, but no network and no gunicorn.
--smoke runs small sizes (5 requests, ply 100), only to show the bench works.

What it prints, each a median over `samples` requests with its query count, target and PASS/FAIL
(issue 14: a move at most 20 ms, the 40-card page at most 30 ms for the player to move and 20 ms for a
spectator, and neither 1.2 times slower at ply 1,000):
- a move: POST /games/<id>/move/ (a draw, or the discard after it) in a Zark City game at ply ~10 and
  in another at ply ~1,000, the two interleaved request by request, so the machine's load at any moment
  weighs on both alike: the board and the moves are alike and only the length of the log differs.
- the game page: GET /games/<id>/ on a 40-card board (Zark City, Arcade deck), as the player to move
  (with their legal moves) and as a spectator, in a game at that point and in a second game with the
  same seed and policy that then only drew and discarded to ply ~1,000 (the same board, a longer log),
  interleaved; then a Deck Town game on a 40-card board.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project root, not bench/

from bench import common  # noqa: E402

SHORT_PLY, LONG_PLY, BIG_BOARD = 10, 1000, 40
Policy = Callable[[Any, Any, str], str]  # (the game's rules, its State, colour) -> move text


# ----------------------------------------------------------------------------- policies (never winning)
# They read the Zark City family's State (board, hands, phase), which Deck Town shares: benches are not apps.


def quiet(rules, state, colour: str) -> str:
    """Draw, then discard the first excess cards: the board never changes, so nobody can win."""
    if state.phase == "act":
        return "draw"
    if state.phase == "discard":
        excess = len(state.hands[colour]) - state.ruleset.hand_limit
        return "discard " + " ".join(state.ruleset.sort(state.hands[colour][:excess]))
    return first_legal(rules, state, colour)


def first_legal(rules, state, colour: str) -> str:
    return str(next(m for m in rules.legal_moves(state, colour) if not rules.is_resign(m)))


def keep_numbers(rules, state, colour: str) -> str:
    """At a discard, keep the number cards (the ones a city is built of); else the first legal move."""
    if state.phase != "discard":
        return first_legal(rules, state, colour)
    cards = state.ruleset.cards
    hand = sorted(state.hands[colour], key=lambda code: (cards[code].number > 0, cards[code].order))
    return "discard " + " ".join(state.ruleset.sort(hand[: len(hand) - state.ruleset.hand_limit]))


def city_builder(rules, state, colour: str, setup: Policy = first_legal) -> str:
    """Grow the city: the move giving the most cards, then the most room to build next, never a win."""
    if state.phase != "act":
        return setup(rules, state, colour)
    best, best_score = "draw", -1.0
    for move in rules.legal_moves(state, colour):
        if rules.move_kind(move) in ("resign", "demolish", "convert", "fly"):
            continue
        after = rules.apply(state, move, colour)
        if rules.phase(after) == "over":
            continue
        text = str(move)
        score = 10 * len(after.board) + _room(after, colour) + (0.5 if text == "draw" else 0)
        if score > best_score:
            best, best_score = text, score
    return best


def _room(state, colour: str) -> int:
    """Empty cells the colour may build on next: beside a card it occupies (Zark City) or controls (Deck Town)."""
    from engine.zarkcity.board import sides

    alone = state.ruleset.build_needs_control

    def mine(pieces) -> bool:
        owners = {owner for owner, _ in pieces}
        return owners == {colour} if alone else colour in owners

    cells = {cell for cell, sq in state.board.items() if mine(sq.pieces)}
    return len({n for cell in cells for n in sides(cell) if n not in state.board})


# ----------------------------------------------------------------------------- the game


def new_started_game(users, game_id: str, options: Mapping[str, str], seed: str):
    from games import services

    game = services.game_create(
        creator=users[0], game=game_id, seats=len(users), options=options, time_limit_days=7, is_private=False
    )
    with mock.patch("games.services.secrets.token_hex", return_value=seed):
        for user in users[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def mover_of(game) -> str:
    return game.to_move.split(",")[0]


def play_until(game, users: dict, policy: Policy, done: Callable[[Any], bool], most: int = 5000):
    """Move through the services (fast) until `done`; the policy never ends the game."""
    from games import services

    for _ in range(most):
        if done(game):
            return game
        colour = mover_of(game)
        text = policy(game.rules, services.state_of(game), colour)
        services.move_submit(game=game, user=users[colour], text=text, seen_ply=game.ply)
        game.refresh_from_db()
    sys.exit(f"game {game.pk} ({game.game}) did not get there in {most} moves")


class Timings:
    """Wall-clock and CPU milliseconds of each request. CPU time is what the server itself spent; on a
    busy machine the wall clock also counts waiting for a core, so both are printed."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def measure(self, call: Callable[[], Any]) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        self.cpu.append((time.process_time() - cpu) * 1000)
        self.wall.append((time.perf_counter() - wall) * 1000)
        return result

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    def __str__(self) -> str:
        wall, cpu = statistics.median(self.wall), statistics.median(self.cpu)
        p95 = statistics.quantiles(self.wall, n=20)[-1] if len(self.wall) > 1 else wall
        return f"median {wall:.1f} ms wall (p95 {p95:.1f}), {cpu:.1f} ms CPU over {len(self.wall)}"


def timed_post(game, clients: dict, policy: Policy, timings: Timings) -> None:
    """One POST /games/<id>/move/ (the policy's thinking is not timed)."""
    from games import services

    colour = mover_of(game)
    data = {"text": policy(game.rules, services.state_of(game), colour), "seen_ply": game.ply}
    response = timings.measure(lambda: clients[colour].post(f"/games/{game.pk}/move/", data))
    assert response.status_code == 302, (response.status_code, response.content[:500])
    game.refresh_from_db()


# ----------------------------------------------------------------------------- main


def players(*names: str) -> list:
    from django.contrib.auth import get_user_model

    return [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in names]


def clients_for(game) -> tuple[dict, dict]:
    from django.test import Client

    users, clients = {}, {}
    for seat in game.seats.select_related("user"):
        users[seat.colour] = seat.user
        clients[seat.colour] = Client()
        clients[seat.colour].force_login(seat.user)
    return users, clients


TARGETS = {"player": 30.0, "spectator": 20.0, "move": 20.0}  # median ms (issue 14)
RATIO = 1.2  # the same request at ply 1,000 against ply 10 (or against the 40-card ply, for the page)


class Report:
    """Each figure beside its target, PASS or FAIL; the failures again at the end."""

    def __init__(self) -> None:
        self.failed: list[str] = []

    def line(self, label: str, timings: Timings, queries: int, target: float | None) -> None:
        verdict = ""
        if target is not None:
            ok = timings.median <= target
            verdict = f"target <= {target:.0f} ms: {'PASS' if ok else 'FAIL'}"
            self.failed += [] if ok else [label]
        print(f"{label}: {timings}, {queries} queries   {verdict}")

    def ratio(self, label: str, long: Timings, short: Timings) -> None:
        wall = long.median / short.median
        cpu = statistics.median(long.cpu) / statistics.median(short.cpu)
        ok = wall <= RATIO
        self.failed += [] if ok else [label]
        print(f"  {label}: {wall:.2f} wall, {cpu:.2f} CPU   (target <= {RATIO}: {'PASS' if ok else 'FAIL'})")

    def summary(self) -> None:
        print(f"FAIL: {len(self.failed)} figures (marked above)" if self.failed else "every figure PASS")


def query_count(call: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def bench_moves(report: Report, samples: int, long_ply: int):
    """Two games, one at ply 10 and one at ply 1,000, their POSTs interleaved one by one so that the
    machine's load at any moment weighs on both alike: only the length of the log differs."""
    deck = {"deck": "standard"}
    short_game = new_started_game(players("alice", "bob"), "zarkcity", deck, "bench-standard")
    users, short_clients = clients_for(short_game)
    short_game = play_until(short_game, users, city_builder, lambda g: g.ply >= SHORT_PLY)
    long_game = new_started_game(players("frank", "grace"), "zarkcity", deck, "bench-standard")
    long_users, long_clients = clients_for(long_game)
    long_game = play_until(long_game, long_users, city_builder, lambda g: g.ply >= SHORT_PLY)
    long_game = play_until(long_game, long_users, quiet, lambda g: g.ply >= long_ply)
    short, long = Timings(), Timings()
    for _ in range(samples):
        timed_post(short_game, short_clients, quiet, short)
        timed_post(long_game, long_clients, quiet, long)
    queries = query_count(lambda: timed_post(long_game, long_clients, quiet, Timings()))
    report.line(f"move submitted by POST at ply {SHORT_PLY}-{short_game.ply}", short, queries, TARGETS["move"])
    report.line(f"move submitted by POST at ply {long_ply}-{long_game.ply}", long, queries, TARGETS["move"])
    report.ratio(f"move at ply {long_ply} / at ply {SHORT_PLY}, interleaved", long, short)


@dataclass(frozen=True)
class PageSpec:
    game_id: str
    options: Mapping[str, str]
    board: int
    names: tuple[str, ...]
    policy: Policy
    seed: str

    @property
    def game_name(self) -> str:
        from engine import registry

        return registry.get(self.game_id).info.name

    @property
    def options_text(self) -> str:
        from engine import registry

        return registry.get(self.game_id).info.options_text(self.options)


def bench_page(report: Report, samples: int, spec: PageSpec, long_ply: int | None) -> None:
    """The game page on a `spec.board`-card board, for the player to move and for a spectator; with
    `long_ply`, the same board in a second game whose log runs on to that ply (the same seed and policy,
    then only draws and discards), the requests of the two games interleaved."""
    pages = [PageViews(spec, spec.names, long_ply=None)]
    if long_ply is not None:
        pages.append(PageViews(spec, tuple(f"{name}-long" for name in spec.names), long_ply=long_ply))
    for page in pages:
        page.sample()  # warm the template cache
    page_timings = [(Timings(), Timings()) for _ in pages]
    for _ in range(samples):
        for page, timings in zip(pages, page_timings, strict=True):
            page.sample(*timings)
    for page, (as_player, as_spectator) in zip(pages, page_timings, strict=True):
        page.report(report, as_player, as_spectator)
    if long_ply is not None:
        (short_player, short_spectator), (long_player, long_spectator) = page_timings
        plies = f"at ply {pages[1].game.ply} / at ply {pages[0].game.ply}"
        report.ratio(f"the player's page {plies}", long_player, short_player)
        report.ratio(f"a spectator's page {plies}", long_spectator, short_spectator)


class PageViews:
    """A game grown to `spec.board` cards (then, with `long_ply`, drawn and discarded to that ply), and its
    page as the player to move and a spectator see it."""

    def __init__(self, spec: PageSpec, names: tuple[str, ...], long_ply: int | None) -> None:
        from django.test import Client

        self.spec = spec
        game = new_started_game(players(*names), spec.game_id, spec.options, spec.seed)
        users, clients = clients_for(game)
        game = play_until(game, users, spec.policy, lambda g: len(g.snapshot["board"]) >= spec.board)
        if long_ply is not None:
            game = play_until(game, users, quiet, lambda g: g.ply >= long_ply and g.phase == "act")
        self.game, self.url = game, f"/games/{game.pk}/"
        self.player, self.spectator = clients[mover_of(game)], Client()

    def sample(self, as_player: Timings | None = None, as_spectator: Timings | None = None) -> None:
        for client, timings in ((self.player, as_player), (self.spectator, as_spectator)):
            response = (timings or Timings()).measure(partial(client.get, self.url))
            assert response.status_code == 200, response.status_code

    def report(self, report: Report, as_player: Timings, as_spectator: Timings) -> None:
        from games import services

        spec, game = self.spec, self.game
        name = f"{spec.game_name}, {spec.options_text}" if spec.options_text else spec.game_name
        where = f"game page, {name}, {len(game.snapshot['board'])}-card board at ply {game.ply}"
        legal = len(game.rules.legal_moves(services.state_of(game), mover_of(game)))
        queries = query_count(partial(self.player.get, self.url))
        report.line(f"{where}, the player to move ({legal} legal moves)", as_player, queries, TARGETS["player"])
        queries = query_count(partial(self.spectator.get, self.url))
        report.line(f"{where}, a spectator", as_spectator, queries, TARGETS["spectator"])


def run(samples: int, long_ply: int) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    common.collect_static()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    print(
        f"zarkcity service bench on {connection.vendor} ({connection.settings_dict['NAME']}), DEBUG {settings.DEBUG};"
        f" Django's test client (the WSGI handler and every middleware, no network), {samples} requests each"
    )
    report = Report()
    bench_moves(report, samples, long_ply)
    arcade = PageSpec("zarkcity", {"deck": "arcade"}, BIG_BOARD, ("dave", "erin"), city_builder, "bench-arcade")
    bench_page(report, samples, arcade, long_ply)
    # Deck Town builds only beside a card you control, and its hand limit is 5: keep the number cards.
    town_builder = partial(city_builder, setup=keep_numbers)
    town = PageSpec("decktown", {}, BIG_BOARD, ("heidi", "ivan"), town_builder, "bench-decktown")
    bench_page(report, samples, town, None)
    report.summary()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50, help="timed requests at each point (default 50)")
    parser.add_argument("--smoke", action="store_true", help="5 samples, the long game at ply 100")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    common.production_settings()
    # Production allows a player 60 moves a minute; the bench's players move faster than anyone can.
    os.environ.setdefault("RATE_LIMIT_MOVE", "1000000/m")
    os.environ["DJANGO_EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"  # nothing leaves
    os.environ.pop("REDIS_URL", None)  # no shared broker or cache: the outbox's queueing fails quietly, as before
    server, name = common.own_database("service", args.database)
    try:
        import django

        django.setup()
        common.check_debug_off()
        logging.disable(logging.WARNING)  # the notification outbox may complain that no broker runs here
        run(5 if args.smoke else args.samples, 100 if args.smoke else LONG_PLY)
    finally:
        if args.keep:
            print(f"kept database {name}")
        else:
            common.drop_database(server, name)


if __name__ == "__main__":
    main()
