"""The IceDice board as the drawing kit's description (engine/kit/draw): the page's SVG, the email's
picture and the text board all come from `scene`.

The two dice show the last throw; the Counter and each Vault are rows of pyramids seen from the side,
a Vault's Trios drawn as towers (Large, Medium, Small) so they read at a glance; the Bank is a grid of
colours by sizes with the count of each kind. Offered takes are clicked on the Bank's cell of their
kind; a steal then on the Vault it comes from.
"""

from __future__ import annotations

from collections import Counter as Tally
from typing import cast

from ..interface import COLOURS
from ..kit import draw
from .notation import Take
from .state import SIZES, Piece
from .views import IceDiceView

WIDTH = 360
MARGIN = 8
DIE = 52
CELL = 40
BANK_WIDTH = 3 * CELL
LETTERS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}


def bank_target(colour: str, size: str) -> str:
    return f"bank:{colour}:{size}"


def vault_target(seat: str) -> str:
    return f"vault:{seat}"


def click_path(take: Take) -> tuple[str, ...]:
    """The Bank's cell of the kind; for a steal, then the Vault it comes from."""
    kind = bank_target(take.colour, take.size)
    return (kind,) if take.source is None else (kind, vault_target(take.source))


def scene(shown: IceDiceView) -> draw.Scene:
    items: list[draw.Item] = [*_dice(shown)]
    left_width = WIDTH - 3 * MARGIN - BANK_WIDTH
    counter = draw.Zone(
        MARGIN,
        DIE + 2 * MARGIN,
        left_width,
        f"Counter ({shown['to_move'] or 'nobody'})",
        spots=_row(shown["counter"]),
        unit=22,
        tint=shown["to_move"] or "",
    )
    bank_top = DIE + 2 * MARGIN + 20
    items.extend([counter, draw.Label(WIDTH - MARGIN - BANK_WIDTH, bank_top - 6, "Bank", bold=True, in_text=False)])
    items.append(_bank(shown, WIDTH - MARGIN - BANK_WIDTH, bank_top))
    y = max(DIE + 2 * MARGIN + draw.zone_height(counter), bank_top + 5 * CELL) + MARGIN
    for seat in shown["players"]:
        vault = _vault(shown, seat, y)
        items.append(vault)
        y += draw.zone_height(vault) + MARGIN
    return draw.Scene(WIDTH, y, tuple(items), title="IceDice board")


def _dice(shown: IceDiceView) -> list[draw.Item]:
    thrown = shown["throw"]
    if thrown is None:
        return [draw.Label(MARGIN, MARGIN + DIE / 2, "No throw yet.")]
    who = shown["to_move"] or shown["winner"] or ""
    words = f"{who} threw {thrown['size']} + {thrown['colour']}".strip()
    return [
        draw.Die(MARGIN, MARGIN, thrown["size"], side=DIE, title="pyramid die"),
        draw.Die(2 * MARGIN + DIE, MARGIN, thrown["colour"], side=DIE, title="colour die"),
        draw.Label(3 * MARGIN + 2 * DIE, MARGIN + DIE / 2 + 5, words, in_text=False),
    ]


def _pyramid(colour: str, size: str) -> draw.Pyramid:
    return draw.Pyramid(colour, cast(draw.Size, size))


def _row(pieces: list[str]) -> tuple[draw.Spot, ...]:
    return tuple(_pyramid(colour, size) for colour, size in _pieces(pieces))


def _pieces(texts: list[str]) -> list[Piece]:
    return [(text.partition(":")[0], text.partition(":")[2]) for text in texts]


def _vault(shown: IceDiceView, seat: str, y: float) -> draw.Zone:
    count = shown["trios"][seat]
    title = f"{seat}'s Vault: {count} Trio{'s' if count != 1 else ''}"
    if seat in shown["resigned"]:
        title += " (resigned)"
    stealable = any(text.endswith(f" from {seat}") for text in shown["takes"])
    return draw.Zone(
        MARGIN,
        y,
        WIDTH - 2 * MARGIN,
        title,
        spots=_grouped(shown["vaults"][seat]),
        tint=seat,
        target=vault_target(seat) if stealable else "",
        unit=22,
    )


def _grouped(texts: list[str]) -> tuple[draw.Spot, ...]:
    """Colour by colour: each Trio a tower (Large at the bottom), then that colour's other pieces."""
    count = Tally(_pieces(texts))
    spots: list[draw.Spot] = []
    for colour in COLOURS:
        trios = min(count[(colour, size)] for size in SIZES)
        tower = tuple(_pyramid(colour, size) for size in ("L", "M", "S"))
        spots.extend(draw.Stack(tower, title=f"{colour} Trio") for _ in range(trios))
        for size in SIZES:
            spots.extend(_pyramid(colour, size) for _ in range(count[(colour, size)] - trios))
    return tuple(spots)


def _bank(shown: IceDiceView, x: float, y: float) -> draw.Grid:
    """Colours down (red at the top), sizes across; a cell shows one piece of its kind and how many."""
    offered = {(text.split()[1], text.split()[2]) for text in shown["takes"]}
    cells = []
    for rank, colour in enumerate(reversed(COLOURS), start=1):
        for file, size in zip("abc", SIZES, strict=True):
            left = shown["bank"][f"{colour}:{size}"]
            cells.append(
                draw.Cell(
                    f"{file}{rank}",
                    spots=(_pyramid(colour, size),) if left else (),
                    label=str(left),
                    target=bank_target(colour, size) if (size, colour) in offered else "",
                    text=f"{LETTERS[colour]}{size}x{left}",
                )
            )
    return draw.Grid(x, y, 3, 5, cell=CELL, cells=tuple(cells), seen="side", coords=False, title="Bank")
