"""requirements.lock pins every package with its hashes and matches requirements*.txt (scripts/check_lock.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("check_lock", ROOT / "scripts" / "check_lock.py")
check_lock = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_lock)


def test_the_lock_matches_the_requirements():
    assert check_lock.differences(ROOT / "requirements-dev.txt", ROOT / "requirements.lock") == []


def test_every_locked_package_has_a_hash():
    entries = re.split(r"\n(?=[a-z0-9])", (ROOT / "requirements.lock").read_text())
    packages = [entry for entry in entries if "==" in entry.split("\n")[0]]
    assert len(packages) > 20
    assert all("--hash=sha256:" in entry for entry in packages)


def test_a_pin_missing_from_the_lock_is_reported(tmp_path):
    (tmp_path / "requirements.txt").write_text("Django==5.2.19\n")
    (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\ndjango-stubs==5.2.0\n")
    (tmp_path / "requirements.lock").write_text("django==5.1.0 \\\n    --hash=sha256:00\n")
    assert check_lock.differences(tmp_path / "requirements-dev.txt", tmp_path / "requirements.lock") == [
        "django-stubs==5.2.0 is not in requirements.lock",
        "django==5.2.19 but requirements.lock has 5.1.0",
    ]
