"""The archive page: filters, sorting, pagination, and a query count that does not grow with the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from accounts.services import profile_update
from archive.selectors import ARCHIVE_PAGE_SIZE, players_named
from tests.archive.archive_helpers import finished_rows

pytestmark = pytest.mark.django_db


def ids(response) -> list[int]:
    return [g.game_id for g in response.context["page"].object_list]


@pytest.fixture
def spread(users):
    alice, bob, charlie, dave, erin = users
    now = timezone.now()
    return {
        "two": finished_rows([alice, bob], plies=30, finished_at=now - timedelta(days=10)),
        "three": finished_rows(
            [alice, charlie, dave], winner=2, reason="resignation", plies=90, finished_at=now - timedelta(days=5)
        ),
        "arcade": finished_rows(
            [bob, erin], deck="arcade", reason="timeout", winner=1, plies=12, finished_at=now - timedelta(days=2)
        ),
        "draw": finished_rows(
            [charlie, dave, erin, bob, alice], winner=None, reason="draw", plies=200, finished_at=now
        ),
        "private": finished_rows([alice, bob], plies=50, is_private=True, finished_at=now),
    }


def test_lists_public_finished_games_newest_first(client, spread):
    response = client.get(reverse("archive"))
    assert ids(response) == [spread[k].pk for k in ("draw", "arcade", "three", "two")]
    html = response.content.decode()
    assert reverse("replay", args=[spread["two"].pk, 30]) in html


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"player": "alice"}, ["draw", "three", "two"]),
        ({"player": "ERIN"}, ["draw", "arcade"]),
        ({"player": "nobody-at-all"}, []),
        ({"players": "3"}, ["three"]),
        ({"players": "5"}, ["draw"]),
        ({"deck": "arcade"}, ["arcade"]),
        ({"reason": "power block"}, ["two"]),
        ({"reason": "resignation"}, ["three"]),
        ({"reason": "timeout"}, ["arcade"]),
        ({"reason": "draw"}, ["draw"]),
        ({"min_plies": "31", "max_plies": "100"}, ["three"]),
        ({"sort": "longest"}, ["draw", "three", "two", "arcade"]),
        ({"sort": "shortest"}, ["arcade", "two", "three", "draw"]),
        ({"player": "bob", "players": "2", "sort": "shortest"}, ["arcade", "two"]),
    ],
)
def test_filters_and_sorts(client, spread, query, expected):
    assert ids(client.get(reverse("archive"), query)) == [spread[k].pk for k in expected]


def test_filter_by_game(client, spread, users):
    """?game= keeps one registered game; an option filter (Zark City's deck) leaves out games without it."""
    alice, bob, *_ = users
    town = finished_rows([alice, bob], plies=44, game_id="decktown", options={}, finished_at=timezone.now())
    assert ids(client.get(reverse("archive"), {"game": "decktown"})) == [town.pk]
    zark = ids(client.get(reverse("archive"), {"game": "zarkcity"}))
    assert zark == [spread[k].pk for k in ("draw", "arcade", "three", "two")]
    assert ids(client.get(reverse("archive"), {"deck": "arcade"})) == [spread["arcade"].pk]
    assert ids(client.get(reverse("archive"), {"game": "decktown", "deck": "arcade"})) == []
    listed = {row.game_id: row.html for row in client.get(reverse("archive")).context["page"].object_list}
    assert f'#{town.pk}</a> <span class="muted small">Deck Town</span>' in listed[town.pk]
    assert f'#{spread["two"].pk}</a> <span class="muted small">Zark City, standard deck' in listed[spread["two"].pk]
    response = client.get(reverse("archive"), {"game": "chess"})
    assert "game" in response.context["form"].errors and town.pk in ids(response)


def test_date_range(client, spread):
    today = timezone.now().date()
    query = {"since": str(today - timedelta(days=6)), "until": str(today - timedelta(days=1))}
    assert ids(client.get(reverse("archive"), query)) == [spread["arcade"].pk, spread["three"].pk]


def test_display_name_finds_a_player(client, spread, users):
    from accounts.models import Profile

    Profile.objects.update_or_create(user=users[4], defaults={"display_name": "Erin the Bold"})
    assert ids(client.get(reverse("archive"), {"player": "erin the bold"})) == [spread["draw"].pk, spread["arcade"].pk]
    assert ids(client.get(reverse("archive"), {"player": "the bo"})) == [spread["draw"].pk, spread["arcade"].pk]


def test_bad_values_are_named_and_the_rest_still_filters(client, spread):
    response = client.get(reverse("archive"), {"deck": "tarot", "players": "3", "min_plies": "-4"})
    form = response.context["form"]
    assert "deck" in form.errors and "min_plies" in form.errors
    assert ids(response) == [spread["three"].pk]
    response = client.get(reverse("archive"), {"since": "2030-01-02", "until": "2030-01-01"})
    assert "until" in response.context["form"].errors


def test_pages(client, users):
    for n in range(ARCHIVE_PAGE_SIZE + 3):
        finished_rows(users[:2], plies=n + 1)
    first = client.get(reverse("archive"), {"sort": "shortest"})
    second = client.get(reverse("archive"), {"sort": "shortest", "page": "2"})
    assert len(ids(first)) == ARCHIVE_PAGE_SIZE and len(ids(second)) == 3
    assert "page=2" in first.content.decode() and "sort=shortest" in first.content.decode()
    assert not set(ids(first)) & set(ids(second))


def _fill(users, count: int) -> None:
    for n in range(count):
        finished_rows(users[: 2 + n % 4], winner=n % 2, plies=10 + n)


@pytest.mark.parametrize("games", [5, 50])
@pytest.mark.parametrize(
    "query,queries",
    [
        ({}, 3),  # the count, the page's rows, their players with display names (one prefetch)
        ({"player": "alice"}, 4),  # plus one to find who "alice" is
        ({"players": "3", "sort": "longest", "deck": "standard"}, 3),
    ],
)
def test_query_count_does_not_grow_with_the_page(client, users, django_assert_num_queries, games, query, queries):
    _fill(users, games)
    with django_assert_num_queries(queries):
        response = client.get(reverse("archive"), query)
    assert response.status_code == 200 and ids(response)


def test_the_count_stops_at_the_cap(client, users, settings, monkeypatch):
    monkeypatch.setattr("archive.selectors.COUNT_CAP", 3)
    _fill(users, 5)
    response = client.get(reverse("archive"))
    assert response.context["page"].paginator.capped
    assert "More than" in response.content.decode()
    assert len(ids(response)) == 3  # the newest 3; older ones need a narrower search


def test_the_filters_fold_away_on_a_small_screen_unless_a_value_is_wrong(client, db):
    html = client.get(reverse("archive")).content.decode()
    assert '<details class="ar-filters" id="archive-filters" open>' in html  # open without JavaScript
    assert "js/archive_filters.js" in html
    wrong = client.get(reverse("archive"), {"min_plies": "many"}).content.decode()
    assert "archive_filters.js" not in wrong  # the error stays in sight


def test_a_signed_in_players_private_games_count_too(client, spread, users, monkeypatch):
    client.force_login(users[0])  # alice: four public games and her private one
    page = client.get(reverse("archive")).context["page"]
    assert page.paginator.count == 5 and spread["private"].pk in ids(client.get(reverse("archive")))
    monkeypatch.setattr("archive.selectors.COUNT_CAP", 4)
    assert client.get(reverse("archive")).context["page"].paginator.capped
    monkeypatch.setattr("archive.selectors.COUNT_CAP", 5)
    assert not client.get(reverse("archive")).context["page"].paginator.capped


def test_part_of_a_name_lists_a_game_of_two_matches_once(client, spread, users):
    profile_update(user=users[2], display_name="Charlie Pyramid")
    profile_update(user=users[3], display_name="Dave Pyramid")
    response = client.get(reverse("archive"), {"player": "pyramid"})
    assert ids(response) == [spread["draw"].pk, spread["three"].pk]  # both in each: once each
    assert response.context["page"].paginator.count == 2


@pytest.mark.parametrize("sort", ["newest", "longest", "shortest"])
def test_part_of_a_name_pages_through_every_game_once(client, users, sort):
    """On PostgreSQL each matching player's first games are read apart and joined (a UNION); on SQLite their
    rows together: either way every page lists the games of any of them, once each, in the chosen order."""
    alice, bob, charlie, dave, erin = users
    for user in (charlie, dave, erin):
        profile_update(user=user, display_name=f"{user.username.title()} Pyramid")
    now = timezone.now()
    tables = [[charlie, dave], [alice, bob], [erin, alice, dave], [bob, charlie], [dave, erin, charlie, alice]]
    games = [
        finished_rows(tables[n % 5], plies=10 + n * 7 % 23, finished_at=now - timedelta(hours=n // 2))
        for n in range(2 * ARCHIVE_PAGE_SIZE + 9)
    ]
    key = {
        "newest": lambda g: (-g.finished_at.timestamp(), -g.pk),
        "longest": lambda g: (-g.ply, -g.finished_at.timestamp(), -g.pk),
        "shortest": lambda g: (g.ply, g.finished_at.timestamp(), g.pk),
    }[sort]
    expected = [g.pk for g in sorted((g for n, g in enumerate(games) if n % 5 != 1), key=key)]
    listed = []
    for page in (1, 2):
        response = client.get(reverse("archive"), {"player": "pyramid", "sort": sort, "page": str(page)})
        assert response.context["page"].paginator.count == len(expected)
        listed += ids(response)
    assert listed == expected


def test_part_of_a_name_lists_the_viewers_own_private_games(client, users):
    alice, bob, charlie, dave, _ = users
    for user in (charlie, dave):
        profile_update(user=user, display_name=f"{user.username.title()} Pyramid")
    now = timezone.now()
    public = finished_rows([charlie, dave], finished_at=now - timedelta(hours=3))
    bobs = finished_rows([charlie, bob], is_private=True, finished_at=now - timedelta(hours=2))
    finished_rows([alice, dave], is_private=True, finished_at=now - timedelta(hours=1))
    assert ids(client.get(reverse("archive"), {"player": "pyramid"})) == [public.pk]
    client.force_login(bob)
    response = client.get(reverse("archive"), {"player": "pyramid"})
    assert ids(response) == [bobs.pk, public.pk] and response.context["page"].paginator.count == 2


def test_an_exact_name_wins_over_parts_of_names(db, users, monkeypatch):
    alice, bob, charlie, dave, erin = users
    profile_update(user=bob, display_name="Twin")
    profile_update(user=charlie, display_name="Twins")
    assert players_named("twin") == [bob.pk]  # not charlie, whose name only contains it
    assert sorted(players_named("TWIN")) == [bob.pk]
    assert players_named("twi") == [bob.pk, charlie.pk]
    monkeypatch.setattr("archive.selectors.PLAYER_MATCHES", 1)
    assert players_named("twi") == [bob.pk]  # the first match only
    profile_update(user=dave, display_name="Dave")
    Profile.objects.filter(user=dave).update(display_name="TWIN")  # as only older rows could be: two of a name
    assert sorted(players_named("twin")) == [bob.pk, dave.pk]  # every exact match, however many


def test_an_exact_username_is_found_among_many_partial_matches_without_profiles(db):
    """A player without a profile has no display name: the exact match still comes first (NULL sorts first)."""
    made = [get_user_model().objects.create(username=f"walker{n}") for n in ("", *range(10, 40))]
    Profile.objects.filter(user__in=made).delete()
    assert players_named("walker") == [made[0].pk]
    assert players_named("alker") == [user.pk for user in made[:20]]  # part of a name: the first 20
