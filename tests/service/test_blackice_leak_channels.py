"""Black ICE's secrets through the whole service: whole games played by random legal steps (some by an
email reply of two steps on one line), and after each step every channel is searched, as each player,
a logged-in outsider and an anonymous spectator see it, for a Code that viewer may not know.

A viewer knows the Code of a Lock that carries its mark (it peeked it, and the mark moves with the Lock
on a Swap and goes with a Reset); nobody knows the others, the Box's order, a Reset's new Code or the
seed. The channels: the game page (and its whole history), the board picture, the page's poll
(ply.json), the replay and the printable log, the record download, the verify page, the API's game,
moves, record and event feed, the emails each one was sent (turn emails, a reply's answer) and every
log line. A Code shows as "Lock 2: green" (the board's words), "Code of Lock 2: green" (the picture's),
"red peeked Lock 2: green" (a Peek's secret line), "the new Code is" (a Reset's), or as a JSON "code"
or "new"; the test first checks that the peeker's own page does show its Code in those words, so the
search looks for what a leak would look like. Colours repeat (three Codes of each), so the search is by
Lock and Code together.
"""

from __future__ import annotations

import html
import json
import logging
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from engine.blackice.game import GAME
from engine.blackice.state import COLOURS, State
from games import services
from games.models import Game
from notifications.models import Watch
from replies import inbox
from replies import services as replies
from tests.api.conftest import ApiClient, secret_for
from tests.conftest import make_user
from tests.replies import mails

pytestmark = pytest.mark.django_db
SEEDS = ("leak-a", "leak-c")  # two games whose random steps swap a peeked Lock and Reset one
MAX_PLIES = 90  # then the mover declares at its next chance (random declarations end most games sooner)
COLOUR = "|".join(COLOURS)


@dataclass
class Viewer:
    name: str  # "red", "yellow", "outsider", "anonymous"
    colour: str | None  # the seat, or None for a spectator
    client: Client
    api: ApiClient | None
    address: str = ""  # where its emails go


@dataclass
class Seen:
    """What happened in a game that the test must see happen at least once."""

    swapped_peeked: int = 0  # a Lock carrying a mark swapped away
    reset_peeked: int = 0
    replied: int = 0
    checks: int = 0
    emails: int = 0
    kinds: set[str] = field(default_factory=set)


def codes_unknown(state: State, colour: str | None) -> list[tuple[int, str]]:
    return [(place, lock.code) for place, lock in enumerate(state.locks, 1) if colour not in lock.peeked_by]


def text_leaks(text: str, state: State, colour: str | None) -> list[str]:
    """The Codes `colour` may not know, in the words a board, a picture or an event would use."""
    text = html.unescape(text)
    if colour:  # its own Peeks' lines name Codes it knew then (the Lock may have moved or been Reset since)
        text = re.sub(rf"\b{colour} peeked Lock \d: ({COLOUR})", "", text)
    found = [
        f"Lock {place}: {code}"
        for place, code in codes_unknown(state, colour)
        if re.search(rf"(Code of )?Lock {place}: {code}\b", text)
    ]
    found += re.findall(rf"\b\w+ peeked Lock \d: (?:{COLOUR})", text)  # another's Peek
    found += re.findall(r"the new Code is \w+", text)
    found += re.findall(rf'"new":\s*"(?:{COLOUR})"', text)
    found += [f"the seed {state.seed!r}"] if state.seed in text else []
    found += re.findall(r'"(?:box|seed)":\s*[\["]', text)
    return found


def json_leaks(value: Any, colour: str | None, peek_of: bool = False) -> Iterator[str]:
    """A JSON answer's Codes: only in a Lock carrying `colour`'s mark, or in `colour`'s own Peek event."""
    if isinstance(value, dict):
        own_peek = peek_of or (value.get("kind") == "peek" and value.get("seat") == colour is not None)
        code = value.get("code")
        if isinstance(code, str) and code in COLOURS and not own_peek and colour not in value.get("peeked_by", []):
            yield f"code {code} in {value}"
        for item in value.values():
            yield from json_leaks(item, colour, own_peek)
    elif isinstance(value, list):
        for item in value:
            yield from json_leaks(item, colour, peek_of)


