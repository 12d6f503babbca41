"""No import circle anywhere in the project: ../shared/tools/import_cycles.py (which CI has beside the
clone) counts imports inside functions too, so a late import does not hide one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT.parent / "shared" / "tools" / "import_cycles.py"


@pytest.mark.skipif(not TOOL.exists(), reason="needs ../shared/tools/import_cycles.py beside the clone")
def test_no_module_imports_itself_through_a_circle():
    result = subprocess.run([sys.executable, str(TOOL)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.stdout.strip().splitlines()[-1:] == ["0 circles"], result.stdout + result.stderr
    assert result.returncode == 0
