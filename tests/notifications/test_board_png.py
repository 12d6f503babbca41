"""The board PNG of an email: drawn by librsvg where it is installed, by cairosvg otherwise, the same
picture either way; pixels right (colours, on white), size in proportion, bad SVG refused."""

from __future__ import annotations

import io
import logging
import math
import re
import struct

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.registry import get
from notifications import librsvg, pictures
from tests.notifications.helpers import picture

needs_librsvg = pytest.mark.skipif(not librsvg.available(), reason="librsvg-2.so.2 is not installed here")

HALF_RED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
    '<rect x="0" y="0" width="100" height="100" fill="#d64545"/>'
    '<rect x="100" y="0" width="50" height="100" fill="#3b6fd4" fill-opacity="0.5"/></svg>'
)


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()  # decodes every row: a broken stream or checksum fails here
    return image


def a_board_svg(cards: int = 6) -> str:
    """A real Zark City board with pyramids and `cards` cards, as the emails draw it."""
    rules = get("zarkcity")
    state = rules.new_game(["red", "blue"], "board-png", {"deck": "standard"})
    while len(state.board) < cards:
        colour = rules.movers(state)[0]
        moves = [m for m in rules.legal_moves(state, colour) if rules.move_kind(m) not in ("resign", "draw")]
        builds = [m for m in moves if rules.move_kind(m) == "build"]
        state = rules.apply(state, (builds or moves)[0], colour)
    return rules.board_svg(rules.view(state, None))


@needs_librsvg
def test_librsvg_draws_colours_on_white_at_the_width_asked():
    image = opened(librsvg.png(HALF_RED.encode(), 400))
    assert image.format == "PNG" and image.mode == "RGB"  # opaque: no mail program's dark ground shows through
    assert image.size == (400, 200)  # the height in proportion
    assert image.getpixel((100, 100)) == (0xD6, 0x45, 0x45)
    half_blue_on_white = [(channel + 255) / 2 for channel in (0x3B, 0x6F, 0xD4)]
    assert all(abs(got - want) <= 2 for got, want in zip(image.getpixel((250, 100)), half_blue_on_white, strict=True))
    assert image.getpixel((350, 100)) == (255, 255, 255)  # nothing drawn there: the white ground


@needs_librsvg
def test_librsvg_draws_the_same_board_as_cairosvg():
    import cairosvg

    svg = a_board_svg()
    width = pictures.width_of(svg)  # as the emails draw it: its own width, narrower than the column
    ours = opened(librsvg.png(svg.encode(), width))
    theirs = cairosvg.svg2png(bytestring=svg.encode(), output_width=width, background_color="white")
    theirs = opened(theirs).convert("RGB")
    assert ours.size == theirs.size
    # Fonts are hinted a little differently; everything else lands on the same pixels.
    assert max(ImageStat.Stat(ImageChops.difference(ours, theirs)).mean) < 10


@needs_librsvg
@pytest.mark.parametrize(
    ("svg", "reason"),
    [
        ("<svg", "could not read the SVG"),
        ('<svg xmlns="http://www.w3.org/2000/svg"></svg>', "no width and height"),
    ],
)
def test_librsvg_says_what_is_wrong_with_a_bad_svg(svg, reason):
    with pytest.raises(librsvg.DrawingError, match=reason):
        librsvg.png(svg.encode(), 560)


def test_without_librsvg_the_board_is_drawn_by_cairosvg_and_the_log_says_so_once(monkeypatch, caplog):
    monkeypatch.setattr(librsvg, "available", lambda: False)
    monkeypatch.setattr(librsvg, "png", lambda svg, width: pytest.fail("librsvg used while not available"))
    pictures._say_fallback_once.cache_clear()
    with caplog.at_level(logging.WARNING, logger="notifications.pictures"):
        images = [opened(pictures.draw(a_board_svg())) for _ in range(2)]
    assert [image.width for image in images] == [pictures.width_of(a_board_svg())] * 2
    assert images[0].convert("RGB").getpixel((0, 0)) == (255, 255, 255)  # on white, as librsvg draws it
    assert caplog.text.count("drawing the boards of emails with cairosvg") == 1


def test_a_board_that_cannot_be_drawn_leaves_the_email_without_a_picture(caplog):
    with caplog.at_level(logging.ERROR, logger="notifications.pictures"):
        assert pictures.draw("<svg") is None
    assert "could not draw the board" in caplog.text


@pytest.mark.parametrize(("cards", "width"), [(3, 294), (6, 418), (10, 542)])
def test_a_board_is_drawn_at_the_game_pages_size(cards, width):
    """A board of few cards is as wide as the game page draws it: its cards the size they are there."""
    svg = a_board_svg(cards)
    assert f'width="{width}"' in svg.split(">", 1)[0]
    png = pictures.draw(svg)
    image = opened(png)
    assert image.width == width and image.mode in ("RGBA", "RGB")
    assert image.convert("RGB").getpixel((0, 0)) == (255, 255, 255)  # the white ground, by either library
    assert 0.1 < image.height / image.width < 3
    assert pictures.size(png) == image.size


