import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Commitment: a seat's sealed choice, held until the last seat of the step commits (docs/service.md).
    A game already choosing keeps the starters its snapshot holds: the seats still to choose commit,
    and the resolution applies theirs to that snapshot."""

    dependencies = [
        ("games", "0006_game_due_times"),
    ]

    operations = [
        migrations.CreateModel(
            name="Commitment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("ply", models.PositiveIntegerField()),
                ("notation", models.CharField(max_length=200)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="commitments", to="games.game"
                    ),
                ),
                (
                    "seat",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="commitments", to="games.seat"
                    ),
                ),
            ],
            options={
                "ordering": ["game", "pk"],
                "constraints": [models.UniqueConstraint(fields=("game", "seat"), name="commitment_one_per_seat")],
            },
        ),
    ]
