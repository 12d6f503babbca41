"""The market picture's layout, measured on the SVG itself: for 2, 3 and 4 players, at every ply of a
whole game and in crowded made-up markets, no two labels, pyramids or chips overlap, each stays inside
its tile and the viewBox, and every label is large enough to read on a 360 px phone and in an email.

Labels are measured by the picture's own width estimate (engine/buyersmarket/drawing.py), a little
wider than the font's; tests/browser/test_buyersmarket_board.py measures them in Chromium.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from engine.bots import choose_move
from engine.buyersmarket import drawing, picture
from engine.buyersmarket.game import GAME
from engine.buyersmarket.state import State
from tests.engine.test_buyersmarket_rules import market

SVG = "{http://www.w3.org/2000/svg}"
TILES = ("bm-pile", "bm-pallet", "bm-player", "bm-building")
SEATS = ("red", "yellow", "green", "blue")
PHONE_FRAME = 318  # CSS px the game page gives the board on a 360 px wide screen (measured in Chromium)
TOUCHING = 0.3  # boxes may share an edge (pyramids of a building stand side by side)


@dataclass(frozen=True)
class Box:
    what: str
    x0: float
    y0: float
    x1: float
    y1: float
    tile: int | None = None  # which tile it is drawn in

    def overlaps(self, other: Box) -> bool:
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > TOUCHING
            and min(self.y1, other.y1) - max(self.y0, other.y0) > TOUCHING
        )

    def inside(self, other: Box) -> bool:
        return (
            self.x0 >= other.x0 - TOUCHING
            and self.y0 >= other.y0 - TOUCHING
            and self.x1 <= other.x1 + TOUCHING
            and self.y1 <= other.y1 + TOUCHING
        )


def boxes(svg: str) -> tuple[Box, list[Box], list[Box]]:
    """The viewBox, the tiles (piles, pallets, players, buildings), and every mark a reader tells apart:
    each label, pyramid (with its symbol), seat chip and tag."""
    root = ET.fromstring(svg)
    _, _, w, h = (float(v) for v in root.get("viewBox", "").split())
    tiles: list[Box] = []
    marks: list[Box] = []
    _walk(root, 0.0, 0.0, None, tiles, marks)
    return Box("viewBox", 0, 0, w, h), tiles, marks


def _walk(node: ET.Element, dx: float, dy: float, tile: int | None, tiles: list[Box], marks: list[Box]) -> None:
    for child in node:
        tag, classes = child.tag.removeprefix(SVG), set(child.get("class", "").split())
        x, y = _translate(child.get("transform", ""))
        here = tile
        if classes & set(TILES):
            rect = child.find(f"{SVG}rect")
            assert rect is not None
            tiles.append(_rect(rect, dx + x, dy + y, "tile"))
            here = len(tiles) - 1
        if tag == "g" and classes & {"bm-pyramid", "bm-chip", "bm-tag"}:
            marks.append(_group_box(child, dx + x, dy + y, here))
        elif tag == "polygon":  # a pyramid drawn on its own
            marks.append(_polygon(child, dx + x, dy + y, here))
        elif tag == "text" and child.text:
            marks.append(_text(child, dx + x, dy + y, here))
        else:
            _walk(child, dx + x, dy + y, here, tiles, marks)


def _translate(transform: str) -> tuple[float, float]:
    found = re.match(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)", transform)
    return (float(found.group(1)), float(found.group(2))) if found else (0.0, 0.0)


def _group_box(group: ET.Element, dx: float, dy: float, tile: int | None) -> Box:
    shape = next(c for c in group if c.tag.removeprefix(SVG) in ("polygon", "circle", "rect"))
    what = group.get("class", "")
    if shape.tag.endswith("polygon"):
        return _polygon(shape, dx, dy, tile, what)
    if shape.tag.endswith("circle"):
        cx, cy, r = (float(shape.get(k, "0")) for k in ("cx", "cy", "r"))
        return Box(what, dx + cx - r, dy + cy - r, dx + cx + r, dy + cy + r, tile)
    return _rect(shape, dx, dy, what, tile)


def _polygon(shape: ET.Element, dx: float, dy: float, tile: int | None, what: str = "pyramid") -> Box:
    points = [tuple(float(v) for v in p.split(",")) for p in shape.get("points", "").split()]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(what, dx + min(xs), dy + min(ys), dx + max(xs), dy + max(ys), tile)


def _rect(shape: ET.Element, dx: float, dy: float, what: str, tile: int | None = None) -> Box:
    x, y, w, h = (float(shape.get(k, "0")) for k in ("x", "y", "width", "height"))
    return Box(what, dx + x, dy + y, dx + x + w, dy + y + h, tile)


def _text(text: ET.Element, dx: float, dy: float, tile: int | None) -> Box:
    size = float(text.get("font-size", "16"))
    width = drawing.text_width(text.text or "", size, bold=text.get("font-weight") == "bold")
    x, y = dx + float(text.get("x", "0")), dy + float(text.get("y", "0"))
    x -= {"end": width, "middle": width / 2}.get(text.get("text-anchor", ""), 0)
    return Box(f"label {text.text!r}", x, y - 0.76 * size, x + width, y + 0.24 * size, tile)


def check_layout(svg: str) -> None:
    view_box, tiles, marks = boxes(svg)
    assert marks, "nothing drawn"
    for mark in marks:
        assert mark.inside(view_box), f"{mark} is outside the picture {view_box}"
        if mark.tile is not None:
            assert mark.inside(tiles[mark.tile]), f"{mark} spills out of its tile {tiles[mark.tile]}"
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            assert not a.overlaps(b), f"tiles overlap: {a} and {b}"
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            assert not a.overlaps(b), f"{a.what} overlaps {b.what}: {a} {b}"


# --- games to draw ---------------------------------------------------------------------------------------


def whole_game(players: int, deal: str) -> Iterator[State]:
    """Every position of a game of random moves that calls the building phase as soon as it may."""
    state = GAME.new_game(SEATS[:players], deal, {})
    yield state
    for ply in range(600):
        if GAME.result(state) is not None:
            return
        seat = GAME.movers(state)[0]
        state = GAME.apply(state, GAME.parse(policy(state, seat, ply, deal)), seat)
        yield state
    raise AssertionError("the game did not end")


def policy(state: State, seat: str, ply: int, deal: str) -> str:
    """A random move (by the seed `deal`), but the building phase is called once allowed after ply 40."""
    calls = [m for m in GAME.legal_moves(state, seat) if str(m).endswith(" call")]
    return str(calls[0]) if calls and ply > 40 else choose_move(GAME, "random", state, seat, f"{deal}{ply}")


def crowded(players: int) -> State:
    """A market as full as the rules allow it to look: an Ace holding Smalls of every bank and 11 pips
    of resources, collected piles of twenty pyramids and more, long lists of cards bought."""
    seats = SEATS[:players]
    on_ace = " ".join(["H:S"] * 11 + [f"{c}:S" for c in seats] * 1)
    crp = {c: " ".join(["S:L", "H:L", "D:L", "C:L", "T:L"] * 2 + ["H:M", f"{c}:M"] * 4 + ["T:S"] * 6) for c in seats}
    cards = ("AS", "10S", "9S", "8S", "AH", "10H", "9H", "AD", "10D", "AC", "10C", "AT", "10T")
    return market(
        players,
        pallets={"AH": on_ace, "10S": "S:L S:L S:L red:S", "7D": "", "9C": "C:M C:M C:M C:M C:S"},
        crp=crp,
        collected={c: cards for c in seats},
        called_by=seats[-1],
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_mark_overlaps_another_at_any_ply_of_a_whole_game(players: int) -> None:
    states = list(whole_game(players, f"layout-{players}"))
    assert GAME.result(states[-1]) is not None and "buildings" in GAME.view(states[-1], None)
    for state in states:
        check_layout(GAME.board_svg(GAME.view(state, "red"), interactive=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_crowded_market_and_its_scored_end_stay_apart(players: int) -> None:
    state = crowded(players)
    check_layout(GAME.board_svg(GAME.view(state, None)))
    scored = state.evolve(reason="score", winners=("red",), to_move=None, called_by=None)
    check_layout(GAME.board_svg(GAME.view(scored, "yellow")))


def test_every_label_reads_at_10_css_px_on_a_phone_and_the_picture_fits_an_email() -> None:
    svg = GAME.board_svg(GAME.view(crowded(4), "red"))
    sizes = [float(s) for s in re.findall(r'<text class="bm-label"[^>]* font-size="([\d.]+)"', svg)]
    marks = [float(s) for s in re.findall(r'<text class="bm-mark"[^>]* font-size="([\d.]+)"', svg)]
    scale = float(re.search(r'data-min-scale="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    assert min(sizes) * scale >= 10  # the page's zoom opens no smaller than data-min-scale
    assert scale <= PHONE_FRAME / picture.WIDTH  # ...and at that scale a phone shows the whole width
    assert min(marks) >= 8  # a pyramid's symbol or letter, which repeats its colour and its title
    assert picture.WIDTH <= 560  # the email's column: drawn one pixel a unit, never shrunk


def test_bank_pyramids_are_not_drawn_in_a_suit_s_colour_and_carry_their_player_s_letter() -> None:
    svg = GAME.board_svg(GAME.view(crowded(4), None))
    banks = re.findall(
        r'<g class="bm-pyramid" data-owner="(red|yellow|green|blue)".*?fill="([^"]+)".*?>(\w)</text>', svg
    )
    assert banks
    for owner, fill, letter in banks:
        assert fill not in drawing.SUIT_FILLS.values() and fill not in drawing.SEAT_FILLS.values()
        assert letter == owner[0].upper()
    resources = re.findall(r'<g class="bm-pyramid" data-owner="([SHDCT])".*?fill="([^"]+)"', svg)
    assert {owner for owner, _ in resources} == set("SHDCT")
    assert all(fill == drawing.SUIT_FILLS[owner] for owner, fill in resources)  # the die's colours (B1)
