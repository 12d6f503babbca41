"""Games store which game they are: every game so far is Zark City, its deck kept as an option."""

from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def deck_to_options(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game: Any = apps.get_model("games", "Game")  # the model as it was then, with its deck field
    for game in Game.objects.all().only("pk", "deck").iterator():
        Game.objects.filter(pk=game.pk).update(game="zarkcity", options={"deck": game.deck or "standard"})


def options_to_deck(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game: Any = apps.get_model("games", "Game")  # the model as it was then, with its deck field
    for game in Game.objects.all().only("pk", "options").iterator():
        Game.objects.filter(pk=game.pk).update(deck=(game.options or {}).get("deck", "standard"))


class Migration(migrations.Migration):
    dependencies = [("games", "0002_drawproposal_decided")]

    operations = [
        migrations.AddField(
            model_name="game", name="game", field=models.CharField(db_index=True, default="zarkcity", max_length=20)
        ),
        migrations.AddField(model_name="game", name="options", field=models.JSONField(blank=True, default=dict)),
        migrations.RunPython(deck_to_options, options_to_deck),
        migrations.RemoveField(model_name="game", name="deck"),
    ]
