#!/usr/bin/env python3
"""Re-verify a finished Launch Pad 23 game from its record, offline, standard library only.

    python3 engine/launchpad23/verify.py GAME.json [--commitment HEX] [--verbose]

It checks that SHA-256(seed) is the commitment the server published when the game started, then
draws who starts and every throw of the two IceDice dice from the seed with the documented shuffle
(docs/notation.md: Fisher-Yates driven by SHA-256; who starts is shuffle 0 of the seated players
when the last opening pick is in, die k the first face of its die shuffled with number 100 + k,
the pyramid die first) and follows every step by its own re-implementation of the rules
(../shared/spec/launchpad23.md): the sealed opening picks, the offered parts from the Bank or off a
pad, the automatic add and re-throw, one reroll a turn, the moves a throw gives, total system
failure, rockets in anyone's turn, resignation. The stated result must be what the moves produced.
It imports nothing from engine/: it is a second, independent implementation.

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a launchpad23-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

FORMAT = "launchpad23-game/1"
FORMATS = {"launchpad23": FORMAT}  # the formats it reads, by game (tools/verify_game.py asks)
COLOURS = ("red", "yellow", "green", "blue", "black")
SIZES = ("S", "M", "L")
PYRAMID_FACES = ("S", "M", "L", "S/M", "S/L", "M/L")
COLOUR_FACES = (*COLOURS, "atom")
CELLS = tuple(f"{file}{rank}" for rank in "123" for file in "abc")
FACTORY = "b2"
PADS = {2: ("a1", "c3"), 3: ("a1", "a3", "c3"), 4: ("a1", "a3", "c3", "c1")}
COPIES = 2
TWO_64 = 1 << 64
Piece = tuple[str, str]  # (colour, size)
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


def side_by_side(one: str, two: str) -> bool:
    return abs(ord(one[0]) - ord(two[0])) + abs(int(one[1]) - int(two[1])) == 1


def canonical(text: str) -> str:
    """A step in the spec's canonical words: `add M red [from blue]`, `M red b2-b1`, `start M`, a word."""
    lowered = re.sub(r"\b([a-c][1-3])\s*-?\s*([a-c][1-3])\b", r"\1 \2", text.strip().lower())
    words = lowered.split()
    if len(words) == 1 and words[0] in ("reroll", "failure", "pass", "resign"):
        return words[0]
    if len(words) == 2 and words[0] == "start" and words[1].upper() in SIZES:
        return f"start {words[1].upper()}"
    if words[:1] == ["add"] and len(words) in (3, 5) and (len(words) == 3 or words[3] == "from"):
        size, colour = kind(words[1:3])
        return f"add {size} {colour}" + (f" from {words[4]}" if len(words) == 5 else "")
    if len(words) == 4 and words[2] in CELLS and words[3] in CELLS:
        size, colour = kind(words[:2])
        return f"{size} {colour} {words[2]}-{words[3]}"
    raise ValueError(f"unreadable step {text!r}")


def kind(words: list[str]) -> tuple[str, str]:
    first, second = words if words[0] not in COLOURS else words[::-1]
    if first.upper() not in SIZES or second not in COLOURS:
        raise ValueError(f"{' '.join(words)!r} is not a size and a colour")
    return first.upper(), second


