"""Feeds: the public Atom feed of finished games, the private my-turn Atom feed, the deadlines calendar."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import profile_update
from archive.feeds import fold, ics_escape
from archive.services import feed_token_ensure
from games.clock import mover_clocks
from tests.archive.archive_helpers import finished_rows, play_random, store_game

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def atom(response) -> ET.Element:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{required}") is not None
    for entry in root.iter(f"{ATOM}entry"):
        for required in ("id", "title", "updated", "link"):
            assert entry.find(f"{ATOM}{required}") is not None
    return root


def test_player_games_feed_lists_public_finished_games(client, alice, bob):
    shown = finished_rows([alice, bob], winner=1)
    hidden = finished_rows([alice, bob], is_private=True)
    root = atom(client.get(reverse("player_games_feed", args=["alice"])))
    entries = list(root.iter(f"{ATOM}entry"))
    assert len(entries) == 1
    title = entries[0].find(f"{ATOM}title").text
    assert f"#{shown.pk}" in title and "yellow won by power block" in title
    assert f"/games/{shown.pk}/replay/" in entries[0].find(f"{ATOM}link").get("href")
    assert f"#{hidden.pk}" not in client.get(reverse("player_games_feed", args=["alice"])).content.decode()
    assert client.get(reverse("player_games_feed", args=["nobody"])).status_code == 404


@pytest.fixture
def waiting(alice, bob):
    """A game in progress where it is red's (alice's) or yellow's turn, with a deadline."""
    played = play_random(["red", "yellow"], "feeds-seed", rng_seed=6, max_plies=9)
    return store_game([alice, bob], played)


def test_my_turn_feed_is_private_by_key(client, waiting, alice, bob):
    movers = waiting.to_move.split(",")
    for user, colour in ((alice, "red"), (bob, "yellow")):
        key = feed_token_ensure(user=user).key
        root = atom(client.get(reverse("my_turn_feed", args=[key])))
        entries = list(root.iter(f"{ATOM}entry"))
        assert len(entries) == (1 if colour in movers else 0)
        if entries:
            assert f"Zark City #{waiting.pk}" in entries[0].find(f"{ATOM}title").text
    assert client.get(reverse("my_turn_feed", args=["not-a-key"])).status_code == 404


def test_rotating_the_key_kills_the_old_links(client, alice):
    old = feed_token_ensure(user=alice).key
    client.force_login(alice)
    response = client.post(reverse("feed_key_rotate"))
    assert response.status_code == 302
    new = feed_token_ensure(user=alice).key
    assert new != old
    assert client.get(reverse("my_turn_feed", args=[old])).status_code == 404
    assert client.get(reverse("deadlines_ics", args=[old])).status_code == 404
    assert client.get(reverse("my_turn_feed", args=[new])).status_code == 200


def test_deadlines_calendar_is_rfc5545(client, waiting, alice, bob):
    mover = alice if "red" in waiting.to_move.split(",") else bob
    response = client.get(reverse("deadlines_ics", args=[feed_token_ensure(user=mover).key]))
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.endswith("\r\n") and "\n" not in body.replace("\r\n", "")
    lines = body.split("\r\n")[:-1]
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert all(len(line.encode()) <= 75 for line in lines)
    unfolded = body.replace("\r\n ", "").split("\r\n")
    assert unfolded.count("BEGIN:VEVENT") == 1 == unfolded.count("END:VEVENT")
    props = dict(line.split(":", 1) for line in unfolded if ":" in line and not line.startswith(("BEGIN", "END")))
    assert props["VERSION"] == "2.0" and props["PRODID"]
    assert props["UID"].startswith(f"game-{waiting.pk}-ply-{waiting.ply}-")
    assert props["DTSTAMP"].endswith("Z") and len(props["DTSTAMP"]) == 16
    assert props["DTSTART"] == waiting.deadline.strftime("%Y%m%dT%H%M%SZ")
    other = bob if mover == alice else alice
    empty = client.get(reverse("deadlines_ics", args=[feed_token_ensure(user=other).key])).content.decode()
    assert "BEGIN:VEVENT" not in empty


def test_ics_text_escaping_and_folding():
    assert ics_escape("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne"
    long = "DESCRIPTION:" + "é" * 60
    folded = fold(long)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == long


def test_a_name_in_the_atom_summary_stays_text_in_a_feed_reader(client, alice, bob):
    profile_update(user=bob, display_name="<script>alert(1)</script>")
    finished_rows([alice, bob], winner=1)
    root = atom(client.get(reverse("player_games_feed", args=["alice"])))
    summary = next(root.iter(f"{ATOM}entry")).find(f"{ATOM}summary")
    assert summary.get("type") == "html"
    # What a reader renders as HTML: the name must arrive escaped once more, never as a tag.
    assert "<script>" not in summary.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in summary.text


def test_feed_links_name_the_configured_site(client, alice, bob, settings):
    settings.SITE_URL = "https://zark.example.org"
    finished_rows([alice, bob], winner=1)
    root = atom(client.get(reverse("player_games_feed", args=["alice"])))
    self_link = next(link for link in root.findall(f"{ATOM}link") if link.get("rel") == "self")
    assert self_link.get("href") == "https://zark.example.org" + reverse("player_games_feed", args=["alice"])


def test_feeds_show_the_real_deadline_with_days_away(client, waiting, alice, bob):
    from notifications.models import Away

    mover = alice if "red" in waiting.to_move.split(",") else bob
    today = timezone.now().date()
    Away.objects.create(
        user=mover, first_day=today, last_day=today + timedelta(days=4), created_at=waiting.turn_started_at
    )
    (clock,) = [c for c in mover_clocks(waiting) if c.user_id == mover.pk]
    assert clock.deadline > waiting.deadline + timedelta(days=3)
    key = feed_token_ensure(user=mover).key
    body = client.get(reverse("deadlines_ics", args=[key])).content.decode().replace("\r\n ", "")
    assert f"DTSTART:{clock.deadline.astimezone(UTC):%Y%m%dT%H%M%SZ}" in body
    assert f"DTSTART:{waiting.deadline:%Y%m%dT%H%M%SZ}" not in body
    root = atom(client.get(reverse("my_turn_feed", args=[key])))
    summary = next(root.iter(f"{ATOM}entry")).find(f"{ATOM}summary").text
    assert f"Due by {clock.deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC." in summary


def test_feeds_survive_days_away_the_clock_cannot_handle(client, waiting, alice, bob):
    from notifications.models import Away

    mover = alice if "red" in waiting.to_move.split(",") else bob
    Away.objects.create(user=mover, first_day=timezone.now().date(), last_day=date(9999, 12, 31))  # before the limits
    key = feed_token_ensure(user=mover).key
    calendar = client.get(reverse("deadlines_ics", args=[key]))
    assert calendar.status_code == 200
    assert f"DTSTART:{waiting.deadline.astimezone(UTC):%Y%m%dT%H%M%SZ}" in calendar.content.decode()  # not away
    feed = client.get(reverse("my_turn_feed", args=[key]))
    assert feed.status_code == 200
    summary = next(atom(feed).iter(f"{ATOM}entry")).find(f"{ATOM}summary").text
    assert f"Due by {waiting.deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC." in summary
