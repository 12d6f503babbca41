"""The worker's pool processes have a memory ceiling (settings.CELERY_WORKER_MAX_MEMORY_PER_CHILD): Celery
replaces a process whose peak RSS passed it, after its task. Twice the plateau measured by
bench/worker_memory.py (docs/performance.md, "Memory"), so it bounds a leak and never fires otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from zarkcity_site.celery import app

ROOT = Path(__file__).resolve().parents[2]


def ceiling(environment: dict[str, str]) -> str:
    """The ceiling Celery's configuration holds when the settings are read with `environment`."""
    code = (
        "import django; django.setup(); from zarkcity_site.celery import app;"
        " print(app.conf.worker_max_memory_per_child)"
    )
    env = {k: v for k, v in os.environ.items() if k != "ZARKCITY_WORKER_MAX_MEMORY_MB"} | environment
    env["DJANGO_SETTINGS_MODULE"] = "zarkcity_site.settings"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_pool_processes_have_a_ceiling_of_400_mb_in_kib():
    assert app.conf.worker_max_memory_per_child == 400 * 1024


def test_the_ceiling_is_set_in_mb_and_0_lifts_it():
    assert ceiling({"ZARKCITY_WORKER_MAX_MEMORY_MB": "600"}) == str(600 * 1024)
    assert ceiling({"ZARKCITY_WORKER_MAX_MEMORY_MB": "0"}) == "None"
