"""What the browser tests share: setting a game's position (test-only), clicking through the move
builder, a game against the random bot, and screenshots saved under test-artifacts/ and checked not to be blank."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from unittest import mock

from django.urls import reverse

from engine.zarkcity import rules
from engine.zarkcity.position import from_position, to_position
from games import services
from games.models import Game, Seat


def game_url(live_server, game: Game) -> str:
    return live_server.url + reverse("game_detail", args=[game.pk])


def write_position(game: Game, position: dict) -> None:
    """Test-only: replace the game's current position (the move log is left as it is). The engine
    validates it; the next moves are real ones, made by clicks and checked by `move_submit`."""
    state = from_position(position)
    saved = Game.objects.get(pk=game.pk)
    saved.snapshot, saved.phase, saved.to_move = to_position(state), state.phase, ",".join(rules.movers(state))
    saved.save(update_fields=["snapshot", "phase", "to_move"])  # a save, as the service's: the poll's headline follows


def open_game(page, url: str) -> None:
    page.goto(url)
    wait_ready(page)


def wait_ready(page, ply: int | None = None) -> None:
    """Wait until the page's script has set up the board (for `ply`, after a swap)."""
    if ply is None:
        page.wait_for_selector("html[data-zc-ready]", state="attached")
    else:
        page.wait_for_selector(f'html[data-zc-ready="{ply}"]', state="attached", timeout=15_000)


def notation(page) -> str:
    return page.locator("[data-builder=notation]").inner_text().strip()


def hand_card(page, card: str):
    return page.locator(f'svg.zc-hand .zc-hand-card[data-card="{card}"]')


def cell(page, at: str):
    """A card or an empty slot on the board."""
    return page.locator(f'svg.zc-board [data-cell="{at}"]:is(.zc-square, .zc-slot)')


def piece(page, at: str, colour: str, size: str):
    return page.locator(f'svg.zc-board .zc-piece[data-cell="{at}"][data-colour="{colour}"][data-size="{size}"]').first


def lit_cells(page) -> set[str]:
    return set(page.eval_on_selector_all("svg.zc-board .zc-target", "els => els.map(e => e.dataset.cell)"))


def confirm(page, expected: str) -> None:
    """Check the built notation, press Confirm and wait for the page that answers the move."""
    assert notation(page) == expected
    with page.expect_navigation():
        page.locator("[data-builder=confirm]").click()
    wait_ready(page)
    errors = page.locator(".zc-error")
    assert errors.count() == 0, errors.first.inner_text()


def click_move(page, path: tuple[str, ...], text: str, *, tap: bool = False) -> None:
    """A move made as a person makes it: its board targets in turn (then the step's button, when other
    steps share those targets or go on from them), then Confirm; or, for a step with no place on the
    board (roll, stop, pass), the page's one-click button."""
    press = (lambda locator: locator.tap()) if tap else (lambda locator: locator.click())
    if not path:
        with page.expect_navigation(timeout=15_000):
            press(page.locator(f'.zc-quick button[value="{text}"]'))
        wait_ready(page)
        return
    for name in path:
        press(page.locator(f'[data-target="{name}"]').first)
    if notation(page) != text:
        press(page.locator("[data-builder=choices] button", has_text=text).first)
    confirm(page, text)


# ----------------------------------------------------------------------------- a game against a bot


def steady_bot_seed(game: Game, ply: int, seat: Seat, salt: str = "") -> str:
    """A bot's seed without the game's id (which the database chooses), so each run plays the same game;
    a test picks another of the bot's games with `salt`."""
    return f"{salt}ply {ply} seat {seat.colour}"


@contextmanager
def against_the_random_bot(creator, game: str, seed: str, *, bot_salt: str = "") -> Iterator[Game]:
    """A started game of `game` with the fixed `seed`, `creator` in the first seat and the random bot in
    the second; while it is open the bot chooses the same moves on every run (`steady_bot_seed`, with
    `bot_salt`)."""
    with (
        mock.patch("games.services.secrets.token_hex", return_value=seed),
        mock.patch("games.bot_turns.bot_seed", partial(steady_bot_seed, salt=bot_salt)),
    ):
        yield services.game_create(
            creator=creator, game=game, seats=2, options={}, time_limit_days=3, is_private=False, bots=("random",)
        )


def turns_against_the_bot(game: Game, colour: str, most: int) -> Iterator[int]:
    """Each time `colour` is to move again in `game` (read afresh), the bot having answered, until the
    game ends or `most` turns have been given; the test makes its move in each."""
    for turn in range(most):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        assert game.to_move == colour, f"the bot has answered: {colour} is to move again"
        yield turn
    game.refresh_from_db()


def assert_won_on_page(page, url: str, colour: str) -> None:
    """The finished game's page: `colour` won, nothing is left to play, no script failed."""
    open_game(page, url)
    assert f"won as {colour}" in page.locator("#status.zc-banner--over").inner_text(timeout=10_000)
    assert page.locator("#move").count() == 0
    assert page.js_errors == []


# ----------------------------------------------------------------------------- screenshots


def screenshot(target, path: Path, *, full_page: bool = True) -> Path:
    """Save a PNG of a page (all of it, or what the screen shows) or an element; fail if it is blank."""
    path.parent.mkdir(parents=True, exist_ok=True)
    whole = {"full_page": full_page} if hasattr(target, "goto") else {}
    target.screenshot(path=str(path), **whole)
    assert_not_blank(path)
    return path


def assert_not_blank(path: Path) -> None:
    data = path.read_bytes()
    assert len(data) > 2_000, f"{path.name} is only {len(data)} bytes"
    spread = _pixel_spread(path)
    assert spread > 100, f"{path.name} looks blank (pixel variance {spread:.1f})"


def _pixel_spread(path: Path) -> float:
    """The variance of the grey levels: Pillow when it is installed, else the PNG decoded here."""
    try:
        from PIL import Image, ImageStat
    except ImportError:
        return grey_variance(png_grey_levels(path.read_bytes()))
    with Image.open(path) as image:
        return float(ImageStat.Stat(image.convert("L")).var[0])


def grey_variance(values: list[int]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


def png_grey_levels(data: bytes, most_rows: int = 600) -> list[int]:
    """The grey level of every 7th pixel of the first rows of an 8-bit RGB(A) PNG (enough to see
    whether anything is drawn, and quick in pure Python); Chromium's screenshots are that kind."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour = header
    assert depth == 8 and colour in (2, 6), "an 8-bit RGB or RGBA PNG"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(min(height, most_rows)):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        _unfilter(kind, line, previous, channels)
        rows.append(line)
        previous = line
    return [sum(row[x : x + 3]) // 3 for row in rows for x in range(0, stride, channels * 7)]


def _unfilter(kind: int, line: bytearray, previous: bytearray, bpp: int) -> None:
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = previous[i]
        corner = previous[i - bpp] if i >= bpp else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            line[i] = (line[i] + predictor) & 0xFF
