"""Preference.next_digest_at: the sweep reads the digest readers whose digest hour has come, by a partial
index, instead of every reader every minute. Readers already on the digest are looked at by the first
sweep, which writes their next digest hour."""

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone


def look_at_every_reader(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Preference = apps.get_model("notifications", "Preference")
    Preference.objects.filter(mode="digest").update(next_digest_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0004_trim_days_away_beyond_the_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="preference", name="next_digest_at", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddIndex(
            model_name="preference",
            index=models.Index(
                condition=models.Q(("next_digest_at__isnull", False)),
                fields=["next_digest_at", "id"],
                name="preference_digest_due",
            ),
        ),
        migrations.RunPython(look_at_every_reader, migrations.RunPython.noop),
    ]
