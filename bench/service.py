"""Measure the service through the Django test client: a move at ply ~10 and at ply ~1,000, and the game page.

Run from the project root:  .venv/bin/python bench/service.py [--samples 50]
It uses a fresh throw-away database: SQLite in a temporary file by default, or a test database
beside the one DATABASE_URL names (PostgreSQL). Nothing is written to the development database.

What it shows:
- move_submit: the median time of POST /games/<id>/move/ (a draw, or the discard after it) over
  `samples` submissions starting at ply ~10, then again at ply ~1,000 of the same game. Between the
  two the game only draws and discards, so the board and the moves are alike and only the length of
  the log differs: the cached snapshot should keep the ratio near 1 (target <= 1.5).
- the game page: the median time of GET /games/<id>/ on a 40-card board (Arcade deck), for the
  player to move (with their list of legal moves) and for a spectator (target < 30 ms).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project root, not bench/
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarkcity_site.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from engine.zarkcity import rules  # noqa: E402
from engine.zarkcity.board import sides  # noqa: E402
from engine.zarkcity.cards import sort_cards  # noqa: E402
from engine.zarkcity.movegen import legal_moves  # noqa: E402
from engine.zarkcity.notation import Discard, Draw, Resign  # noqa: E402
from engine.zarkcity.state import HAND_LIMIT, State  # noqa: E402
from games import selectors, services  # noqa: E402
from games.models import Game  # noqa: E402

SHORT_PLY, LONG_PLY, BIG_BOARD = 10, 1000, 40
Policy = Callable[[State, str], str]


# ----------------------------------------------------------------------------- policies (never winning)


def quiet(state: State, colour: str) -> str:
    """Draw, then discard the first excess cards: the board never changes, so nobody can win."""
    if state.phase == "act":
        return str(Draw())
    if state.phase == "discard":
        excess = len(state.hands[colour]) - HAND_LIMIT
        return str(Discard(tuple(sorted_cards(state.hands[colour][:excess]))))
    return first_legal(state, colour)


def sorted_cards(cards) -> tuple[str, ...]:
    return sort_cards(list(cards))


def first_legal(state: State, colour: str) -> str:
    return str(next(m for m in legal_moves(state, colour) if not isinstance(m, Resign)))


def city_builder(state: State, colour: str) -> str:
    """Grow the city: the move giving the most cards, then the most room to build next, never a win."""
    if state.phase != "act":
        return first_legal(state, colour)
    best, best_score = "draw", -1.0
    for move in legal_moves(state, colour):
        text = str(move)
        if text.split()[0] in ("resign", "demolish", "convert", "fly"):
            continue
        after = rules.apply(state, move, colour)
        if after.phase == "over":
            continue
        score = 10 * len(after.board) + _room(after, colour) + (0.5 if text == "draw" else 0)
        if score > best_score:
            best, best_score = text, score
    return best


def _room(state: State, colour: str) -> int:
    cells = {cell for cell, sq in state.board.items() if any(owner == colour for owner, _ in sq.pieces)}
    return len({n for cell in cells for n in sides(cell) if n not in state.board})


# ----------------------------------------------------------------------------- the game


def new_started_game(users, deck: str) -> Game:
    game = services.game_create(creator=users[0], seats=len(users), deck=deck, time_limit_days=7, is_private=False)
    with mock.patch("games.services.secrets.token_hex", return_value=f"bench-{deck}"):
        for user in users[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def mover_of(game: Game) -> str:
    return game.to_move.split(",")[0]


def play_until(game: Game, users: dict, policy: Policy, done: Callable[[Game], bool]) -> Game:
    """Move through the services (fast) until `done`; the policy never ends the game."""
    while not done(game):
        colour = mover_of(game)
        text = policy(services.state_of(game), colour)
        services.move_submit(game=game, user=users[colour], text=text, seen_ply=game.ply)
        game.refresh_from_db()
    return game


class Timings:
    """Wall-clock and CPU milliseconds of each request. CPU time is what the server itself spent; on a
    busy machine the wall clock also counts waiting for a core, so both are printed."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def measure(self, call: Callable[[], object]) -> object:
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
        return f"median {wall:.1f} ms wall, {cpu:.1f} ms CPU over {len(self.wall)}"


def timed_post(game: Game, clients: dict, policy: Policy, timings: Timings) -> None:
    """One POST /games/<id>/move/ (the policy's thinking is not timed)."""
    colour = mover_of(game)
    data = {"text": policy(services.state_of(game), colour), "seen_ply": game.ply}
    response = timings.measure(lambda: clients[colour].post(f"/games/{game.pk}/move/", data))
    assert response.status_code == 302, response.content[:500]
    game.refresh_from_db()


