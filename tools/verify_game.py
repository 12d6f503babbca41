#!/usr/bin/env python3
"""Re-verify a finished Zark City, Deck Town, Martian Chess or Buyer's Market game from its record, offline,
standard library only.

    python3 tools/verify_game.py GAME.json [--commitment HEX] [--verbose]

It checks that SHA-256(seed) is the commitment the server published when the game started, then
re-deals the cards from the seed with the documented shuffle (docs/notation.md, engine/shuffle.py)
and follows every move, drawing every card (turn draws, the Draw option, attack change, reshuffles
of the discard pile) exactly as the rules say, so each card a player later builds, pays or discards
must really be in that hand, and the result must be what the board shows. It deliberately imports
nothing from engine/: it is a second, independent implementation of the parts that decide who holds
which card. What it does NOT check (board legality such as adjacency and connectivity) is listed
in docs/archive.md; `python -m engine replay GAME.json` checks everything.

Deck Town records ("game": "decktown", decktown-game/1) are followed the same way with Deck Town's
cards and rules (rules.md 14): the Myrmex deck, no turn draw, a hand limit of 5, attack pips from
Crowns, Courts and Pawns (an attack may draw fewer change cards, `pay ... draw N`, D9), the starter
tie-break by suit and poker blocks for the result.

Martian Chess records (martianchess-game/1, martian_chess.md) have no cards: the seed decides only
who starts, the first of the seats shuffled by shuffle number 0 (engine/martianchess/rules.py). The
tool checks that, then every move in full by its own compact re-implementation of the rules (zones,
the three move patterns without jumping, captures only into another zone, field promotions, no undo
with two, pass only when stuck, resignation), and the result and scores when a zone empties.

Buyer's Market records (buyersmarket-game/1, rules.md 15) have nothing hidden but the piles' order and
the die: the seed decides who starts (shuffle 0 of the seats), each suit pile (shuffles 1-5) and die
roll k (the first face of S H D C T atom shuffled with number 100 + k). The tool follows every move in
full by its own re-implementation (pallets, the GRP, banks and collected piles; place, contribute, buy
with its change, one kind per purchase, the call, pile picks, pass, resignation), then builds each
player's best building by its own search and checks the winners, the reason and every score (B15).

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a zarkcity-game/1, decktown-game/1, martianchess-game/1 or
buyersmarket-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from itertools import product

FORMAT = "zarkcity-game/1"
FORMATS = {
    "zarkcity": FORMAT,
    "decktown": "decktown-game/1",
    "martianchess": "martianchess-game/1",
    "buyersmarket": "buyersmarket-game/1",
}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"standard": "SHDC", "arcade": "SHDCT"}
PIPS = {"J": 1, "A": 1, "JK": 1, "Q": 2, "K": 3}
SIZE_PIPS = {"S": 1, "M": 2, "L": 3}
HAND_LIMIT = 6
SHAPES = (
    ((0, 0), (1, 0), (2, 0)),
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (1, 0), (0, 1)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0), (0, 1), (1, 1)),
    ((1, 0), (0, 1), (1, 1)),
)


class Rejected(Exception):
    """The record does not hold up: the message names the move and what is wrong."""


# ----------------------------------------------------------------------------- each game's cards


class ZarkCityCards:
    """Playing cards: 7H, 10S, QT, JK."""

    hand_limit, turn_draw, win_reason = 6, 1, "power block"

    def deck(self, deck_type: str) -> list[str]:
        return deck_cards(deck_type)

    def order(self, card: str) -> int:
        return card_order(card)

    def number(self, card: str) -> int:
        return number(card)

    def pips(self, card: str) -> int:
        return PIPS.get(card if card == "JK" else card[:-1], 0)

    def is_ace(self, card: str) -> bool:
        return card.startswith("A")

    def starter_key(self, card: str) -> tuple:
        return (number(card),)  # ties: the first to choose

    def suits(self, card: str) -> str:
        return "" if card == "JK" else card[-1]


# Deck Town's Myrmex deck (rules.md 14.1), written out again here rather than imported from engine/.
DT_SUITS = "MSWLYK"  # natural order, Moons highest
DT_NUMBERS = [
    "2MK",
    "2SY",
    "2WL",
    "3MW",
    "3SK",
    "3LY",
    "4MS",
    "4WL",
    "4YK",
    "5ML",
    "5SW",
    "5YK",
    "6MW",
    "6SY",
    "6LK",
    "7ML",
    "7SK",
    "7WY",
    "8MS",
    "8WL",
    "8YK",
    "9MS",
    "9WY",
    "9LK",
]
DT_PAWNS, DT_COURTS = ("PMYK", "PMSL", "PWLY"), ("CMWK", "CSLK", "CSWY")
DT_DISTINCT = [f"A{s}" for s in DT_SUITS] + DT_NUMBERS + list(DT_PAWNS + DT_COURTS) + [f"K{s}" for s in DT_SUITS]


class DeckTownCards:
    """Decktet cards by code: AM (an Ace), 6MW (the Lunatic, twice in the deck), PMYK, CMWK, KM (a Crown)."""

    hand_limit, turn_draw, win_reason = 5, 0, "poker block"

    def deck(self, deck_type: str) -> list[str]:
        if deck_type != "myrmex":
            raise ValueError(f"Deck Town is dealt from the myrmex deck, not {deck_type!r}")
        twice = set(DT_NUMBERS + list(DT_PAWNS + DT_COURTS))
        return [card for card in DT_DISTINCT for _ in range(2 if card in twice else 1)]

    def order(self, card: str) -> int:
        return DT_DISTINCT.index(card)

    def number(self, card: str) -> int:
        return int(card[0]) if card[0].isdigit() else 0

    def pips(self, card: str) -> int:
        return {"K": 3, "C": 2, "P": 1}.get(card[0], 0) if not card[0].isdigit() else 0

    def is_ace(self, card: str) -> bool:
        return card.startswith("A")

    def suits(self, card: str) -> str:
        return card[1:]

    def starter_key(self, card: str) -> tuple:
        """Rank, then the suits best first (Moons highest); the very same card: the first to choose."""
        return (self.number(card), *sorted((-DT_SUITS.index(s) for s in self.suits(card)), reverse=True))


CARD_SETS = {"zarkcity": ZarkCityCards(), "decktown": DeckTownCards()}


# ----------------------------------------------------------------------------- cards and the shuffle


def deck_cards(deck_type: str) -> list[str]:
    """Every card in canonical deck order (suits S H D C T, A..K, jokers last): what shuffle 0 starts from."""
    jokers = ["JK", "JK"] if deck_type == "standard" else []
    return [rank + suit for suit in SUITS[deck_type] for rank in RANKS] + jokers


def card_order(card: str) -> int:
    return 1000 if card == "JK" else "SHDCT".index(card[-1]) * 13 + RANKS.index(card[:-1])


def number(card: str) -> int:
    """2..10 for a number card, 0 for aces, faces and jokers."""
    rank = card[:-1]
    return int(rank) if card != "JK" and rank.isdigit() else 0


def shuffled(cards: list[str], seed: str, shuffle_number: int) -> list[str]:
    """Fisher-Yates from the last position down, each swap index drawn by rejection sampling from
    the 64-bit big-endian words of SHA-256("zarkcity-shuffle/1:<seed>:<n>:<block>"), blocks 0, 1, ..."""
    words = _words(seed, shuffle_number)
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - ((1 << 64) % bound)
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % bound
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _words(seed: str, shuffle_number: int):
    block = 0
    while True:
        digest = hashlib.sha256(f"zarkcity-shuffle/1:{seed}:{shuffle_number}:{block}".encode()).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


# ----------------------------------------------------------------------------- the game, as far as cards go


class Game:
    """Who holds which card, the board's cards and pieces (for the win check), and whose move it is."""

    def __init__(self, players: list[str], seed: str, deck_type: str, log, game: str = "zarkcity") -> None:
        self.players, self.seed, self.log = players, seed, log
        self.game, self.cards = game, CARD_SETS[game]
        self.hand_limit = self.cards.hand_limit
        self.tied: list[str] = []
        self.board: dict[tuple[int, int], list] = {}  # cell -> [card, Counter((colour, size))]
        self.starters: list[tuple[str, str]] = []
        self.resigned: list[str] = []
        self.pending: list[str] = []
        self.phase, self.to_move, self.turn = "choose", None, 0
        self.first_player = self.winner = self.reason = None
        self.deal(deck_type)

    # -- dealing and drawing

    def deal(self, deck_type: str) -> None:
        """Deal 3 each in seat order; re-deal rounds while a hand has no number card; start over on a dry deck."""
        self.shuffles = 0
        while not self._try_deal(deck_type):
            self.shuffles += 1

    def _try_deal(self, deck_type: str) -> bool:
        self.deck = shuffled(self.cards.deck(deck_type), self.seed, self.shuffles)
        self.discard: list[str] = []
        self.hands = {p: [] for p in self.players}
        for _ in range(3):
            for p in self.players:
                if not self.deck:
                    return False
                self.hands[p].append(self.deck.pop(0))
        rounds = 0
        while any(not any(self.cards.number(c) for c in self.hands[p]) for p in self.players):
            rounds += 1
            for p in self.players:
                if not self.deck:
                    return False
                self.hands[p].append(self.deck.pop(0))
        self.log(
            f"deal (shuffle {self.shuffles}, {rounds} re-deal rounds): "
            + "; ".join(f"{p} {' '.join(self.hands[p])}" for p in self.players)
        )
        return True

    def draw(self, colour: str, count: int, why: str) -> None:
        """Lazy reshuffle: an empty deck takes the whole discard pile, shuffled with the next number."""
        drawn = []
        for _ in range(count):
            if not self.deck and self.discard:
                self.shuffles += 1
                self.deck, self.discard = shuffled(self.discard, self.seed, self.shuffles), []
                self.log(f"  discard pile reshuffled (shuffle {self.shuffles})")
            if self.deck:
                drawn.append(self.deck.pop(0))
        self.hands[colour].extend(drawn)
        self.log(f"  {colour} drew {' '.join(drawn) or 'nothing'} ({why})")

    def spend(self, colour: str, cards: list[str], to_discard: bool = True) -> None:
        missing = Counter(cards) - Counter(self.hands[colour])
        if missing:
            raise Rejected(
                f"{' '.join(sorted(missing.elements()))} not in {colour}'s hand ({' '.join(self.hands[colour])})"
            )
        for card in cards:
            self.hands[colour].remove(card)
        if to_discard:
            self.discard.extend(cards)

    # -- turn order

    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.resigned]

    def after(self, colour: str) -> str:
        """The next active player clockwise after `colour` (who may have resigned)."""
        i = self.players.index(colour)
        for step in range(1, len(self.players) + 1):
            nxt = self.players[(i + step) % len(self.players)]
            if nxt not in self.resigned:
                return nxt
        raise Rejected("no active player left")

    def start_turn(self, colour: str) -> None:
        self.turn, self.phase, self.to_move, self.pending = self.turn + 1, "act", colour, []
        if self.cards.turn_draw:
            self.draw(colour, self.cards.turn_draw, f"turn {self.turn}")

    def reveal_starters(self) -> None:
        """All have chosen: highest starter goes first (ties: suits in Deck Town, then who chose first), at 0,0."""
        chosen = [(c, card) for c, card in self.starters if c not in self.resigned]
        key = self.cards.starter_key
        best = max(key(card) for _, card in chosen)
        self.first_player, card = next((c, card) for c, card in chosen if key(card) == best)
        self.board[(0, 0)] = [card, Counter({(self.first_player, "S"): 1})]
        order, c = [], self.first_player
        for _ in range(len(self.active()) - 1):
            c = self.after(c)
            order.append(c)
        self.phase, self.to_move, self.pending = "place", order[0], order[1:]

    def setup_discards(self) -> None:
        """After the first round: anyone over the hand limit discards, in turn order from the first player."""
        order, c = [], self.first_player
        for _ in range(len(self.players)):
            if c not in self.resigned and len(self.hands[c]) > self.hand_limit and c not in order:
                order.append(c)
            c = self.players[(self.players.index(c) + 1) % len(self.players)]
        if order:
            self.phase, self.to_move, self.pending = "discard", order[0], order[1:]
        else:
            self.start_first_turn()

    def start_first_turn(self) -> None:
        fp = self.first_player
        self.start_turn(fp if fp not in self.resigned else self.after(fp))

    def step_done(self, colour: str) -> None:
        """What follows a finished placement, setup discard or turn."""
        if self.phase == "place":
            if self.pending:
                self.to_move, self.pending = self.pending[0], self.pending[1:]
            else:
                self.setup_discards()
        elif self.phase == "discard" and self.turn == 0:
            if self.pending:
                self.to_move, self.pending = self.pending[0], self.pending[1:]
            else:
                self.start_first_turn()
        else:
            self.start_turn(self.after(colour))

    # -- the board, only as far as the win check needs it

    def piece(self, cell, colour: str, size: str, delta: int) -> None:
        square = self.board.get(cell)
        if square is None:
            raise Rejected(f"no card at {cell[0]},{cell[1]}")
        if delta < 0 and square[1][(colour, size)] < 1:
            raise Rejected(f"no {colour} {size} at {cell[0]},{cell[1]}")
        square[1][(colour, size)] += delta
        square[1] = +square[1]

    def put_card(self, card: str, cell) -> None:
        if cell in self.board:
            raise Rejected(f"{cell[0]},{cell[1]} already holds a card")
        if not self.cards.number(card):
            raise Rejected(f"{card} is not a number card")
        self.board[cell] = [card, Counter()]

    def controller(self, cell):
        owners = {colour for colour, _ in self.board[cell][1]}
        return owners.pop() if len(owners) == 1 else None

    def winners(self) -> set[str]:
        if self.game == "decktown":
            return set(self.poker_blocks())
        found = set()
        anchors = {(x - dx, y - dy) for x, y in self.board for dx in (0, 1) for dy in (0, 1)}
        for x, y in anchors:
            for shape in SHAPES:
                cells = [(x + dx, y + dy) for dx, dy in shape]
                if all(c in self.board for c in cells):
                    owners = {self.controller(c) for c in cells}
                    if len(owners) == 1 and None not in owners and is_power([self.board[c][0] for c in cells]):
                        found |= owners
        return found

    def poker_blocks(self) -> dict[str, tuple]:
        """Deck Town: each player with a poker block, and the best card of their blocks (rank, then suits)."""
        best: dict[str, tuple] = {}
        for colour in self.players:
            mine = {c for c in self.board if self.controller(c) == colour}
            groups = [g for g in connected_sets(mine, limit=3) if len(g) == 3]  # three of a kind
            for suit in DT_SUITS:  # straight flushes: only the cards of one suit need searching
                groups += connected_sets({c for c in mine if suit in self.cards.suits(self.board[c][0])}, limit=8)
            for group in groups:
                cards = [self.board[c][0] for c in group]
                if is_poker_block(cards, self.cards):
                    top = max(self.cards.starter_key(card) for card in cards)
                    best[colour] = max(best.get(colour, top), top)
        return best

    def win_check(self, actor) -> bool:
        found = self.winners()
        if not found:
            return False
        if self.game == "decktown" and len(found) > 1:
            return self.settle_by_highest_card()
        if self.game == "decktown":
            self.finish(found.pop(), "poker block")
            return True
        if actor in found:
            winner = actor
        else:
            start = actor if actor is not None else self.players[0]
            ring = [self.players[(self.players.index(start) + k) % len(self.players)] for k in range(len(self.players))]
            winner = next(p for p in ring if p in found)
        self.finish(winner, "power block")
        return True

    def settle_by_highest_card(self) -> bool:
        best = self.poker_blocks()
        top = max(best.values())
        tops = [p for p in self.players if best.get(p) == top]
        if len(tops) == 1:
            self.finish(tops[0], "poker block")
        else:
            self.finish(None, "tie")
            self.tied = tops
        return True

    def finish(self, winner, reason: str) -> None:
        self.phase, self.to_move, self.pending, self.winner, self.reason = "over", None, [], winner, reason


