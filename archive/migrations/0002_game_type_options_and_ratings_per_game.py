"""The archive knows which game each row is: `game_type` (a registry id) and `options` replace `deck`,
and ratings are kept per (player, game). Every row so far is Zark City: its deck moves into options,
and every existing rating becomes that player's Zark City rating. Nothing is lost.
"""

from typing import Any

from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

ZARK_CITY = "zarkcity"  # the only game before this migration; migrations do not import app code


def deck_into_options(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    ArchivedGame: Any = apps.get_model("archive", "ArchivedGame")  # as it was then, with its deck field
    for row in ArchivedGame.objects.all().only("pk", "deck").iterator():
        ArchivedGame.objects.filter(pk=row.pk).update(options={"deck": row.deck}, game_type=ZARK_CITY)


def options_into_deck(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    ArchivedGame: Any = apps.get_model("archive", "ArchivedGame")  # as it was then, with its deck field
    for row in ArchivedGame.objects.all().only("pk", "options").iterator():
        ArchivedGame.objects.filter(pk=row.pk).update(deck=(row.options or {}).get("deck", "standard"))


def copy_ratings(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # OldPlayerRating exists only in the migrations: the current models' types do not know it.
    Old: Any = apps.get_model("archive", "OldPlayerRating")  # type: ignore[misc]
    New = apps.get_model("archive", "PlayerRating")
    New.objects.bulk_create(
        New(
            user_id=old.user_id,
            game_type=ZARK_CITY,
            mu=old.mu,
            sigma=old.sigma,
            rating=old.rating,
            games=old.games,
            wins=old.wins,
            updated_at=old.updated_at,
        )
        for old in Old.objects.all().iterator()
    )


def copy_ratings_back(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # OldPlayerRating exists only in the migrations: the current models' types do not know it.
    Old: Any = apps.get_model("archive", "OldPlayerRating")  # type: ignore[misc]
    New = apps.get_model("archive", "PlayerRating")
    Old.objects.bulk_create(
        Old(user_id=r.user_id, mu=r.mu, sigma=r.sigma, rating=r.rating, games=r.games, wins=r.wins)
        for r in New.objects.filter(game_type=ZARK_CITY).iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The archive rows: which game, its options; the deck column and its index go.
        migrations.AddField(
            model_name="archivedgame",
            name="game_type",
            field=models.CharField(default=ZARK_CITY, max_length=20),
        ),
        migrations.AddField(
            model_name="archivedgame",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="archivedplayer",
            name="game_type",
            field=models.CharField(default=ZARK_CITY, max_length=20),
        ),
        migrations.RunPython(deck_into_options, options_into_deck),
        migrations.RemoveIndex(model_name="archivedgame", name="archive_by_deck"),
        # A default first, so that going back can add the column to existing rows (options_into_deck fills it).
        migrations.AlterField(
            model_name="archivedgame", name="deck", field=models.CharField(default="standard", max_length=10)
        ),
        migrations.RemoveField(model_name="archivedgame", name="deck"),
        migrations.AddIndex(
            model_name="archivedgame",
            index=models.Index(fields=["game_type", "finished_at"], name="archive_by_game"),
        ),
        migrations.AddIndex(
            model_name="archivedplayer",
            index=models.Index(fields=["user", "game_type", "finished_at"], name="archive_player_game_history"),
        ),
        # Ratings per (player, game): a new table keyed by both, filled from the old one-per-player table.
        migrations.RenameModel("PlayerRating", "OldPlayerRating"),
        migrations.AlterField(
            model_name="oldplayerrating",
            name="user",
            field=models.OneToOneField(
                on_delete=models.deletion.CASCADE,
                primary_key=True,
                related_name="+",
                serialize=False,
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.CreateModel(
            name="PlayerRating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game_type", models.CharField(default=ZARK_CITY, max_length=20)),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("rating", models.FloatField(db_index=True)),
                ("games", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=models.deletion.CASCADE, related_name="ratings", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-rating", "user"],
                "constraints": [models.UniqueConstraint(fields=("user", "game_type"), name="rating_one_per_game")],
                "indexes": [models.Index(fields=["game_type", "rating"], name="rating_by_game")],
            },
        ),
        migrations.RunPython(copy_ratings, copy_ratings_back),
        migrations.DeleteModel("OldPlayerRating"),
    ]
