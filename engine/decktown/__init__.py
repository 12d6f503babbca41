"""Deck Town (M. C. DeMarco's Decktet variant of Zark City): the Myrmex deck, poker blocks and the
other differences of rules.md 14, played by the shared Zark City family code (engine/zarkcity)
under the DECK_TOWN Ruleset. The service reaches it through `engine.registry` ("decktown").
"""

from __future__ import annotations

from ..kit.package import Package
from ..zarkcity import PACKAGE as ZARK_CITY_PACKAGE
from .cards import CARDS, myrmex_deck, parse_card
from .game import GAME
from .ruleset import DECK_TOWN, DECK_TYPE

# Zark City's code plays it, so Zark City's verifier (which knows both decks) checks its records and
# Zark City's board script builds its moves.
PACKAGE = Package(
    GAME,
    bots=ZARK_CITY_PACKAGE.bots,
    verifier="../zarkcity/verify.py",
    order=2,
)

__all__ = ["CARDS", "DECK_TOWN", "DECK_TYPE", "PACKAGE", "myrmex_deck", "parse_card"]
