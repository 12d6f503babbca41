"""archive/0005 on games archived before it: each gets its list row rendered (what the list shows is what it
showed), its result rows the game's options, length and reason, and its players their tallies."""

from __future__ import annotations

import pytest
from django.urls import reverse

from archive import rows
from archive.models import ArchivedPlayer, ArchivedRow, PlayerTally
from tests.archive.archive_helpers import finished_rows
from tests.archive.test_archive_migration import latest, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("archive", "0004_winners_share")]
AFTER = [("archive", "0005_archive_rows_tallies_public_indexes")]


@pytest.fixture
def archived_before_0005(users):
    """Three games archived by today's code (the test then takes the archive back to 0004 and forward)."""
    migrate(latest())
    alice, bob, charlie, *_ = users
    games = [
        finished_rows([alice, bob], deck="arcade", plies=31),
        finished_rows([alice, bob, charlie], winner=None, reason="draw", plies=90),
        finished_rows([bob, charlie], is_private=True, reason="resignation", winner=1, plies=7),
    ]
    yield games
    migrate(latest())


def test_rows_archived_before_get_their_list_rows_columns_and_tallies(client, archived_before_0005, users):
    listed_before = client.get(reverse("archive")).content
    migrate(BEFORE)
    migrate(AFTER)
    assert ArchivedRow.objects.count() == 3
    assert set(ArchivedRow.objects.values_list("key", flat=True)) == {rows.row_key()}
    migrate(latest())  # today's page counts with the tallies of 0006
    assert client.get(reverse("archive")).content == listed_before
    copied = [(p.archived_game_id, p.options, p.plies, p.reason) for p in ArchivedPlayer.objects.all()]
    arcade, draw, private = archived_before_0005
    assert (arcade.pk, {"deck": "arcade"}, 31, "power block") in copied
    assert (private.pk, {"deck": "standard"}, 7, "resignation") in copied
    alice, bob, charlie, *_ = users
    tallied = PlayerTally.objects.filter(user=bob).values_list("player_count", "played", "won", "drawn", "private")
    assert set(tallied) == {(2, 2, 0, 0, 1), (3, 1, 0, 1, 0)}  # lost to alice, lost to charlie (private), a draw