class LaunchPad:
    """The game as the record's steps drive it; every engine doing (throws, automatic adds) derived here."""

    def __init__(self, players: list[str], seed: str, log: Log) -> None:
        if len(set(players)) != len(players) or len(players) not in PADS or any(p not in COLOURS for p in players):
            raise ValueError(f"players must be 2 to 4 distinct colours, not {players}")
        self.players, self.seed, self.log = players, seed, log
        self.board: dict[str, list[Piece]] = {cell: [] for cell in CELLS}
        self.starts: dict[str, str] = {}
        self.resigned: list[str] = []
        self.phase = "start"
        self.to_move = ""
        self.throw = ("", "")
        self.rerolled = False
        self.moves_left = 0
        self.dice = 0
        self.winner: str | None = None
        self.reason: str | None = None

    # --- the table ---------------------------------------------------------------------------
    def seated(self) -> list[str]:
        return [p for p in self.players if p not in self.resigned]

    def pad(self, seat: str) -> str:
        return PADS[len(self.players)][self.players.index(seat)]

    def owner(self, cell: str) -> str | None:
        return next((seat for seat in self.seated() if self.pad(seat) == cell), None)

    def bank(self, piece: Piece) -> int:
        return COPIES - sum(pieces.count(piece) for pieces in self.board.values())

    def check_rockets(self) -> bool:
        """A seated player's pad of exactly five pieces, five colours, one size: that player wins."""
        for seat in self.seated():
            pieces = self.board[self.pad(seat)]
            if len(pieces) == 5 and {c for c, _ in pieces} == set(COLOURS) and len({s for _, s in pieces}) == 1:
                self.winner, self.reason, self.phase, self.to_move = seat, "rocket", "over", ""
                self.log(f"  {seat}'s rocket stands on {self.pad(seat)}: {seat} wins")
                return True
        return False

    # --- the opening -------------------------------------------------------------------------
    def open_if_ready(self) -> None:
        seated = self.seated()
        if len(seated) < 2 or any(seat not in self.starts for seat in seated):
            return
        for seat in seated:
            self.board[self.pad(seat)].append((seat, self.starts[seat]))
        self.log("  opening: " + ", ".join(f"{seat} {self.starts[seat]}" for seat in seated))
        self.to_move = shuffled(seated, self.seed, 0)[0]
        self.log(f"  {self.to_move} starts")
        self.begin_turn()

    # --- a turn ------------------------------------------------------------------------------
    def begin_turn(self) -> None:
        self.rerolled = False
        self.roll()

    def roll(self) -> None:
        size = shuffled(PYRAMID_FACES, self.seed, 100 + self.dice)[0]
        colour = shuffled(COLOUR_FACES, self.seed, 101 + self.dice)[0]
        self.dice += 2
        self.throw, self.phase, self.moves_left = (size, colour), "add", 0
        self.log(f"  {self.to_move} throws {size} + {colour}")
        self.settle()

    def offered(self) -> list[Piece]:
        size, colour = self.throw
        colours = COLOURS if colour == "atom" else (colour,)
        return [(c, s) for s in size.split("/") for c in colours]

    def choices(self) -> list[str]:
        found: list[str] = []
        for colour, size in self.offered():
            if self.bank((colour, size)):
                found.append(f"add {size} {colour}")
                continue
            for seat in self.seated():
                if seat != self.to_move and (colour, size) in self.board[self.pad(seat)]:
                    found.append(f"add {size} {colour} from {seat}")
        missing = any(not self.bank(piece) for piece in self.offered())
        return found + (["reroll"] if missing and not self.rerolled else [])

    def settle(self) -> None:
        """One choice is the engine's to make; none adds nothing; several wait for the mover."""
        choices = self.choices()
        if len(choices) > 1:
            return
        if not choices:
            self.log(f"  {self.to_move} can add nothing")
            self.start_moves()
        elif choices == ["reroll"]:
            self.log("  nothing to add or take: the dice are thrown again")
            self.rerolled = True
            self.roll()
        else:
            self.add(choices[0], " (the only choice)")

    def add(self, step: str, note: str = "") -> None:
        words = step.split()
        piece = (words[2], words[1])
        if len(words) == 5:
            self.board[self.pad(words[4])].remove(piece)
        self.board[FACTORY].append(piece)
        self.log(f"  {self.to_move}: {step}{note}")
        if not self.check_rockets():
            self.start_moves()

    def start_moves(self) -> None:
        size, colour = self.throw
        self.phase, self.moves_left = "move", 2 + ("/" in size) + (colour == "atom")
        self.maybe_end_turn()

    def shifts(self) -> list[str]:
        found = []
        for cell in CELLS:
            if self.owner(cell) not in (None, self.to_move):
                continue
            for colour, size in set(self.board[cell]):
                found += [f"{size} {colour} {cell}-{there}" for there in CELLS if side_by_side(cell, there)]
        return found + (["failure"] if self.board[self.pad(self.to_move)] else [])

    def maybe_end_turn(self) -> None:
        if self.moves_left <= 0 or not self.shifts():
            self.next_turn()

    def next_turn(self) -> None:
        order = self.players
        at = order.index(self.to_move)
        self.to_move = next(p for p in order[at + 1 :] + order[: at + 1] if p not in self.resigned)
        self.begin_turn()

    # --- the record's steps ------------------------------------------------------------------
    def play(self, by: str, text: str) -> None:
        if by not in self.players:
            raise Rejected(f"{by!r} is not seated")
        step = canonical(text)
        if step == "resign":
            return self.resign(by)
        if self.phase == "over":
            raise Rejected("the game is already over")
        if by in self.resigned:
            raise Rejected(f"{by} has left the game")
        if self.phase == "start":
            return self.pick(by, step)
        if by != self.to_move:
            raise Rejected(f"it is {self.to_move}'s turn, not {by}'s")
        if self.phase == "add":
            return self.part(step)
        return self.move(step)

    def pick(self, by: str, step: str) -> None:
        if not step.startswith("start "):
            raise Rejected("the opening pieces are not all chosen: only `start S|M|L`")
        if by in self.starts:
            raise Rejected(f"{by} has already chosen an opening piece")
        self.starts[by] = step.split()[1]
        self.open_if_ready()

    def part(self, step: str) -> None:
        if step not in self.choices():
            raise Rejected(f"{step!r} is not among the choices of the throw {self.throw}: {self.choices()}")
        if step == "reroll":
            self.rerolled = True
            self.log(f"  {self.to_move} rerolls")
            return self.roll()
        return self.add(step)

    def move(self, step: str) -> None:
        if step == "pass":
            self.log(f"  {self.to_move} passes")
            return self.next_turn()
        if step not in self.shifts():
            raise Rejected(f"{step!r} is not a legal move now")
        if step == "failure":
            self.log(f"  {self.to_move}: total system failure")
            self.board[self.pad(self.to_move)] = []
        else:
            size, colour, path = step.split()
            origin, target = path.split("-")
            self.board[origin].remove((colour, size))
            self.board[target].append((colour, size))
        self.moves_left -= 1
        if not self.check_rockets():
            self.maybe_end_turn()
        return None

    def resign(self, seat: str) -> None:
        if self.phase == "over" or seat in self.resigned:
            raise Rejected(f"{seat} cannot resign now")
        self.resigned.append(seat)
        if self.phase == "start":
            self.starts.pop(seat, None)  # a pick dropped with its seat
        self.log(f"  {seat} resigns")
        seated = self.seated()
        if len(seated) == 1:
            self.winner, self.reason, self.phase, self.to_move = seated[0], "resignation", "over", ""
        elif self.phase == "start":
            self.open_if_ready()
        elif seat == self.to_move:
            self.next_turn()  # from the leaver's place in the seating order
        elif self.phase == "add":
            self.settle()


