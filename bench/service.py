"""Measure the service through the Django test client: a move at ply ~10 and at ply ~1,000, and the game page.

Run from the project root, against a PostgreSQL server (as production):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/service.py [--samples 50]
It creates its own database on that server (a fresh zc_bench_service_... name, or --database NAME,
which must not exist yet), runs with DEBUG off (it refuses DJANGO_DEBUG=1) and drops the database
at the end (--keep keeps it). --smoke runs small sizes, only to show the bench works.

What it shows (Zark City, as in every earlier run, then a Deck Town game page):
- move_submit: the median time of POST /games/<id>/move/ (a draw, or the discard after it) over
  `samples` submissions starting at ply ~10, then again at ply ~1,000 of the same game. Between the
  two the game only draws and discards, so the board and the moves are alike and only the length of
  the log differs: the cached snapshot should keep the ratio near 1 (target <= 1.5).
- the game page: the median time of GET /games/<id>/ on a 40-card board (Arcade deck), for the
  player to move (with their list of legal moves) and for a spectator (target < 30 ms); the same
  for a Deck Town game on a 40-card board.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
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


def timed_gets(client, url: str, samples: int) -> Timings:
    client.get(url)  # warm the template cache
    timings = Timings()
    for _ in range(samples):
        assert timings.measure(lambda: client.get(url)).status_code == 200
    return timings


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


def bench_moves(samples: int, long_ply: int):
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
    print(f"move_submit via POST at ply {SHORT_PLY}-{short_game.ply}: {short}")
    print(f"move_submit via POST at ply {long_ply}-{long_game.ply}: {long}")
    wall = long.median / short.median
    cpu = statistics.median(long.cpu) / statistics.median(short.cpu)
    verdict = "ok" if wall <= 1.5 else "OVER TARGET"
    print(
        f"ratio ply-{long_ply} / ply-{SHORT_PLY}, interleaved: {wall:.2f} wall, {cpu:.2f} CPU"
        f"   (target <= 1.5: {verdict})"
    )
    return long_game


def bench_page(
    samples: int,
    game_id: str,
    options: Mapping[str, str],
    board: int,
    names: tuple[str, ...],
    policy: Policy,
    seed: str,
) -> None:
    from django.test import Client

    from games import services

    game = new_started_game(players(*names), game_id, options, seed)
    users, clients = clients_for(game)
    game = play_until(game, users, policy, lambda g: len(g.snapshot["board"]) >= board)
    url = f"/games/{game.pk}/"
    mover = mover_of(game)
    legal = len(game.rules.legal_moves(services.state_of(game), mover))
    as_player = timed_gets(clients[mover], url, samples)
    as_spectator = timed_gets(Client(), url, samples)
    cards = len(game.snapshot["board"])
    name = f"{game.rules.info.name}, {game.options_text}" if game.options_text else game.rules.info.name
    print(
        f"game page ({name}), {cards}-card board at ply {game.ply}, player to move ({legal} legal moves): {as_player}"
    )
    print(f"game page ({name}), same board, spectator: {as_spectator}")
    worst_wall = max(as_player.median, as_spectator.median)
    worst_cpu = max(statistics.median(as_player.cpu), statistics.median(as_spectator.cpu))
    verdict = "ok" if worst_wall < 30 else ("ok in CPU time (the machine is busy)" if worst_cpu < 30 else "OVER TARGET")
    print(f"page target < 30 ms: {verdict}")


def run(samples: int, long_ply: int) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from games import selectors

    call_command("migrate", verbosity=0)
    common.collect_static()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    print(f"zarkcity service bench on {connection.vendor} ({connection.settings_dict['NAME']}), DEBUG {settings.DEBUG}")
    game = bench_moves(samples, long_ply)
    page = timed_gets(Client(), f"/games/{game.pk}/", samples)
    print(f"game page at ply {game.ply} (spectator, the last {selectors.HISTORY_SHOWN} moves listed): {page}")
    bench_page(samples, "zarkcity", {"deck": "arcade"}, BIG_BOARD, ("dave", "erin"), city_builder, "bench-arcade")
    # Deck Town builds only beside a card you control, and its hand limit is 5: keep the number cards.
    town_builder = partial(city_builder, setup=keep_numbers)
    bench_page(samples, "decktown", {}, BIG_BOARD, ("heidi", "ivan"), town_builder, "bench-decktown")


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
