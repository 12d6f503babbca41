"""Deck Town as a Ruleset of the Zark City family (rules.md 14): what differs, and nothing else."""

from __future__ import annotations

from ..zarkcity.cards import CardInfo
from ..zarkcity.ruleset import Ruleset
from .blocks import card_rank, highest_card_wins, winners_through
from .cards import CARDS, myrmex_deck, parse_card

DECK_TYPE = "myrmex"


def starter_rank(card: CardInfo) -> tuple[int, ...]:
    """Highest rank goes first; ties by natural suit order (D2); the very same card: the first to choose."""
    return card_rank(card)


DECK_TOWN = Ruleset(
    game="decktown",
    name="Deck Town",
    version="decktown/1",
    position_format="decktown-position/1",
    record_format="decktown-game/1",
    view_format="decktown-view/1",
    cards=CARDS,
    decks={DECK_TYPE: myrmex_deck()},
    hand_limit=5,
    turn_draw=0,
    build_needs_control=True,
    convert_same_size_on_suit_match=True,
    number_ranks="2-9",
    attack_cards="a Crown, a Court or a Pawn; an Ace only flies",
    block_name="poker block",
    win_reason="poker block",
    parse_card=parse_card,
    winners_through=winners_through,
    settle=highest_card_wins,
    starter_rank=starter_rank,
    optional_change=True,
)
