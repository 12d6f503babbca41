from django.db import migrations, models


class Migration(migrations.Migration):
    """Game.result_reason takes any game's Result.reason (GameInfo.reasons: "score", "poker block", "tie", ...):
    no fixed choices. Stored values are unchanged."""

    dependencies = [
        ("games", "0004_game_winners"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="result_reason",
            field=models.CharField(blank=True, max_length=20),
        ),
    ]
