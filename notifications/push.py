"""Web Push: the browser notification that goes with an email asking for a move ("Your move in Zark
City #12 against bob"), to every browser the player opted in from the settings page.

Standard Web Push (RFC 8030) with VAPID (RFC 8292) and the aes128gcm encryption (RFC 8291), through
pywebpush. The worker pushes when it sends the email, after every rule the email obeys (mute, quiet
hours, quiet while you watch, days away stopping the clock), once per outbox row (`Notification.pushed_at`,
a conditional UPDATE), and never lets a push hold the email up: every error is logged and dropped. A
subscription its push service reports gone (404, 410) is deleted. The payload names the game, the
opponents and who moved: public facts only, never a card.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid  # type: ignore[import-untyped]  # no type information shipped
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]  # no type information shipped

from . import selectors
from .models import Notification, PushSubscription

log = logging.getLogger(__name__)
Kind = Notification.Kind
PUSH_KINDS = {Kind.YOUR_TURN, Kind.GAME_STARTED, Kind.REMINDER_50, Kind.REMINDER_80}  # the emails asking for a move
GONE = {404, 410}  # the push service dropped the subscription (RFC 8030 section 7.3)
BODIES = {
    Kind.GAME_STARTED: "The game has started: your first move.",
    Kind.REMINDER_50: "Half your time for this move is used.",
    Kind.REMINDER_80: "80% of your time for this move is used.",
}


# ----------------------------------------------------------------------------- the server's keys


def private_key() -> str:
    """The VAPID private key (base64url of its 32 bytes), or "" when push is off."""
    if settings.WEBPUSH_VAPID_PRIVATE_KEY:
        return str(settings.WEBPUSH_VAPID_PRIVATE_KEY)
    return _kept_key(Path(settings.WEBPUSH_KEY_FILE)) if settings.WEBPUSH_MAKE_KEY else ""


def enabled() -> bool:
    return bool(private_key())


def new_private_key() -> str:
    vapid = Vapid()
    vapid.generate_keys()
    return _b64(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))


def public_key() -> str:
    """The browser's applicationServerKey: the uncompressed P-256 point, base64url."""
    return public_key_of(private_key())


def public_key_of(private: str) -> str:
    vapid = Vapid.from_string(private)
    return _b64(
        vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )


def _vapid() -> Vapid:
    return Vapid.from_string(private_key())


def _kept_key(path: Path) -> str:
    """The embedded default's own key: made once, kept in the var dir (processes racing: the first wins)."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as kept:
            kept.write(new_private_key())
    except FileExistsError:
        pass
    return path.read_text().strip()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ----------------------------------------------------------------------------- subscriptions


def subscribe(*, user: User, endpoint: str, p256dh: str, auth: str, browser: str = "") -> PushSubscription:
    """A browser's subscription (PushSubscription.toJSON()) for this user; the same browser again
    replaces its row (whoever signed in there last gets its pushes)."""
    if not enabled():
        raise ValidationError("Browser notifications are not available on this site.")
    if not allowed(endpoint):
        raise ValidationError("That address is not a push service this site sends to.")
    try:
        keys_fit = len(_unb64(p256dh)) == 65 and len(_unb64(auth)) == 16
    except (binascii.Error, ValueError):
        keys_fit = False
    if not keys_fit:
        raise ValidationError("The browser's subscription keys are not valid.")
    row, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "browser": browser[:100]}
    )
    return row


def allowed(endpoint: str) -> bool:
    """Whether the address belongs to a push service of WEBPUSH_PUSH_SERVICES (the worker POSTs there)."""
    parts = urlsplit(endpoint)
    origin = f"{parts.scheme}://{parts.netloc}"
    for service in settings.WEBPUSH_PUSH_SERVICES:
        if service.startswith(".") and parts.scheme == "https" and (parts.hostname or "").endswith(service):
            return True
        if origin == service.rstrip("/"):
            return True
    return False


def remove(*, user: User, subscription_id: int | None = None, endpoint: str = "") -> bool:
    """The settings page's Remove (by id), or the browser turning itself off (by its endpoint)."""
    mine = PushSubscription.objects.filter(user=user)
    chosen = mine.filter(pk=subscription_id) if subscription_id is not None else mine.filter(endpoint=endpoint)
    deleted, _ = chosen.delete() if (subscription_id is not None or endpoint) else (0, {})
    return bool(deleted)


def subscriptions_of(user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user))


# ----------------------------------------------------------------------------- pushing


def push_row(row: Notification) -> int:
    """Push the row's message to each of its recipient's browsers, once per row; how many took it.
    Never raises: the email goes whatever happens here."""
    try:
        return _push_row(row)
    except Exception:
        log.exception("notification %s: the push failed; the email goes on", row.pk)
        return 0


def _push_row(row: Notification) -> int:
    # has_push is read with the row by the claim: no query at all for a player without a subscription.
    if row.kind not in PUSH_KINDS or row.recipient is None or not getattr(row, "has_push", True) or not enabled():
        return 0
    subscriptions = subscriptions_of(row.recipient)
    # Once per row: an email retried after a failed send must not push again.
    first = Notification.objects.filter(pk=row.pk, pushed_at__isnull=True).update(pushed_at=timezone.now())
    if not subscriptions or not first:
        return 0
    data = json.dumps(payload(row))
    vapid = _vapid()
    return sum(_push_one(subscription, data, vapid) for subscription in subscriptions)


def payload(row: Notification) -> dict[str, Any]:
    """What the browser shows: the game, the opponents, who moved; a click opens the game."""
    game, user = row.game, row.recipient
    assert game is not None and user is not None  # PUSH_KINDS are turn emails: to a player, about a game
    others = [seat.user.get_username() for seat in selectors.seated(game) if seat.user_id != user.pk]
    name = f"{game.rules.info.name} #{game.pk}"
    moved = f"{row.actor.capitalize()} moved." if row.actor else "It is your move."
    body = BODIES.get(Notification.Kind(row.kind)) or moved
    return {
        "title": f"Your move in {name} against {' and '.join(others)}",
        "body": body,
        "url": settings.SITE_URL + reverse("game_detail", args=[game.pk]),
        "tag": f"game-{game.pk}",  # a newer push about the same game replaces the older one
    }


def _push_one(subscription: PushSubscription, data: str, vapid: Vapid) -> int:
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    if not allowed(subscription.endpoint):  # the allowed services changed since it subscribed
        return 0
    try:
        webpush(
            subscription_info=info,
            data=data,
            vapid_private_key=vapid,
            vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},  # pywebpush adds aud and exp to its copy
            timeout=settings.WEBPUSH_TIMEOUT_SECONDS,
            ttl=24 * 3600,  # a browser offline for a day gets it when it comes back, not later
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            log.info("push subscription %s is gone (%s): removed", subscription.pk, status)
            subscription.delete()
        else:
            log.warning("push to subscription %s failed: %s", subscription.pk, error)
        return 0
    except Exception as error:  # the network, a timeout: the email still goes
        log.warning("push to subscription %s failed: %r", subscription.pk, error)
        return 0
    PushSubscription.objects.filter(pk=subscription.pk).update(last_pushed_at=timezone.now())
    return 1
