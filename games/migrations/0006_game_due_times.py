"""The sweep reads due times instead of every game in progress (docs/notifications.md, "The sweep"):
Game.clock_due_at (the next look at a game's clocks) and Game.bot_due_at (a bot's lost turn), each with
a partial index. Games already in progress get times no later than the right ones: their clocks are
looked at by the first sweep (which writes the right time), a bot's turn two minutes from now."""

from datetime import timedelta

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone


def set_due_times(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game, Profile = apps.get_model("games", "Game"), apps.get_model("accounts", "Profile")
    active = Game.objects.filter(status="active")
    active.filter(turn_started_at__isnull=False).update(clock_due_at=models.F("turn_started_at"))
    bots = Profile.objects.exclude(bot="").values("user_id")
    # Any game with a bot at the table: the bot sweep clears it where no bot is to move.
    active.filter(seats__user_id__in=bots, seats__resigned=False).update(
        bot_due_at=timezone.now() + timedelta(minutes=2)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_result_reason_from_each_game"),
        ("accounts", "0004_profile_bot"),
    ]

    operations = [
        migrations.AddField(model_name="game", name="bot_due_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(model_name="game", name="clock_due_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("clock_due_at__isnull", False)),
                fields=["clock_due_at", "id"],
                name="game_clock_due",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("bot_due_at__isnull", False)), fields=["bot_due_at", "id"], name="game_bot_due"
            ),
        ),
        migrations.RunPython(set_due_times, migrations.RunPython.noop),
    ]