def test_a_board_wider_than_the_email_is_drawn_at_the_emails_width_within_a_step():
    wide = HALF_RED.replace('width="200" height="100"', 'width="1200" height="600"')
    image = opened(pictures.draw(wide))
    step = 1200 / librsvg.STEPS  # librsvg's ladder of scales; cairosvg draws the width itself
    assert pictures.WIDTH - step <= image.width <= pictures.WIDTH
    assert abs(image.height - image.width / 2) <= 1


@pytest.mark.parametrize(("width", "natural"), [(560, 1534), (560, 1906), (560, 561), (400, 200), (294, 294)])
def test_a_board_is_drawn_at_the_largest_scale_on_the_ladder_that_fits(width, natural):
    factor = librsvg.scale(width, natural)
    assert (factor * librsvg.STEPS).is_integer()
    assert natural * factor <= width < natural * (factor + 1 / librsvg.STEPS)


def test_boards_of_every_size_are_drawn_at_few_scales():
    """Pango, fontconfig and cairo keep the fonts of every scale a process draws text at, for good: the
    boards of a thousand widths share at most STEPS scales below 1 (the exact scales were a thousand)."""
    factors = {librsvg.scale(pictures.WIDTH, natural) for natural in range(561, 1561)}
    assert len(factors) <= librsvg.STEPS and max(factors) < 1


@needs_librsvg
def test_librsvg_shrinks_a_board_by_the_ladders_scale():
    board = a_board_svg(13)
    natural, width = pictures.width_of(board), 500  # 542: shrunk into 500 as a wider one into the column
    assert natural > width
    image = opened(librsvg.png(board.encode(), width))
    assert image.width == math.ceil(natural * librsvg.scale(width, natural)) <= width
    assert image.getpixel((0, 0)) == (255, 255, 255)
    assert len(image.getcolors(2**16) or []) > 20  # cards, pieces and labels drawn, not a blank


@pytest.mark.parametrize(
    ("svg", "width"),
    [
        ('<svg xmlns="http://www.w3.org/2000/svg" class="zc-board" viewBox="0 0 260 60" width="260" height="60">', 260),
        ('<svg viewBox="0 0 9 9" width="914.5" height="418"><rect width="3"/>', pictures.WIDTH),
        ('<svg viewBox="0 0 100 100"><rect width="30" height="30"/></svg>', pictures.WIDTH),  # the rect's is not it
    ],
)
def test_the_width_is_the_root_elements_at_most_the_emails(svg, width):
    assert pictures.width_of(svg) == width


@needs_librsvg
def test_librsvg_draws_in_several_threads_at_once_as_in_one():
    """A worker's threads (--pool threads) draw at the same time, outside the GIL: the same pictures as
    alone, every pixel (not the same bytes: `picture` says why)."""
    from concurrent.futures import ThreadPoolExecutor

    boards = [a_board_svg(cards).encode() for cards in (3, 6, 9, 12)]
    alone = [picture(librsvg.png(svg, pictures.WIDTH)) for svg in boards]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = [picture(png) for png in pool.map(lambda svg: librsvg.png(svg, pictures.WIDTH), boards * 10)]
    assert together == alone * 10


