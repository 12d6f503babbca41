"""Black ICE (Andrew Looney; Pyramid Primer #1) for 2 players: ../shared/spec/blackice.md.

`engine.blackice.game.GAME` is the game on the kit. It declares no `PACKAGE` yet, so the registry
does not offer it: its clicks and pages come first.
"""
