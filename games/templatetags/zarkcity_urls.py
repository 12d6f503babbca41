"""`{% fixed_url 'name' arg ... %}`: `{% url 'name' arg ... %}` reversed once a process for each name and
arguments (zarkcity_site.addresses), rather than on every page: the site header shows nine addresses,
the game page some fifteen more of its own game."""

from __future__ import annotations

from django import template

from zarkcity_site.addresses import address

register = template.Library()


@register.simple_tag
def fixed_url(name: str, *args: int | str) -> str:
    """The path `reverse(name, args=args)` gives, escaped as the page escapes `{% url %}`'s (the simple tag does)."""
    return address(name, *args)
