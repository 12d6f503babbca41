"""The pages: the signed play link, one-click unsubscribe, the settings page, the dev mailbox."""

from __future__ import annotations

from datetime import date, timedelta
from urllib.parse import urlencode

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from games import services
from notifications import tokens
from notifications.models import Away, PlayLinkUse, Preference
from tests.conftest import PASSWORD
from tests.notifications.helpers import start_game

pytestmark = pytest.mark.django_db


def play_path(user, game) -> str:
    return f"/play/{tokens.play_token(user=user, game_id=game.pk)}/"


def unsubscribe_path(user) -> str:
    return f"/notifications/unsubscribe/{tokens.unsubscribe_token(user=user)}/"


# ----------------------------------------------------------------------------- the play link


def test_opening_the_link_only_asks_and_the_button_signs_in(client, alice, bob):
    game = start_game(alice, bob)
    path = play_path(bob, game)
    response = client.get(path)  # a mail scanner's visit signs nobody in and uses nothing up
    assert response.status_code == 200 and "Sign in and open the game" in response.text
    assert "_auth_user_id" not in client.session and not PlayLinkUse.objects.exists()
    response = client.post(path)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert int(client.session["_auth_user_id"]) == bob.pk
    assert client.get(path)["Location"] == f"/games/{game.pk}/"  # the same browser, already in: just opens


def test_a_link_signs_in_only_once(client, alice, bob):
    game = start_game(alice, bob)
    path = play_path(bob, game)
    assert client.post(path).status_code == 302
    forwarded = Client()
    for response in (forwarded.get(path), forwarded.post(path)):
        assert response.status_code == 410 and "This link was already used" in response.text
        assert "_auth_user_id" not in forwarded.session
    assert PlayLinkUse.objects.get().user == bob
    assert forwarded.post(play_path(bob, game)).status_code == 302  # the next email's link works


def test_a_link_to_a_finished_game_opens_it_without_signing_in(client, alice, bob):
    game = start_game(alice, bob)
    services.player_resign(game=game, user=alice)
    path = play_path(bob, game)
    for response in (client.get(path), client.post(path)):
        assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert "_auth_user_id" not in client.session
    assert client.get(f"/games/{game.pk}/").status_code == 200  # read only, for anyone


@pytest.mark.parametrize(
    "page", ["/settings/", "/notifications/settings/", "/accounts/email/", "/accounts/password/change/", "/admin/"]
)
def test_a_session_from_a_link_must_log_in_with_the_password_for_account_pages(client, alice, bob, page):
    game = start_game(alice, bob)
    bob.is_staff = True  # even a staff member's link does not open the admin
    bob.save()
    client.post(play_path(bob, game))
    assert client.get(f"/games/{game.pk}/").status_code == 200  # playing is fine
    response = client.get(page, follow=True)
    assert response.redirect_chain[0][0] == "/accounts/login/?" + urlencode({"next": page})
    assert "log in with your password" in response.text
    assert "_auth_user_id" not in client.session
    response = client.post(f"/accounts/login/?{urlencode({'next': page})}", {"login": "bob", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == page
    assert client.get(page).status_code == 200  # a real login: the mark is gone


def test_a_session_from_a_link_cannot_add_an_email_address(client, alice, bob):
    game = start_game(alice, bob)
    client.post(play_path(bob, game))
    response = client.post("/accounts/email/", {"action_add": "", "email": "thief@example.com"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not EmailAddress.objects.filter(email="thief@example.com").exists()


def test_a_session_from_a_link_does_not_see_the_private_feed_links(client, alice, bob):
    from archive.models import FeedToken

    game = start_game(alice, bob)
    client.post(play_path(bob, game))
    page = client.get("/players/bob/").text
    assert "sign in with your password to see your private feed links" in page
    assert "my-turn.atom" not in page and "deadlines.ics" not in page
    assert not FeedToken.objects.filter(user=bob).exists()  # not even made for this session
    # The button logs the link session out and asks for the password, then shows the links.
    response = client.post("/accounts/logout/", {"next": "/accounts/login/?next=/players/bob/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/players/bob/"
    assert "_auth_user_id" not in client.session
    response = client.post("/accounts/login/?next=/players/bob/", {"login": "bob", "password": PASSWORD})
    assert response["Location"] == "/players/bob/"
    page = client.get("/players/bob/").text
    key = FeedToken.objects.get(user=bob).key
    assert f"/feeds/{key}/my-turn.atom" in page and f"/feeds/{key}/deadlines.ics" in page
    assert "sign in with your password to see" not in page


def test_a_password_login_is_not_marked(client, alice):
    client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert client.get("/settings/").status_code == 200


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


def _other_last_char(token: str) -> str:
    """The token with its last signature character changed (always a change, never by luck the same)."""
    return token[:-1] + ("A" if token[-1] != "A" else "B")


@pytest.mark.parametrize("mangle", [_other_last_char, lambda t: "nonsense", lambda t: t.replace(":", ":x", 1)])
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


def test_days_away_in_year_9999_are_refused_on_the_page(client, alice):
    client.force_login(alice)
    response = client.post(
        "/notifications/settings/", {"action": "away", "first_day": "9999-12-31", "last_day": "9999-12-31"}
    )
    assert response.status_code == 200 and "up to 60 days ahead" in response.text
    assert not Away.objects.filter(user=alice, first_day=date(9999, 12, 31)).exists()


def test_the_settings_page_needs_a_login(client):
    assert client.get("/notifications/settings/").status_code == 302


# ----------------------------------------------------------------------------- the dev mailbox


def test_the_dev_mailbox_lists_sent_mail_to_staff_when_debug_is_on(client, settings, tmp_path, alice):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.backends.DevMailboxBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    message = mail.EmailMultiAlternatives("Hello from the mailbox", "plain words", to=["alice@example.com"])
    message.attach_alternative("<p>html words</p>", "text/html")
    message.send()
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    listing = client.get("/dev/mail/")
    assert listing.status_code == 200 and "Hello from the mailbox" in listing.text
    [name] = [p.name for p in tmp_path.iterdir()]
    detail = client.get(f"/dev/mail/{name}/")
    assert "plain words" in detail.text and "html words" in detail.text
    assert client.get("/dev/mail/../../etc/passwd/").status_code == 404


def test_the_dev_mailbox_is_not_there_for_players_or_visitors(client, settings, tmp_path, bob):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.backends.DevMailboxBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    mail.EmailMessage("secret", "a sign-in link", to=["alice@example.com"]).send()
    [name] = [p.name for p in tmp_path.iterdir()]
    assert client.get("/dev/mail/").status_code == 404
    assert client.get(f"/dev/mail/{name}/").status_code == 404
    client.force_login(bob)  # signed in, but not staff
    assert client.get("/dev/mail/").status_code == 404
    assert client.get(f"/dev/mail/{name}/").status_code == 404


def test_the_dev_mailbox_is_not_there_in_production(client, settings, alice):
    settings.DEBUG = False
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    assert client.get("/dev/mail/").status_code == 404
