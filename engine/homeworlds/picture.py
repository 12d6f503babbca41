"""The star map as the drawing kit's `Scene` (engine/kit/draw): one box per system, top to bottom.

The first seat's homeworld is at the top, the other's at the bottom, the systems in play between
them in order of discovery, so a system keeps its place from move to move. In a system the stars
stand upright between the two fleets; each player's ships lie on their side of them (the first
seat's on the left, the other's on the right), pointing away from their owner's side, as at a
table: colours are technology, never owners. The bank below shows every piece left in it, copy by copy.

Click targets (`click_path`): `system:<name>`, a ship `ship:<system>:<piece>` (the viewer's own) or
`enemy:<system>:<piece>`, a bank piece `bank:<piece>` (its second and third copies
`bank:<piece>:2`, `:3`, for a homeworld of two equal pieces), the bank itself `bank` (a sacrifice returns
the ship there), `new` (a discovery's new system) and `catastrophe:<system>:<colour>` under an
overpopulated system. System names are lower-cased in targets, as the rules compare them.
"""

from __future__ import annotations

from typing import Any, cast

from ..interface import View
from ..kit import draw
from .notation import Attack, Build, Catastrophe, Discover, Homeworld, Move, SacrificeStep, Step, Trade
from .pieces import COLOUR_WORDS, PIECES

WIDTH = 360
MARGIN = 6
UNIT = 22  # a Large's base in a system and in the bank
TITLE_ROOM = 25  # a box's title line and the gap above its pieces (the drawing kit's Box)
MARK = 26  # the height of a catastrophe mark or of the "new system" box
SIZE_OF = {"1": "S", "2": "M", "3": "L"}
LABEL = 14
NAME_ROOM = 14  # a player's name is cut to this many letters in the map's key


def target_system(name: str) -> str:
    return f"system:{name.lower()}"


def target_ship(system: str, piece: str, *, enemy: bool = False) -> str:
    return f"{'enemy' if enemy else 'ship'}:{system.lower()}:{piece}"


def target_bank(piece: str, copy: int = 1) -> str:
    """A piece in the bank: its first copy `bank:g1`, the next ones `bank:g1:2`, `bank:g1:3`."""
    return f"bank:{piece}" if copy == 1 else f"bank:{piece}:{copy}"


def target_catastrophe(system: str, colour: str) -> str:
    return f"catastrophe:{system.lower()}:{COLOUR_WORDS.get(colour, colour)}"


def click_path(step: Step) -> tuple[str, ...]:
    """The targets clicked, in order, for `step` (pass and done have none: they are buttons)."""
    if isinstance(step, Homeworld):  # a piece picked twice (stars b1 b1) is the bank's next copy
        picked = (*step.stars, step.ship)
        return tuple(target_bank(piece, picked[:index].count(piece) + 1) for index, piece in enumerate(picked))
    if isinstance(step, Build):
        return (target_bank(step.piece), target_system(step.system))
    if isinstance(step, Trade):
        return (target_ship(step.system, step.piece), target_bank(step.new))
    if isinstance(step, Move):
        return (target_ship(step.origin, step.piece), target_system(step.destination))
    if isinstance(step, Discover):
        return (target_ship(step.origin, step.piece), "new", target_bank(step.star))
    if isinstance(step, Attack):
        return (target_ship(step.system, step.piece, enemy=True),)
    if isinstance(step, SacrificeStep):
        return (target_ship(step.system, step.piece), "bank")
    if isinstance(step, Catastrophe):
        return (target_catastrophe(step.system, step.colour),)
    return ()


def pyramid(piece: str, lying: draw.Lying = "", target: str = "", title: str = "") -> draw.Pyramid:
    size = cast(draw.Size, SIZE_OF[piece[1]])
    return draw.Pyramid(COLOUR_WORDS[piece[0]], size, lying, target, title)


