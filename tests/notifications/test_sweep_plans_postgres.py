"""With nothing due, every query of the periodic sweeps reads through an index bounded by what is due, not
through the games in progress, the emails held for later or the email moves received long ago (issue 29,
docs/performance.md "The sweep").

How many rows PostgreSQL reads for a query (EXPLAIN ANALYZE: the rows its scans return and filter out) does
not depend on the machine's load. With sequential scans switched off, a query that still reads every
game, held email or old reply has no index that fits it. Runs only on PostgreSQL:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/<a database of your own> \
    .venv/bin/pytest -m postgres tests/notifications
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import plans
from games import tasks as games_tasks
from notifications import sweep
from notifications.models import Notification
from replies import sweep as replies_sweep
from replies.models import InboundMessage
from tests.notifications.test_sweep_due import NOW, games_in_progress

pytestmark = [pytest.mark.postgres, pytest.mark.django_db, pytest.mark.usefixtures("eager")]
GAMES = 200


def sweep_statements() -> list[str]:
    """The statements of one round of the periodic tasks at NOW, which must find nothing to do."""
    with time_machine.travel(NOW, tick=False), CaptureQueriesContext(connection) as queries:
        counts = sweep.sweep(NOW)
        assert games_tasks.requeue_waiting(NOW) == 0 and not any(counts.values()), counts
        assert not any(replies_sweep.sweep(NOW).values())
    return [query["sql"] for query in queries.captured_queries]


def old_replies(count: int) -> None:
    """`count` email moves received long ago: handled, answered, purged (the rows stay for good)."""
    long_ago = NOW - timedelta(days=90)
    InboundMessage.objects.bulk_create(
        InboundMessage(
            message_key=f"<{n}@example.com>",
            source="smtp",
            received_at=long_ago,
            status=InboundMessage.Status.DONE,
            handled_at=long_ago,
            answer_status=InboundMessage.Answer.SENT,
            answered_at=long_ago,
            purged_at=long_ago + timedelta(days=30),
        )
        for n in range(count)
    )


def test_with_nothing_due_no_sweep_query_reads_the_games_the_held_emails_or_old_replies():
    games_in_progress(GAMES)
    # Every game's email held for the recipient's quiet hours: pending, queued long ago, not to go yet.
    Notification.objects.update(
        status=Notification.Status.PENDING, send_after=NOW + timedelta(hours=5), queued_at=NOW - timedelta(hours=1)
    )
    old_replies(GAMES)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SET LOCAL enable_seqscan = off")  # the test's transaction only
    found = plans.explain(sweep_statements())
    assert len(found) >= 4  # the outbox, the clocks, the digests, the bot turns at least
    read = {plan.statement[:120]: (plan.rows_read, plan.scans) for plan in found if plan.rows_read > 0}
    assert read == {}
