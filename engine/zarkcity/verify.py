"""Re-verify a finished Zark City or Deck Town game from its record, offline, standard library only.

    python3 verify_zarkcity.py GAME.json [--commitment HEX] [--verbose]

(in the repository: engine/zarkcity/verify.py; tools/verify_game.py runs it for these records)

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

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a zarkcity-game/1 or decktown-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter

FORMAT = "zarkcity-game/1"
FORMATS = {"zarkcity": FORMAT, "decktown": "decktown-game/1"}
DEFAULT = "zarkcity"  # a record that names no game is Zark City's
NAMES = "Zark City or Deck Town"
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
    """Pieces leave the board, the hand (canonical order) then an unplaced starter go to the discard pile;
    a starter still face down (choose) is withdrawn into the hand first."""
    for square in game.board.values():
        square[1] = Counter({k: v for k, v in square[1].items() if k[0] != by})
    if game.phase == "choose":
        game.hands[by] += [card for c, card in game.starters if c == by]
        game.starters = [(c, card) for c, card in game.starters if c != by]
    game.discard.extend(sorted(game.hands[by], key=game.cards.order))
    game.hands[by] = []
    waiting = game.phase == "place" and (by == game.to_move or by in game.pending)
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


# ----------------------------------------------------------------------------- the record


def check_seed(record: dict, commitment: str | None) -> str:
    """The record's seed, which must hash to the commitment the server published at the start."""
    seed = record.get("seed")
    if not isinstance(seed, str) or not seed:
        raise Rejected("the record has no seed: a game's seed is revealed only when it ends")
    if commitment is not None and hashlib.sha256(seed.encode()).hexdigest() != commitment.strip().lower():
        raise Rejected(
            f"SHA-256 of the seed is {hashlib.sha256(seed.encode()).hexdigest()}, not the commitment {commitment}"
        )
    return seed


def check_format(record) -> str:
    """The game a record is of, when it is one of FORMATS; ValueError otherwise."""
    name = record.get("game", DEFAULT) if isinstance(record, dict) else None
    if name not in FORMATS or record.get("format") != FORMATS[name]:
        raise ValueError(f"not a {' or '.join(FORMATS.values())} record")
    return name


def verify(record: dict, commitment: str | None = None, log=lambda line: None) -> str:
    """A one-line verdict for an honest record; Rejected with the reason otherwise."""
    name = check_format(record)
    seed = check_seed(record, commitment)
    moves = record["moves"]
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


def main(argv: list[str] | None = None, run=None, names: str = NAMES) -> int:
    """The command line; tools/verify_game.py runs it with its own `run` (any game's verifier) and `names`."""
    parser = argparse.ArgumentParser(description=f"Re-verify a finished {names} game record.")
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
        verdict = (run or verify)(record, commitment, log)
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
