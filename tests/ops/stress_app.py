"""A Celery app with one task, over the embedded broker, for tests/ops/test_broker_stress.py.

No Django: the worker process only has to take messages off the filesystem broker and write down
which ones it saw. STRESS_BROKER_DIR, STRESS_SEEN and STRESS_TRANSPORT come from the test.
"""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery

folder = Path(os.environ["STRESS_BROKER_DIR"])
for sub in ("in", "processed", "control"):
    (folder / sub).mkdir(parents=True, exist_ok=True)

app = Celery("stress", broker="filesystem://")
app.conf.update(
    broker_transport=os.environ.get("STRESS_TRANSPORT", "zarkcity_site.broker:Transport"),
    broker_transport_options={
        "data_folder_in": str(folder / "in"),
        "data_folder_out": str(folder / "in"),
        "processed_folder": str(folder / "processed"),
        "taken_folder": str(folder / "processed"),
        "quarantine_folder": str(folder / "quarantine"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
        "polling_interval": 0.05,
    },
    task_ignore_result=True,
    worker_hijack_root_logger=False,
)


@app.task(name="stress.record")
def record(n: int) -> None:
    with open(os.environ["STRESS_SEEN"], "a") as seen:
        seen.write(f"{n}\n")
