"""Deck Town (M. C. DeMarco's Decktet variant of Zark City): the Myrmex deck, poker blocks and the
other differences of rules.md 14, played by the shared Zark City family code (engine/zarkcity)
under the DECK_TOWN Ruleset. The service reaches it through `engine.registry` ("decktown").
"""

from __future__ import annotations

from .cards import CARDS, myrmex_deck, parse_card
from .ruleset import DECK_TOWN, DECK_TYPE

__all__ = ["CARDS", "DECK_TOWN", "DECK_TYPE", "myrmex_deck", "parse_card"]
