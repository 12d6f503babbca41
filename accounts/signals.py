"""Glue from allauth's sign-up signal to the accounts service; no logic lives here."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from django.dispatch import receiver

from accounts.services import profile_ensure


@receiver(user_signed_up, dispatch_uid="accounts.profile_on_signup")
def create_profile_on_signup(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    profile_ensure(user=user)
