"""scripts/supervise.sh, which keeps serve.sh's Celery worker + beat alive: a process that dies is
restarted and the terminal is told; SIGTERM stops both the loop and the process."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_a_process_that_dies_is_restarted_and_the_terminal_says_so(tmp_path):
    starts, log = tmp_path / "starts", tmp_path / "worker.log"
    # Each start is written down; the first two die at once (status 3), the third stays up.
    script = f'echo start >>{starts}; echo "Unrecoverable error"; [ $(wc -l <{starts}) -ge 3 ] && exec sleep 60; exit 3'
    supervisor = subprocess.Popen(
        ["bash", "scripts/supervise.sh", "the test worker", str(log), "bash", "-c", script],
        cwd=ROOT,
        env=os.environ | {"RESTART_DELAY": "0.1"},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_for(lambda: starts.exists() and len(starts.read_text().split()) == 3)
    finally:
        supervisor.send_signal(signal.SIGTERM)
        _, terminal = supervisor.communicate(timeout=10)
    assert terminal.count("!!> the test worker exited with status 3") == 2
    assert "Unrecoverable error" in terminal  # the log's last lines, so the cause is on screen
    assert log.read_text().count("Unrecoverable error") == 3


def test_sigterm_stops_the_supervised_process_too(tmp_path):
    pidfile = tmp_path / "pid"
    supervisor = subprocess.Popen(
        [
            "bash",
            "scripts/supervise.sh",
            "sleeper",
            str(tmp_path / "log"),
            "bash",
            "-c",
            f"echo $$ >{pidfile}; exec sleep 60",
        ],
        cwd=ROOT,
    )
    assert wait_for(lambda: pidfile.exists() and pidfile.read_text().strip())
    child = int(pidfile.read_text())
    supervisor.send_signal(signal.SIGTERM)
    assert supervisor.wait(timeout=10) == 0
    assert wait_for(
        lambda: not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
    )
