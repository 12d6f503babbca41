"""A turn email written out in one pass (emails._OnePassWriter): byte for byte what Python's own writer
makes of the same MIME tree, the board's base64, the text and HTML parts and every line end included."""

from __future__ import annotations

from email.generator import BytesGenerator
from email.mime.image import MIMEImage
from email.policy import compat32
from io import BytesIO

import pytest

from notifications import delivery, emails
from notifications.models import Notification
from tests.notifications.helpers import play_setup, play_turn, start_game

pytestmark = pytest.mark.django_db


def stock_bytes(mime, linesep: str) -> bytes:
    out = BytesIO()
    BytesGenerator(out, mangle_from_=False).flatten(mime, unixfrom=False, linesep=linesep)
    return out.getvalue()


@pytest.mark.parametrize("linesep", ["\r\n", "\n"])
def test_a_turn_email_is_written_as_pythons_writer_writes_it(alice, bob, linesep):
    game = start_game(alice, bob)
    play_setup(game)
    play_turn(game)
    row = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN).latest("pk")
    mime = emails.build_message(delivery.CLAIMED_READ.get(pk=row.pk)).message()
    assert isinstance(mime, emails._WrittenInOnePass)
    assert any(part.get_content_type() == "image/png" for part in mime.walk())  # the board's base64 too
    assert mime.as_bytes(linesep=linesep) == stock_bytes(mime, linesep)


def test_every_kind_of_line_end_is_written_as_before():
    message = emails.Message(subject="s", body="one\r\ntwo\rthree\nfour\n\n", to=["a@example.com"])
    message.attach_alternative("<p>one\r\n</p>\rtwo", "text/html")
    message.attach(MIMEImage(b"\x89PNG\r\n\x1a\n" * 40, "png"))
    mime = message.message()
    for linesep in ("\r\n", "\n"):
        assert mime.as_bytes(linesep=linesep) == stock_bytes(mime, linesep)


HEADER_VALUES = [
    "Zark City #20: red drew 3 cards, your turn",
    "two  spaces",
    " leading space",
    "trailing space ",
    "tab\there",
    "=?utf-8?q?Andr=C3=A9?= <andre@example.com>",
    "Ünïcode name <u@example.com>",
    "line\n break",
    "",
    "x" * 70,
    "x" * 71,
    "x" * 72,
    "word " * 14 + "end",
    "a; b, c;d,e " * 6,
]


@pytest.mark.parametrize("linesep", ["\r\n", "\n"])
@pytest.mark.parametrize("value", HEADER_VALUES)
def test_a_header_is_folded_as_compat32_folds_it(value, linesep):
    """The quick way is taken only where compat32's folding gives the line back unchanged."""
    for name in ("Subject", "X", "List-Unsubscribe-Post"):
        quick, stock = emails.QUICK_FOLD.clone(linesep=linesep), compat32.clone(linesep=linesep)
        assert quick.fold_binary(name, value) == stock.fold_binary(name, value)


@pytest.mark.parametrize("png", [b"", b"\x89PNG\r\n\x1a\n", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 200 + b"\xff"])
def test_an_inline_png_is_the_part_mimeimage_makes(png):
    """The board's part, its base64 written from the bytes: the headers, their order and the base64 lines
    of MIMEImage's own part, and the same PNG decoded from it."""
    stock = MIMEImage(png, "png")
    stock.add_header("Content-ID", "<board>")
    stock.add_header("Content-Disposition", "inline", filename="board.png")
    quick = emails.inline_png(png, "board", "board.png")
    assert isinstance(quick, MIMEImage)
    for linesep in ("\r\n", "\n"):
        assert stock_bytes(quick, linesep) == stock_bytes(stock, linesep)
    assert quick.get_payload(decode=True) == png
