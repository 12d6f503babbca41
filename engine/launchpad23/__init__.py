"""Launch Pad 23 (Andrew Looney; Pyramid Primer #1) for 2 to 4 players: ../shared/spec/launchpad23.md.

`engine.launchpad23.game.GAME` is the game on the kit; `engine.launchpad23.bots.evaluate` values a
line cut short for the kit's MCTS bot. It declares no `PACKAGE` yet, so the registry does not offer
it: the pages and clicks come first.
"""
