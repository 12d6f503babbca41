"""{% reply_enabled user as on %}: the reply-to-play switch's state, for the notification settings page."""

from django import template

from replies.selectors import reply_enabled as _reply_enabled

register = template.Library()


@register.simple_tag
def reply_enabled(user) -> bool:
    return _reply_enabled(user)
