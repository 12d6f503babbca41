"""archive/0006 on games archived before it: the archive's tallies of public games are counted from them, and
the archive page shows the same counts as before."""

from __future__ import annotations

import pytest
from django.urls import reverse

from archive.models import ArchiveTally
from tests.archive.archive_helpers import finished_rows
from tests.archive.test_archive_migration import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("archive", "0005_archive_rows_tallies_public_indexes")]


@pytest.fixture
def archived_before_0006(users):
    migrate(latest())
    alice, bob, charlie, *_ = users
    games = [
        finished_rows([alice, bob], deck="arcade", plies=31),
        finished_rows([alice, bob], deck="arcade", plies=40),
        finished_rows([alice, bob, charlie], winner=None, reason="draw", plies=90),
        finished_rows([bob, charlie], is_private=True, reason="resignation", winner=1, plies=7),
    ]
    yield games
    migrate(latest())


def test_games_archived_before_are_tallied(client, archived_before_0006):
    searches = [{}, {"deck": "arcade"}, {"reason": "draw"}, {"players": "3"}, {"reason": "resignation"}]
    before = [client.get(reverse("archive"), query).content for query in searches]
    kept = list(ArchiveTally.objects.values_list("game_type", "player_count", "reason", "options", "games"))
    migrate(BEFORE)
    migrate(latest())
    counted = list(ArchiveTally.objects.values_list("game_type", "player_count", "reason", "options", "games"))
    tallied = [("zarkcity", 2, "power block", {"deck": "arcade"}, 2), ("zarkcity", 3, "draw", {"deck": "standard"}, 1)]
    assert sorted(counted, key=str) == sorted(kept, key=str) == sorted(tallied, key=str)  # not the private one
    assert [client.get(reverse("archive"), query).content for query in searches] == before
