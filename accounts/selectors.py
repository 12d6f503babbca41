"""Reads for accounts: the names players are shown by."""

from __future__ import annotations

import unicodedata

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist

# Characters that draw nothing, or nothing but blank space, beyond the format (Cf) category:
# the Hangul and Braille fillers and the combining grapheme joiner.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def name_key(name: str) -> str:
    """What a name looks like, for telling names apart: NFKC, without invisible characters, spaces
    collapsed, case folded. "Bob", "ｂｏｂ" and "b\u200bob" have the same key."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf" and c not in INVISIBLE)
    return " ".join(text.split()).casefold()


def chosen_name_of(user: AbstractBaseUser) -> str:
    """The chosen display name, else the username (a player's own pages, greetings)."""
    try:
        return user.profile.name  # type: ignore[attr-defined]
    except ObjectDoesNotExist:  # users made outside sign-up (admin, shell) may not have one yet
        return user.get_username()


def display_name_of(user: AbstractBaseUser) -> str:
    """The name shown wherever players are listed: "Alice (@alice2)" when the chosen name is not the
    username, so two players can always be told apart (usernames are unique, display names are only
    kept from looking like one another)."""
    name, username = chosen_name_of(user), user.get_username()
    if name_key(name) == name_key(username):
        return name
    return f"{name} (@{username})"
