"""Each throw shows as die faces, drawn by the kit, next to its words: in the game page's history (to a
player and to a spectator alike) and in the turn email's HTML, whose plain text keeps the words. The
apps know no game: the games that throw dice are played here through the registry alone."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse

from engine.interface import Throw, thrown
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db
DICE_GAMES = ("icedice", "pharaoh", "launchpad23", "blackice")
OPEN_WITH_A_THROW = {"icedice", "pharaoh", "blackice"}  # Launch Pad 23 opens with a sealed pick
PICTURE = re.compile(r'<svg[^>]*class="kd-dice"[^>]*aria-label="([^"]*)"')


def start(game_id: str, *players: Any) -> Game:
    game = services.game_create(
        creator=players[0], game=game_id, seats=len(players), options={}, time_limit_days=3, is_private=False
    )
    with mock.patch("games.services.secrets.token_hex", return_value=f"faces-{game_id}"):
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def play(game: Game, plies: int) -> Game:
    """Random legal steps (never a resignation) until `plies` moves are logged or the game ends."""
    chooser = random.Random(game.pk)
    rules = game.rules
    for _ in range(plies * 4):
        game.refresh_from_db()
        if game.ply >= plies or game.status != Game.Status.ACTIVE:
            break
        committed = set(game.commitments.values_list("seat__colour", flat=True))  # a sealed choice is in
        colour = next(c for c in game.to_move.split(",") if c not in committed)
        state = rules.from_position(game.snapshot)
        moves = [str(m) for m in rules.legal_moves(state, colour) if not rules.is_resign(m)]
        user = game.seats.get(colour=colour).user
        services.move_submit(game=game, user=user, text=chooser.choice(moves), seen_ply=game.ply)
    game.refresh_from_db()
    return game


def mailed_until(game_id: str, players: tuple[Any, ...], capture: Any, shows: Callable[[str], object]) -> Game:
    """A new game played one step at a time, each step's emails sent, until a turn email's HTML `shows`
    what is looked for (or 60 moves)."""
    with capture(execute=True):
        game = start(game_id, *players)
    while game.ply < 60 and game.status == Game.Status.ACTIVE:
        if any(shows(m.alternatives[0][0]) for m in mail.outbox if "your move" in m.alternatives[0][0]):
            break
        with capture(execute=True):
            game = play(game, game.ply + 1)
    return game


def said(throws: list[Throw]) -> list[str]:
    """Each stored throw as its picture names it: "red threw S + green"."""
    return [f"{throw['seat']} threw {' + '.join(d['face'] for d in throw['dice'])}" for throw in throws]


def words_name_faces(words: str, faces: list[str]) -> bool:
    return re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, faces)) + r"(?!\w)", words) is not None


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_the_history_shows_each_throw_as_die_faces_to_players_and_spectators(client, alice, bob, game_id) -> None:
    game = play(start(game_id, alice, bob), 8)
    moves = list(game.moves.order_by("ply"))
    assert any(move.dice for move in moves), f"no throw in {game_id}'s first moves"
    for move in moves:  # each throw kept is one the move's public words tell of, in the order thrown
        for throw in move.dice:
            assert words_name_faces(move.descriptions["*"], [d["face"] for d in throw["dice"]])
    seats = [seat.colour for seat in game.seats.order_by("order")]
    assert bool(game.opening_dice) == (game_id in OPEN_WITH_A_THROW)
    assert game.opening_dice == thrown(game.rules.begin(seats, game.seed, game.options).events)  # the seed's
    expected = said(game.opening_dice) + [label for move in moves for label in said(move.dice)]
    url = reverse("game_detail", args=[game.pk]) + "?history=all"
    spectator = client.get(url).content.decode()
    client.force_login(alice)
    player = client.get(url).content.decode()
    for page in (spectator, player):
        assert PICTURE.findall(page) == expected  # every throw, in order, and nothing else (no roll to come)
        assert page.count('<span class="zc-dice"') == len(expected)


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_the_turn_email_draws_the_throws_in_html_and_keeps_the_words_in_text(
    alice, bob, eager, django_capture_on_commit_callbacks, settings, game_id
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = mailed_until(game_id, (alice, bob), django_capture_on_commit_callbacks, PICTURE.search)
    turns = [m for m in mail.outbox if "your move" in m.alternatives[0][0]]
    shown = [(m, PICTURE.findall(m.alternatives[0][0])) for m in turns]
    email, labels = next(((m, found) for m, found in reversed(shown) if found), (None, []))
    assert email is not None, f"no turn email of {game_id} showed a throw"
    assert "<svg" not in email.body  # the plain text keeps the words
    made = set(said(game.opening_dice)) | {label for move in game.moves.all() for label in said(move.dice)}
    assert set(labels) <= made  # only throws already made, each as stored with its move
    for label in labels:
        faces = label.split(" threw ")[1].split(" + ")
        assert words_name_faces(email.body, faces)


@pytest.mark.parametrize("game_id", sorted(OPEN_WITH_A_THROW))
def test_a_first_turn_email_opens_with_the_setups_throw(
    alice, bob, eager, django_capture_on_commit_callbacks, settings, game_id
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    opens = lambda html: "The opening throw" in html  # noqa: E731
    game = mailed_until(game_id, (alice, bob), django_capture_on_commit_callbacks, opens)
    [opening] = said(game.opening_dice)
    first = next(m for m in mail.outbox if "The opening throw" in m.body)
    assert f"The opening throw: {opening}" in first.body
    assert PICTURE.findall(first.alternatives[0][0])[0] == opening  # drawn first, before the moves' throws
