"""On SQLite the suite's database is a file (tests/conftest.py): a live server's threads answer on
connections of their own, never on the test's, so the test can read while a page writes."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # The session's live server starts its WhiteNoise before the per-test static settings apply, as in
    # tests/browser/conftest.py.
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite test database only")
def test_the_live_server_answers_on_its_own_connection(live_server):
    assert not connection.is_in_memory_db()
    assert connection.settings_dict["NAME"].endswith("test.sqlite3")
    assert live_server.thread.connections_override == {}
