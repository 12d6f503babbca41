"""What a Martian Chess step did, as events written while the rules apply it: the move, a capture or
a field promotion, the piece changing hands at the canal, the end (engine/kit/events.py). All public.
"""

from __future__ import annotations

from ..kit.events import Event
from .board import NAMES, POINTS, cell_name


def _piece(size: str) -> str:
    return f"a {NAMES[size]}"


def stepped(
    by: str, moving: str, target: str | None, start: tuple[int, int], end: tuple[int, int], crossed: bool
) -> Event:
    """One piece's step: a plain move, a capture across the canal, or a merge inside the zone."""
    frm, to = cell_name(start), cell_name(end)
    facts: dict[str, object] = {"piece": moving, "from": frm, "to": to}
    if target is not None and not crossed:
        made = "L" if {moving, target} == {"S", "M"} else "M"
        text = f"{by} merged {_piece(moving)} from {frm} with the {NAMES[target]} on {to} into a {NAMES[made]}"
        return Event("promote", text, by, facts | {"with": target, "into": made})
    text = f"{by} moved {_piece(moving)} from {frm} to {to}"
    if target is None:
        return Event("move", text, by, facts)
    text += f", capturing {_piece(target)} ({POINTS[target]})"
    return Event("capture", text, by, facts | {"captured": target, "points": POINTS[target]})


def crossed(owner: str) -> Event:
    return Event("cross", f"it is now {owner}'s", owner)


def passed(by: str) -> Event:
    return Event("pass", f"{by} passed (no legal move)", by)


def resigned(by: str, zone_stays: bool) -> Event:
    return Event("resign", f"{by} resigned" + ("; their zone stays on the board" if zone_stays else ""), by)


def ended(winner: str) -> Event:
    return Event("end", f"the game is over and {winner} wins", winner, {"winners": [winner], "reason": "score"})
