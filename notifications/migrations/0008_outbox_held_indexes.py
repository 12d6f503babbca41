"""notification_unheld and notification_held: the outbox sweep (every 15 s and every minute) reads the
pending rows in flight and the held rows whose time has come by these partial indexes, instead of every
pending row: the emails held for quiet hours grow with the games in progress (issue 29)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0007_web_push"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("send_after__isnull", True), ("status", "pending")),
                fields=["queued_at"],
                name="notification_unheld",
            ),
        ),
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("send_after__isnull", False), ("status", "pending")),
                fields=["send_after"],
                name="notification_held",
            ),
        ),
    ]
