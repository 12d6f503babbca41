"""{% reply_enabled user as on %}: the reply-to-play switch's state, for the notification settings page."""

from django import template
from django.contrib.auth.models import User

from replies.selectors import reply_enabled as _reply_enabled

register = template.Library()


@register.simple_tag
def reply_enabled(user: User) -> bool:
    return _reply_enabled(user)
