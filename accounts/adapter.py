"""allauth adapter: sign-up through an invitation link, usernames that do not pose as another player, and
allauth's emails in the site's own words (templates/account/email/)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts.models import Profile
from accounts.selectors import name_key, reads_as_bot_name


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth ships no type hints
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        # The reverse of accounts.services.check_name_free: a new username must not read as a name
        # someone already plays under, or the two would look alike at the table.
        key = name_key(username)
        if not shallow and Profile.objects.filter(name_key=key).exists():
            raise ValidationError("Another player goes by that name. Please choose a different username.")
        if not shallow and Profile.objects.filter(username_key=key).exists():
            # Same key, another username: it differs only in letters drawn alike ("аlice", Cyrillic а).
            raise ValidationError("That username looks like another player's. Please choose a different one.")
        if reads_as_bot_name(username):  # the built-in bots' accounts are made on demand under these names
            raise ValidationError("Names like mcts-bot are kept for the built-in bots. Please choose another.")
        return username

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        # An invitation link proves only the address it was sent to (the lobby stashed it as verified).
        # Signing up with another address must not get that one attached, verified, to the new account:
        # a forwarded link would let anyone claim it. The other address gets the usual confirmation email.
        stashed = request.session.get("account_verified_email")
        if stashed and stashed.lower() != (form.cleaned_data.get("email") or "").lower():
            self.unstash_verified_email(request)
        return super().save_user(request, user, form, commit)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # Our templates sign with the site's address, like every other email (allauth's sign with the
        # Site's host and port), and say how long their link works.
        context = context | {
            "site_url": settings.SITE_URL,
            "confirm_days": settings.ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS,
            "reset_days": settings.PASSWORD_RESET_TIMEOUT // 86400,
        }
        super().send_mail(template_prefix, email, context)
