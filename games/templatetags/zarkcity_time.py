"""Template filters for how long ago something happened, without Django's "0 minutes ago"."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()
JUST_NOW = timedelta(minutes=1)  # timesince says "0 minutes" below this


def _recent(value: datetime, now: datetime | None = None) -> bool:
    return (now or timezone.now()) - value < JUST_NOW


@register.filter
def ago(value: datetime | None) -> str:
    """ "3 hours ago", or "just now" for the last minute (and for a clock a little ahead)."""
    if not value:
        return ""
    return "just now" if _recent(value) else f"{timesince(value)} ago"


@register.filter
def waited(value: datetime | None) -> str:
    """ "for 3 hours" (waiting since `value`), or "just now" for the last minute."""
    if not value:
        return ""
    return "just now" if _recent(value) else f"for {timesince(value)}"
