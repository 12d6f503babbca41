#!/usr/bin/env python3
"""Re-verify a finished IceDice game from its record, offline, standard library only.

    python3 engine/icedice/verify.py GAME.json [--commitment HEX] [--verbose]

It checks that SHA-256(seed) is the commitment the server published when the game started, then
draws who starts and every throw of the two dice from the seed with the documented shuffle
(docs/notation.md: Fisher-Yates driven by SHA-256; who starts is shuffle 0 of the seats, die k the
first face of its die shuffled with number 100 + k) and follows every step by its own
re-implementation of the rules (../shared/spec/icedice.md): busts, takes from the Bank, steals,
forced takes, the rainbow bonus, Trios and the win, resignation. The stated result must be what the
moves produced. It imports nothing from engine/: it is a second, independent implementation.

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as an icedice-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

FORMAT = "icedice-game/1"
FORMATS = {"icedice": FORMAT}  # the formats it reads, by game (tools/verify_game.py asks)
COLOURS = ("red", "yellow", "green", "blue", "black")
SIZES = ("S", "M", "L")
SIZE_FACES = ("S", "M", "L", "S/M", "S/L", "M/L")
COLOUR_FACES = (*COLOURS, "atom")
TWO_64 = 1 << 64
Piece = tuple[str, str]  # (colour, size)
Take = tuple[str, str, str | None]  # (size, colour, the seat stolen from or None for the Bank)
Log = Callable[[str], object]


class Rejected(Exception):
    """The record cannot be an honest game: a step that cannot have happened, or a wrong result."""


def shuffled(items: Sequence[str], seed: str, number: int) -> list[str]:
    """docs/notation.md: Fisher-Yates from the last position down, words from SHA-256 blocks."""

    def words() -> Iterator[int]:
        block = 0
        while True:
            digest = hashlib.sha256(f"zarkcity-shuffle/1:{seed}:{number}:{block}".encode()).digest()
            for offset in range(0, 32, 8):
                yield int.from_bytes(digest[offset : offset + 8], "big")
            block += 1

    source, cards = words(), list(items)
    for i in range(len(cards) - 1, 0, -1):
        limit = TWO_64 - (TWO_64 % (i + 1))
        word = next(source)
        while word >= limit:
            word = next(source)
        j = word % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def trios(pieces: Iterable[Piece]) -> int:
    count = Counter(pieces)
    return sum(min(count[(colour, size)] for size in SIZES) for colour in COLOURS)


class IceDice:
    """The game as the record's steps drive it; every engine doing (throws, busts, bonuses) derived here."""

    def __init__(self, players: list[str], seed: str, log: Log) -> None:
        if len(set(players)) != len(players) or not 2 <= len(players) <= 5 or any(p not in COLOURS for p in players):
            raise ValueError(f"players must be 2 to 5 distinct colours, not {players}")
        self.players, self.seed, self.log = players, seed, log
        self.vaults: dict[str, list[Piece]] = {seat: [] for seat in players}
        self.counter: list[Piece] = []
        self.resigned: list[str] = []
        self.dice = 0
        self.throw = ("", "")
        self.choices: list[Take] = []  # the takes offered while a choice is pending: (size, colour, source)
        self.winner: str | None = None
        self.reason: str | None = None
        self.to_move: str = shuffled(players, seed, 0)[0]
        log(f"{self.to_move} holds the dice")
        self.roll()

    @property
    def over(self) -> bool:
        return self.reason is not None

    def bank(self, kind: Piece) -> int:
        held = self.counter.count(kind) + sum(vault.count(kind) for vault in self.vaults.values())
        return len(self.players) - held

    def others(self, seat: str) -> list[str]:
        at = self.players.index(seat)
        return [p for p in self.players[at + 1 :] + self.players[:at] if p not in self.resigned]

    def roll(self) -> None:
        size = shuffled(SIZE_FACES, self.seed, 100 + self.dice)[0]
        colour = shuffled(COLOUR_FACES, self.seed, 101 + self.dice)[0]
        self.dice += 2
        self.throw = (size, colour)
        self.log(f"  {self.to_move} threw {size} + {colour}")
        if colour in {c for c, _ in self.counter}:
            self.log(f"  {self.to_move} busts: {len(self.counter)} pieces back to the Bank")
            self.counter = []
            self.next_turn()
            return
        self.offer()

    def offered(self) -> list[Take]:
        size, colour = self.throw
        on_counter = {c for c, _ in self.counter}
        colours = [c for c in COLOURS if c not in on_counter] if colour == "atom" else [colour]
        takes: list[Take] = []
        for c in colours:
            for s in size.split("/"):
                if self.bank((c, s)) > 0:
                    takes.append((s, c, None))
                else:
                    takes.extend((s, c, o) for o in self.others(self.to_move) if (c, s) in self.vaults[o])
        return takes

    def offer(self) -> None:
        takes = self.offered()
        self.choices = takes if len(takes) > 1 else []
        if len(takes) == 1:
            self.take(takes[0], " (the only choice)")
        elif not takes:
            self.log(f"  {self.to_move} gets nothing")

    def take(self, chosen: Take, note: str = "") -> None:
        size, colour, source = chosen
        if source:
            self.vaults[source].remove((colour, size))
        self.counter.append((colour, size))
        self.choices = []
        self.log(f"  {self.to_move} took {size} {colour}{' from ' + source if source else ''}{note}")
        if len({c for c, _ in self.counter}) == len(COLOURS):
            self.log("  rainbow bonus")
            if not self.vault_counter():
                self.roll()

    def vault_counter(self) -> bool:
        """The Counter into the mover's Vault; True when that wins (three Trios)."""
        vault = self.vaults[self.to_move]
        vault.extend(self.counter)
        self.counter = []
        if trios(vault) >= 3:
            self.winner, self.reason = self.to_move, "trios"
            self.log(f"  {self.winner} wins with {trios(vault)} Trios")
            self.to_move = ""
            return True
        return False

    def next_turn(self) -> None:
        self.to_move = self.others(self.to_move)[0]
        self.counter = []
        self.roll()

    def play(self, by: str, text: str) -> None:
        if by not in self.players:
            raise Rejected(f"{by!r} is not seated")
        words = text.lower().split()
        if words == ["resign"]:
            return self.resign(by)
        if self.over:
            raise Rejected("the game is already over")
        if by != self.to_move:
            raise Rejected(f"it is {self.to_move}'s turn, not {by}'s")
        if words in (["roll"], ["stop"]):
            if self.choices:
                raise Rejected("a take is pending: roll and stop wait")
            if words == ["roll"]:
                return self.roll()
            if not self.vault_counter():
                self.next_turn()
            return None
        return self.take(self.chosen(words))

    def chosen(self, words: list[str]) -> Take:
        if not self.choices:
            raise Rejected("there is no take to choose now")
        if len(words) not in (3, 5) or words[0] != "take" or (len(words) == 5 and words[3] != "from"):
            raise ValueError(f"unreadable step {' '.join(words)!r}")
        first, second = words[1], words[2]
        size, colour = (first.upper(), second) if first.upper() in SIZES else (second.upper(), first)
        source = words[4] if len(words) == 5 else None
        matching = [t for t in self.choices if t[:2] == (size, colour) and (source is None or t[2] == source)]
        if len(matching) != 1:
            raise Rejected(f"take {size} {colour} is not one of the offered takes {self.choices}")
        return matching[0]

    def resign(self, seat: str) -> None:
        if self.over or seat in self.resigned:
            raise Rejected(f"{seat} cannot resign now")
        self.resigned.append(seat)
        self.vaults[seat] = []
        seated = [p for p in self.players if p not in self.resigned]
        self.log(f"  {seat} resigns")
        if len(seated) == 1:
            self.winner, self.reason, self.to_move = seated[0], "resignation", ""
        elif seat == self.to_move:
            self.next_turn()
        elif self.choices:
            self.offer()


