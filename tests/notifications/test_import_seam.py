"""notifications talks to games through models, selectors and games.clock, never games.services: the
import loop games.services -> notifications -> tasks -> sweep -> games.services stays broken."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

NOTIFICATIONS = Path(__file__).resolve().parents[2] / "notifications"


def imported_modules(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_the_scan_sees_a_late_import_inside_a_function():
    assert "games.services" in imported_modules("def f():\n    from games import services\n")


@pytest.mark.parametrize("path", sorted(p for p in NOTIFICATIONS.rglob("*.py") if "migrations" not in p.parts), ids=str)
def test_no_notifications_module_imports_games_services(path: Path):
    imported = imported_modules(path.read_text(encoding="utf-8"))
    assert not {m for m in imported if m == "games.services" or m.startswith("games.services.")}
