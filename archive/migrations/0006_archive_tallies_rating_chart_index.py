"""The archive's tallies of public games by game, table size, result and options (ArchiveTally), counted from
the games archived before it; an index a player's rating chart reads alone."""

from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def count_tallies(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """The archive's tallies, counted from its summary rows."""
    from archive.services import archive_tallies_recount

    archive_tallies_recount(apps.get_model("archive", "ArchivedGame"), apps.get_model("archive", "ArchiveTally"))


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0005_archive_rows_tallies_public_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ArchiveTally",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game_type", models.CharField(max_length=20)),
                ("player_count", models.PositiveSmallIntegerField()),
                ("reason", models.CharField(max_length=20)),
                ("options", models.JSONField(blank=True, default=dict)),
                ("options_key", models.CharField(max_length=200)),
                ("games", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.AddConstraint(
            model_name="archivetally",
            constraint=models.UniqueConstraint(
                fields=("game_type", "player_count", "reason", "options_key"), name="archive_tally_one_per_kind"
            ),
        ),
        migrations.AddIndex(
            model_name="archivedplayer",
            index=models.Index(
                condition=models.Q(("is_private", False)),
                fields=["user", "game_type", "finished_at", "rating_after", "mu_after", "sigma_after"],
                name="archive_player_rating_chart",
            ),
        ),
        migrations.RunPython(count_tallies, migrations.RunPython.noop),
    ]
