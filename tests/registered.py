"""A game registered for one test only: the registry offers it beside the real packages until the test ends."""

from __future__ import annotations

import importlib

import pytest

from engine import registry
from engine.kit.package import Package


def register(monkeypatch: pytest.MonkeyPatch, module: str) -> str:
    """Offer `module`'s GAME as a package (with the kit's defaults: its bots, the kit's click script);
    returns its id."""
    extra = Package(game=importlib.import_module(module).GAME, order=999)
    found = (*registry.packages(), extra)
    by_id = {package.id: package for package in found}
    monkeypatch.setattr(registry, "packages", lambda: found)
    monkeypatch.setattr(registry, "_by_id", lambda: by_id)
    return extra.id
