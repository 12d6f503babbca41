"""The CPU time of building one turn email of a dice game (issue 27: each throw's die faces as a PNG).

Plays --games two-player games of each dice game (IceDice, Pharaoh, Launch Pad 23, Black ICE) with
fixed seeds and a seeded random pick of each move, --plies moves each and on until the turn email of
the player to move lists a throw (a game that ends first is left out), so every run on every machine
builds the same emails; then builds the turn email each game waits on (notifications.emails.
build_message, then the whole message written out as bytes, as the worker sends it) --rounds times
and prints the CPU time an email: the first round (a worker's first emails: each throw's picture
drawn) and the median of the others (the throws' pictures from the worker's cache). Then, on code that
has the pictures, the CPU time of drawing each distinct picture alone, and the same emails built in turn
with the pictures and without (their words alone), in this one process. Run it on the code before and
after a change, in turn, and compare CPU time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/dice_emails.py \
        [--games 5] [--plies 16] [--rounds 5] [--smoke] [--database NAME] [--keep]

PostgreSQL in a database of its own, DEBUG off (bench/common.py); emails go to Django's in-memory
backend, nothing is sent. The board PNG is drawn for each email as for a turn email nobody else gets
(notifications/pictures.py): the same in every round and on both codes.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project root, not bench/

from bench import common  # noqa: E402

DICE_GAMES = ("icedice", "pharaoh", "launchpad23", "blackice")


def play(game: Any, plies: int) -> None:
    """Random legal steps (never a resignation), picked by a generator seeded with the game's number:
    `plies` of them, then on until the player to move has a throw among the moves since their last
    turn (what their turn email lists), or the game ends."""
    from games import services
    from games.models import Game

    chooser = random.Random(game.pk)
    rules = game.rules
    for _ in range(plies * 8):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or (game.ply >= plies and _shows_a_throw(game)):
            return
        committed = set(game.commitments.values_list("seat__colour", flat=True))
        colour = next(c for c in game.to_move.split(",") if c not in committed)
        state = rules.from_position(game.snapshot)
        moves = sorted(str(m) for m in rules.legal_moves(state, colour) if not rules.is_resign(m))
        user = game.seats.get(colour=colour).user
        services.move_submit(game=game, user=user, text=chooser.choice(moves), seen_ply=game.ply)


def _shows_a_throw(game: Any) -> bool:
    from notifications import selectors

    seat = game.seats.get(colour=game.to_move.split(",")[0])
    return any(line.dice for line in selectors.moves_since_last_turn(game, seat))


def games_played(per_game: int, plies: int) -> list[int]:
    """The turn emails to build: the latest one of each game."""
    from django.contrib.auth.models import User

    from games import services
    from games.models import Game
    from notifications.models import Notification

    players = [User.objects.create_user(name, f"{name}@example.org", "x") for name in ("dice_red", "dice_yellow")]
    rows = []
    for game_id in DICE_GAMES:
        for number in range(per_game):
            game = services.game_create(
                creator=players[0], game=game_id, seats=2, options={}, time_limit_days=3, is_private=False
            )
            with mock.patch("games.services.secrets.token_hex", return_value=f"bench-dice-{game_id}-{number}"):
                services.game_join(game=game, user=players[1])
            game.refresh_from_db()
            play(game, plies)
            game.refresh_from_db()
            movers = game.seats.filter(colour__in=game.to_move.split(",")).values("user")
            asked = Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_TURN, recipient__in=movers)
            latest = asked.order_by("-pk").first()  # the email of the turn the game waits on now
            if game.status == Game.Status.ACTIVE and latest is not None:
                rows.append(latest.pk)
    return rows


def build_all(rows: list[int]) -> tuple[float, int, int]:
    """CPU seconds to build and write out every email; the images attached and the bytes written."""
    from notifications import emails
    from notifications.models import Notification

    notifications = [Notification.objects.select_related("game", "recipient").get(pk=pk) for pk in rows]
    images = size = 0
    started = time.process_time()
    for notification in notifications:
        written = emails.build_message(notification).message().as_bytes()
        size += len(written)
        images += written.count(b"Content-Type: image/png")
    return time.process_time() - started, images, size


def pictures_alone(rows: list[int]) -> None:
    """The throws' part of those emails alone (this code's): drawing each distinct picture, and finding
    an email's pictures in the worker's cache."""
    from notifications import emails, selectors
    from notifications.models import Notification

    shown = []
    for notification in Notification.objects.select_related("game", "recipient").filter(pk__in=rows):
        game = notification.game
        seat = selectors.seat_of(game, notification.recipient)
        since = selectors.moves_since_last_turn(game, seat)
        opening = game.opening_dice if len(since) == game.ply else []
        shown.append(opening + [throw for line in since for throw in line.dice])
    throws = [throw for email in shown for throw in email]
    faces = {tuple((d["face"], d["title"], d["colour"]) for d in throw["dice"]) for throw in throws}
    drawn = []
    for one in faces:
        started = time.process_time()
        emails._dice_png.__wrapped__(one)
        drawn.append((time.process_time() - started) * 1000)
    if not drawn:
        print(f"no throw shown in the {len(shown)} emails")
        return
    started = time.process_time()
    for email in shown:
        emails.DicePictures().of(email)
    cached = (time.process_time() - started) * 1000 / len(shown)
    print(
        f"throws shown: {len(throws)} in {len(shown)} emails ({sum(1 for e in shown if e)} with a throw),"
        f" {len(faces)} distinct pictures; drawing one: median {statistics.median(drawn):.2f} ms of CPU,"
        f" max {max(drawn):.2f}; an email's pictures from the cache: {cached:.3f} ms of CPU"
    )


def with_and_without(rows: list[int], rounds: int) -> None:
    """The same emails built in turn with the throws' pictures (from the cache) and with none (their
    words alone, as before the pictures), in this one process: what the pictures add, the machine's
    noise shared by both."""
    from notifications import emails

    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        for pictures in (True, False):
            none = mock.patch.object(emails.DicePictures, "of", lambda self, throws: [])
            with none if not pictures else contextlib.nullcontext():
                times[pictures].append(build_all(rows)[0] * 1000 / len(rows))
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(
        f"in turn, {rounds} rounds each: with the pictures {on:.2f} ms an email, without {off:.2f}: {on - off:+.2f} ms"
    )


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    common.check_debug_off()
    logging.disable(logging.WARNING)  # no broker here: the outbox's queueing complains
    from django.conf import settings
    from django.core.management import call_command

    from notifications import emails

    call_command("migrate", verbosity=0)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    rows = games_played(args.games, args.plies)
    cache = getattr(emails, "_dice_png", None)  # the throws' pictures (absent on the code before issue 27)
    if cache is not None:
        cache.cache_clear()
    print(common.machine_speed())
    times = []
    for _ in range(args.rounds):
        seconds, images, size = build_all(rows)
        times.append(seconds * 1000 / len(rows))
        each = size // len(rows)
        print(f"  {len(rows)} emails: {times[-1]:.2f} ms of CPU an email, {images} PNGs, {each} bytes an email")
    warm = statistics.median(times[1:]) if len(times) > 1 else times[0]
    print(f"first round {times[0]:.2f} ms an email; the others' median {warm:.2f} ms an email")
    if cache is not None:
        pictures_alone(rows)
        with_and_without(rows, args.rounds)
    print(common.machine_speed())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games of each dice game (default 5)")
    parser.add_argument("--plies", type=int, default=16, help="moves played in each (default 16)")
    parser.add_argument("--rounds", type=int, default=5, help="times every email is built (default 5)")
    parser.add_argument("--smoke", action="store_true", help="1 game of each, 8 moves, 2 rounds")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.plies, args.rounds = 1, 8, 2
    os.environ.setdefault("RATE_LIMIT_MOVE", "1000000/m")
    os.environ["DJANGO_EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    os.environ.pop("REDIS_URL", None)
    common.run_in_own_database("dice_emails", args, run)


if __name__ == "__main__":
    main()
