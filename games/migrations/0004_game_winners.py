from django.db import migrations, models


class Migration(migrations.Migration):
    """Game.winner holds the winners' colours, comma-separated: a game's Result may name several."""

    dependencies = [
        ("games", "0003_game_id_and_options"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="winner",
            field=models.CharField(blank=True, max_length=40),
        ),
    ]
