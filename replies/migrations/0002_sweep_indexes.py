"""inbound_answer_owed and inbound_unpurged: the replies sweep (every 5 minutes) reads the answers still
owed and the messages due for purging by these partial indexes, not every message ever received (a
message stays a row for good, so that a late second delivery is still recognised): issue 29."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("replies", "0001_initial"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="inboundmessage",
            index=models.Index(
                condition=models.Q(("answer_status__in", ["pending", "sending"])),
                fields=["answer_status"],
                name="inbound_answer_owed",
            ),
        ),
        migrations.AddIndex(
            model_name="inboundmessage",
            index=models.Index(
                condition=models.Q(("purged_at__isnull", True)), fields=["received_at"], name="inbound_unpurged"
            ),
        ),
    ]
