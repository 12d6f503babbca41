from django.db import migrations, models


class Migration(migrations.Migration):
    """ArchivedGame.reason takes any game's Result.reason (GameInfo.reasons): no fixed choices."""

    dependencies = [
        ("archive", "0002_game_type_options_and_ratings_per_game"),
    ]

    operations = [
        migrations.AlterField(
            model_name="archivedgame",
            name="reason",
            field=models.CharField(max_length=20),
        ),
    ]
