"""Black ICE's board as a drawing-kit `Scene` (engine/kit/draw), written from a view alone: a Code
the viewer may not know is drawn as the kit's `hidden` piece, so the picture can show no more than
the view holds.

The targets a seat clicks (the kit's click script, static/js/kit_board.js): the Locks (`lock:2`),
its own Nodes (`node:2`), the opponent's Nodes (`their:2`, to copy) and its supply's colours
(`supply:red`). `click_path` says which, in order, make each step."""

from __future__ import annotations

from typing import Any, cast

from ..interface import View
from ..kit import draw
from .notation import Move
from .state import COLOURS, PLACES

WIDTH = 400
NODE_SIZES: tuple[draw.Size, ...] = ("S", "M")  # REC-B1: the first seat's Nodes are Smalls, the second's Mediums
KEY_SIZES: tuple[draw.Size, ...] = ("M", "L")


def scene(view: View) -> draw.Scene:
    data = cast(dict[str, Any], view)
    items: list[draw.Item] = [draw.Label(12, 24, _status(data), size=16, bold=True)]
    items += _nodes(data, 1, 44)
    items += _locks(data, 150)
    items += _nodes(data, 0, 256)
    items += _dice(data, 356)
    items += _supply(data, 432)
    items.append(draw.Label(12, 528, f"Black Box: {data['box_size']} Codes", size=14))
    return draw.Scene(WIDTH, 544, tuple(items), title="Black ICE board")


def click_path(move: Move) -> tuple[str, ...]:
    """A Peek or a Reset is the Lock (both offered, the page shows each as a button); a Swap the two
    Locks or the two own Nodes; a Set the supply's colour then the Node; a Copy the opponent's Node.
    `declare` and `pass` are buttons."""
    if move.verb in ("peek", "reset"):
        return (f"lock:{move.places[0]}",)
    if move.verb == "swap":
        kind = "lock" if move.what == "locks" else "node"
        return tuple(f"{kind}:{place}" for place in move.places)
    if move.verb == "set":
        return (f"supply:{move.colour}", f"node:{move.places[0]}")
    if move.verb == "copy":
        return (f"their:{move.places[0]}",)
    return ()


def _status(data: dict[str, Any]) -> str:
    if data["phase"] == "over":
        return f"{data['winner']} wins ({data['reason']})" if data["winner"] else f"Over ({data['reason']})"
    return f"{data['to_move']} to move"


def _locks(data: dict[str, Any], y: float) -> list[draw.Item]:
    boxes: list[draw.Item] = []
    for place, lock in zip(PLACES, data["locks"], strict=True):
        marks = f" ({', '.join(lock['peeked_by'])})" if lock["peeked_by"] else ""
        code = draw.Pyramid(lock["code"] or "hidden", "S", title=f"Code of Lock {place}: {lock['code'] or 'hidden'}")
        spots = (code, draw.Pyramid("black", "L", title=f"Lock {place}"))
        boxes.append(
            draw.Box(12 + (place - 1) * 128, y, 120, 88, f"Lock {place}{marks}", target=f"lock:{place}", spots=spots)
        )
    return boxes


def _nodes(data: dict[str, Any], index: int, y: float) -> list[draw.Item]:
    seat = data["players"][index]
    mine = seat == data["viewer"]
    theirs = data["viewer"] in data["players"] and not mine
    boxes: list[draw.Item] = []
    for place, key in zip(PLACES, data["keys"][seat], strict=True):
        pieces = (draw.Pyramid("black", NODE_SIZES[index]),) + ((draw.Pyramid(key, KEY_SIZES[index]),) if key else ())
        stack = draw.Stack(pieces, title=f"{seat}'s Node {place}: {key or 'empty'}")
        target = f"node:{place}" if mine else (f"their:{place}" if theirs else "")
        boxes.append(
            draw.Box(
                12 + (place - 1) * 128, y, 120, 88, f"{seat} Node {place}", tint=seat, target=target, spots=(stack,)
            )
        )
    return boxes


def _dice(data: dict[str, Any], y: float) -> list[draw.Item]:
    """The throw as it fell, then the turn's actions as dice (a duplicate or null face made `wild`)."""
    if data["phase"] != "play":
        return []
    dice: list[draw.Item] = [draw.Label(12, y + 14, f"{data['to_move']} threw {' '.join(data['throw'])}:", size=14)]
    rows = zip(data["throw"], data["actions"], data["used"], strict=True)
    for i, (thrown, face, used) in enumerate(rows):
        title = f"action {i + 1}{f' (thrown {thrown})' if thrown != face else ''}{' (used)' if used else ''}"
        dice.append(draw.Die(200 + i * 56, y, face, title=title, colour="#c8c8c8" if used else ""))
    return dice


def _supply(data: dict[str, Any], y: float) -> list[draw.Item]:
    """The viewer's supply, a box a colour titled "2 red": 3 Keys of each less those on its Nodes (a
    spectator has none)."""
    seat = data["viewer"]
    if seat not in data["players"]:
        return []
    size = KEY_SIZES[data["players"].index(seat)]
    keys = data["keys"][seat]
    boxes: list[draw.Item] = []
    for i, colour in enumerate(COLOURS):
        left = 3 - keys.count(colour)
        spots = tuple(draw.Pyramid(colour, size) for _ in range(left))
        title = f"{left} {colour}"
        boxes.append(draw.Box(12 + i * 96, y, 88, 76, title, tint=colour, target=f"supply:{colour}", spots=spots))
    return boxes
