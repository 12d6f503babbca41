"""`{{ user|display_name }}`: the name shown at the table, for any template; `{{ user|bot_badge }}`: the
"bot" badge after a built-in bot's name (nothing for a person), `{{ label|bot_label_badge }}` the same
from a bot's label already looked up (the game page's SeatInfo.bot)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.selectors import bot_label_of, display_name_of

register = template.Library()


@register.filter
def display_name(user: object) -> str:
    return display_name_of(user) if user is not None else ""  # type: ignore[arg-type]


@register.filter
def bot_badge(user: object) -> SafeString | str:
    label = bot_label_of(user) if user is not None else ""  # type: ignore[arg-type]
    return badge_for_bot(label)


@register.filter(name="bot_label_badge")
def badge_for_bot(label: str) -> SafeString | str:
    """The badge for a bot called `label` ("MCTS"), with a space before it; "" for a person."""
    if not label:
        return ""
    return format_html(' <span class="badge badge--bot" title="A built-in bot: {}">bot</span>', label)
