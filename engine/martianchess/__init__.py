"""Martian Chess (Pyramid Primer #1) for 2 or 4 players: ../shared/spec/martian_chess.md.

`engine.martianchess.game.GAME` is the game behind the one interface (engine/interface.py).
"""

from __future__ import annotations
