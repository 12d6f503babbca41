"""Accounts end to end with the test client: sign-up with a verified email, log in and out,
password reset by email link, and the display name on the settings page."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from accounts.selectors import chosen_name_of, display_name_of, name_key
from accounts.services import profile_update, site_sync
from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a much longer passphrase 42"


def link_in(message, path_prefix: str) -> str:
    """The path of the first link in an email's text that starts with path_prefix."""
    found = re.search(rf"https?://[^/\s]+({re.escape(path_prefix)}\S+)", message.body)
    assert found, f"no {path_prefix} link in:\n{message.body}"
    return found.group(1)


def sign_up(client, username="zed", email="zed@example.com", **extra):
    data = {"username": username, "email": email, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    return client.post(reverse("account_signup") + extra.pop("query", ""), data | extra)


def is_logged_in(client) -> bool:
    return client.get(reverse("dashboard")).status_code == 200


def test_sign_up_sends_a_verification_link_that_logs_the_user_in(client):
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not is_logged_in(client)  # mandatory verification: no session before the link
    (message,) = mail.outbox
    assert message.to == ["zed@example.com"]
    assert message.subject.startswith("[zarkcity] ")

    confirm = link_in(message, "/accounts/confirm-email/")
    page = client.get(confirm)
    assert page.status_code == 200 and b"zed@example.com" in page.content
    client.post(confirm)

    assert is_logged_in(client)
    user = get_user_model().objects.get(username="zed")
    assert user.emailaddress_set.get().verified
    assert Profile.objects.filter(user=user).exists()  # made by the sign-up signal


def test_the_link_opened_a_day_later_in_the_same_browser_still_logs_in(client):
    """allauth's pending login lasted 15 minutes: slower people were asked for their password instead."""
    sign_up(client)
    confirm = link_in(mail.outbox[0], "/accounts/confirm-email/")
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        response = client.post(confirm)
        assert response["Location"] == reverse("dashboard") and is_logged_in(client)


def test_the_link_opened_in_another_browser_confirms_and_asks_to_log_in_as_the_page_said(client):
    page = client.get(sign_up(client)["Location"]).content.decode()
    assert "Open it in this browser" in page and "asks you to log in there" in page
    elsewhere = Client()
    response = elsewhere.post(link_in(mail.outbox[0], "/accounts/confirm-email/"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("account_login")
    assert "You have confirmed zed@example.com." in response.content.decode()
    assert not is_logged_in(elsewhere)  # a forwarded link logs nobody in
    assert get_user_model().objects.get(username="zed").emailaddress_set.get().verified


def test_the_login_page_offers_a_password_reset_once(client):
    html = client.get(reverse("account_login")).content.decode()
    assert html.count("Forgot your password?") == 1
    assert html.count(reverse("account_reset_password")) == 1


def test_login_is_refused_until_the_address_is_verified(client):
    sign_up(client)
    client.logout()
    mail.outbox.clear()
    response = client.post(reverse("account_login"), {"login": "zed", "password": NEW_PASSWORD})
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not is_logged_in(client)
    assert len(mail.outbox) == 1  # a fresh verification link


@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_log_in_with_username_or_email_then_log_out_by_post(client, alice, login):
    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    assert is_logged_in(client)

    assert client.get(reverse("account_logout")).status_code == 200  # a GET only asks
    assert is_logged_in(client)
    assert client.post(reverse("account_logout"))["Location"] == reverse("home")
    assert not is_logged_in(client)


def test_wrong_password_is_a_clear_form_error(client, alice):
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert b"not correct" in response.content


def test_password_reset_by_email_link(client, alice):
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response["Location"] == reverse("account_reset_password_done")
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]

    key_url = client.get(link_in(message, "/accounts/password/reset/key/"), follow=True)
    assert key_url.status_code == 200 and b"Choose a new password" in key_url.content
    form_path = key_url.redirect_chain[-1][0]
    done = client.post(form_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done["Location"] == reverse("account_reset_password_from_key_done")

    assert client.login(username="alice", password=NEW_PASSWORD)
    assert not get_user_model().objects.get(username="alice").check_password(PASSWORD)


def test_a_used_or_forged_reset_link_says_so(client, alice):
    response = client.get("/accounts/password/reset/key/1-forged-token/", follow=True)
    assert response.status_code == 200
    assert b"not valid" in response.content


def test_settings_page_sets_the_display_name(client, alice):
    client.force_login(alice)
    page = client.get(reverse("account_settings"))
    assert page.status_code == 200 and b"Display name" in page.content

    response = client.post(reverse("account_settings"), {"display_name": "  Alice   Liddell "})
    assert response["Location"] == reverse("account_settings")
    alice.refresh_from_db()
    assert alice.profile.display_name == "Alice Liddell"
    assert chosen_name_of(alice) == "Alice Liddell"
    assert display_name_of(alice) == "Alice Liddell (@alice)"  # where players are listed, with the username


def test_display_name_too_long_is_refused_and_blank_falls_back_to_username(client, alice):
    client.force_login(alice)
    response = client.post(reverse("account_settings"), {"display_name": "x" * 41})
    assert response.status_code == 200 and b"at most 40 characters" in response.content

    client.post(reverse("account_settings"), {"display_name": ""})
    alice.refresh_from_db()
    assert display_name_of(alice) == "alice"


def test_profile_update_service_checks_length(alice):
    with pytest.raises(ValidationError, match="at most 40"):
        profile_update(user=alice, display_name="y" * 41)


def test_user_without_a_profile_shows_the_username(alice):
    assert not Profile.objects.filter(user=alice).exists()
    assert display_name_of(alice) == "alice"


def test_settings_needs_login(client):
    response = client.get(reverse("account_settings"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize("name", ["account_login", "account_signup", "account_reset_password"])
def test_account_pages_use_the_site_shell(client, name):
    page = client.get(reverse(name))
    assert page.status_code == 200
    html = page.content.decode()
    assert "css/site.css" in html and 'class="site-header"' in html
    assert "Messages:" not in html  # allauth's bare default layout is replaced


# ----------------------------------------------------------------------------- names nobody can pose with


@pytest.mark.parametrize(
    "name",
    [
        "bob",  # another player's username
        "BOB",
        "ｂｏｂ",  # fullwidth letters: the same after NFKC
        "b\u200bob",  # a zero-width space inside
        "\u200ebob\u2060",  # direction mark and word joiner around it
        "Alice <b>A</b>",  # charlie's display name
        "alice <B>a</B>",
    ],
)
def test_a_name_that_reads_as_another_player_is_refused(client, bob, charlie, dave, name):
    profile_update(user=charlie, display_name="Alice <b>A</b>")
    client.force_login(dave)
    response = client.post(reverse("account_settings"), {"display_name": name})
    assert response.status_code == 200
    assert b"choose one nobody else uses" in response.content
    assert Profile.objects.get(user=dave).display_name == ""


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200c\u200d\ufeff", "\u3164", "\u2800 \u2060"])
def test_an_invisible_name_is_refused(dave, name):
    with pytest.raises(ValidationError, match="at least one visible character"):
        profile_update(user=dave, display_name=name)


@pytest.mark.parametrize("name", ["\u202eecila", "Bob\u202e (@alice)", "dave\u2067x", "bell\u0007"])
def test_a_name_with_direction_or_control_characters_is_refused(dave, name):
    """A right-to-left override makes "\u202eecila" read "alice" and garbles the "(@dave)" after it."""
    with pytest.raises(ValidationError, match="invisible or text-direction characters"):
        profile_update(user=dave, display_name=name)


def test_a_player_may_take_their_own_username_or_keep_their_name(alice):
    profile_update(user=alice, display_name="ALICE")
    profile_update(user=alice, display_name="Alice in Wonderland")
    profile_update(user=alice, display_name="Alice in Wonderland")
    alice.refresh_from_db()
    assert display_name_of(alice) == "Alice in Wonderland (@alice)"
    profile_update(user=alice, display_name="Alice")
    alice.refresh_from_db()
    assert display_name_of(alice) == "Alice"  # reads as the username: nothing to add


def test_name_key_folds_what_a_reader_cannot_see():
    assert name_key("  B\u200bo\ufeffB ") == name_key("ｂｏｂ") == "bob"
    assert name_key("Bob  Smith") == name_key("bob smith")
    assert name_key("\u3164") == ""


def test_sign_up_refuses_a_username_someone_plays_under(client, alice):
    profile_update(user=alice, display_name="Zed")
    response = sign_up(client, username="zed")
    assert response.status_code == 200 and b"Another player goes by that name" in response.content
    assert not get_user_model().objects.filter(username="zed").exists()


def test_seats_and_chat_tell_two_lookalike_players_apart(client, alice, bob):
    """Names chosen before the rule, or a username that came later, can still collide: @username settles it."""
    Profile.objects.update_or_create(user=bob, defaults={"display_name": "alice", "name_key": "alice"})
    from games import services as games

    game = games.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=False
    )
    games.game_join(game=game, user=bob)
    games.chat_post(game=game, user=bob, text="hello")
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "alice (@bob)" in html


# ----------------------------------------------------------------------------- the Site


def test_the_site_follows_zarkcity_site_url_at_every_migrate(settings):
    from django.contrib.sites.models import Site
    from django.core.management import call_command

    settings.SITE_URL = "https://zark.example.org"
    call_command("migrate", verbosity=0)  # nothing to apply; post_migrate still runs
    assert Site.objects.get_current().domain == "zark.example.org"
    settings.SITE_URL = "http://localhost:8123"
    assert site_sync().domain == "localhost:8123"


def test_the_sign_up_email_is_the_sites_own_in_both_parts(client, settings):
    """Not allauth's stock text, which greets from and signs with the Site's host and port."""
    settings.SITE_URL = "https://zark.example"
    sign_up(client)
    (message,) = mail.outbox
    assert message.subject == "[zarkcity] Confirm your email address to start playing"
    [(html, mimetype)] = message.alternatives
    assert mimetype == "text/html"
    link = link_in(message, "/accounts/confirm-email/")
    for part in (message.body, html):
        assert "zed" in part and link in part and "3 days" in part
        assert "zarkcity, https://zark.example" in re.sub(r"<[^>]+>", "", part)
        assert "Hello from" not in part and "Thank you for using" not in part and "127.0.0.1" not in part
    assert message.body.startswith("Welcome to zarkcity, zed!")
    assert ">Confirm my address</a>" in html


def test_the_password_reset_email_is_the_sites_own(client, alice, settings):
    settings.SITE_URL = "https://zark.example"
    client.post(reverse("account_reset_password"), {"email": alice.email})
    (message,) = mail.outbox
    assert message.subject == "[zarkcity] Choose a new password"
    [(html, _)] = message.alternatives
    link = link_in(message, "/accounts/password/reset/key/")
    for part in (message.body, html):
        assert link in part and "zarkcity, https://zark.example" in re.sub(r"<[^>]+>", "", part)
        assert "Hello from" not in part and "127.0.0.1" not in part


def test_allauths_other_emails_are_signed_by_the_site_too(client, settings):
    """A reset asked for an address nobody has: allauth's own words, in the site's frame."""
    settings.SITE_URL = "https://zark.example"
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    (message,) = mail.outbox
    assert message.body.rstrip().endswith("zarkcity, https://zark.example")
    assert "Hello from" not in message.body and "127.0.0.1" not in message.body


# Look-alike names (Unicode TR39 confusable skeleton): Cyrillic с р а о drawn like Latin c p a o.
CYRILLIC_CP2, CYRILLIC_A_LICE = "\u0441\u04402", "\u0430lice"


@pytest.mark.parametrize(
    "one, other",
    [
        (CYRILLIC_CP2, "cp2"),
        (CYRILLIC_A_LICE, "alice"),
        ("\u0441\u043e\u0440\u0435", "cope"),  # Cyrillic с о р е
        ("paypa\u217c", "PAYPAL"),  # small roman numeral fifty, case
        ("\u0261oogle", "google"),  # Latin script g
    ],
)
def test_names_drawn_alike_have_one_key(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("one, other", [("alice", "alicia"), ("cp2", "cp3"), ("Zoë", "Zoe ")])
def test_names_that_read_differently_keep_their_own_keys(one, other):
    assert name_key(one) != name_key(other)


def test_a_display_name_drawn_like_a_username_is_refused(db):
    make_user("cp2")
    zed = make_user("zed")
    with pytest.raises(ValidationError, match="another player's username"):
        profile_update(user=zed, display_name=CYRILLIC_CP2)


def test_a_display_name_drawn_like_another_display_name_is_refused(alice, bob):
    profile_update(user=alice, display_name="cp2")
    with pytest.raises(ValidationError, match="already goes by that name"):
        profile_update(user=bob, display_name=CYRILLIC_CP2)


def test_sign_up_refuses_a_username_drawn_like_anothers(client, db):
    sign_up(client, username="alice", email="alice@example.com")
    assert get_user_model().objects.filter(username="alice").exists()
    response = Client().post(
        reverse("account_signup"),
        {"username": CYRILLIC_A_LICE, "email": "a2@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 200 and b"looks like another player" in response.content
    assert not get_user_model().objects.filter(username=CYRILLIC_A_LICE).exists()


def test_the_migration_writes_every_players_keys_and_renames_nobody(db):
    """Players who already look alike keep their names (only new choices are refused)."""
    from django.apps import apps

    fill_keys = importlib.import_module("accounts.migrations.0005_profile_username_key").fill_keys
    cyrillic = make_user(CYRILLIC_A_LICE)
    latin = make_user("alice")  # made before the rule: both stay
    Profile.objects.create(user=latin, display_name="ср2")
    fill_keys(apps, None)
    assert Profile.objects.get(user=cyrillic).username_key == Profile.objects.get(user=latin).username_key == "alice"
    assert Profile.objects.get(user=latin).display_name == "ср2" and Profile.objects.get(user=latin).name_key == "cp2"
