"""The email's picture composed from tiles (notifications/tiles.py): the same picture as librsvg draws
whole within the measured tolerance, on boards of several games; the kept tiles bounded in bytes; the
whole drawing whenever tiles cannot be used."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.kit.draw.tiles import OPENING, tile
from engine.registry import get
from notifications import librsvg, pictures, tiles
from tests.notifications.helpers import picture

pytestmark = pytest.mark.skipif(not librsvg.available(), reason="librsvg-2.so.2 is not installed here")
# The most a channel of a pixel, and the mean, may differ from the board drawn whole: where Pango
# places a glyph a little otherwise at the board's scale (measured on 652 boards: at most 16, 0.006).
MOST, MEAN = 24, 0.05


def played(game: str, seats: int, moves: int, seed: str, options: dict[str, str] | None = None) -> str:
    """A board after `moves` random moves (building first where a game can), as an onlooker sees it."""
    rules, chooser = get(game), random.Random(seed)
    state = rules.new_game(["red", "yellow", "green"][:seats], seed, options or {})
    for _ in range(moves):
        if rules.result(state) is not None:
            break
        colour = rules.movers(state)[0]
        legal = [m for m in rules.legal_moves(state, colour) if rules.move_kind(m) not in ("resign", "draw")]
        builds = [m for m in legal if rules.move_kind(m) == "build"]
        state = rules.apply(state, chooser.choice(builds or legal), colour)
    return rules.board_svg(rules.view(state, None))


BOARDS = {
    "zarkcity": lambda: played("zarkcity", 2, 60, "tiles-zc"),
    "zarkcity, arcade deck": lambda: played("zarkcity", 2, 60, "tiles-arcade", {"deck": "arcade"}),
    "decktown": lambda: played("decktown", 3, 60, "tiles-dt"),
    "pharaoh (no tiles)": lambda: played("pharaoh", 2, 20, "tiles-ph"),
}


def opened(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.fixture(autouse=True)
def cold() -> None:
    tiles.KEPT.clear()


@pytest.mark.parametrize("board", BOARDS)
def test_a_composed_picture_is_the_whole_drawing_within_the_tolerance(board):
    svg = BOARDS[board]()
    width = pictures.width_of(svg)
    whole, composed = opened(librsvg.png(svg.encode(), width)), opened(tiles.png(svg, width))
    assert whole.size == composed.size
    difference = ImageChops.difference(whole, composed)
    assert max(most for _, most in difference.getextrema()) <= MOST
    assert max(ImageStat.Stat(difference).mean) <= MEAN


@pytest.mark.parametrize("board", [name for name in BOARDS if "no tiles" not in name])
def test_the_rest_drawn_without_what_draws_nothing_is_the_same_picture(board, monkeypatch):
    """Every pixel the same with the board's titles and emptied groups left out of what librsvg reads."""
    svg = BOARDS[board]()
    rest, _ = tiles.split(svg)
    assert "<title>" in rest and "<title>" not in tiles.drawn_only(rest)
    width = pictures.width_of(svg)
    lighter = picture(tiles.png(svg, width))
    monkeypatch.setattr(tiles, "drawn_only", lambda rest: rest)
    assert picture(tiles.png(svg, width)) == lighter


def test_what_draws_nothing_is_left_out_and_nothing_else():
    rest = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><title>The board</title>'
        '<g class="cell" data-cell="0,0"><title>0,0: empty</title><g class="piece"></g></g>'
        '<g filter="url(#glow)"></g><g><rect width="2" height="2"/></g></svg>'
    )
    assert tiles.drawn_only(rest) == (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        '<g filter="url(#glow)"></g><g><rect width="2" height="2"/></g></svg>'
    )
    styled = rest.replace("<title>The board</title>", "<style>g:first-child { fill: red }</style>")
    assert tiles.drawn_only(styled) == styled  # a selector may count siblings


def test_a_board_s_cards_and_pieces_are_its_tiles_and_nothing_else_is():
    svg = played("zarkcity", 2, 60, "tiles-zc")
    rest, found = tiles.split(svg)
    pieces = svg.count('class="zc-piece"')
    assert len(found) == svg.count('class="zc-square"') + pieces and pieces
    assert "data-tile" not in rest and rest.count('class="zc-piece"') == pieces  # the piece's group stays
    assert rest.count("<g") == rest.count("</g>")


