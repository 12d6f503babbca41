"""The next game one click away (issue 28): the games waiting for your move least time left first, on
My games, behind the "Next game" button and its redirect; the tab title and icon count them; after a
move the page opens on the status line."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game
from games.selectors.turns import games_waiting, next_waiting
from notifications.models import Away
from tests.service.test_dashboard import choose_starter

pytestmark = pytest.mark.django_db


def started(*players, days: int = 3) -> Game:
    game = services.game_create(
        creator=players[0], seats=len(players), game="zarkcity", options={"deck": "standard"},
        time_limit_days=days, is_private=False,
    )  # fmt: skip
    for user in players[1:]:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def three_waiting(alice, bob, charlie):
    """Three games waiting for alice: `roomy` has 3 days left, `soon` half a day, `middle` one day."""
    now = timezone.now()
    roomy = started(alice, bob, days=3)
    with time_machine.travel(now - timedelta(days=2, hours=12), tick=False):
        soon = started(alice, charlie, days=3)
    with time_machine.travel(now - timedelta(days=1), tick=False):
        middle = started(alice, bob, days=2)
    theirs = started(alice, charlie)
    choose_starter(theirs, alice)  # waits for charlie, not for alice
    return soon, middle, roomy


def test_the_games_waiting_come_least_time_left_first(alice, three_waiting):
    assert [w.game for w in games_waiting(alice)] == list(three_waiting)
    soon, middle, roomy = three_waiting
    assert next_waiting(alice).game == soon
    assert next_waiting(alice, after=soon).game == middle


def test_days_away_stop_the_clock_and_so_move_a_game_down(alice, three_waiting):
    soon, middle, roomy = three_waiting
    today = timezone.localdate()
    Away.objects.create(user=alice, first_day=today, last_day=today + timedelta(days=5))
    # Every clock stops for the same days: the order stays, each deadline moves on by the time away.
    assert [w.game for w in games_waiting(alice)] == [soon, middle, roomy]
    assert games_waiting(alice)[0].deadline > timezone.now() + timedelta(days=5)


def test_my_games_lists_your_move_in_the_same_order(alice, three_waiting):
    html = logged_in(alice).get(reverse("dashboard")).content.decode()
    positions = [html.index(f"Zark City #{game.pk}<") for game in three_waiting]
    assert positions == sorted(positions)


def test_next_game_opens_the_next_one_after_the_page_you_are_on(alice, three_waiting):
    soon, middle, roomy = three_waiting
    client = logged_in(alice)
    assert client.get(reverse("next_game"))["Location"] == reverse("game_detail", args=[soon.pk])
    answer = client.get(reverse("next_game"), {"after": soon.pk})
    assert answer["Location"] == reverse("game_detail", args=[middle.pk])


def test_next_game_with_nothing_waiting_says_so_on_my_games(alice, bob):
    client = logged_in(alice)
    answer = client.get(reverse("next_game"), follow=True)
    assert answer.redirect_chain[-1][0] == reverse("dashboard")
    assert "No other game waits for your move." in answer.content.decode()


def test_the_game_page_names_the_next_game_for_its_player_only(alice, bob, three_waiting):
    soon, middle, roomy = three_waiting
    html = logged_in(alice).get(reverse("game_detail", args=[soon.pk])).content.decode()
    button = re.search(r"<a [^>]*data-next-game[^>]*>(.*?)</a>", html, re.S)
    assert button and f"<span data-next-label>Next game: Zark City #{middle.pk}</span>" in button.group(0)
    assert " hidden" not in button.group(0).split(">")[0]
    assert "data-next-game" not in Client().get(reverse("game_detail", args=[soon.pk])).content.decode()


def test_the_button_is_hidden_while_no_other_game_waits(alice, bob):
    game = started(alice, bob)
    html = logged_in(alice).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert re.search(r"<a [^>]*data-next-game[^>]* hidden>", html)


def test_the_title_and_icon_count_the_games_waiting(alice, dave, three_waiting):
    html = logged_in(alice).get(reverse("dashboard")).content.decode()
    assert "<title>(3) Your move - zarkcity</title>" in html
    assert f'rel="icon" type="image/svg+xml" href="{reverse("turn_icon", args=[3])}"' in html
    html = logged_in(dave).get(reverse("dashboard")).content.decode()
    assert "<title>My games · zarkcity</title>" in html and reverse("turn_icon", args=[0]) in html
    assert "<title>Open games" in Client().get(reverse("open_games")).content.decode()


def test_the_game_page_counts_and_names_from_one_read_with_the_clocks_days_away(alice, three_waiting):
    """The page reads its player's games waiting once, with the days away its clocks read: the title's
    count is the context processor's, the next game the one `next_waiting` names, days away or not."""
    soon, middle, roomy = three_waiting
    today = timezone.localdate()
    Away.objects.create(user=alice, first_day=today, last_day=today + timedelta(days=5))
    client = logged_in(alice)
    with CaptureQueriesContext(connection) as captured:
        html = client.get(reverse("game_detail", args=[middle.pk])).content.decode()
    assert "<title>(3) Your move - zarkcity</title>" in html
    assert f"<span data-next-label>Next game: Zark City #{next_waiting(alice, after=middle).game.pk}</span>" in html
    queries = [q["sql"] for q in captured.captured_queries]
    assert sum(sql.startswith('SELECT "notifications_away".') for sql in queries) == 1
    assert not any('"games_game"."to_move" AS "game__to_move"' in sql for sql in queries)  # no second count


