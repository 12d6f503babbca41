"""allauth adapter: sign-up through an invitation link."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        # An invitation link proves only the address it was sent to (the lobby stashed it as verified).
        # Signing up with another address must not get that one attached, verified, to the new account:
        # a forwarded link would let anyone claim it. The other address gets the usual confirmation email.
        stashed = request.session.get("account_verified_email")
        if stashed and stashed.lower() != (form.cleaned_data.get("email") or "").lower():
            self.unstash_verified_email(request)
        return super().save_user(request, user, form, commit)
