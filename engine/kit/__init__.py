"""The game kit: a new game is one package (engine/<id>/) built on these pieces (docs/games.md)."""
