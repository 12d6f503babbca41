"""Sentry: started only when SENTRY_DSN is set (sentry-sdk not even imported otherwise), and never
sending local variables (a hand, a seed) or request bodies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, sys, django; django.setup()\n"
    "loaded = 'sentry_sdk' in sys.modules\n"
    "options = {}\n"
    "if loaded:\n"
    "    import sentry_sdk; client = sentry_sdk.get_client()\n"
    "    keys = ('dsn', 'include_local_variables', 'send_default_pii', 'max_request_body_size')\n"
    "    options = {k: client.options[k] for k in keys}\n"
    "print(json.dumps({'loaded': loaded, 'options': options}))"
)


def probe(**env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"} | env
    environment |= {"DJANGO_SETTINGS_MODULE": "zarkcity_site.settings", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_without_a_dsn_sentry_is_not_even_imported():
    assert probe() == {"loaded": False, "options": {}}


def test_with_a_dsn_errors_go_to_sentry_without_locals_or_bodies():
    dsn = "https://public@sentry.example.invalid/1"
    assert probe(SENTRY_DSN=dsn)["options"] == {
        "dsn": dsn,
        "include_local_variables": False,
        "send_default_pii": False,
        "max_request_body_size": "never",
    }
