"""Web Push (issue 28): the worker pushes an encrypted message to each of the player's subscribed
browsers when it sends a turn email, under the same rules, once; a subscription the push service
reports gone is removed; a failed push never holds up the email; the settings page lists and removes
browsers; without a VAPID key there is no push at all. The push service is a local one
(push_service.py) that decrypts what it receives with the subscription's keys."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from notifications import delivery, push
from notifications.delivery import Outcome
from notifications.models import Mute, Notification, PushSubscription
from tests.notifications.helpers import mail_to, play, start_game
from tests.notifications.push_service import Browser, unb64
from tests.notifications.test_watching import bobs_turn, watch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status


def subscribed(user, service, name: str = "one") -> Browser:
    browser = Browser(endpoint=f"{service.url}/push/{user.username}-{name}")
    push.subscribe(user=user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth, browser="Chrome")
    return browser


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_turn_email_pushes_an_encrypted_message_to_the_players_browser(alice, bob, push_service, settings):
    browser = subscribed(bob, push_service)
    game, row = bobs_turn(alice, bob)
    assert delivery.deliver(row.pk) == Outcome.SENT
    [message] = push_service.received
    assert (
        message.path == "/push/bob-one"
        and {k.lower(): v for k, v in message.headers.items()}["content-encoding"] == "aes128gcm"
    )
    shown = browser.decrypt(message)
    assert shown == {
        "title": f"Your move in Zark City #{game.pk} against alice",
        "body": f"{row.actor.capitalize()} moved.",
        "url": f"{settings.SITE_URL}/games/{game.pk}/",
        "tag": f"game-{game.pk}",
    }
    # VAPID: signed by the site's key for the push service's origin (RFC 8292).
    vapid = {k.lower(): v for k, v in message.headers.items()}["authorization"]
    token, key = re.search(r"^vapid t=([^,\s]+),\s*k=([^,\s]+)$", vapid).groups()
    assert key == push.public_key()
    claims = json.loads(unb64(token.split(".")[1]))
    assert claims["aud"] == push_service.url and claims["sub"] == settings.WEBPUSH_VAPID_SUBJECT
    assert len(mail_to(bob)) == 1  # and the email, as ever


def test_the_push_names_no_card(alice, bob, push_service):
    browser = subscribed(bob, push_service)
    game, row = bobs_turn(alice, bob)
    delivery.deliver(row.pk)
    text = json.dumps(browser.decrypt(push_service.received[0]))
    position = game.snapshot
    cards = {card for hand in position["hands"].values() for card in hand} | set(position["deck"])
    assert cards and not [card for card in cards if f" {card}" in text or f"{card} " in text or card in text.split()]


@pytest.mark.parametrize("gone", [404, 410])
def test_a_subscription_the_push_service_reports_gone_is_removed(alice, bob, push_service, gone):
    subscribed(bob, push_service, "old")
    kept = subscribed(bob, push_service, "new")
    push_service.answers["/push/bob-old"] = gone
    game, row = bobs_turn(alice, bob)
    assert delivery.deliver(row.pk) == Outcome.SENT
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    assert len(push_service.received) == 2 and len(mail_to(bob)) == 1


def test_a_failed_push_never_holds_up_the_email(alice, bob, push_service, settings):
    push_service.answers["/push/bob-one"] = 500
    subscribed(bob, push_service)
    settings.WEBPUSH_PUSH_SERVICES = [push_service.url, "http://127.0.0.1:9"]  # nobody listens on port 9
    nowhere = Browser(endpoint="http://127.0.0.1:9/push/bob")
    push.subscribe(user=bob, endpoint=nowhere.endpoint, p256dh=nowhere.p256dh, auth=nowhere.auth)
    game, row = bobs_turn(alice, bob)
    assert delivery.deliver(row.pk) == Outcome.SENT
    assert len(push_service.received) == 1 and len(mail_to(bob)) == 1
    assert PushSubscription.objects.count() == 2  # kept: not gone, only failing now


def test_a_retried_email_pushes_once(alice, bob, push_service, refusing):
    import smtplib

    subscribed(bob, push_service)
    refusing(1, smtplib.SMTPServerDisconnected("the relay hung up"))
    game, row = bobs_turn(alice, bob)
    with pytest.raises(delivery.TryAgain):
        delivery.deliver(row.pk)
    Notification.objects.filter(pk=row.pk).update(send_after=None)
    assert delivery.deliver(row.pk) == Outcome.SENT
    assert len(push_service.received) == 1 and len(mail_to(bob)) == 1


def test_the_rules_of_email_hold_for_push(alice, bob, push_service):
    subscribed(bob, push_service)
    game, row = bobs_turn(alice, bob)
    watch(bob, game)
    assert delivery.deliver(row.pk) == Outcome.DEFERRED  # quiet while you watch: no push either
    Mute.objects.create(user=bob, game=game)
    Notification.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert delivery.deliver(row.pk) == Outcome.SKIPPED  # muted
    assert push_service.received == [] and mail_to(bob) == []


def test_game_news_is_email_only(alice, bob, push_service):
    subscribed(bob, push_service)
    game = start_game(alice, bob)
    Notification.objects.all().delete()
    play(game, "red")
    from games import services

    services.player_resign(game=game, user=alice)
    row = Notification.objects.get(recipient=bob, kind=Kind.GAME_OVER)
    assert delivery.deliver(row.pk) == Outcome.SENT and push_service.received == []


def test_a_subscription_must_name_a_push_service_and_carry_valid_keys(bob, push_service):
    browser = Browser(endpoint="https://intranet.example/steal")
    with pytest.raises(ValidationError, match="not a push service"):
        push.subscribe(user=bob, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    browser = Browser(endpoint=f"{push_service.url}/push/x")
    with pytest.raises(ValidationError, match="keys are not valid"):
        push.subscribe(user=bob, endpoint=browser.endpoint, p256dh="short", auth=browser.auth)
    assert not PushSubscription.objects.exists()


def test_the_settings_page_subscribes_lists_and_removes_browsers(alice, bob, push_service):
    client = logged_in(bob)
    page = client.get(reverse("notifications:preferences")).content.decode()
    assert "Browser notifications" in page and f'data-key="{push.public_key()}"' in page
    assert "No browser gets notifications." in page
    browser = Browser(endpoint=f"{push_service.url}/push/bob-chrome")
    sent = {
        "endpoint": browser.endpoint,
        "expirationTime": None,
        "keys": {"p256dh": browser.p256dh, "auth": browser.auth},
    }
    agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
    answer = client.post(
        reverse("notifications:push_subscribe"),
        json.dumps(sent),
        content_type="application/json",
        HTTP_USER_AGENT=agent,
    )
    assert answer.status_code == 201 and answer.json()["browser"] == "Chrome on Linux"
    page = client.get(reverse("notifications:preferences")).content.decode()
    assert "Chrome on Linux" in page and f'data-endpoint="{browser.endpoint}"' in page
    subscription = PushSubscription.objects.get()
    logged_in(alice).post(reverse("notifications:push_remove"), {"subscription": subscription.pk})
    assert PushSubscription.objects.exists()  # not alice's to remove
    done = client.post(reverse("notifications:push_remove"), {"subscription": subscription.pk}, follow=True)
    assert "That browser gets no more notifications from us." in done.content.decode()
    assert not PushSubscription.objects.exists()
    bad = client.post(reverse("notifications:push_subscribe"), "{not json", content_type="application/json")
    assert bad.status_code == 400 and "JSON" in bad.json()["error"]


def test_without_a_key_there_is_no_push_option(bob, settings):
    page = logged_in(bob).get(reverse("notifications:preferences")).content.decode()
    assert "Browser notifications" not in page and "push_settings.js" not in page
    with pytest.raises(ValidationError, match="not available"):
        push.subscribe(user=bob, endpoint="https://fcm.googleapis.com/fcm/send/x", p256dh="", auth="")


def test_the_embedded_default_makes_its_own_key_once(settings, tmp_path):
    settings.WEBPUSH_MAKE_KEY = True
    settings.WEBPUSH_KEY_FILE = str(tmp_path / "var" / "vapid-private-key")
    first = push.private_key()
    assert push.enabled() and push.private_key() == first
    assert oct((tmp_path / "var" / "vapid-private-key").stat().st_mode & 0o777) == "0o600"
    assert len(push.public_key()) == 87  # 65 bytes, base64url


def test_the_service_worker_is_served_for_the_whole_site(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert 'addEventListener("push"' in worker.content.decode()
    assert 'addEventListener("notificationclick"' in worker.content.decode()
