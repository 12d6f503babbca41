"""games/0009 on games whose moves were stored before their dice were (0008): each throw is replayed
from the seed into Move.dice and Game.opening_dice, exactly as the service stores a new move's, where
the row has none; a row that has dice keeps them, running it again changes nothing, going back is a
no-op. Runs on whichever database the suite uses (SQLite by default; PostgreSQL with DATABASE_URL)."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection

from games import services
from games.models import Game, Move
from tests.archive.test_archive_migration import migrate
from tests.service.test_throw_faces import DICE_GAMES, play, start

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0008_throws_as_dice")]
AFTER = [("games", "0009_fill_throw_dice")]
fill = importlib.import_module("games.migrations.0009_fill_throw_dice").fill


def dice_of(game: Game) -> tuple[list, list]:
    game.refresh_from_db()
    return game.opening_dice, list(game.moves.order_by("ply").values_list("dice", flat=True))


@pytest.fixture
def played(alice, bob):
    """A game of each dice game, a dozen moves in (one ended by a resignation: its throws too), with the
    dice the service stored; the database at the newest migrations again afterwards."""
    games = {game_id: play(start(game_id, alice, bob), 12) for game_id in DICE_GAMES}
    services.player_resign(game=games["pharaoh"], user=bob)
    yield {game_id: (game, dice_of(game)) for game_id, game in games.items()}
    migrate(AFTER)


def test_blanked_dice_are_replayed_from_the_seed(played):
    for game, _ in played.values():
        Move.objects.filter(game=game).update(dice=[])
        Game.objects.filter(pk=game.pk).update(opening_dice=[])
    assert all(not any(dice_of(game)[1]) for game, _ in played.values())
    migrate(BEFORE)
    migrate(AFTER)
    for game_id, (game, stored) in played.items():
        assert dice_of(game) == stored, game_id  # the service's throws, to the die
        assert any(stored[1]), f"{game_id} threw nothing in its first moves"


def test_dice_already_kept_stay_and_a_second_run_changes_nothing(played):
    game, (opening, moves) = played["icedice"]
    thrown_at = [ply for ply, dice in enumerate(moves) if dice]
    kept, blanked = thrown_at[0], thrown_at[1:]
    marked = [{"seat": "red", "dice": [{"face": "kept", "title": "die: kept", "colour": ""}]}]
    Move.objects.filter(game=game, ply=kept).update(dice=marked)  # filled before: left as it is
    Move.objects.filter(game=game, ply__in=blanked).update(dice=[])
    migrate(BEFORE)  # going back keeps the dice: a no-op
    assert dice_of(game)[1][kept] == marked
    migrate(AFTER)
    filled = dice_of(game)
    assert filled == (opening, [marked if ply == kept else dice for ply, dice in enumerate(moves)])
    with connection.schema_editor() as editor:
        fill(migrate(AFTER), editor)  # once more, on rows all filled
    assert dice_of(game) == filled


def test_a_record_that_no_longer_replays_keeps_its_words_and_the_others_are_filled(played):
    broken, _ = played["pharaoh"]
    for game, _ in played.values():
        Move.objects.filter(game=game).update(dice=[])
    Move.objects.filter(game=broken, ply=3).update(notation="no such move")
    migrate(BEFORE)
    migrate(AFTER)  # the deployment goes on
    assert not any(dice_of(broken)[1])
    for game_id, (game, stored) in played.items():
        if game != broken:
            assert dice_of(game) == stored, game_id
