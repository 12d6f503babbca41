"""Trim days away written before the limits (say 9999-12-31) that no clock arithmetic survives.

A period that begins on or after 9000-01-01 is deleted; one that begins earlier but ends after it is
cut back to end the day before. The clock already ignores such periods (`notifications.clock`); this
only tidies the rows. Reversing does nothing: the dropped days were never usable.
"""

from datetime import date, timedelta

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

LIMIT = date(9000, 1, 1)  # notifications.clock.LAST_USABLE_DAY, copied: migrations do not import app code


def trim(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Away = apps.get_model("notifications", "Away")
    Away.objects.filter(first_day__gte=LIMIT).delete()
    Away.objects.filter(last_day__gte=LIMIT).update(last_day=LIMIT - timedelta(days=1))


class Migration(migrations.Migration):
    dependencies = [("notifications", "0003_play_link_uses_and_draw_declined")]

    operations = [migrations.RunPython(trim, migrations.RunPython.noop)]
