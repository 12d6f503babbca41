"""Hypothesis through the service: whatever the body, a reply never makes a move that the same line
typed on the web (move_submit) would not make. Each example runs both paths in a transaction that is
rolled back, from the same position."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games import services as games
from replies import handling, inbox, selectors
from replies.reading import parse_message, reply_text
from tests.replies.helpers import legal, mover, play_until, reply_address, start

COMMON = ["draw", "DRAW", "  draw ", "help", "moves", "board", "resign", "-- ", "> draw", "build 2H 9,9", ""]
COMMON += ["On Mon, 23 Nov 2026, Zark City wrote:", "Sent from my iPhone", "discard 2H 3C", "________________"]


@pytest.fixture
def position(alice, bob):
    game = play_until(start("zarkcity", alice, bob), "act")
    colour = mover(game)
    user = game.seats.get(colour=colour).user
    return game, user, reply_address(game, user), legal(game, colour)


def _lines(moves: list[str]):
    junk = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=30)
    return st.lists(st.one_of(st.sampled_from(COMMON + moves[:30]), junk), max_size=6)


def _message(body: str, sender: str, to: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "Re: Zark City #1: your turn"
    message.set_content(body)
    return message.as_bytes(policy=SMTP)


def _by_email(game, raw: bytes, to: str) -> list[str]:
    with transaction.atomic():
        _, row_id = inbox.inbound_accept(raw=raw, source="pipe", envelope_to=[to])
        handling.handle(row_id)
        made = list(game.moves.order_by("ply").values_list("notation", flat=True))
        transaction.set_rollback(True)
    return made


def _on_the_web(game, user, lines: tuple[str, ...]) -> list[str]:
    """The same lines typed in the web form, one after the other while the player is still asked."""
    with transaction.atomic():
        for line in lines[:2]:
            game.refresh_from_db()
            seat = game.seats.get(user=user)
            if not selectors.is_mover(game, seat):
                break
            try:
                games.move_submit(game=game, user=user, text=line, seen_ply=game.ply)
            except games.PlayError:
                break
        made = list(game.moves.order_by("ply").values_list("notation", flat=True))
        transaction.set_rollback(True)
    return made


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_reply_makes_no_move_the_web_would_not(position, data):
    game, user, to, moves = position
    before = list(game.moves.order_by("ply").values_list("notation", flat=True))
    body = "\n".join(data.draw(_lines(moves)))
    raw = _message(body, user.email, to)
    by_email = _by_email(game, raw, to)
    event(f"moves made by email: {len(by_email) - len(before)}")
    text = reply_text(parse_message(raw))
    first = text.first.lower().strip(" .!?")
    if "\x00" in body:
        assert by_email == before  # a NUL anywhere: the reply refused whole, as the web refuses the request (RefuseNul)
    elif not text.first or first in handling.COMMANDS or first == "resign":
        assert by_email == before  # commands and the resign question change nothing
    else:
        assert by_email == _on_the_web(game, user, text.lines)
