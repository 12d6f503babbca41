"""How a Looney pyramid looks: translucent faces (a lit one and a shaded one), a darker edge and its
size's pips, seen from the side (standing or lying) or from above; stacks and nests.

`unit` is a Large's base in user units; every size keeps the real pieces' proportions. Only SVG
presentation attributes, linear gradients, opacity and transforms: what librsvg and cairosvg draw
the same as a browser (the email picture is this very SVG).
"""

from __future__ import annotations

from html import escape

from .scene import PIPS, Pyramid, Seen, Spot, Stack, spot_pieces, spot_title

BASE = {"S": 0.6, "M": 0.8, "L": 1.0}  # a base's side, in Larges
HEIGHT = {"S": 0.95, "M": 1.27, "L": 1.6}  # the height standing, in Larges
NEST_RAISE = 0.1  # a piece over a smaller one sits this much of the smaller's height above it (drawn, not physics)
TIER = 0.4  # a smaller piece on a bigger one sits at least this much of the bigger's height up
# colour -> (face, lit face, edge)
PALETTE = {
    "red": ("#d7263d", "#f4949e", "#7a0f1c"),
    "yellow": ("#f2c200", "#fbe47e", "#7f6400"),
    "green": ("#2e9e4f", "#93d8a6", "#14532a"),
    "blue": ("#2463c9", "#93b4ee", "#0e326e"),
    "black": ("#2d2d33", "#777783", "#000000"),
    "white": ("#f1f1f1", "#ffffff", "#7c7c7c"),
    "clear": ("#cfe0e8", "#ffffff", "#6f8591"),
    "hidden": ("#9a9aa2", "#c9c9cf", "#4a4a52"),
}
OPACITY = {"clear": 0.5, "hidden": 1.0}  # the face's fill opacity; others 0.85 (the real ones are translucent)


def colours(colour: str) -> tuple[str, str, str]:
    """(face, lit face, edge) of a piece colour, or made from any "#rrggbb"."""
    if colour in PALETTE:
        return PALETTE[colour]
    return colour, mix(colour, "#ffffff", 0.55), mix(colour, "#000000", 0.55)


