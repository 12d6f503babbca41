#!/usr/bin/env python3
"""Re-verify a finished game from its record, offline, standard library only.

    python3 tools/verify_game.py GAME.json [--commitment HEX] [--verbose]

The record's `game` says whose verifier runs: each game's package declares its own self-contained
verifier (`Package.verifier`, e.g. engine/zarkcity/verify.py, which the archive's verify page offers to
download alone), a second implementation that imports nothing of the engine's rules. This file only
finds it through the registry; the verifier checks that SHA-256(seed) is the commitment the server
published when the game started, then follows every move from the seed as its docstring says (what
each does NOT check is listed in docs/archive.md; `python -m engine replay GAME.json` checks
everything).

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a record of a game with a verifier.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine import registry  # noqa: E402


def verifiers() -> dict[str, ModuleType]:
    """Game id -> its package's verifier, loaded from its file (Deck Town shares Zark City's)."""
    loaded: dict[str, ModuleType] = {}
    for package in registry.packages():
        path = package.verifier_path
        if path is not None:
            loaded[package.id] = _load(path)
    return loaded


_cache: dict[str, ModuleType] = {}


def _load(path: str) -> ModuleType:
    if path not in _cache:
        spec = importlib.util.spec_from_file_location(f"verify_{Path(path).parent.name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _cache[path] = module
    return _cache[path]


def verifier_of(record: object) -> ModuleType:
    """The verifier of the record's game; ValueError naming every format a verifier reads otherwise."""
    found = verifiers()
    name = record.get("game", registry.DEFAULT) if isinstance(record, dict) else None
    if name not in found:
        formats = dict.fromkeys(f for module in found.values() for f in module.FORMATS.values())
        raise ValueError(f"not a {' or '.join(formats)} record")
    return found[name]


def verify(record: dict, commitment: str | None = None, log=lambda line: None) -> str:
    """A one-line verdict for an honest record; Rejected with the reason otherwise."""
    module = verifier_of(record)
    try:
        return module.verify(record, commitment, log)
    except module.Rejected as error:
        raise Rejected(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    """The default game's verifier's command line, verifying with whichever verifier the record needs."""
    return _default().main(argv, verify, "(any game with a verifier)")


def _default() -> ModuleType:
    path = registry.package().verifier_path
    assert path is not None, "the default game declares a verifier"
    return _load(path)


# Every verifier's refusal is reported as the default one's, so one command line catches them all.
Rejected = _default().Rejected


if __name__ == "__main__":
    sys.exit(main())
