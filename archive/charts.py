"""The rating history chart as a small server-side SVG: no script, readable without colour, text escaped."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from html import escape

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 14, 30


def rating_history_svg(points: Sequence[tuple[date, float, float, float]], *, title: str) -> str:
    """Rating (mu - 3 sigma) after each game as a line, over a band from the rating up to the mean skill mu;
    `points`: (day, rating, mu, sigma), oldest first (selectors.rating_history)."""
    if not points:
        return _frame(title, '<text x="50%" y="50%" text-anchor="middle" class="chart-note">No rated games yet</text>')
    lows = [rating for _, rating, _, _ in points]
    highs = [mu for _, _, mu, _ in points]
    low, high = min(0.0, min(lows)), max(highs)
    x = _scale(0, max(len(points) - 1, 1), LEFT, WIDTH - RIGHT)
    y = _scale(low, high if high > low else low + 1, HEIGHT - BOTTOM, TOP)
    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(lows))
    band = line + " " + " ".join(f"{x(i):.1f},{y(m):.1f}" for i, m in reversed(list(enumerate(highs))))
    body = [
        _axes(low, high, y),
        f'<polygon points="{band}" class="chart-band"><title>mean skill (mu) to rating</title></polygon>',
        f'<polyline points="{line}" class="chart-line" fill="none"/>',
        _ends(points, x, y, lows),
    ]
    return _frame(title, "".join(body))


def _scale(lo: float, hi: float, out_lo: float, out_hi: float) -> Callable[[float], float]:
    span = (hi - lo) or 1.0
    return lambda v: out_lo + (v - lo) * (out_hi - out_lo) / span


def _axes(low: float, high: float, y: Callable[[float], float]) -> str:
    parts = []
    for value in sorted({round(low), round((low + high) / 2), round(high)}):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" class="chart-grid"/>'
        )
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" class="chart-label">{value}</text>'
        )
    return "".join(parts)


def _ends(
    points: Sequence[tuple[date, float, float, float]],
    x: Callable[[float], float],
    y: Callable[[float], float],
    lows: list[float],
) -> str:
    first, last = points[0][0], points[-1][0]
    n = len(points)
    labels = (
        f'<text x="{LEFT}" y="{HEIGHT - 8}" class="chart-label">{escape(first.strftime("%Y-%m-%d"))}</text>'
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end" class="chart-label">'
        f"{escape(last.strftime('%Y-%m-%d'))} · {n} game{'s' if n != 1 else ''}</text>"
    )
    now = lows[-1]
    dot = (
        f'<circle cx="{x(n - 1):.1f}" cy="{y(now):.1f}" r="3.5" class="chart-dot"><title>now {now:.1f}</title></circle>'
    )
    return labels + dot


def _frame(title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="rating-chart" role="img" '
        f'aria-label="{escape(title, quote=True)}"><title>{escape(title)}</title>'
        "<style>.chart-line{stroke:#3f46a8;stroke-width:2}.chart-band{fill:#3f46a8;opacity:.12}"
        ".chart-grid{stroke:#e3ddd1}.chart-label,.chart-note{font:11px system-ui,sans-serif;fill:#5d6375}"
        ".chart-dot{fill:#3f46a8}</style>"
        f"{body}</svg>"
    )
