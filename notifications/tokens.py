"""Signed links in emails: "play" logs the recipient in to one game; "unsubscribe" turns their email off;
"mute" stops the emails of one game.

Each purpose has its own salt, so an unsubscribe token can never be replayed as a login. The play
token expires (NOTIFICATIONS_PLAY_LINK_DAYS) and carries a fingerprint of the password hash, so
changing one's password kills every link already sent; its nonce makes each link distinct and is
recorded when the link signs someone in (models.PlayLinkUse), so each link does that once.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing

PLAY_SALT = "zarkcity.notifications.play"
UNSUBSCRIBE_SALT = "zarkcity.notifications.unsubscribe"
MUTE_SALT = "zarkcity.notifications.mute"
MUTE_LINK_DAYS = 60  # longer than any game's move (30 days): an email's link works while its game may go on


class BadToken(Exception):
    """A link that was tampered with, has expired, or no longer matches its user."""


@dataclass(frozen=True)
class PlayLink:
    user: User
    game_id: int
    nonce: str


def _fingerprint(user: User) -> str:
    return hashlib.sha256(f"{user.pk}:{user.password}".encode()).hexdigest()[:12]


def play_token(*, user: User, game_id: int) -> str:
    payload = {"u": user.pk, "g": game_id, "n": secrets.token_urlsafe(12), "p": _fingerprint(user)}
    return signing.dumps(payload, salt=PLAY_SALT, compress=True)


def read_play_token(token: str) -> PlayLink:
    days = settings.NOTIFICATIONS_PLAY_LINK_DAYS
    expired = f"This link has expired: links in our emails work for {days} days."
    payload = _loads(token, PLAY_SALT, days, expired, "This link is not valid: it may have been cut short or changed.")
    user = _active_user(payload.get("u"))
    if user is None or payload.get("p") != _fingerprint(user):
        raise BadToken("This link no longer works: the account's password changed or the account is closed.")
    return PlayLink(user=user, game_id=int(payload["g"]), nonce=str(payload.get("n", ""))[:32])


def unsubscribe_token(*, user: User) -> str:
    # No expiry: an unsubscribe link in a years-old email must still work.
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> User:
    try:
        payload = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise BadToken("This unsubscribe link is not valid: it may have been cut short or changed.") from None
    user = get_user_model().objects.filter(pk=payload.get("u")).first()
    if user is None:
        raise BadToken("This unsubscribe link belongs to an account that no longer exists.")
    return user


@dataclass(frozen=True)
class MuteLink:
    user: User
    game_id: int


def mute_token(*, user: User, game_id: int) -> str:
    return signing.dumps({"u": user.pk, "g": game_id}, salt=MUTE_SALT)


def read_mute_token(token: str) -> MuteLink:
    expired = f"This mute link has expired: it works for {MUTE_LINK_DAYS} days. Mute the game from its page instead."
    invalid = "This mute link is not valid: it may have been cut short or changed."
    payload = _loads(token, MUTE_SALT, MUTE_LINK_DAYS, expired, invalid)
    user = _active_user(payload.get("u"))
    if user is None:
        raise BadToken("This mute link belongs to an account that is closed.")
    return MuteLink(user=user, game_id=int(payload["g"]))


def _loads(token: str, salt: str, days: int, expired: str, invalid: str) -> dict[str, Any]:
    try:
        payload: dict[str, Any] = signing.loads(token, salt=salt, max_age=days * 86400)
        return payload
    except signing.SignatureExpired:
        raise BadToken(expired) from None
    except signing.BadSignature:
        raise BadToken(invalid) from None


def _active_user(user_id: Any) -> User | None:
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()
