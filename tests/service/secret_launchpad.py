"""Launch Pad 23 as a game whose rules keep even *that* a seat has chosen secret: its `OpenCommitments`
blocked (a Protocol's method set to None is one the class does not have), for the sealed-step tests."""

from __future__ import annotations

from engine.launchpad23.game import Launchpad23


class SecretLaunchpad(Launchpad23):
    committed_note = None  # type: ignore[assignment]


GAME = SecretLaunchpad()
