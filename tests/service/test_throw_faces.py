"""Each throw shows as die faces, drawn by the kit, next to its words: in the game page's history (to a
player and to a spectator alike, inline SVG) and in the turn email's HTML (a PNG attached inline, as the
board is: mail programs draw no SVG), whose plain text keeps the words. The apps know no game: the games
that throw dice are played here through the registry alone."""

from __future__ import annotations

import email
import html
import io
import random
import re
from collections.abc import Callable
from email import policy
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse
from PIL import Image

from engine.interface import Throw, thrown
from games import services
from games.models import Game
from notifications import emails

pytestmark = pytest.mark.django_db
DICE_GAMES = ("icedice", "pharaoh", "launchpad23", "blackice")
OPEN_WITH_A_THROW = {"icedice", "pharaoh", "blackice"}  # Launch Pad 23 opens with a sealed pick
PICTURE = re.compile(r'<svg[^>]*class="kd-dice"[^>]*aria-label="([^"]*)"')
EMAILED = re.compile(r'<img src="cid:(dice\d+)" alt="([^"]*)" width="(\d+)" height="(\d+)"')  # a throw's PNG


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


def emailed(html_part: str) -> list[tuple[str, str]]:
    """Each throw's picture in a turn email's HTML: (Content-ID, alt text), in order."""
    return [(cid, html.unescape(alt)) for cid, alt, _, _ in EMAILED.findall(html_part)]


def faces_of(label: str) -> list[str]:
    return label.split(" threw ")[1].split(" + ")


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_the_turn_email_attaches_each_throw_as_a_png_and_keeps_the_words_in_text(
    alice, bob, eager, django_capture_on_commit_callbacks, settings, game_id
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = mailed_until(game_id, (alice, bob), django_capture_on_commit_callbacks, EMAILED.search)
    turns = [m for m in mail.outbox if "your move" in m.alternatives[0][0]]
    sent, shown = next(
        ((m, emailed(m.alternatives[0][0])) for m in reversed(turns) if EMAILED.search(m.alternatives[0][0])),
        (None, []),
    )
    assert sent is not None, f"no turn email of {game_id} showed a throw"
    html_part = sent.alternatives[0][0]
    assert "<svg" not in html_part and "<svg" not in sent.body  # no inline SVG: Gmail and others do not draw it
    made = set(said(game.opening_dice)) | {label for move in game.moves.all() for label in said(move.dice)}
    assert {alt for _, alt in shown} <= made  # only throws already made, each as stored with its move
    for _, alt in shown:
        assert words_name_faces(sent.body, faces_of(alt))  # the text part tells the same throw in words
    parsed = email.message_from_bytes(sent.message().as_bytes(), policy=policy.default)
    assert parsed.get_content_type() == "multipart/related"
    images = {part["Content-ID"].strip("<>"): part for part in parsed.walk() if part.get_content_maintype() == "image"}
    pictures = {cid: part for cid, part in images.items() if cid.startswith("dice")}
    assert set(pictures) == {cid for cid, _ in shown}  # one part a picture the HTML shows, and no other
    faces_by_cid: dict[str, set[tuple[str, ...]]] = {}
    for cid, alt in shown:
        faces_by_cid.setdefault(cid, set()).add(tuple(faces_of(alt)))
    assert all(len(faces) == 1 for faces in faces_by_cid.values())  # one picture, one set of faces
    assert len(set(map(frozenset, faces_by_cid.values()))) == len(pictures)  # the same faces twice: one part
    for cid, part in pictures.items():
        assert part.get_content_type() == "image/png" and part.get_content_disposition() == "inline"
        picture = Image.open(io.BytesIO(part.get_content()))
        picture.load()  # decodes the whole PNG
        [(_, _, width, height)] = {m for m in EMAILED.findall(html_part) if m[0] == cid}
        assert picture.size == (2 * int(width), 2 * int(height))  # drawn at twice the size it is shown


def test_an_email_attaches_one_picture_for_the_same_faces_thrown_twice_and_draws_it_once_a_worker() -> None:
    five = {"face": "5", "title": "die: 5", "colour": ""}
    red, blue = Throw(seat="red", dice=[five, five]), Throw(seat="blue", dice=[five, five])
    other = Throw(seat="red", dice=[{"face": "2", "title": "die: 2", "colour": ""}])
    emails._dice_png.cache_clear()
    first, second = emails.DicePictures(), emails.DicePictures()
    shown = first.of([red]) + first.of([blue, other])
    assert [(image.cid, image.alt) for image in shown] == [
        ("dice1", "red threw 5 + 5"),
        ("dice1", "blue threw 5 + 5"),  # the same faces: the same picture, whose throw it was in the words
        ("dice2", "red threw 2"),
    ]
    assert list(first.pngs) == ["dice1", "dice2"]
    assert second.of([blue]) == [shown[1]] and second.pngs == {"dice1": first.pngs["dice1"]}
    assert emails._dice_png.cache_info().misses == 2  # each distinct picture drawn once, the rest from the cache
    assert emails._dice_png.cache_info().maxsize == emails.DICE_PICTURES_KEPT  # bounded


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
    assert emailed(first.alternatives[0][0])[0][1] == opening  # drawn first, before the moves' throws
