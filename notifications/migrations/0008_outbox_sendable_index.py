"""notification_sendable: the outbox sweep (every 15 s and every minute) reads the pending rows that may go
now by this partial index on send_after, instead of every pending row: the emails held for quiet hours
grow with the games in progress (issue 29)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0007_web_push"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("status", "pending")), fields=["send_after"], name="notification_sendable"
            ),
        ),
    ]
