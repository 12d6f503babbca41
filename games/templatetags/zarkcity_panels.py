"""The game page's move panel written in Python: the same HTML its template wrote (tests/service/
test_move_panel.py holds it to the byte against that template, kept there), at a fraction of the cost.
The player to move loads this panel with every move; as a template it was some sixty nodes a render.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from games.templatetags.zarkcity_cards import card, move_options, quick_buttons

register = template.Library()


def csrf_input(context: template.Context) -> str:
    """What `{% csrf_token %}` writes: the hidden field, or nothing where the context has no token."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(token)}">'


@register.simple_tag(takes_context=True)
def move_panel(context: template.Context) -> SafeString:
    """The panel of the player to move: a step that ticks cards in hand, the one-click buttons of short
    lists, the list of every legal move, and the field for notation (`g`, `game`, `move_form`,
    `move_error` and `rules` of the game page's context)."""
    g, game, form = context["g"], context["game"], context["move_form"]
    url, csrf, ply = reverse("game_move", args=[game.pk]), csrf_input(context), game.ply
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