def timed_gets(client: Client, url: str, samples: int) -> Timings:
    client.get(url)  # warm the template cache
    timings = Timings()
    for _ in range(samples):
        assert timings.measure(lambda: client.get(url)).status_code == 200
    return timings


# ----------------------------------------------------------------------------- main


def fresh_database() -> str:
    """A throw-away test database; SQLite in a temporary file so the figures include real disk writes."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        db.setdefault("TEST", {})["NAME"] = str(Path(tempfile.mkdtemp(prefix="zarkcity-bench-")) / "bench.sqlite3")
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # nothing leaves the machine
    return connection.creation.create_test_db(verbosity=0, autoclobber=True)


def players(count: int) -> list:
    names = ("alice", "bob", "charlie")[:count]
    return [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in names]


def clients_for(game: Game) -> tuple[dict, dict]:
    users, clients = {}, {}
    for seat in game.seats.select_related("user"):
        users[seat.colour] = seat.user
        clients[seat.colour] = Client()
        clients[seat.colour].force_login(seat.user)
    return users, clients


def bench_moves(samples: int) -> tuple[float, float, Game]:
    """Two games, one at ply 10 and one at ply 1,000, their POSTs interleaved one by one so that the
    machine's load at any moment weighs on both alike: only the length of the log differs."""
    short_game = new_started_game(players(2), "standard")
    users, short_clients = clients_for(short_game)
    short_game = play_until(short_game, users, city_builder, lambda g: g.ply >= SHORT_PLY)
    long_game = new_started_game(players_more(("frank", "grace")), "standard")
    long_users, long_clients = clients_for(long_game)
    long_game = play_until(long_game, long_users, city_builder, lambda g: g.ply >= SHORT_PLY)
    long_game = play_until(long_game, long_users, quiet, lambda g: g.ply >= LONG_PLY)
    short, long = Timings(), Timings()
    for _ in range(samples):
        timed_post(short_game, short_clients, quiet, short)
        timed_post(long_game, long_clients, quiet, long)
    print(f"move_submit via POST at ply {SHORT_PLY}-{short_game.ply}: {short}")
    print(f"move_submit via POST at ply {LONG_PLY}-{long_game.ply}: {long}")
    wall = long.median / short.median
    cpu = statistics.median(long.cpu) / statistics.median(short.cpu)
    verdict = "ok" if wall <= 1.5 else "OVER TARGET"
    print(
        f"ratio ply-{LONG_PLY} / ply-{SHORT_PLY}, interleaved: {wall:.2f} wall, {cpu:.2f} CPU"
        f"   (target <= 1.5: {verdict})"
    )
    return short.median, long.median, long_game


def bench_page(samples: int) -> None:
    game = new_started_game(players_more(), "arcade")
    users, clients = clients_for(game)
    game = play_until(game, users, city_builder, lambda g: len(g.snapshot["board"]) >= BIG_BOARD)
    url = f"/games/{game.pk}/"
    mover = mover_of(game)
    legal = len(legal_moves(services.state_of(game), mover))
    as_player = timed_gets(clients[mover], url, samples)
    as_spectator = timed_gets(Client(), url, samples)
    cards = len(game.snapshot["board"])
    print(f"game page, {cards}-card board at ply {game.ply}, player to move ({legal} legal moves): {as_player}")
    print(f"game page, same board, spectator: {as_spectator}")
    worst_wall = max(as_player.median, as_spectator.median)
    worst_cpu = max(statistics.median(as_player.cpu), statistics.median(as_spectator.cpu))
    verdict = "ok" if worst_wall < 30 else ("ok in CPU time (the machine is busy)" if worst_cpu < 30 else "OVER TARGET")
    print(f"page target < 30 ms: {verdict}")


def players_more(names: tuple[str, ...] = ("dave", "erin")) -> list:
    return [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50, help="timed requests at each point (default 50)")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the notification outbox may complain that no broker runs here
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    old_name = connection.settings_dict["NAME"]
    name = fresh_database()
    print(f"zarkcity service bench on {connection.vendor} ({name})")
    try:
        _, _, game = bench_moves(args.samples)
        page = timed_gets(Client(), f"/games/{game.pk}/", args.samples)
        print(f"game page at ply {game.ply} (spectator, the last {selectors.HISTORY_SHOWN} moves listed): {page}")
        bench_page(args.samples)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
