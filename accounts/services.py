"""Writes for accounts: the profile every user gets, the display name they choose, and the bots' accounts."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from itertools import count
from urllib.parse import urlsplit

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.contrib.sites.models import Site
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import Profile
from accounts.selectors import bot_of, bot_username, name_key, reads_as_bot_name
from engine import bots


def profile_ensure(*, user: User) -> Profile:
    """The user's profile, created on first need (sign-up, the demo command, a settings page visit)."""
    profile, _ = Profile.objects.get_or_create(user=user, defaults={"username_key": name_key(user.get_username())})
    if not profile.username_key:  # a profile made before usernames had keys (or by hand)
        profile.username_key = name_key(user.get_username())
        profile.save(update_fields=["username_key"])
    return profile


@transaction.atomic
def profile_update(*, user: User, display_name: str) -> Profile:
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


def check_name_free(*, name: str, user: User | None) -> None:
    """Refuse a name that shows nothing, or looks like another player's username or display name.

    Looks are compared by `name_key`: Unicode-normalised, invisible characters dropped, case folded,
    confusable skeleton (TR39), so "bob", "BOB", "ｂｏｂ", "b<zero-width space>ob" and "ср2" with
    Cyrillic letters beside "cp2" are all the same name to a reader.
    """
    key = name_key(name)
    if not key:
        raise ValidationError("A display name needs at least one visible character.")
    own = [user.pk] if user is not None else []  # a user signing up has no row yet
    others = get_user_model().objects.exclude(pk__in=own)
    if others.filter(Q(username__iexact=key) | Q(profile__username_key=key)).exists():
        raise ValidationError("That name is another player's username: choose one nobody else uses.")
    if Profile.objects.filter(name_key=key).exclude(user_id__in=own).exists():
        raise ValidationError("Another player already goes by that name: choose one nobody else uses.")
    if reads_as_bot_name(name):
        raise ValidationError("Names like mcts-bot are kept for the built-in bots: choose another.")
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


def bot_user_for(*, bot: str, taken: Collection[int] = ()) -> User:
    """An account of the engine bot `bot` whose id is not in `taken` (the users already at the table):
    "mcts-bot", else "mcts-bot-2" and so on, created on first need. A bot's account has no email
    address, so nothing is ever mailed to it, and no usable password, so nobody can log in as it.
    A username someone else already holds (a person, before the bots' names were kept) is skipped."""
    bots.bot_info(bot)  # ValueError for a bot the engine does not have
    users = get_user_model().objects.select_related("profile")
    for number in count(1):
        username = bot_username(bot, number)
        user = users.filter(username=username).first() or _bot_account(bot, username)
        if user is not None and bot_of(user) == bot and user.pk not in taken:
            return user
    raise AssertionError("unreachable: count() never ends")


def _bot_account(bot: str, username: str) -> User | None:
    """A new account for the bot, or None when another request took the username first."""
    try:
        with transaction.atomic():  # a savepoint: losing the race to the same username is not an error
            user = get_user_model().objects.create_user(username=username, email="", password=None)
            Profile.objects.create(user=user, bot=bot, username_key=name_key(username))
    except IntegrityError:
        return get_user_model().objects.select_related("profile").filter(username=username).first()
    return user


def site_sync(*, using: str = "default") -> Site:
    """The sites framework's Site (SITE_ID) named after ZARKCITY_SITE_URL's host: run after every migrate."""
    domain = urlsplit(settings.SITE_URL).netloc or "localhost"
    site, _ = Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID, defaults={"domain": domain, "name": "zarkcity"}
    )
    Site.objects.clear_cache()
    return site