def test_a_tile_is_drawn_where_the_same_markup_at_its_place_is():
    placed = tile(30.5, 20.25, (-1, -1, 22, 12), '<rect x="0" y="0" width="20" height="10" fill="#d64545"/>')
    assert OPENING.match(placed)
    page = '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40" viewBox="10 5 80 40">{}</svg>'
    plain = '<rect x="30.5" y="20.25" width="20" height="10" fill="#d64545"/>'
    whole, composed = opened(librsvg.png(page.format(plain).encode(), 80)), opened(tiles.png(page.format(placed), 80))
    assert max(most for _, most in ImageChops.difference(whole, composed).getextrema()) <= MOST


def test_the_kept_tiles_stay_within_their_bytes_the_oldest_let_go(monkeypatch):
    kept = tiles.Kept(limit=5 * tiles.RECORDING_BYTES)
    monkeypatch.setattr(tiles, "KEPT", kept)
    for n in range(30):  # thirty different tiles, five of which fit
        tiles.png(
            '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60" viewBox="0 0 60 60">'
            + tile(0, 0, (0, 0, 50, 50), f'<rect x="0" y="0" width="50" height="50" fill="#{n:06x}"/>')
            + "</svg>",
            60,
        )
        assert kept.bytes <= kept.limit
    assert len(kept) == 4 and kept.drawn == 30  # each some 12 kB and its SVG


def test_a_tile_pasted_again_is_taken_from_those_kept():
    svg = played("zarkcity", 2, 60, "tiles-zc")
    width = pictures.width_of(svg)
    first = tiles.png(svg, width)
    count, size = len(tiles.KEPT), tiles.KEPT.bytes
    assert count and picture(tiles.png(svg, width)) == picture(first)
    assert (len(tiles.KEPT), tiles.KEPT.bytes) == (count, size)


def test_where_a_tile_cannot_be_drawn_the_board_is_drawn_whole(monkeypatch):
    def refuse(*args):
        raise librsvg.DrawingError("librsvg could not draw the tile")

    monkeypatch.setattr(librsvg, "tile", refuse)
    svg = played("zarkcity", 2, 30, "tiles-zc")
    width = pictures.width_of(svg)
    assert picture(tiles.png(svg, width)) == picture(librsvg.png(svg.encode(), width))


def test_a_picture_whose_root_stretches_its_units_is_drawn_whole(monkeypatch):
    monkeypatch.setattr(librsvg, "tile", lambda *args: pytest.fail("tiles used"))
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 40">'
        + tile(10, 10, (0, 0, 20, 10), '<rect x="0" y="0" width="20" height="10"/>')
        + "</svg>"
    )
    assert opened(tiles.png(svg, 80)).size == (80, 80)


def test_the_email_draws_with_tiles_in_several_threads_at_once_as_in_one():
    """Every pixel the same, whichever thread recorded a tile: the pictures are compared, not the PNGs'
    bytes, which the deflate does not always repeat (tests/notifications/helpers.py `picture`)."""
    boards = [played("zarkcity", 2, moves, f"tiles-{moves}") for moves in (20, 30, 40, 50)]
    alone = [picture(pictures.draw(svg)) for svg in boards]
    tiles.KEPT.clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = [picture(png) for png in pool.map(pictures.draw, boards * 5)]
    assert together == alone * 5


def test_a_tile_serves_every_scale_and_place():
    """A recording, not pixels: the same board drawn at another width, and another board with the same
    cards elsewhere, record nothing new."""
    svg = played("zarkcity", 2, 60, "tiles-zc")
    tiles.png(svg, pictures.width_of(svg))
    recorded = tiles.KEPT.drawn
    smaller = opened(tiles.png(svg, 200))
    assert tiles.KEPT.drawn == recorded
    whole = opened(librsvg.png(svg.encode(), 200))
    assert max(most for _, most in ImageChops.difference(whole, smaller).getextrema()) <= MOST