def check_result(game: IceDice, result: Any) -> None:
    if result is None:
        if game.over:
            raise Rejected(f"the game ended ({game.winner} won by {game.reason}) but the record has no result")
        return
    winner, reason = result.get("winner"), result.get("reason")
    if winner is None and reason in ("draw", "timeout") and not game.over:
        return  # agreed, or every remaining player out of time at once
    expected = "resignation" if reason == "timeout" else reason
    if not game.over or (game.winner, game.reason) != (winner, expected):
        actual = f"{game.winner} won by {game.reason}" if game.over else "the game is not over"
        raise Rejected(f"the record says {winner} won by {reason}, but after the moves {actual}")


def verify(record: Any, commitment: str | None = None, log: Log = lambda line: None) -> str:
    """A one-line verdict for an honest record; Rejected with the reason otherwise."""
    if not isinstance(record, dict) or record.get("game") != "icedice" or record.get("format") != FORMAT:
        raise ValueError(f"not an {FORMAT} record")
    seed = record.get("seed")
    if not isinstance(seed, str) or not seed:
        raise Rejected("the record has no seed: a game's seed is revealed only when it ends")
    digest = hashlib.sha256(seed.encode()).hexdigest()
    if commitment is not None and digest != commitment.strip().lower():
        raise Rejected(f"SHA-256 of the seed is {digest}, not the commitment {commitment}")
    game = IceDice(list(record["players"]), seed, log)
    moves = record["moves"]
    for index, entry in enumerate(moves):
        log(f"move {index} ({entry['by']}: {entry['move']})")
        try:
            game.play(entry["by"], entry["move"])
        except (Rejected, ValueError) as error:
            raise Rejected(f"move {index} ({entry['by']}: {entry['move']}): {error}") from None
    check_result(game, record.get("result"))
    return f"verified: who starts, all {game.dice} dice and all {len(moves)} moves, every one legal, give the result"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Re-verify a finished IceDice game record.")
    parser.add_argument("record", help="the game record JSON file (- for standard input)")
    parser.add_argument("--commitment", help="the seed's SHA-256 that the server showed when the game started")
    parser.add_argument("--verbose", "-v", action="store_true", help="print who starts, every throw and every move")
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
    log: Log = print if args.verbose else (lambda line: None)
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
