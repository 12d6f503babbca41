"""archive/0002 on rows written before it: every archived game becomes Zark City with its deck as an
option, every rating that player's Zark City rating; and back again. Nothing is lost either way.

Runs on whichever database the suite uses (SQLite by default; PostgreSQL with DATABASE_URL), since
renaming the old rating table and creating the new one touches each database's index names.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from archive.models import ArchivedGame, PlayerRating
from tests.archive.archive_helpers import finished_rows

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("archive", "0001_initial")]
AFTER = [("archive", "0002_game_type_options_and_ratings_per_game")]


def migrate(target):
    """Migrate the archive app to `target` and return the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.fixture
def before_0002():
    """The database with the archive at 0001 for the test; at the latest migration again afterwards."""
    old = migrate(BEFORE)
    yield old
    migrate(latest())  # the later migrations too: the tests after this one need the whole schema


def latest():
    """The archive's newest migration."""
    loader = MigrationExecutor(connection).loader
    return loader.graph.leaf_nodes("archive")


def test_rows_from_before_become_zark_city_and_come_back(before_0002, alice, bob):
    arcade, standard = (finished_rows([alice, bob], deck=deck, archive=False) for deck in ("arcade", "standard"))
    OldGame = before_0002.get_model("archive", "ArchivedGame")
    OldRating = before_0002.get_model("archive", "PlayerRating")
    for game, deck in ((arcade, "arcade"), (standard, "standard")):
        OldGame.objects.create(
            game_id=game.pk,
            finished_at=game.finished_at,
            deck=deck,
            player_count=2,
            plies=game.ply,
            reason="power block",
            winner_colour="red",
            winner_id=alice.pk,
        )
    OldRating.objects.create(user_id=alice.pk, mu=28.5, sigma=6.0, rating=10.5, games=2, wins=2)
    OldRating.objects.create(user_id=bob.pk, mu=21.5, sigma=6.0, rating=3.5, games=2, wins=0)

    migrate(AFTER)
    archived = {row.pk: (row.game_type, row.options) for row in ArchivedGame.objects.all()}
    assert archived == {arcade.pk: ("zarkcity", {"deck": "arcade"}), standard.pk: ("zarkcity", {"deck": "standard"})}
    ratings = {(r.user_id, r.game_type): (r.mu, r.sigma, r.rating, r.games, r.wins) for r in PlayerRating.objects.all()}
    assert ratings == {(alice.pk, "zarkcity"): (28.5, 6.0, 10.5, 2, 2), (bob.pk, "zarkcity"): (21.5, 6.0, 3.5, 2, 0)}

    old = migrate(BEFORE)
    decks = dict(old.get_model("archive", "ArchivedGame").objects.values_list("pk", "deck"))
    assert decks == {arcade.pk: "arcade", standard.pk: "standard"}
    back = old.get_model("archive", "PlayerRating").objects.values_list("user_id", "mu", "games", "wins")
    assert sorted(back) == sorted([(alice.pk, 28.5, 2, 2), (bob.pk, 21.5, 2, 0)])
