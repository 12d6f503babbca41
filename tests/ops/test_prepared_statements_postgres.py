"""PostgreSQL parses and plans a statement its connection runs again and again once: the settings bind
values server-side and let psycopg prepare a statement at its fifth run (Django turns preparing off by
default); ZARKCITY_PG_PREPARED=0 turns both off (behind a pooler in transaction mode), and SQLite gets
neither option (docs/deployment.md, "PostgreSQL's prepared statements")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import json, django; django.setup(); from django.conf import settings\n" + (
    "print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
)
POSTGRES = "postgres://someone@db.example.invalid:5432/zarkcity"  # never connected to: settings only


def options(**env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k != "ZARKCITY_PG_PREPARED"} | env
    environment |= {"DJANGO_SETTINGS_MODULE": "zarkcity_site.settings", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    result: dict = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_postgresql_binds_values_server_side_and_prepares_at_the_fifth_run():
    assert options(DATABASE_URL=POSTGRES) == {"server_side_binding": True, "prepare_threshold": 5}


def test_behind_a_transaction_pooler_both_are_turned_off():
    assert options(DATABASE_URL=POSTGRES, ZARKCITY_PG_PREPARED="0") == {}


def test_sqlite_gets_neither():
    sqlite = options(DATABASE_URL="sqlite:////tmp/zarkcity-probe.sqlite3")
    assert "server_side_binding" not in sqlite and "prepare_threshold" not in sqlite


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_statement_run_five_times_is_prepared_and_answers_the_same():
    answers = [list(Game.objects.filter(pk=pk).values_list("pk")) for pk in (1, 2, 3, 4, 5, 6)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert answers == [[]] * 6
    assert [s for s in prepared if 'FROM "games_game" WHERE "games_game"."id" = $1' in s], prepared
