"""The archive list's rows, rendered once per finished game (ArchivedRow); the columns the search by player
filters on, copied onto each result row; each player's tallies per game and table size (PlayerTally); the
public games' indexes. Rows written before it are filled in."""

import django.db.models.deletion
import django.db.models.fields.json
from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import OuterRef, Subquery


def copy_game_columns(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Each result row takes its game's options, length and reason, as game_archive now writes them."""
    ArchivedGame = apps.get_model("archive", "ArchivedGame")
    ArchivedPlayer = apps.get_model("archive", "ArchivedPlayer")
    game = ArchivedGame.objects.filter(pk=OuterRef("archived_game_id"))
    ArchivedPlayer.objects.update(
        options=Subquery(game.values("options")[:1]),
        plies=Subquery(game.values("plies")[:1]),
        reason=Subquery(game.values("reason")[:1]),
    )


def count_tallies(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Every player's tallies, counted from their result rows."""
    from archive.services import tallies_recount

    tallies_recount(apps.get_model("archive", "ArchivedPlayer"), apps.get_model("archive", "PlayerTally"))


def render_rows(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Every archived game's row in the list, rendered now rather than by the first page that lists it."""
    from archive.rows import render_stale

    render_stale(*(apps.get_model("archive", name) for name in ("ArchivedGame", "ArchivedPlayer", "ArchivedRow")))


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0004_winners_share"),
        ("games", "0005_result_reason_from_each_game"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ArchivedRow",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="row",
                        serialize=False,
                        to="archive.archivedgame",
                    ),
                ),
                ("html", models.TextField()),
                ("key", models.CharField(max_length=16)),
            ],
        ),
        migrations.CreateModel(
            name="PlayerTally",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game_type", models.CharField(max_length=20)),
                ("player_count", models.PositiveSmallIntegerField()),
                ("played", models.PositiveIntegerField(default=0)),
                ("won", models.PositiveIntegerField(default=0)),
                ("drawn", models.PositiveIntegerField(default=0)),
                ("private", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.AddField(
            model_name="archivedplayer",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="archivedplayer",
            name="plies",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="archivedplayer",
            name="reason",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=["finished_at", "game", "player_count", "reason", "game_type", "plies", "options"],
                name="archive_public_newest",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=["player_count", "finished_at", "game", "reason", "game_type", "plies", "options"],
                name="archive_public_by_players",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=["game_type", "finished_at", "game", "player_count", "reason", "plies", "options"],
                name="archive_public_by_game",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=["reason", "finished_at", "game", "player_count", "game_type", "plies", "options"],
                name="archive_public_by_reason",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=["plies", "finished_at", "game", "player_count", "reason", "game_type", "options"],
                name="archive_public_by_length",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(
                django.db.models.fields.json.KeyTransform("deck", "options"),
                models.F("finished_at"),
                models.F("game"),
                name="archive_opt_deck",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedplayer",
            index=models.Index(fields=["user", "plies", "finished_at"], name="archive_player_by_length"),
        ),
        migrations.AddIndex(
            model_name="archivedplayer",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=[
                    "user",
                    "finished_at",
                    "archived_game",
                    "player_count",
                    "reason",
                    "game_type",
                    "plies",
                    "options",
                ],
                name="archive_player_public",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedplayer",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=[
                    "user",
                    "plies",
                    "finished_at",
                    "archived_game",
                    "player_count",
                    "reason",
                    "game_type",
                    "options",
                ],
                name="archive_player_public_length",
            ),
        ),
        migrations.AddIndex(
            model_name="archivedplayer",
            index=models.Index(
                condition=models.Q(("is_private", True)), fields=["user"], name="archive_player_private"
            ),
        ),
        migrations.AddField(
            model_name="playertally",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
            ),
        ),
        migrations.AddConstraint(
            model_name="playertally",
            constraint=models.UniqueConstraint(
                fields=("user", "game_type", "player_count"), name="tally_one_per_table"
            ),
        ),
        migrations.RunPython(copy_game_columns, migrations.RunPython.noop),
        migrations.RunPython(count_tallies, migrations.RunPython.noop),
        migrations.RunPython(render_rows, migrations.RunPython.noop),
    ]
