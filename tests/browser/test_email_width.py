"""The emails' HTML on a 360 px phone screen: nothing wider than the screen (no sideways scroll),
rendered in Debian's Chromium. Long move texts in "since your last turn" used to push the turn
email to 403 px and more."""

from __future__ import annotations

import pytest

from games.models import Move
from notifications.emails import build_message
from notifications.models import Notification
from tests.notifications.helpers import play_setup, play_turn, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LONG_MOVES = ("demolish yellow L -10,-12 pay KS QH JD", "discard 10S 10H 10D 10C 9S 9H")


def html_of(row: Notification) -> str:
    alternative = build_message(row).alternatives[0]
    return alternative[0] if isinstance(alternative, tuple) else alternative.content


def width_on_a_phone(chromium, html: str) -> int:
    context = chromium.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_content(html)
        return page.evaluate("document.documentElement.scrollWidth")
    finally:
        context.close()


def test_the_turn_email_fits_a_phone_with_long_moves(chromium, players):
    alice, bob = players
    game = start_game(alice, bob)
    play_setup(game)
    for _ in range(3):
        play_turn(game)
    row = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN).order_by("-pk").first()
    theirs = Move.objects.filter(game=game).exclude(seat__user=row.recipient).order_by("-ply")[:2]
    for move, text in zip(theirs, LONG_MOVES, strict=True):  # the longest notations the game has
        Move.objects.filter(pk=move.pk).update(notation=text)
    html = html_of(row)
    assert all(text.split()[0] in html for text in LONG_MOVES)
    assert width_on_a_phone(chromium, html) <= 360
