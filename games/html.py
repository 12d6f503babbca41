"""Django's `escape` and `conditional_escape` for the HTML the game page writes in Python, without their
lazy-string wrapper (`keep_lazy` looks through every argument for a lazy one, and makes a SafeString):
the same characters replaced, a few hundred times a page."""

from __future__ import annotations

from html import escape as _escape_html

from django.utils.functional import Promise


def escape(text: object) -> str:
    """`django.utils.html.escape`'s text: &, <, >, " and ' replaced."""
    return _escape_html(str(text))


def conditional_escape(text: object) -> str:
    """`django.utils.html.conditional_escape`'s text: what is already HTML (`__html__`) as it is."""
    if isinstance(text, Promise):
        text = str(text)
    html = getattr(text, "__html__", None)
    return html() if html is not None else _escape_html(str(text))
