"""What makes one game of the Zark City family: a frozen Ruleset every rules step reads from the State.

Zark City and Deck Town share rules.py, options.py, movegen.py, the draft, views, descriptions,
positions and records; where they differ (the cards, the hand limit, the turn's opening draw, who
may build where, the attack cards, conversion, the winning blocks, tie-breaks, file format names)
the shared code asks `state.ruleset`. A State carries its Ruleset, so a State always knows its game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from .board import winners_through as power_block_winners
from .cards import CARDS, DECK_TYPES, CardInfo, deck_cards, parse_card
from .notation import Cell
from .square import Square

Board = Mapping[Cell, Square]
WinCheck = Callable[[Board, Iterable[Cell]], set[str]]
Settle = Callable[[Board, set[str], "str | None", tuple[str, ...]], tuple[str, ...]]


@dataclass(frozen=True, eq=False)  # compared by identity: there is one Ruleset object per game
class Ruleset:
    game: str  # the registry id (games.md), written as "game" in every file
    name: str
    version: str  # the "rules" field of files: a game is replayed under the rules it started with
    position_format: str
    record_format: str
    view_format: str
    cards: Mapping[str, CardInfo]
    decks: Mapping[str, tuple[str, ...]]  # deck_type -> every card in canonical order (the first shuffle's input)
    hand_limit: int
    turn_draw: int  # cards drawn automatically when a turn starts
    build_needs_control: bool  # Build beside a card you control (Deck Town) or merely occupy (Zark City)
    convert_same_size_on_suit_match: bool  # Deck Town's convert: same size only, every paid card shares a suit
    number_ranks: str  # "2-10": number cards in words, for messages
    attack_cards: str  # "J, Q, K, A or a joker": what pays for an attack, for messages
    block_name: str  # "Power Block": what wins, for messages
    win_reason: str  # the result's reason when a block wins: "power block", "poker block"
    parse_card: Callable[[str], str]
    winners_through: WinCheck  # players who complete a winning block covering one of the cells
    settle: Settle  # several players completed a block at once: who wins (several = a tie)
    starter_rank: Callable[[CardInfo], tuple[int, ...]]  # the highest starter goes first; commit order breaks ties
    optional_change: bool = False  # Deck Town (D9): an attacker may draw fewer change cards (`pay ... draw N`)

    def __copy__(self) -> Ruleset:
        return self  # one Ruleset per game: a copied State still plays the same game

    def __deepcopy__(self, memo: dict[int, object]) -> Ruleset:
        return self

    def copies(self, deck_type: str) -> Counter[str]:
        """How many of each card the deck holds (two jokers; two of each Deck Town number card)."""
        return _copies(self, deck_type)

    def sort(self, cards: Iterable[str]) -> tuple[str, ...]:
        """Cards in canonical deck order, the order `pay` and `discard` lists are printed in."""
        return tuple(sorted(cards, key=lambda c: self.cards[c].order))

    def in_deck(self, card: str, deck_type: str) -> bool:
        return card in self.copies(deck_type)


@cache
def _copies(rules: Ruleset, deck_type: str) -> Counter[str]:
    return Counter(rules.decks[deck_type])


def active_player_wins(board: Board, found: set[str], actor: str | None, players: tuple[str, ...]) -> tuple[str, ...]:
    """Zark City: the player to move wins a double win ([ML] 2010); else the first winner clockwise after them."""
    if actor is None:
        return (next(p for p in players if p in found),)
    if actor in found:
        return (actor,)
    seat = players.index(actor) + 1
    return (next(p for p in players[seat:] + players[:seat] if p in found),)


def _zark_starter_rank(card: CardInfo) -> tuple[int, ...]:
    return (card.number,)  # suits ignored: ties go to the first to choose


def _deck_cards(deck_types: Sequence[str]) -> dict[str, tuple[str, ...]]:
    return {deck_type: deck_cards(deck_type) for deck_type in deck_types}


ZARK_CITY = Ruleset(
    game="zarkcity",
    name="Zark City",
    version="zarkcity/1",
    position_format="zarkcity-position/1",
    record_format="zarkcity-game/1",
    view_format="zarkcity-view/1",
    cards=CARDS,
    decks=_deck_cards(DECK_TYPES),
    hand_limit=6,
    turn_draw=1,
    build_needs_control=False,
    convert_same_size_on_suit_match=False,
    number_ranks="2-10",
    attack_cards="J, Q, K, A or a joker",
    block_name="Power Block",
    win_reason="power block",
    parse_card=parse_card,
    winners_through=power_block_winners,
    settle=active_player_wins,
    starter_rank=_zark_starter_rank,
)
