"""Making, finding and revoking personal access tokens. The secret is returned once, by
`token_create`; only its SHA-256 is stored, so a leaked database holds no usable token."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone

from api.models import AccessToken

PREFIX = "zc_"  # says what a string is when it turns up in a log or a repository
MAX_ACTIVE_TOKENS = 20
# last_used_at is a convenience for the settings page: written at most this often, not on every request.
USED_AT_RESOLUTION = timedelta(minutes=1)


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(*, user: User, name: str, scopes: Collection[str]) -> tuple[AccessToken, str]:
    """A new token and its secret (shown to the owner once, never stored)."""
    name = (name or "").strip()
    if not name:
        raise ValidationError("Give the token a name, so you know later what uses it.")
    unknown = set(scopes) - set(AccessToken.Scope.values)
    if unknown or not scopes:
        raise ValidationError("Choose at least one scope: read, play.")
    if tokens_of(user=user).count() >= MAX_ACTIVE_TOKENS:
        raise ValidationError(f"You have {MAX_ACTIVE_TOKENS} tokens already: revoke one you no longer use.")
    secret = PREFIX + secrets.token_urlsafe(32)
    ordered = ",".join(scope for scope in AccessToken.Scope.values if scope in scopes)
    token = AccessToken.objects.create(
        user=user, name=name[:60], prefix=secret[:11], digest=digest_of(secret), scopes=ordered
    )
    return token, secret


def token_revoke(*, user: User, token_id: int) -> AccessToken:
    """Revoke one of the user's own tokens; from then on it answers 401."""
    token = AccessToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise ValidationError("You have no such token.")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def tokens_of(*, user: User) -> QuerySet[AccessToken]:
    """The user's tokens still in force, newest first."""
    return AccessToken.objects.filter(user=user, revoked_at__isnull=True)


def token_for_secret(secret: str) -> AccessToken | None:
    """The token in force that this secret opens, with its user; None for an unknown or revoked one."""
    if not secret.startswith(PREFIX):
        return None
    token = AccessToken.objects.select_related("user").filter(digest=digest_of(secret)).first()
    if token is None or token.revoked_at is not None or not token.user.is_active:
        return None
    return token


def token_used(token: AccessToken) -> None:
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= USED_AT_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
