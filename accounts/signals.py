"""Glue from allauth's sign-up signal and Django's post_migrate to the accounts services; no logic lives here."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from django.dispatch import receiver

from accounts.services import profile_ensure, site_sync


@receiver(user_signed_up, dispatch_uid="accounts.profile_on_signup")
def create_profile_on_signup(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    profile_ensure(user=user)


def site_follows_setting(sender: Any, using: str = "default", **kwargs: Any) -> None:
    site_sync(using=using)
