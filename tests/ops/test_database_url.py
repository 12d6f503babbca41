"""DATABASE_URL read at start-up (zarkcity_site/settings.py): empty is unset, as an empty REDIS_URL is, and
a URL of an unknown kind stops the start with a message that names the setting and keeps its password."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import django; django.setup(); from django.conf import settings\n" + (
    "print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'])"
)


def started_with(database_url: str) -> subprocess.CompletedProcess[str]:
    environment = os.environ | {
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "zarkcity_site.settings",
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, cwd=ROOT)


def test_an_empty_database_url_is_the_embedded_sqlite_file():
    run = started_with("")
    assert run.returncode == 0, run.stderr
    engine, name = run.stdout.split()
    assert engine == "django.db.backends.sqlite3" and name.endswith("db.sqlite3")


def test_a_url_of_an_unknown_kind_names_the_setting_and_not_the_password():
    run = started_with("postgress://zarkcity:s3cret-pw@db.example.org:5432/zarkcity")
    assert run.returncode != 0
    assert "ImproperlyConfigured: DATABASE_URL: Scheme 'postgress://' is unknown" in run.stderr
    assert "s3cret-pw" not in run.stderr
