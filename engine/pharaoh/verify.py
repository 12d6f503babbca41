#!/usr/bin/env python3
"""Re-verify a finished Pharaoh game from its record, offline, standard library only.

    python3 engine/pharaoh/verify.py GAME.json [--commitment HEX] [--verbose]

It checks that SHA-256(seed) is the commitment the server published when the game started, then
draws who starts and every throw of the die from the seed with the documented shuffle
(docs/notation.md: who starts is the first of the seats shuffled by number 0, throw k the first
face of 1-6 shuffled by number 100 + k) and follows every step by its own re-implementation of the
rules (../shared/spec/pharaoh.md): entering on your own edge, moving to a neighbour, the costs,
landing and captures, the automatic end of a turn, the goal-lines that count, resignation. The
result must be what the steps produce. It imports nothing from the engine on purpose: it is a
second, independent implementation.

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a pharaoh-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

FORMAT = "pharaoh-game/1"
FORMATS = {"pharaoh": FORMAT}  # the formats it reads, by game (tools/verify_game.py asks)
COLOURS = ("red", "yellow", "green", "blue", "black")
CELLS = [f"{f}{r}" for r in range(1, 6) for f in "abcde" if f"{f}{r}" not in ("a1", "e1", "a5", "e5")]
PIPS = {"S": 1, "M": 2, "L": 3}
SOUTH, WEST, NORTH, EAST = ("b1", "c1", "d1"), ("a2", "a3", "a4"), ("b5", "c5", "d5"), ("e2", "e3", "e4")
EDGES = {2: [SOUTH, NORTH], 3: [SOUTH, WEST, NORTH], 4: [SOUTH, WEST, NORTH, EAST]}  # in seating order
ROW, COLUMN, DIAGONALS = ("b3", "c3", "d3"), ("c2", "c3", "c4"), [("b2", "c3", "d4"), ("b4", "c3", "d2")]
LINES = {2: [ROW], 3: [ROW, COLUMN], 4: [ROW, COLUMN, *DIAGONALS]}  # the goal-lines that count
WINNERLESS = ("draw", "timeout")


class Rejected(Exception):
    """The record does not hold up: the message names the move and what is wrong."""


# ----------------------------------------------------------------------------- the seeded shuffle


def shuffled(items: list[Any], seed: str, number: int) -> list[Any]:
    """Fisher-Yates from the last position down, j drawn from SHA-256 words by rejection sampling."""

    def words() -> Any:
        block = 0
        while True:
            digest = hashlib.sha256(f"zarkcity-shuffle/1:{seed}:{number}:{block}".encode()).digest()
            for offset in range(0, 32, 8):
                yield int.from_bytes(digest[offset : offset + 8], "big")
            block += 1

    source, cards = words(), list(items)
    for i in range(len(cards) - 1, 0, -1):
        limit = (1 << 64) - ((1 << 64) % (i + 1))
        word = next(source)
        while word >= limit:
            word = next(source)
        j = word % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# ----------------------------------------------------------------------------- the game


def touching(a: str, b: str) -> int:
    """1 for side neighbours, 2 for corner neighbours (a diagonal costs twice), 0 otherwise."""
    dx, dy = abs(ord(a[0]) - ord(b[0])), abs(int(a[1]) - int(b[1]))
    return 0 if max(dx, dy) != 1 else (2 if dx and dy else 1)


class Game:
    def __init__(self, players: list[str], seed: str, log: Any) -> None:
        self.players, self.seed, self.log = players, seed, log
        self.edges = dict(zip(players, EDGES[len(players)], strict=True))
        self.lines = LINES[len(players)]
        self.board: dict[str, tuple[str, str]] = {}
        self.resigned: list[str] = []
        self.dice = 0
        self.winner: str | None = None
        self.reason: str | None = None
        self.first = shuffled(players, seed, 0)[0]
        log(f"who starts: {self.first}")
        self.throw_for(self.first)

    # the turn
    def throw_for(self, seat: str) -> None:
        while True:
            self.mover, self.points = seat, shuffled([1, 2, 3, 4, 5, 6], self.seed, 100 + self.dice)[0]
            self.dice += 1
            self.log(f"  {seat} threw {self.points}")
            if self.steps(seat):
                return
            self.log(f"  {seat}'s turn ends by itself")
            seat = self.next_seat(seat)

    def next_seat(self, seat: str) -> str:
        i = self.players.index(seat)
        order = self.players[i + 1 :] + self.players[: i + 1]
        return next(p for p in order if p not in self.resigned)

    def supply(self, seat: str) -> list[str]:
        placed = {size for colour, size in self.board.values() if colour == seat}
        return [size for size in PIPS if size not in placed]

    def refusal(self, seat: str, size: str, start: str | None, end: str) -> str | None:
        """Why the step is illegal (None when it is legal): an entry when `start` is None."""
        if start is None:
            cost = PIPS[size]
            if size not in self.supply(seat) or end not in self.edges[seat]:
                return f"{seat} cannot enter a {size} on {end}"
        else:
            cost = PIPS[size] * touching(start, end)
            if not cost:
                return f"{end} does not touch {start}"
        there = self.board.get(end)
        if there and (there[0] == seat or PIPS[there[1]] > PIPS[size]):
            return f"{seat}'s {size} may not land on {there[0]}'s {there[1]} on {end}"
        return f"it costs {cost}, {self.points} left" if cost > self.points else None

    def steps(self, seat: str) -> list[str]:
        found = [
            f"enter {s} {c}" for s in self.supply(seat) for c in self.edges[seat] if not self.refusal(seat, s, None, c)
        ]
        for cell, (colour, size) in self.board.items():
            if colour == seat:
                found += [f"{cell}-{n}" for n in CELLS if touching(cell, n) and not self.refusal(seat, size, cell, n)]
        return found

    # a recorded step
    def play(self, by: str, text: str) -> None:
        if self.reason is not None:
            raise ValueError("the game is already over")
        if text == "resign":
            return self.resign(by)
        if by != self.mover:
            raise ValueError(f"it is {self.mover}'s turn")
        if text == "pass":
            return self.throw_for(self.next_seat(by))
        size, start, end = self.read(by, text)
        why = self.refusal(by, size, start, end)
        if why:
            raise ValueError(why)
        self.points -= PIPS[size] * (touching(start, end) if start else 1)
        if start:
            del self.board[start]
        self.board[end] = (by, size)
        mine = {cell for cell, (colour, _) in self.board.items() if colour == by}
        if any(mine == set(line) for line in self.lines):
            self.winner, self.reason = by, "goal-line"
        elif not self.steps(by):
            self.throw_for(self.next_seat(by))
        return None

    def read(self, by: str, text: str) -> tuple[str, str | None, str]:
        words = text.split()  # the canonical notation: `enter M c1` or `c1-c2`
        if len(words) == 3 and words[0] == "enter" and words[1] in PIPS and words[2] in CELLS:
            return words[1], None, words[2]
        start, _, end = text.partition("-")
        if start in CELLS and end in CELLS and start in self.board and self.board[start][0] == by:
            return self.board[start][1], start, end
        raise ValueError(f"{text!r} is not a step {by} can take here")

    def resign(self, seat: str) -> None:
        if seat in self.resigned:
            raise ValueError(f"{seat} has already resigned")
        self.resigned.append(seat)
        self.board = {cell: piece for cell, piece in self.board.items() if piece[0] != seat}
        left = [p for p in self.players if p not in self.resigned]
        if len(left) == 1:
            self.winner, self.reason = left[0], "resignation"
        elif self.mover == seat:
            self.throw_for(self.next_seat(seat))


# ----------------------------------------------------------------------------- the record


def read(record: Any) -> tuple[list[str], str, list[tuple[str, str]], Any]:
    if not isinstance(record, dict) or record.get("format") != FORMAT or record.get("game") != "pharaoh":
        raise ValueError(f"not a {FORMAT} record")
    players, seed, moves = record.get("players"), record.get("seed"), record.get("moves")
    if not isinstance(players, list) or len(players) not in (2, 3, 4) or len(set(players)) != len(players):
        raise ValueError(f"players must be 2, 3 or 4 distinct colours, not {players!r}")
    if any(p not in COLOURS for p in players) or not isinstance(seed, str) or not isinstance(moves, list):
        raise ValueError("players, seed and moves must be colours, text and a list")
    steps = []
    for index, entry in enumerate(moves):
        if not isinstance(entry, dict) or entry.get("by") not in players or not isinstance(entry.get("move"), str):
            raise ValueError(f"move {index} must be an object like {{'by': 'red', 'move': 'enter M c1'}}")
        steps.append((entry["by"], " ".join(entry["move"].split())))
    return players, seed, steps, record.get("result")


def verify(record: Any, commitment: str | None = None, log: Any = lambda line: None) -> str:
    players, seed, steps, result = read(record)
    digest = hashlib.sha256(seed.encode()).hexdigest()
    if commitment is not None and digest != commitment.strip().lower():
        raise Rejected(f"SHA-256 of the seed is {digest}, not the commitment {commitment}")
    game = Game(players, seed, log)
    for index, (by, text) in enumerate(steps):
        log(f"{index}. {by}: {text}")
        try:
            game.play(by, text)
        except ValueError as error:
            raise Rejected(f"move {index} ({by}: {text}): {error}") from None
    check_result(game, result, len(steps))
    done = f"all {game.dice} throws and all {len(steps)} moves"
    return f"verified: who starts ({game.first}), {done}, every one legal, reproduce the result"


def check_result(game: Game, result: Any, plies: int) -> None:
    if not isinstance(result, dict):
        raise Rejected("the record states no result: only a finished game can be verified")
    winner, reason = result.get("winner"), result.get("reason")
    if game.reason is None and winner is None and reason in WINNERLESS:
        return
    if game.reason is not None and (game.winner, game.reason) == (winner, reason):
        return
    if game.reason == "resignation" and (winner, reason) == (game.winner, "timeout"):
        return  # a time-out is recorded as the loser's resignation
    actual = "the game is not over" if game.reason is None else f"{game.winner} won by {game.reason}"
    raise Rejected(f"the record says {winner} won by {reason}, but after {plies} moves {actual}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Re-verify a finished Pharaoh game record.")
    parser.add_argument("record", help="the game record JSON file (- for standard input)")
    parser.add_argument("--commitment", help="the seed's SHA-256 that the server showed when the game started")
    parser.add_argument("--verbose", "-v", action="store_true", help="print who starts, every throw and every step")
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
