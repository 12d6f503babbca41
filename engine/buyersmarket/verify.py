"""Re-verify a finished Buyer's Market game from its record, offline, standard library only.

    python3 verify_buyersmarket.py GAME.json [--commitment HEX] [--verbose]

(in the repository: engine/buyersmarket/verify.py; tools/verify_game.py runs it for these records)

Buyer's Market records (buyersmarket-game/1, rules.md 15) have nothing hidden but the piles' order and
the die: the seed decides who starts (shuffle 0 of the seats), each suit pile (shuffles 1-5) and die
roll k (the first face of S H D C T atom shuffled with number 100 + k). The tool follows every move in
full by its own re-implementation (pallets, the GRP, banks and collected piles; place, contribute, buy
with its change, one kind per purchase, the call, pile picks, pass, resignation), then builds each
player's best building by its own search and checks the winners, the reason and every score (B15).
It imports nothing from engine/: it is a second, independent implementation (`python -m engine
replay GAME.json` is the other check).

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a buyersmarket-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from itertools import product

FORMATS = {"buyersmarket": "buyersmarket-game/1"}
DEFAULT = "buyersmarket"
NAMES = "Buyer's Market"
SIZE_PIPS = {"S": 1, "M": 2, "L": 3}


class Rejected(Exception):
    """The record does not hold up: the message names the move and what is wrong."""


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
    check_format(record)
    seed = check_seed(record, commitment)
    moves = record["moves"]
    if record.get("rules", "buyersmarket/1") != "buyersmarket/1":
        raise ValueError(f"unknown Buyer's Market rules {record.get('rules')!r}")
    market = BuyersMarket(list(record["players"]), seed, log)
    follow_moves(moves, market.play, log)
    check_market_result(market, record.get("result"))
    return (
        f"verified: the piles, every die roll and all {len(moves)} moves, every one legal, reproduce"
        " the result and every score"
    )


def follow_moves(moves: list, play_one, log) -> None:
    """Play every move of the record in order; Rejected naming the first that cannot have happened."""
    for index, entry in enumerate(moves):
        log(f"move {index} ({entry['by']}: {entry['move']})")
        try:
            play_one(entry["by"], entry["move"])
        except (Rejected, ValueError, IndexError, KeyError, StopIteration) as error:
            raise Rejected(f"move {index} ({entry['by']}: {entry['move']}): {error or 'malformed'}") from None


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
