"""The turn email's text and HTML written in Python: what its templates (once templates/emails/your_turn.txt
and .html, with the layout and the partials they include) wrote, byte for byte, at a third of the cost:
the worker writes one a move, and the two templates took some 0.6 ms of its CPU an email, this 0.2 (docs/performance.md,
"Turn emails").
tests/notifications/test_turn_email_parts.py holds both parts to the byte against those templates, kept
in tests/notifications/reference/, for every registered game and every branch.

A value is written as the template engine writes a variable (render_value_in_context: escaped in the
HTML, `date` given the local time first); the other emails (reminders, events, the digest) still use
the templates, the layout and the partials.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.template import Context
from django.template.base import render_value_in_context
from django.template.defaultfilters import date
from django.utils.html import conditional_escape
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # the stubs lack it

from games.templatetags.zarkcity_cards import dice_images

_HTML, _TEXT = Context(autoescape=True), Context(autoescape=False)
ROW = "padding:3px 0;border-bottom:1px solid #efeadf"
NOTATION = (
    "padding:3px 0 3px 10px;border-bottom:1px solid #efeadf;overflow-wrap:anywhere;"
    "font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;color:#5d6375"
)
GREY = 'style="color:#5d6375"'


def _h(value: Any) -> str:
    """`{{ value }}` in the HTML."""
    return conditional_escape(value) if type(value) is str else str(render_value_in_context(value, _HTML))


def _t(value: Any) -> str:
    """`{{ value }}` in the text (autoescape off)."""
    return value if type(value) is str else str(render_value_in_context(value, _TEXT))


def _date(value: Any, fmt: str) -> Any:
    """`value|date:fmt`: the filter expects the local time, as the engine gives it."""
    return date(template_localtime(value), fmt)


def _player(p: dict[str, Any], write: Callable[[Any], str]) -> str:
    """One player in the players' line (the text's and the HTML's, `write` escaping for the HTML)."""
    words = f"{write(p['colour'])} ({write(p['name'])})"
    words += ", left" if p["resigned"] else f", {write(p['facts'])}" if p["facts"] else ""
    if p["away_until"]:
        words += f", away until {write(_date(p['away_until'], 'D j M'))}"
    return words


def text(c: dict[str, Any]) -> str:
    """The text part: tests/notifications/reference/your_turn.txt, as the template wrote it."""
    out = [f"{_t(c['title'])}: it is your move, {_t(c['name'])} ({_t(c['colour'])}): {_t(c['step'])}.\n\n"]
    if c["moves"] or c["opening"]:
        out.append("Since your last turn:\n")
        out.extend(f"  - The opening throw: {_t(throw.words)}\n" for throw in c["opening"])
        out.extend(f"  - {_t(m.words)}   [{_t(m.colour)}: {_t(m.notation)}]\n" for m in c["moves"])
    out.append(f"\nThe board:\n\n{_t(c['board_text'])}\n\n{_hand_text(c)}\nPlayers: ")
    out.append("; ".join(_player(p, _t) for p in c["players"]) + "\n")
    if c["deadline"]:
        out.append(f"Move by {_t(_date(c['deadline'], 'D j M Y, H:i T'))}, or the game resigns you.")
    out.append(f"\n\nOpen the board (this link signs you in once):\n{_t(c['play_url'])}\n\n{_footer_text(c)}\n")
    return "".join(out)


def _hand_text(c: dict[str, Any]) -> str:
    """emails/_hand.txt."""
    if not c["has_hands"]:
        return "\n"
    cards = [f"{_t(x.label)} ({_t(x.code)})" if x.label != x.code else _t(x.label) for x in c["hand"]]
    return f"Your hand: {', '.join(cards) if cards else 'no cards'}\n"


def _footer_text(c: dict[str, Any]) -> str:
    """emails/_footer.txt."""
    reply = "Reply to this email with your move on the first line (or help, moves, board, resign): it is played.\n\n"
    mute = f"Mute this game: {_t(c['mute_url'])}\n" if c["mute_url"] else ""
    return (
        f"{reply if c['reply_to'] else ''}-- \nYou get this email because you play on zarkcity ({_t(c['site_url'])}).\n"
        f"{mute}Email settings and days away: {_t(c['settings_url'])}\n"
        f"Unsubscribe from all email: {_t(c['unsubscribe_url'])}\n"
    )


def html(c: dict[str, Any]) -> str:
    """The HTML part: tests/notifications/reference/your_turn.html in templates/emails/_layout.html."""
    title = _h(c["title"])
    return _layout(c, f"{title}: your move", _body(c, title))


