"""Writes for accounts: the profile every user gets and the display name they choose."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import Profile


def profile_ensure(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created on first need (sign-up, the demo command, a settings page visit)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def profile_update(*, user: AbstractBaseUser, display_name: str) -> Profile:
    """Set the name other players see at the table; blank falls back to the username."""
    display_name = " ".join(display_name.split())  # no leading, trailing or doubled spaces
    max_length = Profile._meta.get_field("display_name").max_length
    if max_length is not None and len(display_name) > max_length:
        raise ValidationError(f"A display name has at most {max_length} characters.")
    profile = profile_ensure(user=user)
    profile.display_name = display_name
    profile.save(update_fields=["display_name"])
    return profile


@transaction.atomic
def user_ensure_verified(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """A user with this password and a verified primary address, created if missing (the demo command).

    Safe to run again: an existing user keeps their games and gets the password back.
    """
    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"email": email})
    user.email = email
    user.set_password(password)
    user.save()
    EmailAddress.objects.update_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
    profile_ensure(user=user)
    return user
