"""Homeworlds (John Cooper; Pyramid Primer #1) for 2 players: ../shared/spec/homeworlds.md.

`engine.homeworlds.game.GAME` is the game on the kit. It declares no `PACKAGE` yet, so the registry
does not offer it: the star map and pages come first.
"""