def mix(one: str, two: str, share: float) -> str:
    """`one` moved `share` of the way to `two` (both "#rrggbb")."""
    a = [int(one[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(two[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


def gradient_id(colour: str) -> str:
    return "kd-g-" + "".join(ch for ch in colour if ch.isalnum())


def gradient(colour: str) -> str:
    """The shaded face's gradient: lighter at the point, darker at the base, as the light falls."""
    face, lit, edge = colours(colour)
    return (
        f'<linearGradient id="{gradient_id(colour)}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{mix(face, lit, 0.5)}"/><stop offset="0.6" stop-color="{face}"/>'
        f'<stop offset="1" stop-color="{mix(face, edge, 0.3)}"/></linearGradient>'
    )


# --- footprints: how much room a spot takes, in user units -----------------------------------------
def stack_bases(pieces: tuple[Pyramid, ...]) -> list[float]:
    """How high each piece's base sits (in Larges): a smaller piece rests on the one below, at least
    TIER of its height up; a piece as big or bigger covers it, raised a little so the nest shows."""
    bases: list[float] = []
    for i, piece in enumerate(pieces):
        rest = 0.0
        for below, base in zip(pieces[:i], bases, strict=False):
            wide, tall = BASE[below.size], HEIGHT[below.size]
            if BASE[piece.size] < wide:  # thin walls would let it sink lower: drawn higher, so each tier shows
                rest = max(rest, base + tall * max(1 - BASE[piece.size] / wide, TIER))
            else:
                rest = max(rest, base + tall * NEST_RAISE)
        bases.append(rest)
    return bases


def footprint(spot: Spot, seen: Seen) -> tuple[float, float]:
    """(width, height) of a spot in Larges."""
    if isinstance(spot, Pyramid) and spot.lying:
        long, short = HEIGHT[spot.size], BASE[spot.size]
        if seen == "side" or spot.lying in ("left", "right"):
            return (long, short) if spot.lying in ("left", "right") else (short, long)
        return short, long
    pieces = spot_pieces(spot)
    wide = max(BASE[p.size] for p in pieces)
    if seen == "top":
        return wide, wide
    return wide, max(b + HEIGHT[p.size] for p, b in zip(pieces, stack_bases(pieces), strict=True))


# --- drawing --------------------------------------------------------------------------------------
def spot_svg(spot: Spot, x: float, y: float, unit: float, seen: Seen) -> str:
    """The spot with its footprint's bottom middle at (x, y) (side), or centred there (top)."""
    body = _piece(spot, x, y, unit, seen) if isinstance(spot, Pyramid) else "".join(_stacked(spot, x, y, unit, seen))
    mark = _mark(spot, x, y, unit, seen) if _marked(spot) else ""
    return f"<g><title>{escape(spot_title(spot))}</title>{mark}{body}</g>"


def _marked(spot: Spot) -> bool:
    return any(p.marked for p in spot_pieces(spot))


def _stacked(stack: Stack, x: float, y: float, unit: float, seen: Seen) -> list[str]:
    upright = [Pyramid(p.colour, p.size, "", p.target, p.title, p.marked) for p in stack.pieces]
    if seen == "top":
        return [_top(p, x, y, unit) for p in upright]
    return [_side(p, x, y - base * unit, unit) for p, base in zip(upright, stack_bases(stack.pieces), strict=True)]


def _piece(piece: Pyramid, x: float, y: float, unit: float, seen: Seen) -> str:
    drawn = _side(piece, x, y, unit) if seen == "side" else _top(piece, x, y, unit)
    if not piece.lying:
        return drawn
    # Lying: drawn standing, centred on its footprint's middle, and turned where it points.
    wide, tall = footprint(piece, seen)
    cy = y - tall * unit / 2 if seen == "side" else y
    standing = Pyramid(piece.colour, piece.size)
    centre_base = cy + HEIGHT[piece.size] * unit / 2
    drawn = _side(standing, x, centre_base, unit) if seen == "side" else _lying_top(standing, x, cy, unit)
    turn = {"up": 0, "right": 90, "down": 180, "left": 270}[piece.lying]
    return f'<g transform="rotate({turn} {_n(x)} {_n(cy)})">{drawn}</g>'


def _side(piece: Pyramid, x: float, base: float, unit: float) -> str:
    """Standing, seen a little from the left: the lit left face, the shaded right face, the edge."""
    face, lit, edge = colours(piece.colour)
    half, tall = BASE[piece.size] * unit / 2, HEIGHT[piece.size] * unit
    tip, left, right, foot = (x, base - tall), (x - half, base), (x + half, base), (x - half * 0.25, base)
    opacity = OPACITY.get(piece.colour, 0.85)
    width = _n(max(1.0, unit * 0.045))
    return (
        f'<polygon points="{_pts(tip, left, foot)}" fill="{lit}" fill-opacity="{opacity}"/>'
        f'<polygon points="{_pts(tip, foot, right)}" fill="{_shade(piece)}" fill-opacity="{opacity}"/>'
        f'<polyline points="{_pts(tip, foot)}" fill="none" stroke="{lit}" stroke-opacity="0.7" stroke-width="{width}"/>'
        f'<polygon points="{_pts(tip, left, right)}" fill="none" stroke="{edge}" stroke-width="{width}" '
        f'stroke-linejoin="round"{_dash(piece)}/>' + _pips(piece, x + half * 0.2, base - tall * 0.1, unit)
    )


def _top(piece: Pyramid, x: float, y: float, unit: float) -> str:
    """Standing, seen from above: four faces meeting at the point, lit from the top left."""
    if piece.lying:
        return _lying_top(piece, x, y, unit)
    face, lit, edge = colours(piece.colour)
    h = BASE[piece.size] * unit / 2
    tl, tr, br, bl, c = (x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h), (x, y)
    opacity = OPACITY.get(piece.colour, 0.85)
    faces = ((tl, tr, lit), (tl, bl, mix(face, lit, 0.45)), (tr, br, face), (bl, br, mix(face, edge, 0.3)))
    parts = [f'<polygon points="{_pts(a, b, c)}" fill="{f}" fill-opacity="{opacity}"/>' for a, b, f in faces]
    width = _n(max(1.0, unit * 0.045))
    parts.append(
        f'<polygon points="{_pts(tl, tr, br, bl)}" fill="none" stroke="{edge}" stroke-width="{width}" '
        f'stroke-linejoin="round"{_dash(piece)}/>'
    )
    parts.append(
        f'<path d="M{_pts(tl)}L{_pts(br)}M{_pts(tr)}L{_pts(bl)}" stroke="{edge}" stroke-opacity="0.45" '
        f'stroke-width="{width}"/>'
    )
    return "".join(parts) + _pips(piece, x, y + h * 0.72, unit)


def _lying_top(piece: Pyramid, x: float, y: float, unit: float) -> str:
    """Lying, seen from above, pointing up (the caller turns it): a long triangle, its ridge down the middle."""
    face, lit, edge = colours(piece.colour)
    half, long = BASE[piece.size] * unit / 2, HEIGHT[piece.size] * unit
    tip, left, right, mid = (x, y - long / 2), (x - half, y + long / 2), (x + half, y + long / 2), (x, y + long / 2)
    opacity = OPACITY.get(piece.colour, 0.85)
    width = _n(max(1.0, unit * 0.045))
    return (
        f'<polygon points="{_pts(tip, left, mid)}" fill="{lit}" fill-opacity="{opacity}"/>'
        f'<polygon points="{_pts(tip, mid, right)}" fill="{_shade(piece)}" fill-opacity="{opacity}"/>'
        f'<polyline points="{_pts(tip, mid)}" fill="none" stroke="{edge}" stroke-opacity="0.45" '
        f'stroke-width="{width}"/><polygon points="{_pts(tip, left, right)}" fill="none" stroke="{edge}" '
        f'stroke-width="{width}" stroke-linejoin="round"{_dash(piece)}/>'
        + _pips(piece, x, y + long / 2 - half * 0.3, unit)
    )


def _dash(piece: Pyramid) -> str:
    """A hidden piece's edge is dashed: grey alone could pass for a colour."""
    return ' stroke-dasharray="3 2"' if piece.colour == "hidden" else ""


def _shade(piece: Pyramid) -> str:
    return f"url(#{gradient_id(piece.colour)})"


def _pips(piece: Pyramid, x: float, y: float, unit: float) -> str:
    """The size's 1, 2 or 3 pips in a row centred on (x, y), as the real pieces carry them at the base."""
    count, gap, r = PIPS[piece.size], unit * 0.13, max(0.9, unit * 0.045)
    ink = "#ffffff" if piece.colour in ("black", "blue", "red", "green", "hidden") else colours(piece.colour)[2]
    first = x - gap * (count - 1) / 2
    return "".join(
        f'<circle cx="{_n(first + i * gap)}" cy="{_n(y)}" r="{_n(r)}" fill="{ink}" fill-opacity="0.9"/>'
        for i in range(count)
    )


def _mark(spot: Spot, x: float, y: float, unit: float, seen: Seen) -> str:
    wide, tall = footprint(spot, seen)
    w, h, pad = wide * unit, tall * unit, unit * 0.12
    top = y - h if seen == "side" else y - h / 2
    return (
        f'<rect x="{_n(x - w / 2 - pad)}" y="{_n(top - pad)}" width="{_n(w + 2 * pad)}" height="{_n(h + 2 * pad)}" '
        f'rx="{_n(pad)}" fill="#fff3b0" fill-opacity="0.7" stroke="#1f2430" stroke-width="1.5"/>'
    )


def _pts(*points: tuple[float, float]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _n(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
