"""`{% fixed_url 'name' %}`: `{% url 'name' %}` for a view that takes no argument, reversed once a process
(for each script prefix and URLconf) rather than on every page; the site header shows nine of them."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()

_FIXED: dict[tuple[str, str, object], str] = {}


@register.simple_tag
def fixed_url(name: str) -> str:
    """The path `reverse(name)` gives, escaped as the page escapes `{% url %}`'s (the simple tag does)."""
    key = (name, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    url = _FIXED.get(key)
    if url is None:
        url = _FIXED[key] = reverse(name)
    return url
