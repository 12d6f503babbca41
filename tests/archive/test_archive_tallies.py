"""Each player's tallies (PlayerTally), kept by game_archive as games end, are what counting their results
gives; a profile adds up tallies, so its queries do not grow with the games played."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from archive.models import PlayerTally
from archive.services import tallies_recount
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
