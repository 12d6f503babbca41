"""Per-game mute (issue 28): from the game page and from the signed link in each of the game's
emails, the worker skips the muted game's emails but the one that tells how it ended."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from notifications import tokens
from notifications.models import Mute, Notification
from tests.notifications.helpers import mail_to, play, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status
MUTE_LINK = re.compile(r"Mute this game: (\S+)")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def mute_from_the_page(user, game, action: str = "mute"):
    return logged_in(user).post(reverse("notifications:game_mute", args=[game.pk]), {"action": action}, follow=True)


def test_a_muted_game_sends_no_turn_email_but_still_its_end(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    page = mute_from_the_page(bob, game)
    assert "is muted" in page.content.decode() and "Unmute" in page.content.decode()
    for colour in ("red", "yellow", None):  # the starters revealed: one of them places, then the other moves
        with django_capture_on_commit_callbacks(execute=True):  # each email while it is still wanted
            play(game, colour)
    [turn] = Notification.objects.filter(recipient=bob, kind=Kind.YOUR_TURN)
    assert (turn.status, turn.skip_reason) == (Status.SKIPPED, "the recipient muted this game")
    assert mail_to(bob) == [] and mail_to(alice)  # alice did not mute it
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    [over] = mail_to(bob)
    assert Notification.objects.get(recipient=bob, kind=Kind.GAME_OVER).status == Status.SENT
    assert "Mute this game" not in over.body  # nothing left to mute


def test_unmuting_brings_the_emails_back(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    mute_from_the_page(bob, game)
    page = mute_from_the_page(bob, game, "unmute")
    assert "emails about this game come again" in page.content.decode()
    assert not Mute.objects.exists()
    for colour in ("red", "yellow", None):  # the starters revealed: one of them places, then the other moves
        with django_capture_on_commit_callbacks(execute=True):  # each email while it is still wanted
            play(game, colour)
    [turn] = Notification.objects.filter(recipient=bob, kind=Kind.YOUR_TURN)
    assert turn.status == Status.SENT and len(mail_to(bob)) == 1


def test_the_turn_email_links_to_mute_the_game(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    email = mail_to(bob)[0]
    link = MUTE_LINK.search(email.body).group(1)
    assert link in email.alternatives[0][0]  # the HTML part has the same link
    path = link.removeprefix("http://testserver").split("://", 1)[-1]
    path = path[path.index("/") :]
    client = Client()  # signed out: the link is the key
    confirm = client.get(path)
    assert confirm.status_code == 200 and f"Mute Zark City #{game.pk}?" in confirm.content.decode()
    assert not Mute.objects.exists()  # a mail scanner opening the link mutes nothing
    done = client.post(path)
    assert done.status_code == 200 and "is muted" in done.content.decode()
    assert Mute.objects.filter(user=bob, game=game).count() == 1
    client.post(path)  # twice: still one row
    assert Mute.objects.count() == 1


def test_a_forged_stale_or_finished_mute_link_says_why(alice, bob):
    game = start_game(alice, bob)
    token = tokens.mute_token(user=bob, game_id=game.pk)
    forged = Client().get(reverse("notifications:mute", args=[token[:-3] + "abc"]))
    assert forged.status_code == 400 and "not valid" in forged.content.decode()
    with time_machine.travel(timezone.now() + timedelta(days=tokens.MUTE_LINK_DAYS + 1)):
        stale = Client().get(reverse("notifications:mute", args=[token]))
    assert stale.status_code == 400 and "has expired" in stale.content.decode()
    services.player_resign(game=game, user=alice)
    over = Client().post(reverse("notifications:mute", args=[token]))
    assert over.status_code == 410 and "is over" in over.content.decode()
    assert not Mute.objects.exists()


def test_only_a_player_can_mute_a_game(alice, bob, charlie):
    game = start_game(alice, bob)
    page = mute_from_the_page(charlie, game)
    assert "Only the game&#x27;s players can mute" in page.content.decode()
    assert not Mute.objects.exists()


def test_the_game_page_offers_the_button_to_its_players_only(alice, bob, charlie):
    game = start_game(alice, bob)
    url = reverse("game_detail", args=[game.pk])
    assert "Mute this game's emails" in logged_in(alice).get(url).content.decode()
    assert "Mute this game" not in logged_in(charlie).get(url).content.decode()
    mute_from_the_page(alice, game)
    html = logged_in(alice).get(url).content.decode()
    assert "Emails about this game are muted." in html and 'value="unmute"' in html