@pytest.mark.parametrize(("count", "label"), [(0, None), (2, "2"), (9, "9"), (12, "9+")])
def test_the_icon_shows_the_count(client, count, label):
    svg = client.get(reverse("turn_icon", args=[count]))
    assert svg["Content-Type"].startswith("image/svg+xml")
    texts = re.findall(r"<text[^>]*>(.*?)</text>", svg.content.decode())
    assert texts == ([label] if label else [])


def test_a_players_poll_carries_their_count_and_next_game(alice, bob, three_waiting):
    soon, middle, roomy = three_waiting
    url = reverse("game_ply", args=[soon.pk])
    news = logged_in(alice).get(url, {"mine": "1"}).json()
    assert news["waiting"] == 3
    assert news["next"] == {"url": reverse("game_detail", args=[middle.pk]), "name": f"Zark City #{middle.pk}"}
    assert "waiting" not in logged_in(alice).get(url).json()  # without mine=1: no session read
    assert "waiting" not in Client().get(url, {"mine": "1"}).json()
    # bob must choose his starter in roomy and middle (both players choose at once)
    assert logged_in(bob).get(reverse("game_ply", args=[roomy.pk]), {"mine": "1"}).json()["waiting"] == 2


def test_the_games_waiting_are_read_without_their_positions(alice, three_waiting):
    """A player of many games: "Next game" and the count read no game's snapshot, and asking the list
    for a game's name, address and deadline reads nothing more."""
    with CaptureQueriesContext(connection) as captured:
        waiting = games_waiting(alice)
        shown = [(w.name, w.url, w.deadline, w.colour) for w in waiting]
    assert len(shown) == 3
    reads = [query["sql"] for query in captured.captured_queries]
    assert not any('"snapshot"' in sql for sql in reads)
    assert [sql.split(" FROM ")[1].split()[0] for sql in reads] == [
        '"games_seat"',
        '"notifications_preference"',
        '"notifications_away"',
    ]


def test_a_players_poll_reads_their_days_away_only_where_two_games_could_be_next(alice, bob, three_waiting):
    """The poll every few seconds asks the days away (and the time zone they are counted in) only to order
    the games waiting by time left: where one other game at most waits, there is nothing to order."""
    soon, middle, roomy = three_waiting

    def tables_read(user, game: Game) -> tuple[dict, set[str]]:
        with CaptureQueriesContext(connection) as captured:
            news = logged_in(user).get(reverse("game_ply", args=[game.pk]), {"mine": "1"}).json()
        return news, {q["sql"].split(" FROM ")[1].split()[0] for q in captured.captured_queries if " FROM " in q["sql"]}

    news, tables = tables_read(bob, roomy)  # bob waits in roomy and middle: middle is next
    assert (news["waiting"], news["next"]["name"]) == (2, f"Zark City #{middle.pk}")
    assert not tables & {'"notifications_away"', '"notifications_preference"'}
    news, tables = tables_read(alice, soon)  # middle and roomy could be next: the one with less time left
    assert (news["waiting"], news["next"]["name"]) == (3, f"Zark City #{middle.pk}")
    assert {'"notifications_away"', '"notifications_preference"'} <= tables
