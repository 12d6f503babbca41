"""Fill Move.dice and Game.opening_dice (0008) for the games played before them, so their history shows
each throw's die faces too.

The dice come from the seed: each game's record is replayed with its rules from the seed, as the
archive's replay and the event feed do (`begin`, then `step` for every stored move in ply order), and
each step's thrown dice (engine.interface `thrown`, what games.services writes for a new move) are
stored where the row has none. Rows already filled are left alone, so running it again changes nothing
and a game that went on after 0008 keeps the dice its later moves were stored with. A game whose record
no longer replays (a rule changed since) keeps its words without faces. Batches of games, each in its
own transaction; going back leaves the dice in place (0008 going back drops the columns).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import migrations, transaction

from engine import registry
from engine.interface import thrown

log = logging.getLogger(__name__)
# The games that threw dice when the dice were first kept (0008); a game added since keeps them from its start.
DICE_GAMES = ("icedice", "pharaoh", "launchpad23", "blackice")
GAMES_A_BATCH = 100


def fill(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    started = Game.objects.filter(game__in=DICE_GAMES, started_at__isnull=False).order_by("pk")
    ids = list(started.values_list("pk", flat=True))
    for first in range(0, len(ids), GAMES_A_BATCH):
        with transaction.atomic(using=schema_editor.connection.alias):
            for game in Game.objects.filter(pk__in=ids[first : first + GAMES_A_BATCH]).order_by("pk"):
                _fill_game(apps, game)


def _fill_game(apps: Any, game: Any) -> None:
    Move = apps.get_model("games", "Move")
    colours = dict(game.seats.order_by("order").values_list("pk", "colour"))
    moves = list(Move.objects.filter(game=game).order_by("ply").only("pk", "ply", "seat_id", "notation", "dice"))
    try:
        rules = registry.get(game.game)
        opening = rules.begin(list(colours.values()), game.seed, game.options)
        state, throws = opening.state, []
        for move in moves:
            outcome = rules.step(state, rules.parse(move.notation), colours[move.seat_id])
            state = outcome.state
            throws.append(thrown(outcome.events))
    except Exception:  # a record the engine no longer reads must not stop the deployment: it keeps its words
        log.warning("game %s no longer replays: its moves keep no dice", game.pk, exc_info=True)
        return
    if not game.opening_dice and (first := thrown(opening.events)):
        game.opening_dice = first
        game.save(update_fields=["opening_dice"])
    filled = []
    for move, dice in zip(moves, throws, strict=True):
        if dice and not move.dice:
            move.dice = dice
            filled.append(move)
    Move.objects.bulk_update(filled, ["dice"], batch_size=500)


class Migration(migrations.Migration):
    atomic = False  # a transaction a batch: a large table is not locked for the whole run

    dependencies = [
        ("games", "0008_throws_as_dice"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
    ]