def _body(c: dict[str, Any], title: str) -> str:
    out = [
        f'\n<h1 style="font-size:20px;margin:0 0 10px">{title}: your move</h1>\n<p style="margin:0 0 12px">'
        f"{_h(c['name'])}, you play <strong>{_h(c['colour'])}</strong>: {_h(c['step'])}.</p>\n"
    ]
    if c["moves"] or c["opening"]:
        out.append(
            '\n<p style="margin:0 0 4px"><strong>Since your last turn</strong></p>\n'
            '<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;font-size:15px">\n'
        )
        out.extend(
            f'<tr><td colspan="2" style="{ROW}">The opening throw: {_h(throw.words)}{dice_images(throw.pictures)}'
            "</td></tr>\n"
            for throw in c["opening"]
        )
        out.extend(
            f'<tr><td style="{ROW}">{_h(line.words)}{dice_images(pictures)}</td><td style="{NOTATION}">'
            f"{_h(line.colour)}: {_h(line.notation)}</td></tr>\n"
            for line, pictures in c["move_rows"]
        )
        out.append("</table>\n")
    out.append(
        '\n<table role="presentation" cellpadding="0" cellspacing="0" style="margin:18px 0"><tr><td '
        f'style="background:#3f46a8;border-radius:8px"><a href="{_h(c["play_url"])}" style="display:inline-block;'
        'padding:12px 22px;color:#ffffff;text-decoration:none;font-weight:700">Open the board</a></td></tr></table>\n\n'
    )
    if c["board_cid"]:
        out.append(
            f'<p style="margin:0"><img src="cid:{_h(c["board_cid"])}" alt="{_h(c["board_alt"])}" '
            f'width="{_h(c["board_width"])}" height="{_h(c["board_height"])}" style="max-width:100%;height:auto;'
            'border:1px solid #e3ddd1;border-radius:6px"></p>'
        )
    out.append(f"\n{_hand_html(c)}\n{_players_html(c)}\n")
    if c["deadline"]:
        deadline = _h(_date(c["deadline"], "D j M Y, H:i T"))
        out.append(f'<p style="margin:12px 0 0"><strong>Move by {deadline}</strong>, or the game resigns you.</p>')
    out.append(
        '\n<p style="margin:12px 0 0;font-size:13px;color:#5d6375">The button signs you in to this game, once. '
        f"If it does not work, open {_h(c['game_url'])}.</p>\n"
    )
    return "".join(out)


def _hand_html(c: dict[str, Any]) -> str:
    """emails/_hand.html."""
    if not c["has_hands"]:
        return "\n"
    hand = c["hand"]
    cards = "".join(
        f'<span title="{_h(x.name)}" style="display:inline-block;border:1px solid #c9c2b4;border-radius:5px;'
        f'padding:2px 6px;margin:2px;background:#fffdf8">{_h(x.label)}'
        + (f' <small style="color:#5d6375;font-size:12px">{_h(x.code)}</small>' if x.label != x.code else "")
        + "</span>"
        for x in hand
    )
    return (
        f'<p style="margin:12px 0 4px"><strong>Your hand</strong> ({len(hand)} card{"" if len(hand) == 1 else "s"}):'
        '</p>\n<p style="margin:0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:17px">'
        f"{cards or '<em>no cards</em>'}</p>\n"
    )


def _players_html(c: dict[str, Any]) -> str:
    """emails/_players.html."""
    players = " · ".join(_player(p, _h) for p in c["players"])
    return f'<p style="margin:12px 0 0;color:#5d6375;font-size:14px">{players}</p>\n'


def _layout(c: dict[str, Any], title: str, body: str) -> str:
    """emails/_layout.html around a body."""
    reply = (
        '<p style="color:#5d6375;font-size:14px">Reply to this email with your move on the first line (or '
        "<code>help</code>, <code>moves</code>, <code>board</code>, <code>resign</code>): it is played.</p>"
    )
    mute = f'<a href="{_h(c["mute_url"])}" {GREY}>Mute this game</a> ·' if c["mute_url"] else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{title}</title></head>\n'
        '<body style="margin:0;padding:0;background:#f7f4ee;color:#1f2433;font:16px/1.5 -apple-system,'
        "'Segoe UI',Roboto,Arial,sans-serif\">\n"
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f7f4ee">'
        '<tr><td align="center" style="padding:16px 8px">\n'
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;'
        'background:#ffffff;border:1px solid #e3ddd1;border-radius:10px">\n'
        '<tr><td style="padding:14px 20px;background:#23264a;border-radius:10px 10px 0 0;color:#ffffff;'
        'font-weight:700">zarkcity</td></tr>\n<tr><td style="padding:20px">\n'
        f"{body}\n{reply if c['reply_to'] else ''}\n</td></tr>\n"
        '<tr><td style="padding:14px 20px;border-top:1px solid #e3ddd1;color:#5d6375;font-size:13px">\n'
        f'You get this email because you play on <a href="{_h(c["site_url"])}" {GREY}>zarkcity</a>.\n'
        f"{mute}\n"
        f'<a href="{_h(c["settings_url"])}" {GREY}>Email settings and days away</a> ·\n'
        f'<a href="{_h(c["unsubscribe_url"])}" {GREY}>Unsubscribe from all email</a>\n'
        "</td></tr>\n</table>\n</td></tr></table>\n</body></html>\n"
    )
