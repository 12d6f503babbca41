"""Each player's tallies (PlayerTally), kept by game_archive as games end, are what counting their results
gives; a profile adds up tallies, so its queries do not grow with the games played. The archive's tallies of
public games (ArchiveTally) are what counting the games gives, and the archive page counts from them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from archive.models import ArchiveTally, PlayerTally
from archive.services import archive_tallies_recount, tallies_recount
from tests.archive.archive_helpers import finished_rows

pytestmark = pytest.mark.django_db


def tallies() -> set[tuple]:
    fields = ("user_id", "game_type", "player_count", "played", "won", "drawn", "private")
    return set(PlayerTally.objects.values_list(*fields))


def test_the_tallies_kept_are_the_results_counted(users):
    alice, bob, charlie, dave, erin = users
    finished_rows([alice, bob])
    finished_rows([alice, bob], winner=1)
    finished_rows([alice, charlie, dave], winner=2, reason="resignation")
    finished_rows([charlie, dave, erin, bob, alice], winner=None, reason="draw")
    finished_rows([alice, erin], is_private=True)
    finished_rows([alice, bob], game_id="decktown", options={})
    kept = tallies()
    assert (alice.pk, "zarkcity", 2, 3, 2, 0, 1) in kept  # two with bob (one won), one private with erin
    assert (alice.pk, "zarkcity", 5, 1, 0, 1, 0) in kept and (alice.pk, "decktown", 2, 1, 1, 0, 0) in kept
    tallies_recount()
    assert tallies() == kept


def test_a_profile_reads_the_tallies(client, users):
    alice, bob, charlie, *_ = users
    finished_rows([alice, bob])
    finished_rows([alice, charlie, bob], winner=1)
    finished_rows([alice, bob], is_private=True)
    profile = client.get(reverse("player_profile", args=["alice"])).context["profile"]
    assert (profile.played, profile.won, profile.private_hidden) == (3, 2, 1)
    assert [(t.players, t.played, t.won) for t in profile.by_table_size] == [(2, 2, 2), (3, 1, 0)]
    assert [(g.game_type, g.played, g.won, g.drawn) for g in profile.per_game] == [("zarkcity", 3, 2, 0)]


def test_a_profile_costs_the_same_after_many_games(client, users, django_assert_num_queries):
    alice, bob, charlie, *_ = users
    finished_rows([alice, bob, charlie])
    url = reverse("player_profile", args=["alice"])
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for n in range(12):
        finished_rows([alice, bob] if n % 2 else [alice, charlie, bob], winner=n % 2)
    with django_assert_num_queries(len(few)):
        client.get(url)


def archive_tallies() -> list[tuple]:
    fields = ("game_type", "player_count", "reason", "options_key", "games")
    return sorted(ArchiveTally.objects.values_list(*fields))


def test_the_archive_tallies_kept_are_the_public_games_counted(users):
    alice, bob, charlie, *_ = users
    finished_rows([alice, bob])
    finished_rows([bob, alice], winner=1, deck="arcade")
    finished_rows([alice, bob, charlie], winner=None, reason="draw")
    finished_rows([alice, charlie])
    finished_rows([alice, bob], is_private=True)
    finished_rows([alice, bob], game_id="decktown", options={})
    kept = archive_tallies()
    assert kept == [
        ("decktown", 2, "power block", "{}", 1),
        ("zarkcity", 2, "power block", '{"deck":"arcade"}', 1),
        ("zarkcity", 2, "power block", '{"deck":"standard"}', 2),  # not the private one
        ("zarkcity", 3, "draw", '{"deck":"standard"}', 1),
    ]
    archive_tallies_recount()
    assert archive_tallies() == kept


SEARCHES = [
    {},
    {"players": "2"},
    {"deck": "arcade"},
    {"reason": "draw", "sort": "longest"},
    {"game": "decktown"},
    {"game": "zarkcity", "players": "3", "reason": "draw", "deck": "standard"},
    {"player": "alice"},
    {"player": "alice", "players": "2", "sort": "shortest"},
    {"player": "bob", "game": "zarkcity"},
]


@pytest.mark.parametrize("query", SEARCHES)
def test_a_count_from_the_tallies_is_the_games_counted(client, users, query, monkeypatch):
    """Searches by the filters the tallies keep count from them (no count of the games), and count the same."""
    alice, bob, charlie, dave, _ = users
    for n in range(9):
        table = [alice, bob] if n % 3 else [charlie, alice, dave]
        finished_rows(table, winner=n % 2, deck="arcade" if n % 4 == 0 else "standard", plies=20 + n)
    finished_rows([alice, bob, charlie], winner=None, reason="draw")
    finished_rows([alice, bob], is_private=True)
    finished_rows([bob, charlie], game_id="decktown", options={})
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("archive"), query).context["page"]
    read = [q["sql"].lower() for q in queries.captured_queries]
    assert not any("count(" in sql for sql in read)  # no count of games or results
    assert any("sum(" in sql and "tally" in sql for sql in read)
    tallied = page.paginator.count
    monkeypatch.setattr("archive.selectors._kept_in", lambda filters, tallied: False)  # count the games instead
    assert client.get(reverse("archive"), query).context["page"].paginator.count == tallied > 0


def test_a_count_from_the_tallies_stops_at_the_cap(client, users, monkeypatch):
    monkeypatch.setattr("archive.selectors.COUNT_CAP", 3)
    for _ in range(5):
        finished_rows(users[:2])
    paginator = client.get(reverse("archive"), {"players": "2"}).context["page"].paginator
    assert paginator.capped and paginator.count == 3
