"""`{{ user|display_name }}`: the name shown at the table, for any template."""

from django import template

from accounts.selectors import display_name_of

register = template.Library()


@register.filter
def display_name(user: object) -> str:
    return display_name_of(user) if user is not None else ""  # type: ignore[arg-type]