def web_pages(viewer: Viewer, game: Game) -> dict[str, str]:
    page = reverse("game_detail", args=[game.pk])
    urls = {
        "page": page,
        "whole history": page + "?history=all",
        "board.svg": reverse("game_board_svg", args=[game.pk]),
        "ply.json": reverse("game_ply", args=[game.pk]) + "?since=0",
        "replay": reverse("replay", args=[game.pk, game.ply]),
        "replay of the step": reverse("replay", args=[game.pk, game.ply]) + "?fragment=1",
        "log.txt": reverse("game_log", args=[game.pk]),
        "record.json": reverse("game_record", args=[game.pk]),
        "verify": reverse("game_verify", args=[game.pk]),
    }
    shown = {}
    for name, url in urls.items():
        response = viewer.client.get(url)
        assert response.status_code in (200, 404), (name, response.status_code)
        shown[name] = response.content.decode()
    return shown


def api_answers(viewer: Viewer, game: Game) -> dict[str, Any]:
    if viewer.api is None:
        return {}
    paths = ("", "?history=all", "/events", "/moves", "/record")
    answers = {}
    for path in paths:
        response = viewer.api.get(f"/games/{game.pk}{path}")
        assert response.status_code in (200, 403, 404, 409), (path, response.status_code)
        answers[f"api {path or 'game'}"] = response.json()
    answers["api events"] = viewer.api.get("/events").json()
    return answers


def check_every_channel(game: Game, viewers: list[Viewer], sent: dict[str, int], records: list[str]) -> None:
    """Nothing any viewer may not know, in anything it can read now; nothing secret in a log line."""
    game.refresh_from_db()
    state: State = services.state_of(game)
    for viewer in viewers:
        texts = web_pages(viewer, game)
        for name, answer in api_answers(viewer, game).items():
            texts[name] = json.dumps(answer)
            assert not list(json_leaks(answer, viewer.colour)), (viewer.name, name)
        if viewer.address:
            new = [m for m in mail.outbox[sent.get(viewer.name, 0) :] if any(viewer.address in to for to in m.to)]
            for message in new:
                texts[f"email {message.subject!r}"] = message.body + "".join(str(a[0]) for a in message.alternatives)
            sent[viewer.name] = len(mail.outbox)
            sent["emails read"] = sent.get("emails read", 0) + len(new)
        for name, text in texts.items():
            found = text_leaks(text, state, viewer.colour)
            assert not found, f"{name} shows {viewer.name} {found} (ply {game.ply})"
    for line in records:
        assert not text_leaks(line, state, None), line
    records.clear()
    # The players' page views above mark them as watching, which holds their turn emails back: they
    # leave, as a closed tab says, so that the next step's emails go out and are searched too.
    Watch.objects.filter(game=game).delete()


def random_step(state: State, chooser: random.Random, ply: int) -> str:
    """A listed step at random; a declaration rarely, and at the first chance after MAX_PLIES."""
    seat = state.to_move
    listed = [str(m) for m in GAME.legal_moves_of(state, seat)]
    if "declare" in listed and (ply > MAX_PLIES or chooser.random() < 0.02):
        return "declare"
    others = [text for text in listed if text not in ("declare", "pass")]
    return chooser.choice(others) if others and chooser.random() > 0.05 else "pass"


def note(seen: Seen, state: State, text: str) -> None:
    seen.kinds.add(text.split()[0])
    words = text.split()
    if text.startswith("swap locks") and any(state.locks[int(p) - 1].peeked_by for p in words[2:]):
        seen.swapped_peeked += 1
    if text.startswith("reset"):
        seen.reset_peeked += 1


def play_checked(game: Game, viewers: list[Viewer], chooser: random.Random, capture: Any, records: list[str]) -> Seen:
    seen, sent = Seen(), {}
    check_every_channel(game, viewers, sent, records)
    for ply in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state: State = services.state_of(game)
        seat = game.seats.select_related("user").get(colour=state.to_move)
        text = random_step(state, chooser, ply)
        note(seen, state, text)
        with capture(execute=True):
            if ply % 9 == 4 and text not in ("pass", "declare"):  # by email: the step and a pass on one line
                to = replies.turn_reply_address(game=game, user=seat.user)
                raw = mails.gmail(f"{text}; pass", sender=seat.user.email, to=to)
                inbox.inbound_accept(raw=raw, source="pipe", envelope_to=[to])
                seen.replied += 1
            else:
                services.move_submit(game=game, user=seat.user, text=text, seen_ply=game.ply)
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            check_every_channel(game, viewers, sent, records)
            seen.checks += 1
    seen.emails = sent.get("emails read", 0)
    return seen


