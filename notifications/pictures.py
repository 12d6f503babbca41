"""The board picture of an email: the game's SVG drawn as a PNG (mail programs show no SVG) by librsvg
(notifications/librsvg.py), or by cairosvg where that library is missing, once for all the emails of a
move that show the same picture.

Drawing costs milliseconds with librsvg and tens of them with cairosvg, more as the board grows. When one move
brings several recipients an email with a board (the end of the game, everyone asked to move at once),
the first worker to draw it leaves the PNG in the shared cache and the others take it from there.
The cache key is the SHA-256 of the SVG itself, not the game and ply: two emails share a PNG only when
their pictures are the same to the byte, so a picture can never show one recipient anything their own
view does not (the boards of the games here are public, so every email of a move shares one).
"""

from __future__ import annotations

import hashlib
import logging
import re
import struct
from functools import cache

from django.core.cache import cache as shared_cache

from . import librsvg, tiles
from .models import Notification

log = logging.getLogger(__name__)
Kind = Notification.Kind
WIDTH = 560  # the widest picture: the email's column. A board narrower than that is drawn at its own size.
# The root element's width in user units, which the game pages draw one CSS pixel each (every game's picture
# writes it).
SVG_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="(\d+(?:\.\d+)?)"')
# Long enough for every email of one move, sent within seconds of each other (a retry after a
# failure may have to draw again); short enough that the cache does not fill with moves long past.
KEEP_SECONDS = 15 * 60


def shown_to_others(notification: Notification) -> bool:
    """Whether other emails of this move show the board too, so the picture is worth keeping for them:
    the start and the end of the game go to everyone, and a move that asks several players at once (the
    end of a simultaneous step) brings each of them a turn email. Any other turn email is its move's only
    one. Only a guess about what is worth keeping: what an email shows never depends on it (the key is the SVG)."""
    if notification.kind in (Kind.GAME_STARTED, Kind.GAME_OVER):
        return True
    game = notification.game
    return notification.kind == Kind.YOUR_TURN and game is not None and "," in game.to_move


def board_png(svg: str, *, shared: bool) -> bytes | None:
    """The PNG of this SVG, from the cache when `shared` and already drawn. None if it cannot be drawn."""
    if not shared:
        return draw(svg)
    key = "notifications:board-png:" + hashlib.sha256(svg.encode()).hexdigest()
    png = _cached(key)
    if png is None:
        png = draw(svg)
        if png is not None:
            _keep(key, png)
    return png


def draw(svg: str) -> bytes | None:
    """The PNG on white (notifications/librsvg.py says why), its tiles pasted from those the worker keeps
    (notifications/tiles.py), as wide as the game page draws the board
    but at most WIDTH pixels; None (logged) if it cannot be drawn: the email goes without it, since its
    text part and its HTML both carry the board as text."""
    width = width_of(svg)
    try:
        if librsvg.available():
            return tiles.png(svg, width)
        _say_fallback_once()
        import cairosvg  # reads and draws in Python: some five times librsvg's time

        png: bytes = cairosvg.svg2png(bytestring=svg.encode(), output_width=width, background_color="white")
        return png
    except Exception:  # a missing libcairo must not stop the email
        log.exception("could not draw the board as PNG; sending the email without it")
        return None


def width_of(svg: str) -> int:
    """How many pixels wide the board is drawn: its width on the game page, at most WIDTH. Drawn wider,
    a board of two cards would show them twice their size on the page, and cost four times the pixels."""
    found = SVG_WIDTH.search(svg)
    return min(WIDTH, max(1, round(float(found.group(1))))) if found else WIDTH


def size(png: bytes) -> tuple[int, int]:
    """The width and height of a PNG, from its header (the first chunk, IHDR, by the PNG standard)."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@cache
def _say_fallback_once() -> None:
    log.warning("librsvg cannot be loaded: drawing the boards of emails with cairosvg (slower; docs/deployment.md)")


def _cached(key: str) -> bytes | None:
    try:
        png: bytes | None = shared_cache.get(key)
        return png
    except Exception:  # the cache down costs a drawing, never an email
        log.warning("the picture cache cannot be read; drawing the board again", exc_info=True)
        return None


def _keep(key: str, png: bytes) -> None:
    try:
        shared_cache.set(key, png, timeout=KEEP_SECONDS)
    except Exception:
        log.warning("the picture cache cannot be written; the next email draws the board again", exc_info=True)
