"""Template filters for the game page: a card as its game reads it ("7♥", "Lunatic"), a seat's colour chip.

`{{ code|card:game }}` asks the game's interface (`game.rules.card`) how the card reads and which
class colours it (Card.css); without the argument it is the registry's default game, the game of
any file or row that names none (games.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime

from engine import registry
from engine.interface import Game as GameRules
from engine.interface import Throw, throw_svg
from engine.kit.core import card_of
from games.html import conditional_escape, escape
from games.selectors.history import HistoryEntry
from games.selectors.page import MoveGroup

register = template.Library()
# The seat colours' letters, the marks the board pictures use (colour-blind friendly); seats are colours in every game.
SEAT_LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K"}


def _rules(game: Any) -> GameRules:
    """The interface of a stored game (games.models.Game), of a game itself, or the default game."""
    rules = getattr(game, "rules", game)
    return rules if hasattr(rules, "info") else registry.get(None)


@register.filter
def card(code: str, game: Any = None) -> SafeString:
    """<span class="zc-c zc-c--H" title="Seven of hearts">7♥</span>; everything escaped."""
    shown = card_of(_rules(game), str(code))
    # format_html's HTML, written without it: the hand and the tick-boxes show a dozen cards a page.
    css, name, label = (conditional_escape(part) for part in (shown.css or "plain", shown.name, shown.label))
    return mark_safe(f'<span class="zc-c zc-c--{css}" title="{name}">{label}</span>')  # noqa: S308 (escaped)


@register.filter
def cards(codes: Iterable[str] | None, game: Any = None) -> SafeString:
    return mark_safe(" ".join(card(code, game) for code in codes or ()))  # noqa: S308 (each card escaped)


@register.filter
def seat_chip(colour: str) -> SafeString:
    """A swatch with the colour's letter, the same marks the board uses (colour-blind friendly)."""
    letter = conditional_escape(SEAT_LETTER.get(colour, "?"))  # format_html's HTML, as `card` writes it
    return mark_safe(f'<span class="zc-chip zc-chip--{conditional_escape(colour)}" aria-hidden="true">{letter}</span>')  # noqa: S308 (escaped)


@register.filter
def move_options(groups: Iterable[MoveGroup]) -> str:
    """The <optgroup>s of every legal move, built here rather than in a template loop: a position can
    offer a few hundred moves, and a template loop costs the page milliseconds for them."""
    return mark_safe(  # noqa: S308 (every part is escaped)
        "".join(
            f'<optgroup label="{escape(group.label)}">'
            + "".join(f'<option value="{move}">{move}</option>' for move in map(escape, group.moves))
            + "</optgroup>"
            for group in groups
        )
    )


@register.filter
def quick_buttons(moves: Iterable[str]) -> str:
    """One submit button a move, for the short lists the page offers as one click."""
    return mark_safe(  # noqa: S308 (every part is escaped)
        "".join(
            f'<button type="submit" name="text" value="{move}" class="btn btn-small mono">{move}</button>'
            for move in map(escape, moves)
        )
    )


@register.filter
def dice_faces(throws: Iterable[Throw]) -> str:
    """Each throw a move made as small die faces (inline SVG from the drawing kit), after its words."""
    # Styled inline: the email's HTML carries no stylesheet.
    span = '<span class="zc-dice" style="display:inline-block;vertical-align:middle;margin:2px 4px 0 0">'
    pictures = "".join(f"{span}{throw_svg(throw)}</span>" for throw in throws)
    return mark_safe(f" {pictures}" if pictures else "")  # noqa: S308 (the kit escapes every text)


@register.filter
def dice_images(images: Iterable[Any]) -> str:
    """Each throw as the turn email's HTML shows it: an <img> of the PNG attached with the email
    (notifications.emails.DiceImage: cid, alt, width, height), its words as alt text."""
    style = "display:inline-block;vertical-align:middle;margin:2px 4px 0 0;border:0"
    return format_html_join(
        "",
        ' <img src="cid:{}" alt="{}" width="{}" height="{}" style="{}">',
        ((image.cid, image.alt, image.width, image.height, style) for image in images),
    )


@register.filter
def history_items(entries: Iterable[HistoryEntry]) -> str:
    """The history's <li> rows, built here rather than in a template loop: a long game lists many."""
    return mark_safe("".join(_history_item(item) for item in entries))  # noqa: S308 (every part is escaped)


def _history_item(item: HistoryEntry) -> str:
    colour = escape(item.colour)
    if item.kind == "move":
        words = f' <span class="zc-words">{escape(item.words)}</span>' if item.words else ""
        words += dice_faces(item.dice)
        number = f'<span class="zc-ply">{item.number}.</span>'
        return (
            f'<li class="zc-log__move zc-log--{colour}" value="{item.number}">{number} '
            f'<span class="zc-by">{colour}</span> <code>{escape(item.text)}</code>{words}</li>'
        )
    at = localtime(item.at) if item.at else None
    when, stamp = (at.strftime("%-d %b %H:%M"), at.isoformat()) if at else ("", "")
    if item.kind == "opening":  # the setup's throw, before any move
        return f'<li class="zc-log__draw zc-log--{colour}">{escape(item.text)}{dice_faces(item.dice)}</li>'
    if item.kind == "draw":  # "Alice (@alice), red, proposed a draw", or what became of the offer
        by = f'<span class="zc-by">{escape(item.name)}</span>, {colour}, ' if item.name else ""
        time = f' <time class="muted" datetime="{stamp}">{when}</time>' if at else ""
        border = f" zc-log--{colour}" if colour else ""
        return f'<li class="zc-log__draw{border}">{by}{escape(item.text)}{time}</li>'
    return (
        f'<li class="zc-log__chat zc-log--{colour}"><span class="zc-by">{escape(item.name)}</span> '
        f'<span class="zc-said">{escape(item.text)}</span> <time class="muted" datetime="{stamp}">{when}</time></li>'
    )
