"""The engine is a pure library: no Django, no queue, no network, no clock, no global randomness.

Checked twice: statically, by reading every import in engine/, and dynamically, by importing the
whole engine in a fresh interpreter where those modules cannot be imported at all.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = ("django", "celery", "redis", "kombu", "socket", "urllib", "http", "time", "datetime", "random")


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every absolute import in one source file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module",
            "__import__",
        ):
            found.update(arg.value.split(".")[0] for arg in node.args if isinstance(arg, ast.Constant))
    return found


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_scan_sees_the_engine() -> None:
    names = {path.name for path in engine_files()}
    assert {"__init__.py", "__main__.py", "shuffle.py", "rules.py", "views.py", "cli.py"} <= names


def test_no_engine_file_imports_a_forbidden_module() -> None:
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in engine_files()
        for name in imported_modules(path)
        if name in FORBIDDEN
    }
    assert not offenders


def test_the_scan_would_catch_an_offender(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import os, time\nfrom random import choice\nfrom datetime import date as d\n")
    assert imported_modules(sample) & set(FORBIDDEN) == {"time", "random", "datetime"}


POISONED_IMPORT = """
import sys
for name in {forbidden!r}:
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]
    sys.modules[name] = None  # any `import name` now raises ImportError
import pkgutil, importlib, engine
for module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(module.name)
import engine.zarkcity as z
state = z.new_game(["red", "blue"], "purity")
print(len(z.legal_moves(state, "red")), z.dumps(state)[:1])
"""


def test_the_engine_imports_and_plays_with_forbidden_modules_blocked() -> None:
    code = POISONED_IMPORT.format(forbidden=FORBIDDEN)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("{")