@needs_librsvg
def test_drawings_are_compared_by_their_pixels_not_by_their_deflate_streams():
    """The same rows deflated otherwise are the same picture. ISA-L's deflate, in a thread that had been
    drawing beside others, was seen to write a stream other than the test's own thread wrote for the
    same rows (one match's distance 2 bytes off, in a run of one colour): the tests that draw in
    threads failed now and then on bytes, never on pixels. Here the other stream is zlib's."""
    import zlib

    png = librsvg.png(a_board_svg().encode(), pictures.WIDTH)
    (_, header), (_, stream), _ = chunks(png)
    deflated = zlib.compress(zlib.decompress(stream), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    other = png[:8] + chunk(b"IHDR", header) + chunk(b"IDAT", deflated) + chunk(b"IEND", b"")
    assert other != png and picture(other) == picture(png)


def test_the_png_is_written_from_rows_with_padding_at_their_ends():
    """cairo may pad a row past its pixels (its stride): the padding is not part of the picture."""
    red, blue, padding = [0, 0, 255, 7], [255, 0, 0, 7], [9, 9, 9, 9]  # B, G, R and cairo's unused byte
    image = opened(librsvg.encode(2, 1, bytes(red + blue + padding), 12))
    assert image.size == (2, 1) and image.mode == "RGB"
    assert [image.getpixel((x, 0)) for x in range(2)] == [(255, 0, 0), (0, 0, 255)]


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (kind, data), each one's CRC checked: Pillow checks none of IDAT's."""
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + data), kind
        found.append((kind, data))
        at += 12 + length
    assert at == len(png)
    return found


def rgb_of(width: int, height: int, bgrx: bytes, stride: int) -> bytes:
    """cairo's RGB24 pixels read one by one in Python (B, G, R and an unused byte, rows `stride` apart) as
    R, G, B bytes, row after row: what Pillow's `tobytes` gives of an RGB picture."""
    at = [y * stride + x * 4 for y in range(height) for x in range(width)]
    return bytes(channel for n in at for channel in (bgrx[n + 2], bgrx[n + 1], bgrx[n]))


def a_valid_png_of(width: int, height: int, bgrx: bytes, stride: int) -> Image.Image:
    """`encode`'s PNG of these pixels, checked chunk by chunk and row by row, opened by Pillow."""
    import zlib

    png = librsvg.encode(width, height, bgrx, stride)
    kinds = chunks(png)
    assert [kind for kind, _ in kinds] == [b"IHDR", b"IDAT", b"IEND"]
    assert kinds[0][1] == struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.decompress(kinds[1][1])  # the standard library's inflate, its checksum checked
    assert len(rows) == height * (3 * width + 1) and rows[:: 3 * width + 1] == bytes(height)  # filter: none
    return opened(png)


@pytest.mark.parametrize(("width", "height", "padding"), [(1, 1, 0), (2, 1, 4), (7, 5, 0), (333, 41, 12)])
def test_the_png_decodes_to_exactly_the_pixels_it_was_given(width, height, padding):
    """Any pixels, any width (odd, one), padding or none: the PNG's pixels are cairo's, exactly."""
    import random

    stride = width * 4 + padding
    bgrx = random.Random(f"{width}x{height}").randbytes(stride * height)
    image = a_valid_png_of(width, height, bgrx, stride)
    assert image.mode == "RGB" and image.size == (width, height)
    assert image.tobytes() == rgb_of(width, height, bgrx, stride)
    if not padding:  # a stride of 0 means rows of 4 * width bytes
        assert librsvg.encode(width, height, bgrx) == librsvg.encode(width, height, bgrx, stride)


@needs_librsvg
def test_a_real_boards_png_decodes_to_exactly_the_pixels_librsvg_drew(monkeypatch):
    """A mid-game board of 30 cards (bench/midgame.py's) as the email draws it: what Pillow decodes is every
    pixel cairo left, exactly."""
    from bench import midgame

    rules = get("zarkcity")
    board = rules.board_svg(rules.view(midgame.boards([30])[0].final, None))
    drawn = []

    def encode(width, height, bgrx, stride=0):  # what librsvg.png encodes, copied from cairo's memory
        drawn.append((width, height, bytes(bgrx), stride))
        return encode_now(width, height, bgrx, stride)

    encode_now = librsvg.encode
    monkeypatch.setattr(librsvg, "encode", encode)
    png = librsvg.png(board.encode(), pictures.WIDTH)
    monkeypatch.undo()
    [(width, height, bgrx, stride)] = drawn
    assert picture(librsvg.encode(width, height, bgrx, stride)) == picture(png)
    image = a_valid_png_of(width, height, bgrx, stride)
    assert image.tobytes() == rgb_of(width, height, bgrx, stride)
    assert len(image.getcolors(2**16) or []) > 20  # a board drawn, not a blank


def test_buyers_market_s_email_picture_draws_its_labels_at_15_px():
    """The market used to be drawn 780 units wide into the 560 px column: its 11-unit labels came out
    8 px tall, over each other. Now it is drawn one pixel a unit, every label at least 15 px."""
    from tests.engine.test_buyersmarket_picture import crowded

    rules = get("buyersmarket")
    svg = rules.board_svg(rules.view(crowded(4), "red"))
    units = float(svg.split('viewBox="0 0 ', 1)[1].split()[0])
    image = opened(pictures.draw(svg))
    labels = [float(size) for size in re.findall(r'class="bm-label"[^>]* font-size="([\d.]+)"', svg)]
    assert labels and min(labels) * image.width / units >= 15


@needs_librsvg
def test_a_thread_lets_go_of_pangos_fonts_every_so_many_drawings_and_draws_the_same():
    """Pango keeps the fonts of every scale drawn at, for as long as its font map lives: within any
    FONT_MAP_DRAWINGS drawings the thread's font map is released and the next drawing gets a new one,
    the pictures the same, every pixel."""
    import ctypes

    pangocairo, gobject = ctypes.CDLL("libpangocairo-1.0.so.0"), ctypes.CDLL("libgobject-2.0.so.0")
    pangocairo.pango_cairo_font_map_get_default.restype = ctypes.c_void_p
    gobject.g_object_ref.argtypes = gobject.g_object_unref.argtypes = [ctypes.c_void_p]
    board = a_board_svg().encode()
    first = picture(librsvg.png(board, 300))
    kept = pangocairo.pango_cairo_font_map_get_default()
    gobject.g_object_ref(kept)  # held here, so a new map cannot be made at the same address
    try:
        drawn = {picture(librsvg.png(board, 300)) for _ in range(librsvg.FONT_MAP_DRAWINGS)}
        assert pangocairo.pango_cairo_font_map_get_default() != kept
    finally:
        gobject.g_object_unref(kept)
    assert drawn == {first}