def ordered_systems(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The first seat's homeworld, the discovered systems in order of discovery, the other's homeworld."""
    players, systems = data["players"], data["systems"]
    homes = {system["home"]: system for system in systems if system["home"]}
    middle = [system for system in systems if not system["home"]]
    ends = [homes[seat] for seat in players if seat in homes]
    return ends[:1] + middle + ends[1:] if players[0] in homes else middle + ends


def scene(shown: View) -> draw.Scene:
    data = cast(dict[str, Any], shown)
    players, viewer = data["players"], data.get("viewer")
    items: list[draw.Item] = [_key(players)]
    y = 34.0
    if data.get("sacrifice"):
        given = data["sacrifice"]
        words = f"Sacrifice: {given['left']} {given['colour']} action{'' if given['left'] == 1 else 's'} left"
        items.append(draw.Label(MARGIN, y + 4, words, size=LABEL, bold=True))
        y += 24
    if data.get("stage") == "setup":
        stars = "one or two stars" if data["options"].get("setup") == "free" else "two stars"
        items.append(draw.Label(MARGIN, y + 4, f"Homeworld: click {stars}, then a ship, in the bank.", size=13))
        y += 24
    for system in ordered_systems(data):
        placed, y = _system(system, players, viewer, y)
        items.extend(placed)
    if data.get("stage") != "setup":
        items.append(draw.Box(MARGIN, y, WIDTH - 2 * MARGIN, MARK, title="New system (discover)", target="new"))
        y += MARK + 8
    bank = _bank(data["bank"], y)
    items.append(bank)
    height = y + bank.height + MARGIN
    return draw.Scene(WIDTH, height, tuple(items), title="Homeworlds star map")


def _key(players: list[str]) -> draw.Label:
    first, second = (name[:NAME_ROOM] for name in players)
    return draw.Label(WIDTH / 2, 22, f"{first}'s ships ▶ · stars · ◀ {second}'s ships", size=LABEL, anchor="middle")


def _system(system: dict[str, Any], players: list[str], viewer: str | None, y: float) -> tuple[list[draw.Item], float]:
    """The system's box (the first seat's ships, the stars, the other seat's ships, each fleet
    pointing away from its owner's side) and its catastrophe marks."""
    name, width = system["name"], WIDTH - 2 * MARGIN
    spots: list[draw.Spot] = []
    for seat, lying in ((players[0], "right"), (players[1], "left")):
        ships = system["ships"].get(seat, [])
        ship_spots = [_ship(name, piece, seat, viewer, cast(draw.Lying, lying)) for piece in ships]
        spots.extend(reversed(ship_spots) if seat == players[0] else ship_spots)
        if seat == players[0]:
            spots.extend(pyramid(star, title=f"star {star} of {name}") for star in system["stars"])
    _, tall = draw.row_layout(tuple(spots), width - 12, UNIT, "side")
    home = f" · {system['home'][:NAME_ROOM]}'s home" if system["home"] else ""
    sizes = "·".join(sorted({star[1] for star in system["stars"]}))
    height = TITLE_ROOM + tall + 10
    shown = name if len(name) <= NAME_ROOM + 4 else name[: NAME_ROOM + 3] + "…"  # the text board has it whole
    title, tint = f"{shown}{home} (sizes {sizes})", "#efe9d8" if home else ""
    box = draw.Box(MARGIN, y, width, height, title, tint, target_system(name), tuple(spots), UNIT)
    items: list[draw.Item] = [box]
    y += height + 6
    for colour in _overpopulated(system):
        word = COLOUR_WORDS[colour]
        title = f"Overpopulated: catastrophe {word}"
        items.append(draw.Box(MARGIN + 12, y, width - 12, MARK, title, word, target_catastrophe(name, colour)))
        y += MARK + 6
    return items, y + 2


def _ship(system: str, piece: str, seat: str, viewer: str | None, lying: draw.Lying) -> draw.Pyramid:
    enemy = viewer is not None and seat != viewer
    title = f"{seat}'s ship {piece} at {system}"
    return pyramid(piece, lying, target_ship(system, piece, enemy=enemy), title)


def _overpopulated(system: dict[str, Any]) -> list[str]:
    """REC-H9: the colours with 4 or more pieces in the system."""
    pieces = [*system["stars"], *(piece for ships in system["ships"].values() for piece in ships)]
    return [colour for colour in "rygb" if sum(piece[0] == colour for piece in pieces) >= 4]


def _bank(bank: dict[str, int], y: float) -> draw.Box:
    """Every piece left in the bank, copy by copy (so counts read at a glance), in colour then size order."""
    copies = ((piece, copy) for piece in PIECES for copy in range(1, bank[piece] + 1))
    spots = tuple(pyramid(piece, target=target_bank(piece, copy), title=f"bank {piece}") for piece, copy in copies)
    width = WIDTH - 2 * MARGIN
    _, tall = draw.row_layout(spots, width - 12, UNIT, "side")
    left = sum(bank.values())
    title = f"Bank: {left} piece{'' if left == 1 else 's'}"
    return draw.Box(MARGIN, y, width, TITLE_ROOM + max(tall, 8) + 10, title, target="bank", spots=spots, unit=UNIT)
