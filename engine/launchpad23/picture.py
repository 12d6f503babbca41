"""The launch complex on the drawing kit: the 3 x 3 grid (pads tinted by owner, the Factory marked),
each cell's pieces as pyramids seen from above, the standing throw as two dice with the moves left,
and the Bank. The page's SVG, the email's picture and the text board all come from `scene`.

Targets for the kit's click script (static/js/kit_board.js): every cell by name; a piece on the board
as `CELL:colour:size` (`b2:red:M`), but one on another seated player's pad as `SEAT:colour:size`
(`blue:red:M`: it can only be taken off for a part, never moved by the viewer); a piece of the Bank
as `bank:colour:size`. A move is its piece then the cell it goes to; a part is the piece it takes.
"""

from __future__ import annotations

from typing import cast

from ..interface import View
from ..kit import draw
from .notation import Add, Move, Shift
from .state import CELLS, FACTORY, KINDS, SIZES
from .views import LaunchpadView

CELL = 104
MARGIN = 24
WIDTH = MARGIN + 3 * CELL + 24  # 360: a phone's width, drawn one to one
DIE = 48


def piece_target(where: str, colour: str, size: str) -> str:
    """`where` is a cell, a seat (a piece on its pad) or "bank"."""
    return f"{where}:{colour}:{size}"


def click_path(move: Move) -> tuple[str, ...]:
    """A move: the piece, then the cell it goes to; a part: the Bank's piece, or the piece on the pad it
    comes off; a word (`pass`, `reroll`, `failure`) or a pick has none: a button."""
    if isinstance(move, Shift):
        return (piece_target(move.origin, move.colour, move.size), move.target)
    if isinstance(move, Add):
        return (piece_target(move.source or "bank", move.colour, move.size),)
    return ()


def scene(shown: View) -> draw.Scene:
    data = cast(LaunchpadView, shown)
    owners = {pad: seat for seat, pad in data.get("pads", {}).items()}
    board = data.get("board", {})
    cells = tuple(_cell(name, board.get(name, []), owners.get(name), data["viewer"]) for name in CELLS)
    grid = draw.Grid(MARGIN, 8, 3, 3, cell=CELL, cells=cells, title="Launch complex (rank 3 on top)")
    below = 8 + 3 * CELL + 28
    items: list[draw.Item] = [grid, *_throw(data, below)]
    bank = _bank(data, below + DIE + 20)
    items.append(bank)
    height = bank.y + draw.zone_height(bank) + 8
    return draw.Scene(width=WIDTH, height=height, items=tuple(items), title=_title(data))


def _title(data: LaunchpadView) -> str:
    held = [f"{cell}: {', '.join(p.replace(':', ' ') for p in pieces)}" for cell, pieces in data["board"].items()]
    return f"Launch Pad 23 complex: {'; '.join(held) or 'no pieces on the board'}"


def _cell(name: str, pieces: list[str], owner: str | None, viewer: str | None) -> draw.Cell:
    where = owner if owner is not None and owner != viewer else name
    spots = tuple(_pyramid(text, where) for text in pieces)
    label = "Factory" if name == FACTORY else (f"{owner}'s pad" if owner else "")
    return draw.Cell(name, spots=spots, tint=owner or "", label=label)


def _pyramid(text: str, where: str) -> draw.Pyramid:
    colour, _, size = text.partition(":")
    assert size in SIZES
    return draw.Pyramid(colour, cast(draw.Size, size), target=piece_target(where, colour, size))


def _throw(data: LaunchpadView, y: float) -> list[draw.Item]:
    """The two dice of the standing throw, whose it is and the moves left; the result once it is over."""
    if data["phase"] == "over":
        winner = data["winner"]
        said = f"Game over: {winner} wins ({data['reason']})" if winner else f"Game over: no winner ({data['reason']})"
        return [draw.Label(MARGIN, y + 26, said, size=17, bold=True)]
    throw = data.get("throw")
    if not throw:
        return [draw.Label(MARGIN, y + 26, "Setup: each player picks an opening piece in secret.", in_text=False)]
    mover = data["to_move"] or ""
    left = data.get("moves_left", 0)
    doing = "adds a part" if data["phase"] == "add" else f"{left} move{'' if left == 1 else 's'} left"
    return [
        draw.Die(MARGIN, y, throw["size"], side=DIE, title="pyramid die"),
        draw.Die(MARGIN + DIE + 8, y, throw["colour"], side=DIE, title="colour die"),
        draw.Label(MARGIN + 2 * DIE + 20, y + 20, f"{mover} threw", bold=True, in_text=False),
        draw.Label(MARGIN + 2 * DIE + 20, y + 40, doing),
    ]


def _bank(data: LaunchpadView, y: float) -> draw.Zone:
    bank = data.get("bank", {})
    spots = tuple(_pyramid(str(kind), "bank") for kind in KINDS for _ in range(bank.get(str(kind), 0)))
    return draw.Zone(MARGIN, y, WIDTH - 2 * MARGIN, "The Bank", spots=spots, unit=20, empty="empty")
