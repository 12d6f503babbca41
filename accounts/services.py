"""Writes for accounts: the profile every user gets and the display name they choose."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sites.models import Site
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import Profile
from accounts.selectors import name_key


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
    if display_name:
        check_name_free(name=display_name, user=user)
    profile = profile_ensure(user=user)
    profile.display_name = display_name
    profile.name_key = name_key(display_name)
    profile.save(update_fields=["display_name", "name_key"])
    return profile


def check_name_free(*, name: str, user: AbstractBaseUser | None) -> None:
    """Refuse a name that shows nothing, or looks like another player's username or display name.

    Looks are compared by `name_key`: Unicode-normalised, invisible characters dropped, case folded,
    so "bob", "BOB", "ｂｏｂ" and "b<zero-width space>ob" are all the same name to a reader.
    """
    key = name_key(name)
    if not key:
        raise ValidationError("A display name needs at least one visible character.")
    others = get_user_model().objects.exclude(pk=getattr(user, "pk", None))
    if others.filter(username__iexact=key).exists():
        raise ValidationError("That name is another player's username: choose one nobody else uses.")
    if Profile.objects.filter(name_key=key).exclude(user_id=getattr(user, "pk", None)).exists():
        raise ValidationError("Another player already goes by that name: choose one nobody else uses.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in name):
        # Invisible and direction-changing characters (a right-to-left override makes "\u202eecila"
        # read "alice" and garbles the "(@username)" after it): no honest name needs them.
        raise ValidationError("A display name may not contain invisible or text-direction characters.")


@transaction.atomic
def user_ensure_verified(*, username: str, email: str, password: str, staff: bool = False) -> AbstractBaseUser:
    """A user with this password and a verified primary address, created if missing (the demo command).

    Safe to run again: an existing user keeps their games and gets the password back. `staff` makes
    them an operator (the admin and, under DEBUG, the development mailbox).
    """
    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"email": email})
    user.email = email
    user.set_password(password)
    if staff:
        user.is_staff = user.is_superuser = True
    user.save()
    EmailAddress.objects.update_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
    profile_ensure(user=user)
    return user


def site_sync(*, using: str = "default") -> Site:
    """The sites framework's Site (SITE_ID) named after ZARKCITY_SITE_URL's host: run after every migrate."""
    domain = urlsplit(settings.SITE_URL).netloc or "localhost"
    site, _ = Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID, defaults={"domain": domain, "name": "zarkcity"}
    )
    Site.objects.clear_cache()
    return site
