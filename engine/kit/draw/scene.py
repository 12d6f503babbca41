"""A board as a description: a `Scene` of typed, frozen items, from which the kit draws the page's
SVG, the email's picture (the same SVG) and the plain-text board (engine/kit/draw/svg.py, text.py).

Coordinates are SVG user units, y downwards; the renderers know how each item looks, the game only
says what is where. Pieces are `Pyramid`s, alone or in a `Stack` (bottom to top): a spot. Every item
a player may click carries a `target` name ("c1", "supply:red:M", "die"), which the interactive
SVG writes as `data-target` for the kit's click script (static/js/kit_board.js).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Size = Literal["S", "M", "L"]
# Where a lying piece's point is, in the picture: "" is upright.
Lying = Literal["", "left", "right", "up", "down"]
# Side: pieces stand on a ground line (Treehouse, IceDice's rows). Top: seen from above (grids).
Seen = Literal["side", "top"]
Anchor = Literal["start", "middle", "end"]

SIZES: tuple[Size, ...] = ("S", "M", "L")
PIPS = {"S": 1, "M": 2, "L": 3}
SIZE_NAMES = {"S": "Small", "M": "Medium", "L": "Large"}
# The five colours of a Rainbow Stash, two more some sets have, and "hidden": a piece whose colour
# the viewer may not know (Black ICE's Codes), drawn grey with a question mark.
PIECE_COLOURS = ("red", "yellow", "green", "blue", "black", "white", "clear", "hidden")
Arrow = Literal["n", "e", "s", "w"]
INK = "#1f2430"


@dataclass(frozen=True)
class Pyramid:
    """One Looney pyramid: its colour, size, and whether and where it lies."""

    colour: str
    size: Size
    lying: Lying = ""
    target: str = ""
    title: str = ""  # what a screen reader and a hover say; "" : "red Medium" (and where it points)
    marked: bool = False  # drawn with a ring: the piece of the last move, say


@dataclass(frozen=True)
class Stack:
    """Pieces on one spot, bottom to top; a smaller piece sits on the one below, a bigger one covers
    it (a nest), as the real hollow pyramids do."""

    pieces: tuple[Pyramid, ...]
    target: str = ""
    title: str = ""


Spot = Pyramid | Stack


@dataclass(frozen=True)
class Cell:
    """What one named cell of a `Grid` holds and how it looks; cells not listed are empty."""

    name: str
    spots: tuple[Spot, ...] = ()  # side by side in the cell
    blocked: bool = False  # not a cell of the board (Pharaoh's corners): shaded, never a target
    tint: str = ""  # a zone's colour: a piece colour name or "#rrggbb"
    label: str = ""  # a small word in the cell's corner ("pad", "F")
    target: str | None = None  # None: the cell's name; "": not clickable
    text: str = ""  # the cell in the text board when the pieces' own letters will not do
    marked: bool = False  # outlined: a cell of the last move
    arrows: tuple[Arrow, ...] = ()  # the sides a piece may leave by (a Martian Coasters space): drawn at the edges


@dataclass(frozen=True)
class Grid:
    """Files x ranks square cells with chess names (`a1` bottom left), at (x, y) its top-left corner."""

    x: float
    y: float
    files: int
    ranks: int
    cell: float = 64  # a cell's side
    cells: tuple[Cell, ...] = ()
    seen: Seen = "top"
    coords: bool = True  # file letters below, rank numbers on the left (drawn outside the cells)
    prefix: str = ""  # names become prefix + chess name ("red:c1" on a Martian Coasters coaster)
    title: str = ""  # the text board's heading
    unit: float = 0  # a Large's base, the same in every cell; 0: as big as the fullest cell allows


@dataclass(frozen=True)
class Zone:
    """A named row of spots: a supply, the Bank, a Vault, the Counter. It wraps to more rows when the
    spots do not fit `width`; `unit` is a Large's base (the scale of its pieces)."""

    x: float
    y: float
    width: float
    title: str
    spots: tuple[Spot, ...] = ()
    tint: str = ""
    target: str = ""
    unit: float = 24
    seen: Seen = "side"
    empty: str = "empty"  # what an empty zone says


@dataclass(frozen=True)
class Piece:
    """A spot standing alone: (x, y) is the middle of its base (side) or its centre (top)."""

    x: float
    y: float
    spot: Spot
    unit: float = 32
    seen: Seen = "side"


