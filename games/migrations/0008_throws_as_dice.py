from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_commitment"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="opening_dice",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="move",
            name="dice",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