def check_result(game: LaunchPad, result: Any) -> None:
    over = game.phase == "over"
    if result is None:
        if over:
            raise Rejected(f"the game ended ({game.winner} won by {game.reason}) but the record has no result")
        return
    winner, reason = result.get("winner"), result.get("reason")
    if winner is None and reason in ("draw", "timeout") and not over:
        return  # agreed, or every remaining player out of time at once
    expected = "resignation" if reason == "timeout" else reason
    if not over or (game.winner, game.reason) != (winner, expected):
        actual = f"{game.winner} won by {game.reason}" if over else "the game is not over"
        raise Rejected(f"the record says {winner} won by {reason}, but after the moves {actual}")


def verify(record: Any, commitment: str | None = None, log: Log = lambda line: None) -> str:
    """A one-line verdict for an honest record; Rejected with the reason otherwise."""
    if not isinstance(record, dict) or record.get("game") != "launchpad23" or record.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    seed = record.get("seed")
    if not isinstance(seed, str) or not seed:
        raise Rejected("the record has no seed: a game's seed is revealed only when it ends")
    digest = hashlib.sha256(seed.encode()).hexdigest()
    if commitment is not None and digest != commitment.strip().lower():
        raise Rejected(f"SHA-256 of the seed is {digest}, not the commitment {commitment}")
    game = LaunchPad(list(record["players"]), seed, log)
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
    parser = argparse.ArgumentParser(description="Re-verify a finished Launch Pad 23 game record.")
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