@dataclass(frozen=True)
class Die:
    """A die showing `face`: a number "1".."6", a pyramid die's "S", "M", "L", "S/M", "S/L", "M/L",
    a colour die's colour or "atom", or a word ("tip", "wild"); (x, y) its top-left corner."""

    x: float
    y: float
    face: str
    side: float = 44
    target: str = ""
    title: str = "die"  # the text board's name for it: "die: 6"
    colour: str = ""  # the die's body; "" is white


@dataclass(frozen=True)
class Card:
    """A card: its label in the corner and the middle, or its back."""

    x: float
    y: float
    label: str
    width: float = 56
    height: float = 80
    colour: str = ""  # the label's ink: a piece colour or "#rrggbb"
    face_down: bool = False
    target: str = ""
    title: str = ""


@dataclass(frozen=True)
class Label:
    """Words on the board at (x, y), the baseline."""

    x: float
    y: float
    text: str
    size: float = 15
    anchor: Anchor = "start"
    bold: bool = False
    colour: str = INK
    in_text: bool = True  # also a line of the text board


@dataclass(frozen=True)
class Box:
    """A region: a territory, a star system, a pad; spots laid out inside, its title above them."""

    x: float
    y: float
    width: float
    height: float
    title: str = ""
    tint: str = ""
    target: str = ""
    spots: tuple[Spot, ...] = ()
    unit: float = 24
    seen: Seen = "side"
    marked: bool = False


@dataclass(frozen=True)
class Link:
    """A line between two points: a border between territories, a route."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: str = "#8a8f9c"
    dashed: bool = False


Item = Grid | Zone | Piece | Die | Card | Label | Box | Link


@dataclass(frozen=True)
class Scene:
    """The whole picture: `width` x `height` user units (drawn one CSS pixel a unit when room allows)."""

    width: float
    height: float
    items: tuple[Item, ...] = field(default_factory=tuple)
    title: str = "The board"
    background: str = "#f7f4ec"


def cell_names(grid: Grid) -> tuple[str, ...]:
    """Every cell of the grid by name, rank 1 first, files left to right."""
    files = "abcdefghijklmnopqrstuvwxyz"[: grid.files]
    return tuple(f"{grid.prefix}{f}{r}" for r in range(1, grid.ranks + 1) for f in files)


def cell_target(cell: Cell) -> str:
    if cell.blocked:
        return ""
    return cell.name if cell.target is None else cell.target


def spot_pieces(spot: Spot) -> tuple[Pyramid, ...]:
    return spot.pieces if isinstance(spot, Stack) else (spot,)


def piece_title(piece: Pyramid) -> str:
    if piece.title:
        return piece.title
    lying = f", lying, pointing {piece.lying}" if piece.lying else ""
    colour = "a hidden" if piece.colour == "hidden" else piece.colour
    return f"{colour} {SIZE_NAMES[piece.size]}{lying}"


def spot_title(spot: Spot) -> str:
    if isinstance(spot, Pyramid):
        return piece_title(spot)
    return spot.title or ("stack of " + ", ".join(piece_title(p) for p in spot.pieces) + " (bottom to top)")


def spot_target(spot: Spot) -> str:
    """A spot's click target: its own, or (a stack without one) its top piece's."""
    if isinstance(spot, Pyramid):
        return spot.target
    return spot.target or (spot.pieces[-1].target if spot.pieces else "")


def item_spots(item: Item) -> tuple[Spot, ...]:
    if isinstance(item, Grid):
        return tuple(spot for cell in item.cells for spot in cell.spots)
    if isinstance(item, Zone | Box):
        return item.spots
    if isinstance(item, Piece):
        return (item.spot,)
    return ()


def targets(scene: Scene) -> frozenset[str]:
    """Every target name the scene's interactive picture carries."""
    names: set[str] = set()
    for item in scene.items:
        if isinstance(item, Grid):
            given = {cell.name: cell for cell in item.cells}
            names.update(cell_target(given.get(name, Cell(name))) for name in cell_names(item))
        elif isinstance(item, Zone | Box | Die | Card):
            names.add(item.target)
        names.update(spot_target(spot) for spot in item_spots(item))
    return frozenset(names - {""})