def viewers_of(game: Game) -> list[Viewer]:
    found = []
    for seat in game.seats.select_related("user"):
        client = Client()
        client.force_login(seat.user)
        found.append(Viewer(seat.colour, seat.colour, client, ApiClient(secret_for(seat.user)), seat.user.email))
    outsider = make_user("outsider")
    client = Client()
    client.force_login(outsider)
    found.append(Viewer("outsider", None, client, ApiClient(secret_for(outsider))))
    found.append(Viewer("anonymous", None, Client(), None))
    return found


class Lines(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(self.format(record) + " " + repr(record.args))


@pytest.mark.parametrize("seed", SEEDS)
def test_whole_games_leak_no_code_on_any_channel(
    seed, alice, bob, eager, django_capture_on_commit_callbacks, settings
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    records: list[str] = []
    handler = Lines(records)
    root = logging.getLogger()
    root.addHandler(handler)
    level = root.level
    root.setLevel(logging.DEBUG)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = services.game_create(
                creator=alice, game="blackice", seats=2, options={}, time_limit_days=3, is_private=False
            )
            with mock.patch("games.services.secrets.token_hex", return_value=seed):
                services.game_join(game=game, user=bob)
        game.refresh_from_db()
        seen = play_checked(game, viewers_of(game), random.Random(seed), django_capture_on_commit_callbacks, records)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and seen.checks > 10 and seen.emails > seen.checks // 4, seen
    assert seen.swapped_peeked and seen.reset_peeked and seen.replied, seen
    assert {"peek", "swap", "set", "reset", "copy"} <= seen.kinds, seen.kinds
    final: State = services.state_of(game)
    replay = Client().get(reverse("replay", args=[game.pk, game.ply])).content.decode()
    assert all(f"Lock {place}: {lock.code}" in replay for place, lock in enumerate(final.locks, 1))


def test_the_search_finds_a_peeked_code_where_a_leak_would_be(alice, bob) -> None:
    """The peeker's own page, picture, feed and API show its Code in the very words the search looks for
    (and a Code swapped away shows at its new Lock), so the search is not blind."""
    with mock.patch("games.services.secrets.token_hex", return_value="leak-known"):
        game = services.game_create(
            creator=alice, game="blackice", seats=2, options={}, time_limit_days=3, is_private=False
        )
        services.game_join(game=game, user=bob)
    game.refresh_from_db()
    state: State = services.state_of(game)
    mover = game.seats.select_related("user").get(colour=state.to_move)
    peek = next(str(m) for m in GAME.legal_moves_of(state, state.to_move) if m.verb == "peek")
    services.move_submit(game=game, user=mover.user, text=peek, seen_ply=game.ply)
    game.refresh_from_db()
    state = services.state_of(game)
    place = int(peek.split()[1])
    viewers = viewers_of(game)
    peeker = next(v for v in viewers if v.colour == mover.colour)
    texts = web_pages(peeker, game)
    assert text_leaks(texts["page"], state, None) and text_leaks(texts["replay"], state, None)
    assert text_leaks(json.dumps(api_answers(peeker, game)["api /events"]), state, None)
    assert list(json_leaks(api_answers(peeker, game)["api game"], None))
    for viewer in viewers:
        if viewer is not peeker:
            assert not text_leaks("".join(web_pages(viewer, game).values()), state, viewer.colour)
    swap = next((str(m) for m in GAME.legal_moves_of(state, state.to_move) if m.what == "locks"), None)
    if swap and str(place) in swap.split()[2:]:
        services.move_submit(game=game, user=mover.user, text=swap, seen_ply=game.ply)
        game.refresh_from_db()
        state = services.state_of(game)
        moved = next(p for p, lock in enumerate(state.locks, 1) if mover.colour in lock.peeked_by)
        assert f"Lock {moved}: {state.locks[moved - 1].code}" in html.unescape(web_pages(peeker, game)["page"])