def connected_sets(cells: set, limit: int) -> list:
    """Every orthogonally connected set of `cells` of 3 to `limit` cells (a Deck Town hand is at most 8 cards)."""
    seen, found = set(), []
    todo = [frozenset([c]) for c in cells]
    while todo:
        group = todo.pop()
        if group in seen:
            continue
        seen.add(group)
        if len(group) >= 3:
            found.append(group)
        if len(group) < limit:
            for x, y in group:
                for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if n in cells and n not in group:
                        todo.append(group | {n})
    return found


def is_poker_block(cards: list[str], rules) -> bool:
    """Three of a kind sharing no suit, or 4+ cards sharing a suit with consecutive distinct ranks."""
    ranks = sorted(rules.number(c) for c in cards)
    suit_sets = [set(rules.suits(c)) for c in cards]
    if len(cards) == 3 and len(set(ranks)) == 1:
        return all(not (a & b) for i, a in enumerate(suit_sets) for b in suit_sets[i + 1 :])
    shared = set.intersection(*suit_sets)
    return len(cards) >= 4 and bool(shared) and len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] == len(ranks) - 1


def is_power(cards: list[str]) -> bool:
    ranks = sorted(number(c) for c in cards)
    if len(set(ranks)) == 1:
        return True
    return len({c[-1] for c in cards}) == 1 and ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1


