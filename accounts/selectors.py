"""Reads for accounts."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist


def display_name_of(user: AbstractBaseUser) -> str:
    """The name shown at the table: the chosen display name, else the username."""
    try:
        return user.profile.name  # type: ignore[attr-defined]
    except ObjectDoesNotExist:  # users made outside sign-up (admin, shell) may not have one yet
        return user.get_username()
