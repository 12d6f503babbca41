"""Parts of the game page written in Python: the move panel, the status banner, the players' rows and the
notation's examples; the same HTML their templates wrote, at a fraction of the cost (every move loads the
page; the move panel alone was some sixty template nodes a render). tests/service/test_game_page_html.py
holds the whole page to the byte against those templates, kept in tests/service/reference/.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import date, timeuntil_filter
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # the stubs lack it

from accounts.templatetags.accounts import badge_for_bot
from games.html import conditional_escape
from games.templatetags.zarkcity_cards import card, move_options, quick_buttons, seat_chip
from games.templatetags.zarkcity_time import ago
from zarkcity_site.addresses import address

register = template.Library()


def csrf_input(context: template.Context) -> str:
    """What `{% csrf_token %}` writes, by Django's own node: the hidden field, or nothing where the
    context has no token."""
    return str(CsrfTokenNode().render(context))


@register.simple_tag(takes_context=True)
def move_panel(context: template.Context) -> SafeString:
    """The panel of the player to move: a step that ticks cards in hand, the one-click buttons of short
    lists, the list of every legal move, and the field for notation (`g`, `game`, `move_form`,
    `move_error` and `rules` of the game page's context)."""
    g, game, form = context["g"], context["game"], context["move_form"]
    url, csrf, ply = address("game_move", game.pk), csrf_input(context), game.ply
    error = context.get("move_error")
    parts = [
        '\n<section class="zc-panel zc-move" id="move" aria-labelledby="move-title">\n'
        '  <h2 id="move-title">Your move</h2>\n  ',
        f'<p class="zc-error" role="alert">{conditional_escape(error)}</p>' if error else "",
        "\n\n  ",
    ]
    pick = g.pick
    if pick:
        parts.append(_pick_form(url, csrf, ply, pick, g.hand, game))
    parts.append("\n\n  ")
    for group in g.legal:
        parts.append("\n    ")
        if group.quick and len(group.moves) <= 8:
            parts.append(
                f'\n      <form method="post" action="{url}" class="zc-quick">\n'
                f'        {csrf}<input type="hidden" name="seen_ply" value="{ply}">\n'
                f'        <span class="zc-quick__label">{conditional_escape(group.label)}:</span>\n'
                f"        {quick_buttons(group.moves)}\n      </form>\n    "
            )
        parts.append("\n  ")
    parts.append("\n\n  ")
    if not pick:
        parts.append(
            f'\n  <form method="post" action="{url}" class="zc-pick">\n'
            f'    {csrf}<input type="hidden" name="seen_ply" value="{ply}">\n'
            f'    <label for="id_pick">Every move you can make now ({g.legal_count}):</label>\n'
            f'    <select name="text" id="id_pick" class="mono">\n      {move_options(g.legal)}\n    </select>\n'
            '    <button type="submit" class="btn btn-primary">Play</button>\n  </form>\n  '
        )
    text = form["text"]
    examples = ", ".join(
        f'<code title="{conditional_escape(meaning)}">{conditional_escape(example)}</code>'
        for example, meaning in context["rules"].notation_help()
    )
    parts.append(
        f'\n\n  <form method="post" action="{url}#move" class="zc-type">\n'
        f"    {csrf}{form['seen_ply']}\n"
        f'    <label for="{conditional_escape(text.id_for_label)}">Or type it in notation:</label>\n'
        f"    {text}\n"
        '    <button type="submit" class="btn">Send</button>\n'
        f'    <p class="muted zc-help">For example {examples}. Every move is explained under “How to play”.</p>\n'
        "  </form>\n</section>\n"
    )
    return mark_safe("".join(parts))  # noqa: S308 (every part is escaped)


def _pick_form(url: str, csrf: str, ply: int, pick: Any, hand: list[str], game: Any) -> str:
    """The step that ticks cards in hand (`Table.pick`): a tick-box a card, and the step's button."""
    boxes = "".join(
        f'<label class="zc-check"><input type="checkbox" name="pick_cards" value="{conditional_escape(code)}">'
        f" {card(code, game)}</label>"
        for code in hand
    )
    return (
        f'\n    <form method="post" action="{url}" class="zc-discard">\n'
        f'      {csrf}<input type="hidden" name="seen_ply" value="{ply}">'
        f'<input type="hidden" name="pick_verb" value="{conditional_escape(pick.verb)}">\n'
        "      <fieldset>\n"
        f"        <legend>{conditional_escape(pick.prompt)}</legend>\n"
        '        <div class="zc-checks">\n'
        f"        {boxes}\n"
        "        </div>\n"
        f'        <button type="submit" class="btn btn-primary">{conditional_escape(pick.button)}</button>\n'
        "      </fieldset>\n    </form>\n  "
    )


@register.filter
def notation_terms(rules: Any) -> SafeString:
    """The notation's examples under "How to play": a <dt> and <dd> each, as its template loop wrote them."""
    return mark_safe(  # noqa: S308 (every part is escaped)
        "".join(
            f"<dt><code>{conditional_escape(example)}</code></dt><dd>{conditional_escape(meaning)}</dd>"
            for example, meaning in rules.notation_help()
        )
    )


@register.simple_tag(takes_context=True)
def status_banner(context: template.Context) -> SafeString:
    """The banner over the board (#status): how a finished game ended, or whose move it is, since when,
    each mover's deadline and the viewer's private note; then the "Next game" button. Where the template
    had filters (`date`, `timeuntil`, `ago`, `seat_chip`), this calls the same functions."""
    g, game = context["g"], context["game"]
    result = g.result
    if result:
        ended = game.finished_at and date(template_localtime(game.finished_at), "j M Y, H:i e")
        return mark_safe(  # noqa: S308 (every part is escaped)
            '\n    <section id="status" class="zc-banner zc-banner--over" aria-live="polite">\n      '
            f"{_how_it_ended(result)}\n"
            f'      <span class="muted">Finished {conditional_escape(ended or "")}.</span>\n'
            f"      {_next_game(context)}\n    </section>\n  "
        )
    mine = " zc-banner--mine" if g.my_move else ""
    started = game.turn_started_at
    since = f'<span class="muted">Turn started {conditional_escape(ago(started))};</span>' if started else ""
    note = f'<span class="zc-note">{conditional_escape(g.private_note)}</span>' if g.private_note else ""
    return mark_safe(  # noqa: S308 (every part is escaped)
        f'\n    <section id="status" class="zc-banner{mine}" aria-live="polite">\n'
        f"      <strong>{conditional_escape(g.status_line)}</strong>\n"
        f"      {since}\n      {_deadlines(context['table'].clocks)}\n      {note}\n"
        f"      {_next_game(context)}\n    </section>\n  "
    )


def _how_it_ended(result: Any) -> str:
    if result.winners:
        chips = " and ".join(f"{seat_chip(colour)} {conditional_escape(name)}" for colour, name in result.winners)
        colours = " and ".join(conditional_escape(colour) for colour, _ in result.winners)
        return (
            "\n        \n"  # where the template's comment was
            f"        <strong>{chips} won as {colours}</strong>{conditional_escape(result.how)}.\n      "
        )
    if result.reason == "timeout":
        said = "<strong>The game ended without a winner</strong>: every remaining player ran out of time."
    else:
        said = "<strong>The game ended in a draw</strong>, agreed by every remaining player."
    return f"\n        {said}\n      "


def _deadlines(clocks: list[Any]) -> str:
    """Each mover's deadline, as `date` and `timeuntil` write it in the viewer's time zone."""
    parts = []
    for clock in clocks:
        whose = f"{conditional_escape(clock.colour)}'s " if len(clocks) > 1 else ""
        deadline = template_localtime(clock.deadline)
        away = "; away, clock stopped" if clock.away_until else ""
        parts.append(
            f'<span class="muted">{whose}deadline <time datetime="{conditional_escape(date(deadline, "c"))}">'
            f"{conditional_escape(date(deadline, 'D j M, H:i e'))}</time> "
            f"({conditional_escape(timeuntil_filter(clock.deadline))} left{away}).</span>"
        )
    return "".join(parts)


def _next_game(context: template.Context) -> str:
    """The "Next game" button of a seated viewer: the game where it is their move with the least time left."""
    if not context["g"].viewer:
        return "\n\n"  # the template's comment line, then its empty if
    following = context.get("next_game")
    label = f": {conditional_escape(following.name)}" if following else ""
    return (
        f'\n<a class="btn btn-small zc-next-game" href="{address("next_game")}?after={context["game"].pk}"'
        f' data-next-game aria-keyshortcuts="n" title="Key: n"{"" if following else " hidden"}>'
        f'<span data-next-label>Next game{label}</span> <span aria-hidden="true">&rarr;</span></a>\n'
    )


@register.simple_tag(takes_context=True)
def seat_rows(context: template.Context) -> SafeString:
    """The players table's rows: each seat's chip, name, bot badge, what it is doing and its public facts."""
    rows = []
    for seat in context["g"].seats:
        marks = ("zc-to-move" if seat.to_move else "") + (" zc-resigned" if seat.resigned else "")
        you = ' <span class="muted">(you)</span>' if seat.is_viewer else ""
        doing = (
            '<span class="zc-tag">resigned</span>'
            if seat.resigned
            else '<span class="zc-tag zc-tag--move">to move</span>'
            if seat.to_move
            else ""
        )
        note = f'<span class="zc-tag">{conditional_escape(seat.note)}</span>' if seat.note else ""
        facts = " · ".join(conditional_escape(fact) for fact in seat.facts)
        rows.append(
            f'\n            <tr class="{marks}">\n'
            f"              <td>{seat_chip(seat.colour)} {conditional_escape(seat.name)}"
            f"{badge_for_bot(seat.bot)}{you}\n"
            f"                {doing}\n                {note}</td>\n"
            f'              <td class="zc-facts">{facts}</td>\n            </tr>\n          '
        )
    return mark_safe("".join(rows))  # noqa: S308 (every part is escaped)