# ----------------------------------------------------------------------------- moves


def cell(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def play(game: Game, by: str, text: str) -> None:
    """Follow one move of the record; Rejected if it cannot have happened with the cards dealt."""
    words = text.split()
    verb, args = words[0].lower(), words[1:]
    if game.phase == "over":
        raise Rejected("the game was already over")
    if by not in game.active():
        raise Rejected(f"{by} is not an active player")
    if verb == "resign":
        return resign(game, by)
    if verb == "choose":
        return choose(game, by, args[0].upper())
    return follow(game, by, verb, args)


def follow(game: Game, by: str, verb: str, args: list[str]) -> None:
    if by != game.to_move:
        raise Rejected(f"it is {game.to_move or 'nobody'}'s move, not {by}'s")
    if verb == "place" and game.phase == "place":
        card = next(card for c, card in game.starters if c == by)
        game.put_card(card, cell(args[0]))
        game.piece(cell(args[0]), by, "S", +1)
        return game.step_done(by)
    if verb == "discard" and game.phase == "discard":
        cards = sorted((c.upper() for c in args), key=game.cards.order)
        excess = len(game.hands[by]) - game.hand_limit
        if len(cards) != excess:
            raise Rejected(f"{by} must discard exactly {excess} cards, not {len(cards)}")
        game.spend(by, cards)
        return game.step_done(by)
    if game.phase != "act":
        raise Rejected(f"{verb} is not a move of the {game.phase} phase")
    act(game, by, verb, args)
    if game.win_check(by):
        return
    if len(game.hands[by]) > game.hand_limit:
        game.phase = "discard"
    else:
        game.step_done(by)


def act(game: Game, by: str, verb: str, args: list[str]) -> None:
    if verb == "draw":
        game.draw(by, 3, "Draw option")
    elif verb == "grow":
        size, at = args[0].upper(), cell(args[1])
        game.piece(at, by, size, -1)
        game.piece(at, by, {"S": "M", "M": "L"}[size], +1)
    elif verb == "spawn":
        game.piece(cell(args[0]), by, "S", +1)
    elif verb in ("build", "hatch"):
        card, at = args[0].upper(), cell(args[1])
        game.spend(by, [card], to_discard=False)
        game.put_card(card, at)
        if verb == "hatch":
            game.piece(at, by, "S", +1)
    elif verb == "move":
        size, src, dst = args[0].upper(), cell(args[1]), cell(args[2])
        game.piece(src, by, size, -1)
        game.piece(dst, by, size, +1)
    elif verb in ("demolish", "convert"):
        attack(game, by, verb, args)
    elif verb == "fly":
        src, dst, ace = cell(args[0]), cell(args[1]), args[3].upper()
        if not game.cards.is_ace(ace) or src not in game.board or dst in game.board:
            raise Rejected(f"fly needs an ace, a card at {args[0]} and an empty {args[1]}")
        game.spend(by, [ace])
        game.board[dst] = game.board.pop(src)
    else:
        raise Rejected(f"{verb!r} is not a move")


def attack(game: Game, by: str, verb: str, args: list[str]) -> None:
    """Pay (to the discard pile first, so a reshuffle may take it in), replace or remove, then draw change."""
    owner, size, at = args[0].lower(), args[1].upper(), cell(args[2])
    paid, draws = change_words([w.upper() for w in args[args.index("pay") + 1 :]])
    pay = sorted(paid, key=game.cards.order)
    pips = [game.cards.pips(c) for c in pay]
    need = SIZE_PIPS[size]
    if 0 in pips or sum(pips) < need or any(sum(pips) - p >= need for p in pips):
        raise Rejected(f"{' '.join(pay)} is not a fair payment for a {size}")
    game.spend(by, pay)
    game.piece(at, owner, size, -1)
    if verb == "convert":
        if game.game == "decktown":
            check_suit_match(game, at, size, args[4].upper(), pay)
        game.piece(at, by, args[4].upper(), +1)
    change = sum(pips) - need
    if draws is not None and (game.game != "decktown" or not 0 <= draws <= change):
        raise Rejected(f"draw {draws}: Deck Town's attacker may draw 0 to {change} change cards; Zark City's draws all")
    if change:
        game.draw(by, change if draws is None else draws, "change")


def change_words(words: list[str]) -> tuple[list[str], int | None]:
    """The paid cards, and N of a closing `draw N` (Deck Town, D9): None without one, the whole change."""
    if "DRAW" not in words:
        return words, None
    i = words.index("DRAW")
    if words[i + 1 :] == [] or len(words) != i + 2 or not words[-1].isdigit():
        raise Rejected("draw after the paid cards takes one number")
    return words[:i], int(words[-1])


def check_suit_match(game: Game, at, size: str, into: str, pay: list[str]) -> None:
    """Deck Town: the replacement is the same size, and every paid card shares a suit with the card."""
    suits = set(game.cards.suits(game.board[at][0]))
    if into != size or any(not suits & set(game.cards.suits(c)) for c in pay):
        raise Rejected(f"no suit-matched replacement with {' '.join(pay)} on {game.board[at][0]}")


def choose(game: Game, by: str, card: str) -> None:
    if game.phase != "choose" or any(c == by for c, _ in game.starters):
        raise Rejected(f"{by} cannot choose a starter now")
    if not game.cards.number(card):
        raise Rejected(f"{card} is not a number card")
    game.spend(by, [card], to_discard=False)
    game.starters.append((by, card))
    if all(any(c == p for c, _ in game.starters) for p in game.active()):
        game.reveal_starters()


def resign(game: Game, by: str) -> None:
    """Pieces leave the board, the hand (canonical order) then an unplaced starter go to the discard pile."""
    for square in game.board.values():
        square[1] = Counter({k: v for k, v in square[1].items() if k[0] != by})
    game.discard.extend(sorted(game.hands[by], key=game.cards.order))
    game.hands[by] = []
    waiting = game.phase == "choose" or (game.phase == "place" and (by == game.to_move or by in game.pending))
    game.discard.extend(card for c, card in game.starters if c == by and waiting)
    game.resigned.append(by)
    game.pending = [p for p in game.pending if p != by]
    if len(game.active()) == 1:
        return game.finish(game.active()[0], "resignation")
    if game.win_check(game.to_move):
        return
    if game.phase == "choose" and all(any(c == p for c, _ in game.starters) for p in game.active()):
        game.reveal_starters()
    elif by == game.to_move:
        game.step_done(by)


# ----------------------------------------------------------------------------- Martian Chess (martian_chess.md)

MC_POINTS = {"S": 1, "M": 2, "L": 3}
ORTHO, DIAG = ((1, 0), (-1, 0), (0, 1), (0, -1)), ((1, 1), (1, -1), (-1, 1), (-1, -1))


class MartianChess:
    """The whole Martian Chess position (nothing is hidden): cells (file, rank) from 0, a1 = (0, 0)."""

    tied: list[str] = []

    def __init__(self, players: list[str], seed: str, log) -> None:
        if len(players) not in (2, 4) or len(set(players)) != len(players):
            raise ValueError(f"Martian Chess seats 2 or 4 different colours, not {players}")
        self.players, self.width = players, 4 if len(players) == 2 else 8
        corners = [(0, 0), (3, 7)] if len(players) == 2 else [(0, 0), (0, 7), (7, 7), (7, 0)]
        self.board = {}  # the 3 x 3 at each zone's outer corner: Queens 0-1 steps away, Drones 2, Pawns 3-4
        for cf, cr in corners:
            for f in range(cf - 2, cf + 3):
                for r in range(cr - 2, cr + 3):
                    if self.on_board((f, r)):
                        steps = abs(f - cf) + abs(r - cr)
                        self.board[(f, r)] = "L" if steps <= 1 else "M" if steps == 2 else "S"
        self.captured = dict.fromkeys(players, 0)
        self.resigned: list[str] = []
        self.crossing = None  # (from, to) of the previous move when it crossed a canal
        self.to_move = shuffled(players, seed, 0)[0]  # the red Queen drawn from the bag
        self.phase, self.winner, self.reason, self.shuffles = "play", None, None, 0
        log(f"who starts (shuffle 0 of the seats): {self.to_move}")

    def on_board(self, c) -> bool:
        return 0 <= c[0] < self.width and 0 <= c[1] < 8

    def zone(self, c) -> int:
        """Seat 0 owns a1-d4; with two, seat 1 ranks 5-8; with four, a5-d8, e5-h8, e1-h4 clockwise."""
        north = c[1] >= 4
        return (1 if north else 0) if c[0] < 4 else (2 if north else 3)

    def why_not(self, by: str, a, b) -> str | None:
        """Why `by` may not move the piece on a to b; None when it is legal."""
        size, seat = self.board.get(a), self.players.index(by)
        if not (self.on_board(a) and self.on_board(b)) or size is None or self.zone(a) != seat:
            return "no piece of the mover's zone there, or off the board"
        df, dr = b[0] - a[0], b[1] - a[1]
        fits = {"S": abs(df) == abs(dr) == 1, "M": (df == 0) != (dr == 0) and abs(df) + abs(dr) <= 2}
        if not fits.get(size, (df == 0) != (dr == 0) or abs(df) == abs(dr) != 0):
            return f"a {size} does not move like that"
        n = max(abs(df), abs(dr))
        if any((a[0] + df // n * i, a[1] + dr // n * i) in self.board for i in range(1, n)):
            return "it may not pass over a piece"
        if len(self.players) == 2 and self.crossing == (b, a):
            return "no undo with two"
        target = self.board.get(b)
        if target is None or self.zone(b) != seat:
            return None  # an empty cell, or a capture in another zone
        mine = {s for c, s in self.board.items() if self.zone(c) == seat}
        if {size, target} == {"S", "M"} and "L" not in mine or size == target == "S" and "M" not in mine:
            return None  # a field promotion
        return "not onto your own piece (no field promotion allowed)"

    def steps(self, by: str) -> list:
        cells = [(f, r) for f in range(self.width) for r in range(8)]
        return [(a, b) for a in list(self.board) for b in cells if self.why_not(by, a, b) is None]

    def play(self, by: str, text: str) -> None:
        if self.phase == "over":
            raise Rejected("the game was already over")
        if by not in self.players or by in self.resigned:
            raise Rejected(f"{by} is not an active player")
        word = text.strip().lower()
        if word == "resign":
            return self.resign(by)
        if by != self.to_move:
            raise Rejected(f"it is {self.to_move}'s move, not {by}'s")
        if word == "pass":
            if self.steps(by):
                raise Rejected("pass only when no move is legal")
            self.crossing = None
        else:
            self.step(by, *mc_cells(word))
        if len({self.zone(c) for c in self.board}) < len(self.players):
            return self.finish(by)
        self.to_move = self.after(by)

    def step(self, by: str, a, b) -> None:
        error = self.why_not(by, a, b)
        if error:
            raise Rejected(error)
        moving, target, crossed = self.board.pop(a), self.board.get(b), self.zone(a) != self.zone(b)
        if target and crossed:
            self.captured[by] += MC_POINTS[target]
        self.board[b] = moving if crossed or not target else "L" if {moving, target} == {"S", "M"} else "M"
        self.crossing = (a, b) if crossed else None

    def after(self, by: str) -> str:
        i = self.players.index(by)
        ring = self.players[i + 1 :] + self.players[: i + 1]
        return next(p for p in ring if p not in self.resigned)

    def finish(self, last_mover: str) -> None:
        """A zone is empty: the highest score of those still in wins; a tie goes to whoever moved last."""
        scores = {p: self.captured[p] for p in self.players if p not in self.resigned}
        leaders = [p for p, score in scores.items() if score == max(scores.values())]
        self.winner = leaders[0] if len(leaders) == 1 else last_mover
        self.phase, self.reason, self.to_move = "over", "score", None

    def resign(self, by: str) -> None:
        """The zone stays (its pieces can be captured, never move); the last player standing wins."""
        self.resigned.append(by)
        left = [p for p in self.players if p not in self.resigned]
        if len(left) == 1:
            self.phase, self.winner, self.reason, self.to_move = "over", left[0], "resignation", None
        elif self.to_move == by:
            self.to_move = self.after(by)


def mc_cells(word: str):
    """ "c2-d3" (also c2d3, c2xd3, c2 d3) -> ((2, 1), (3, 2))."""
    text = word.replace("-", "").replace("x", "").replace(" ", "")
    if len(text) != 4 or text[0] not in "abcdefgh" or text[2] not in "abcdefgh" or not (text[1] + text[3]).isdigit():
        raise Rejected(f"{word!r} is not a move like c2-d3")
    a, b = ("abcdefgh".index(text[0]), int(text[1]) - 1), ("abcdefgh".index(text[2]), int(text[3]) - 1)
    return a, b


# ----------------------------------------------------------------------------- Buyer's Market (rules.md 15)

BM_SUITS = ("S", "H", "D", "C", "T")
BM_FACES = [*BM_SUITS, "atom"]  # the Arcade colour die; the atom is wild
BM_CAP = 4  # pips of bank pyramids one purchase (a) may add (B4)
BM_WORDS = ("with", "back", "return")


def bm_sizes(text: str) -> list[str]:
    letters = text.upper()
    if not letters or any(c not in SIZE_PIPS for c in letters):
        raise Rejected(f"{text!r} is not a list of sizes like LS")
    return sorted(letters, key=lambda size: -SIZE_PIPS[size])


def bm_pips(sizes) -> int:
    return sum(SIZE_PIPS[size] for size in sizes)


def bm_value(card: str) -> int:
    """A pallet's value: its number; an Ace needs 11."""
    return 11 if card[0] == "A" else int(card[:-1])


class BuyersMarket:
    """The whole Buyer's Market position: piles (top first), pallets [card, [(owner, size)]], the GRP,
    banks and collected piles (CRP); an owner is a suit letter (a resource) or a seat colour (a bank)."""

    tied: list[str] = []

    def __init__(self, players: list[str], seed: str, log) -> None:
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
            raise ValueError(f"Buyer's Market seats 2 to 4 different colours, not {players}")
        self.players, self.seed, self.log = players, seed, log
        self.first = shuffled(players, seed, 0)[0]
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
        self.piles = {s: shuffled([r + s for r in ranks], seed, 1 + i) for i, s in enumerate(BM_SUITS)}
        trios = 4 if len(players) == 4 else 3
        self.grp = {s: dict.fromkeys("SML", trios) for s in BM_SUITS}
        self.banks = {p: dict.fromkeys("SML", 2) for p in players}
        self.crp: dict[str, list] = {p: [] for p in players}
        self.cards: dict[str, list] = {p: [] for p in players}
        self.pallets: list[list] = []
        self.resigned: list[str] = []
        self.last_round: list[str] = []
        self.called = self.picker = self.winner = self.reason = None
        self.winners: list[str] = []
        self.scores: dict[str, int] = {}
        self.rolls = self.passes = self.turn = 0
        self.owed, self.phase, self.shuffles = 4, "play", 0
        self.to_move = self.first
        log(f"who starts (shuffle 0 of the seats): {self.first}")
        self.deal(self.first)

    # -- the market

    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.resigned]

    def after(self, colour: str) -> str:
        i = self.players.index(colour)
        return next(p for p in self.players[i + 1 :] + self.players[: i + 1] if p not in self.resigned)

    def pallet(self, card: str) -> list:
        found = next((p for p in self.pallets if p[0] == card), None)
        if found is None:
            raise Rejected(f"{card} is not a pallet in play ({' '.join(p[0] for p in self.pallets) or 'none'})")
        return found

    def put(self, suit: str) -> None:
        card = self.piles[suit].pop(0)
        self.pallets.append([card, []])
        self.owed -= 1
        self.log(f"  new pallet {card}")

    def deal(self, roller: str) -> None:
        """Roll for each pallet owed; the atom, or a colour without cards or resources, is the roller's pick (B6)."""
        while self.owed:
            piles = [s for s in BM_SUITS if self.piles[s]]
            if not piles:
                self.owed = 0
                break
            face = shuffled(BM_FACES, self.seed, 100 + self.rolls)[0]
            self.rolls += 1
            self.log(f"  {roller} rolled {face}")
            if face != "atom" and self.piles[face] and sum(self.grp[face].values()):
                self.put(face)
            elif len(piles) == 1 or roller in self.resigned:
                self.put(piles[0] if len(piles) == 1 else self.any_pile(piles))
            else:
                self.picker = roller
                return
        self.picker = None
        if self.turn == 0:
            self.turn, self.to_move = 1, self.first if self.first not in self.resigned else self.after(self.first)
        else:
            self.end_turn(roller)

    def any_pile(self, piles: list[str]) -> str:
        """A pile picked for a player who left: the first whose colour has resources, else the first."""
        return next((s for s in piles if sum(self.grp[s].values())), piles[0])

    # -- a move

    def play(self, by: str, text: str) -> None:
        if self.phase == "over":
            raise Rejected("the game was already over")
        if by not in self.active():
            raise Rejected(f"{by} is not an active player")
        words = text.lower().split()
        if words == ["resign"]:
            return self.resign(by)
        if by != self.to_move:
            raise Rejected(f"it is {self.to_move}'s move, not {by}'s")
        if words[:1] == ["pile"] and len(words) == 2 and self.picker == by:
            suit = words[1].upper()
            if not self.piles.get(suit):
                raise Rejected(f"no cards left in the {suit} pile")
            self.put(suit)
            return self.deal(by)
        if self.picker is not None:
            raise Rejected("the die asked for a pile to be picked first")
        if words == ["pass"]:
            if self.can_act(by):
                raise Rejected("pass only with no action at all")
            self.passes += 1
            return self.end_turn(by)
        call = words[-1] == "call"
        self.act(by, words[:-1] if call else words)
        self.passes = 0
        if call:
            self.call(by)
        if words[0] == "buy":
            self.owed = 1
            return self.deal(by)
        self.end_turn(by)

    def act(self, by: str, words: list[str]) -> None:
        """place SIZE CARD, contribute SIZE CARD, buy CARD [with SIZES] [back SIZES] [return SIZES]."""
        verb = words[0]
        if verb in ("place", "contribute") and len(words) == 3:
            size, card = words[1].upper(), words[2].upper()
            if size not in SIZE_PIPS:
                raise Rejected(f"{words[1]!r} is not a size")
            pallet, value, suit = self.pallet(card), bm_value(card), card[-1]
            if verb == "place":
                return self.place(pallet, size, value, suit)
            return self.contribute(by, pallet, size, value)
        if verb == "buy" and len(words) >= 2:
            card = words[1].upper()
            return self.buy(by, self.pallet(card), bm_value(card), card[-1], words[2:])
        raise Rejected(f"{' '.join(words)!r} is not a Buyer's Market move")

    def place(self, pallet: list, size: str, value: int, suit: str) -> None:
        if self.grp[suit][size] < 1:
            raise Rejected(f"the GRP has no {suit} {size} left")
        if sum(SIZE_PIPS[s] for o, s in pallet[1] if o == suit) + SIZE_PIPS[size] > value:
            raise Rejected(f"GRP pips on {pallet[0]} would pass its value {value} (B2)")
        self.grp[suit][size] -= 1
        pallet[1].append((suit, size))

    def contribute(self, by: str, pallet: list, size: str, value: int) -> None:
        if self.banks[by][size] < 1:
            raise Rejected(f"{by}'s bank has no {size} left")
        if bm_pips(s for _, s in pallet[1]) >= value:
            raise Rejected(f"{pallet[0]} is already complete")
        self.banks[by][size] -= 1
        pallet[1].append((by, size))

    def buy(self, by: str, pallet: list, value: int, suit: str, words: list[str]) -> None:
        parts = self.buy_parts(words)
        paid, back, ret = parts.get("with", []), parts.get("back", []), parts.get("return", [])
        if len(self.active()) >= 3 and not any(o == suit for o, _ in pallet[1]):
            raise Rejected(f"with three or more players {pallet[0]} must hold a resource pyramid to be bought")
        held = bm_pips(s for _, s in pallet[1])
        if not paid and (back or ret or held < value):
            raise Rejected(f"{pallet[0]} holds {held} of {value}: buy it by paying, and make change only then")
        if paid and (held >= value or held + bm_pips(paid) < value or bm_pips(paid) > BM_CAP):
            raise Rejected(f"paying {''.join(paid)} on {pallet[0]} ({held} of {value}) is no purchase (a)")
        if any(paid.count(s) > self.banks[by][s] for s in "SML"):
            raise Rejected(f"{by}'s bank does not hold {''.join(paid)}")
        if back and ret:
            raise Rejected("one kind of change per purchase (B13)")
        if bm_pips(back + ret) > held + bm_pips(paid) - value:
            raise Rejected(f"{bm_pips(back + ret)} pips of change for {held + bm_pips(paid) - value} overpaid (B12)")
        for size in paid:
            self.banks[by][size] -= 1
        self.pallets.remove(pallet)
        for owner, size in pallet[1] + [(by, s) for s in paid]:
            if owner in BM_SUITS or owner == by:
                self.crp[by].append((owner, size))
            else:
                self.banks[owner][size] += 1  # another player's bank pyramids go home
        for owner, size, home in [(by, s, self.banks[by]) for s in back] + [(suit, s, self.grp[suit]) for s in ret]:
            if (owner, size) not in self.crp[by]:
                raise Rejected(f"no {owner} {size} in {by}'s collected pile to give back as change")
            self.crp[by].remove((owner, size))
            home[size] += 1
        self.cards[by].append(pallet[0])

    def buy_parts(self, words: list[str]) -> dict[str, list[str]]:
        parts: dict[str, list[str]] = {}
        word = None
        for token in words:
            if token in BM_WORDS and token not in parts:
                word, parts[token] = token, []
            elif word is None:
                raise Rejected(f"{token!r}: after buy CARD come with, back and return")
            else:
                parts[word] += bm_sizes(token)
        if [w for w in BM_WORDS if w in parts] != list(parts):
            raise Rejected("with, back and return come in that order")
        return parts

    def call(self, by: str) -> None:
        sizes = Counter(size for _, size in self.crp[by])
        if self.called is not None or sizes["L"] < 4 or sizes["M"] < 3 or sizes["S"] < 1:
            raise Rejected("the building phase may be called once, with 4 L, 3 M and 1 S collected (B8, B9)")
        self.called = by
        i = self.players.index(by)
        self.last_round = [p for p in self.players[i + 1 :] + self.players[:i] if p not in self.resigned]

    def can_act(self, by: str) -> bool:
        """Any place, contribute or buy: pass is only for a player with none."""
        for card, pieces in self.pallets:
            value, suit = bm_value(card), card[-1]
            held, grp_pips = bm_pips(s for _, s in pieces), sum(SIZE_PIPS[s] for o, s in pieces if o == suit)
            if any(self.grp[suit][s] and grp_pips + SIZE_PIPS[s] <= value for s in "SML"):
                return True
            if held < value and any(self.banks[by].values()):
                return True
            buyable = len(self.active()) < 3 or any(o == suit for o, _ in pieces)
            if buyable and held >= value:
                return True
        return False

    def end_turn(self, by: str) -> None:
        self.last_round = [p for p in self.last_round if p != by]
        dry = not self.pallets and not any(self.piles.values())
        if (self.called is not None and not self.last_round) or dry or self.passes >= len(self.active()):
            return self.score()
        self.to_move, self.turn = self.after(by), self.turn + 1

    def resign(self, by: str) -> None:
        for pallet in self.pallets:
            for owner, size in [p for p in pallet[1] if p[0] == by]:
                pallet[1].remove((owner, size))
                self.banks[by][size] += 1
        self.resigned.append(by)
        self.last_round = [p for p in self.last_round if p != by]
        if len(self.active()) == 1:
            self.phase, self.winners, self.reason, self.to_move = "over", self.active(), "resignation", None
            return
        if self.to_move != by:
            return
        if self.picker is not None:
            roller = self.picker
            self.put(self.any_pile([s for s in BM_SUITS if self.piles[s]]))
            return self.deal(roller)
        self.end_turn(by)

    def score(self) -> None:
        """Each player still in builds the best building of their collected pile (B9, B10); most points
        win, then most cards; a tie on both is shared."""
        self.scores = {p: best_building_score(self.crp[p], sum(self.banks[p].values())) for p in self.active()}
        key = {p: (self.scores[p], len(self.cards[p])) for p in self.active()}
        self.winners = [p for p in self.players if key.get(p) == max(key.values())]
        self.phase, self.reason, self.to_move = "over", "score", None


def best_building_score(crp: list, bank: int) -> int:
    """The best score of a building of `crp` (15.6, 15.7, B9-B11, B14), by trying every shape (pyramids
    per level) and, for its completed levels, every choice of one owner or none; Diversity by matching."""
    count = {size: Counter(owner for owner, s in crp if s == size) for size in "LMS"}
    total = {size: sum(count[size].values()) for size in "LMS"}
    best = -(10**9)
    for n_l in range(total["L"], -1, -1):
        for n_m in range(min(total["M"], n_l - 1) if n_l >= 4 else 0, -1, -1):
            for smalls in small_levels(n_m - 1 if n_m >= 3 else 0, total["S"]):
                shape = [("L", n_l)] * bool(n_l) + [("M", n_m)] * bool(n_m) + [("S", n) for n in smalls]
                bricks = sum(n for _, n in shape)
                done = [(size, n) for size, n in shape if n >= {"L": 4, "M": 3}.get(size, 1)]
                fixed = 2 * bricks - len(crp) + bank + 2 * len(done) + (4 * (smalls[-1] - 1) if smalls else 0)
                if fixed + 3 * len(done) + 3 > best:
                    best = max(best, fixed + colour_points(shape, done, count))
    return best


def small_levels(widest: int, smalls: int):
    """Every strictly narrowing list of Small levels, none wider than `widest`, of at most `smalls` in all."""
    yield []
    for first in range(min(widest, smalls), 0, -1):
        for rest in small_levels(first - 1, smalls - first):
            yield [first, *rest]


def colour_points(shape: list, done: list, count: dict) -> int:
    """Cohesiveness and Diversity: the best over every way of making completed levels one owner's."""
    choices = [[None, *(o for o, n in count[size].items() if n >= width)] for size, width in done]
    best = 0
    for owners in product(*choices):
        left = {size: Counter(count[size]) for size in "LMS"}
        owner_of = dict(zip(done, owners, strict=True))  # levels differ in size or width: one key each
        mixed: Counter = Counter()
        for size, width in shape:
            if owner_of.get((size, width)) is None:
                mixed[size] += width
            else:
                left[size][owner_of[(size, width)]] -= width
        if any(n < 0 for size in "LMS" for n in left[size].values()):
            continue
        diverse = shows_every_suit({o for o in owners if o is not None}, mixed, left)
        best = max(best, 3 * sum(o is not None for o in owners) + 3 * diverse)
    return best


def shows_every_suit(mono: set, mixed: Counter, left: dict) -> bool:
    """Whether the mixed levels (mixed[size] pyramids of each size, from what is `left`) can show every
    GRP colour the monochrome levels do not: each missing colour takes one mixed place of a size it has."""
    missing = [s for s in BM_SUITS if s not in mono]
    for sizes in product("LMS", repeat=len(missing)):
        if all(left[size][suit] > 0 for suit, size in zip(missing, sizes, strict=True)) and all(
            sizes.count(size) <= mixed[size] for size in "LMS"
        ):
            return True
    return not missing


# ----------------------------------------------------------------------------- the record


def verify(record: dict, commitment: str | None = None, log=lambda line: None) -> str:
    """A one-line verdict for an honest record; Rejected with the reason otherwise."""
    name = record.get("game", "zarkcity") if isinstance(record, dict) else None
    if name not in FORMATS or record.get("format") != FORMATS[name]:
        raise ValueError(f"not a {' or '.join(FORMATS.values())} record")
    seed = record.get("seed")
    if not isinstance(seed, str) or not seed:
        raise Rejected("the record has no seed: a game's seed is revealed only when it ends")
    if commitment is not None and hashlib.sha256(seed.encode()).hexdigest() != commitment.strip().lower():
        raise Rejected(
            f"SHA-256 of the seed is {hashlib.sha256(seed.encode()).hexdigest()}, not the commitment {commitment}"
        )
    moves = record["moves"]
    if name == "martianchess":
        if record.get("rules", "martianchess/1") != "martianchess/1":
            raise ValueError(f"unknown Martian Chess rules {record.get('rules')!r}")
        chess = MartianChess(list(record["players"]), seed, log)
        starter = chess.to_move
        follow_moves(moves, chess.play, log)
        check_result(chess, record.get("result"))
        check_scores(chess, record.get("result"))
        return f"verified: who starts ({starter}) and all {len(moves)} moves, every one legal, reproduce the result"
    if name == "buyersmarket":
        if record.get("rules", "buyersmarket/1") != "buyersmarket/1":
            raise ValueError(f"unknown Buyer's Market rules {record.get('rules')!r}")
        market = BuyersMarket(list(record["players"]), seed, log)
        follow_moves(moves, market.play, log)
        check_market_result(market, record.get("result"))
        return (
            f"verified: the piles, every die roll and all {len(moves)} moves, every one legal, reproduce"
            " the result and every score"
        )
    game = Game(list(record["players"]), seed, record.get("deck_type", "standard"), log, name)
    follow_moves(moves, lambda by, text: play(game, by, text), log)
    check_result(game, record.get("result"))
    return f"verified: the deal and every draw of {len(moves)} moves reproduce ({game.shuffles} reshuffles)"


def follow_moves(moves: list, play_one, log) -> None:
    """Play every move of the record in order; Rejected naming the first that cannot have happened."""
    for index, entry in enumerate(moves):
        log(f"move {index} ({entry['by']}: {entry['move']})")
        try:
            play_one(entry["by"], entry["move"])
        except (Rejected, ValueError, IndexError, KeyError, StopIteration) as error:
            raise Rejected(f"move {index} ({entry['by']}: {entry['move']}): {error or 'malformed'}") from None


def check_scores(chess: MartianChess, result) -> None:
    """A Martian Chess result may list the scores: each must be the points that player captured."""
    stated = (result or {}).get("scores")
    if stated is not None and dict(stated) != chess.captured:
        raise Rejected(f"the record gives the scores {dict(stated)}, but the captures make {chess.captured}")


def check_market_result(market: BuyersMarket, result) -> None:
    """Buyer's Market (B15): the winners, the reason and every score must be what the moves produce."""
    if result is None:
        if market.phase == "over":
            raise Rejected(
                f"the game ended ({', '.join(market.winners)} won by {market.reason}) but the record has no result"
            )
        return
    winner = result.get("winner")
    winners = list(result["winners"]) if isinstance(result.get("winners"), list) else (winner or "").split(",")
    winners = [w for w in winners if w]
    if winner and sorted(winner.split(",")) != sorted(winners):
        raise Rejected(f"the record's winner {winner!r} and winners {winners} differ")
    reason, scores = result.get("reason"), result.get("scores")
    if not winners and reason in ("draw", "timeout") and market.phase != "over":
        if scores is not None:
            raise Rejected(f"the record gives scores {scores}, but the game was not scored")
        return
    expected = "resignation" if reason == "timeout" else reason
    if market.phase != "over" or (sorted(market.winners), market.reason) != (sorted(winners), expected):
        actual = f"{', '.join(market.winners)} won by {market.reason}" if market.phase == "over" else "it is not over"
        raise Rejected(
            f"the record says {', '.join(winners) or 'nobody'} won by {reason}, but after the moves {actual}"
        )
    real = market.scores if market.reason == "score" else None
    if scores is not None and dict(scores) != real:
        raise Rejected(f"the record gives the scores {dict(scores)}, but the buildings score {real or 'nothing'}")


def check_result(game: Game, result) -> None:
    """The stated result must be what the moves produced (a timeout is a resignation; a draw, or a timeout with no
    winner, ends a live game)."""
    if result is None:
        if game.phase == "over":
            raise Rejected(f"the game ended ({game.winner} won by {game.reason}) but the record has no result")
        return
    reason, winner = result.get("reason"), result.get("winner")
    if reason in ("draw", "timeout") and game.phase != "over" and winner is None:
        return  # agreed, or every remaining player out of time at once: the result ends a game still on
    if reason == "tie":
        if game.phase != "over" or game.reason != "tie" or list(result.get("tied") or []) != game.tied:
            raise Rejected(f"the record says {result.get('tied')} tied, but after the moves {game.reason or 'no tie'}")
        return
    expected = "resignation" if reason == "timeout" else reason
    if game.phase != "over" or (game.winner, game.reason) != (winner, expected):
        actual = f"{game.winner} won by {game.reason}" if game.phase == "over" else "the game is not over"
        raise Rejected(f"the record says {winner} won by {reason}, but after the moves {actual}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Re-verify a finished Zark City, Deck Town, Martian Chess or Buyer's Market game record."
    )
    parser.add_argument("record", help="the game record JSON file (- for standard input)")
    parser.add_argument("--commitment", help="the seed's SHA-256 that the server showed when the game started")
    parser.add_argument("--verbose", "-v", action="store_true", help="print the deal (or who starts) and every move")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            record = json.load(sys.stdin)
        else:
            with open(args.record, encoding="utf-8") as file:
                record = json.load(file)
    except (OSError, json.JSONDecodeError) as error:
        print(f"cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    log = print if args.verbose else (lambda line: None)
    # A record downloaded from the site carries the commitment too; the one you noted at the start is better.
    commitment = args.commitment or (record.get("seed_commitment") if isinstance(record, dict) else None)
    try:
        verdict = verify(record, commitment, log)
    except Rejected as error:
        print(f"REJECTED: {error}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, TypeError) as error:
        print(f"malformed record: {error}", file=sys.stderr)
        return 2
    if commitment:
        source = "" if args.commitment else " (the record's own seed_commitment; pass --commitment to be sure)"
        print(f"commitment: SHA-256(seed) matches{source}")
    print(verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
