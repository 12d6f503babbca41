"""Each game's package declaration (engine/kit/package.py) and the registry that finds them."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.bots import BotInfo, bot_info, bots_for
from engine.bots.kit import KIT_BOTS
from engine.kit.package import ENGINE, Package, late

ROOT = Path(__file__).resolve().parents[2]


def test_the_registry_finds_every_package_in_its_declared_order() -> None:
    # The four first games declare their places; a new game without an `order` follows, by id.
    assert registry.ids()[:4] == ("zarkcity", "decktown", "martianchess", "buyersmarket")
    assert list(registry.ids()[4:]) == sorted(p.id for p in registry.packages() if p.order == 100)
    assert [p.order for p in registry.packages()] == sorted(p.order for p in registry.packages())
    assert registry.get() is registry.get("zarkcity") is registry.package(None).game


def test_every_folder_that_declares_a_package_is_found_and_no_other() -> None:
    declaring = {
        path.parent.name
        for path in (ROOT / "engine").glob("*/__init__.py")
        if any(
            isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "PACKAGE" for t in node.targets)
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    }
    assert declaring == set(registry.ids())
    assert "kit" not in registry.ids() and "bots" not in registry.ids()


def test_an_unknown_game_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess' \\(known: zarkcity, decktown"):
        registry.package("chess")


@pytest.mark.parametrize("package", registry.packages(), ids=lambda p: p.id)
def test_a_package_is_its_folder_and_its_files_exist(package: Package) -> None:
    assert package.folder == os.path.join(ENGINE, package.id) and os.path.isdir(package.folder)
    assert package.verifier_path is not None and os.path.isfile(package.verifier_path)
    for name in (package.script, package.style):
        assert not name or os.path.isfile(os.path.join(package.static_folder, name))
    assert package.static_path("board.js") == f"games/{package.id}/board.js"


@pytest.mark.parametrize("package", registry.packages(), ids=lambda p: p.id)
def test_a_verifier_imports_only_the_standard_library(package: Package) -> None:
    """games.md "Files": a record verifies offline with the standard library, nothing of engine/."""
    nodes = list(ast.walk(ast.parse(Path(package.verifier_path or "").read_text())))
    imported = {alias.name.split(".")[0] for node in nodes if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in nodes if isinstance(node, ast.ImportFrom) and node.module}
    relative = [node for node in nodes if isinstance(node, ast.ImportFrom) and node.level]
    assert imported <= set(sys.stdlib_module_names) | {"__future__"} and not relative


@pytest.mark.parametrize("package", registry.packages(), ids=lambda p: p.id)
def test_the_bots_a_package_declares_are_the_ones_offered(package: Package) -> None:
    assert [b.name for b in bots_for(package.id)] == list(package.bots or KIT_BOTS)
    assert all(isinstance(bot_info(name), BotInfo) and callable(bot) for name, bot in package.bots.items())


def test_late_imports_the_function_when_first_called() -> None:
    joined = late("os.path", "join")
    assert joined.__name__ == "os.path.join" and joined("a", "b") == os.path.join("a", "b")
