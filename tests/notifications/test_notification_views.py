"""The pages: the signed play link, one-click unsubscribe, the settings page, the dev mailbox."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.utils import timezone

from notifications import tokens
from notifications.models import Away, Preference
from tests.notifications.helpers import start_game

pytestmark = pytest.mark.django_db


def play_path(user, game) -> str:
    return f"/play/{tokens.play_token(user=user, game_id=game.pk)}/"


def unsubscribe_path(user) -> str:
    return f"/notifications/unsubscribe/{tokens.unsubscribe_token(user=user)}/"


# ----------------------------------------------------------------------------- the play link


def test_the_link_logs_the_recipient_in_and_opens_the_game(client, alice, bob):
    game = start_game(alice, bob)
    response = client.get(play_path(bob, game))
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert int(client.session["_auth_user_id"]) == bob.pk


def test_the_link_never_switches_a_browser_signed_in_as_someone_else(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.get(play_path(bob, game))
    assert response.status_code == 403 and "signed in as someone else" in response.text
    assert int(client.session["_auth_user_id"]) == alice.pk


def test_the_link_for_the_user_already_signed_in_just_opens_the_game(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(bob)
    assert client.get(play_path(bob, game))["Location"] == f"/games/{game.pk}/"


@pytest.mark.parametrize("mangle", [lambda t: t[:-3] + "abc", lambda t: "nonsense", lambda t: t.replace(":", ":x", 1)])
def test_a_forged_link_gets_a_clear_page(client, alice, bob, mangle):
    game = start_game(alice, bob)
    token = tokens.play_token(user=bob, game_id=game.pk)
    response = client.get(f"/play/{mangle(token)}/")
    assert response.status_code == 400 and "This link is not valid" in response.text
    assert "_auth_user_id" not in client.session


def test_an_unsubscribe_token_is_no_login(client, alice, bob):
    token = tokens.unsubscribe_token(user=bob)  # another purpose, another salt
    assert client.get(f"/play/{token}/").status_code == 400


def test_an_expired_link_says_so(client, alice, bob, settings):
    game = start_game(alice, bob)
    path = play_path(bob, game)
    with time_machine.travel(timezone.now() + timedelta(days=settings.NOTIFICATIONS_PLAY_LINK_DAYS + 1)):
        response = client.get(path)
    assert response.status_code == 400 and "This link has expired" in response.text


def test_changing_the_password_kills_links_already_sent(client, alice, bob):
    game = start_game(alice, bob)
    path = play_path(bob, game)
    bob.set_password("another secret altogether")
    bob.save()
    response = client.get(path)
    assert response.status_code == 400 and "no longer works" in response.text


def test_a_link_signed_with_a_foreign_key_is_refused(alice, bob):
    game = start_game(alice, bob)
    forged = signing.dumps({"u": bob.pk, "g": game.pk, "n": "x", "p": "y"}, key="not-our-key", salt=tokens.PLAY_SALT)
    with pytest.raises(tokens.BadToken):
        tokens.read_play_token(forged)


# ----------------------------------------------------------------------------- unsubscribe


def test_opening_the_unsubscribe_link_only_asks(client, alice):
    response = client.get(unsubscribe_path(alice))
    assert response.status_code == 200 and "Stop all email from zarkcity?" in response.text
    assert not Preference.objects.filter(user=alice).exists()  # a mail scanner's visit changes nothing


def test_one_click_unsubscribe_works_without_a_csrf_token(alice):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post(unsubscribe_path(alice), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and "You are unsubscribed" in response.text
    preference = Preference.objects.get(user=alice)
    assert preference.mode == Preference.Mode.NONE and preference.unsubscribed_at is not None


def test_a_forged_unsubscribe_link_changes_nothing(client, alice):
    response = client.post("/notifications/unsubscribe/abc:def/")
    assert response.status_code == 400 and not Preference.objects.exists()


# ----------------------------------------------------------------------------- settings


def test_the_settings_page_saves_preferences(client, alice):
    client.force_login(alice)
    assert client.get("/notifications/settings/").status_code == 200
    response = client.post(
        "/notifications/settings/",
        {
            "action": "save",
            "mode": "digest",
            "time_zone": "Europe/Paris",
            "quiet_from": "22:00",
            "quiet_until": "07:30",
        },
    )
    assert response.status_code == 302
    preference = Preference.objects.get(user=alice)
    assert (preference.mode, preference.time_zone, str(preference.quiet_from), str(preference.quiet_until)) == (
        "digest",
        "Europe/Paris",
        "22:00:00",
        "07:30:00",
    )


def test_half_a_quiet_window_is_refused_with_a_reason(client, alice):
    client.force_login(alice)
    response = client.post(
        "/notifications/settings/",
        {
            "action": "save",
            "mode": "every_turn",
            "time_zone": "UTC",
            "quiet_from": "22:00",
            "quiet_until": "",
        },
    )
    assert response.status_code == 200 and "need both a start and an end" in response.text


def test_days_away_are_added_and_ended_from_the_settings_page(client, alice):
    client.force_login(alice)
    today = timezone.now().date()
    response = client.post(
        "/notifications/settings/",
        {
            "action": "away",
            "first_day": str(today + timedelta(days=2)),
            "last_day": str(today + timedelta(days=4)),
        },
    )
    assert response.status_code == 302
    away = Away.objects.get(user=alice)
    assert client.get("/notifications/settings/").text.count("Cancel") == 1
    client.post("/notifications/settings/", {"action": "back", "away_id": str(away.pk)})
    away.refresh_from_db()
    assert away.ended_at is not None


def test_the_settings_page_needs_a_login(client):
    assert client.get("/notifications/settings/").status_code == 302


# ----------------------------------------------------------------------------- the dev mailbox


def test_the_dev_mailbox_lists_sent_mail_when_debug_is_on(client, settings, tmp_path, alice):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.backends.DevMailboxBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    message = mail.EmailMultiAlternatives("Hello from the mailbox", "plain words", to=["alice@example.com"])
    message.attach_alternative("<p>html words</p>", "text/html")
    message.send()
    listing = client.get("/dev/mail/")
    assert listing.status_code == 200 and "Hello from the mailbox" in listing.text
    [name] = [p.name for p in tmp_path.iterdir()]
    detail = client.get(f"/dev/mail/{name}/")
    assert "plain words" in detail.text and "html words" in detail.text
    assert client.get("/dev/mail/../../etc/passwd/").status_code == 404


def test_the_dev_mailbox_is_not_there_in_production(client, settings):
    settings.DEBUG = False
    assert client.get("/dev/mail/").status_code == 404
