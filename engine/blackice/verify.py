#!/usr/bin/env python3
"""Re-verify a finished Black ICE game from its record, offline, standard library only.

    python3 engine/blackice/verify.py GAME.json [--commitment HEX] [--verbose]

It checks that SHA-256(seed) is the commitment the server published when the game started, then
draws who starts, the three hidden Codes, every die and every Reset's new Code from the seed with
the documented shuffle (docs/notation.md: Fisher-Yates driven by SHA-256; who starts is shuffle 0
of the seats, the Codes shuffle 1 of the Box, draw k shuffle number 100 + k) and follows every step
by its own re-implementation of the rules (../shared/spec/blackice.md): duplicates and nulls made
wild, the five actions and what each needs, the turn that ends by itself, the declaration against
the Codes, resignation. The stated result must be what the moves produced. It imports nothing from
engine/: it is a second, independent implementation.

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a blackice-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

FORMAT = "blackice-game/1"
FORMATS = {"blackice": FORMAT}  # the formats it reads, by game (tools/verify_game.py asks)
SEATS = ("red", "yellow", "green", "blue", "black")
COLOURS = ("red", "yellow", "green", "blue")  # the Codes' and Keys' colours, in the Box's sort order
BOX = [colour for colour in COLOURS for _ in range(3)]
FACES = ("tip", "swap", "hop", "dig", "aim", "wild")
FACE_OF = {"peek": "tip", "swap": "swap", "set": "hop", "reset": "dig", "copy": "aim"}
VERB = {"tip": "peek", "hop": "set", "dig": "reset", "aim": "copy"}
WHAT = {"lock": "locks", "locks": "locks", "key": "keys", "keys": "keys"}
TWO_64 = 1 << 64
Log = Callable[[str], object]
Step = tuple[str, ...]  # ("peek", "2"), ("swap", "locks", "1", "3"), ("set", "2", "red"), ("declare",)


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


def in_colour_order(codes: list[str]) -> list[str]:
    return sorted(codes, key=COLOURS.index)


def read_step(text: str) -> Step:
    """A step in any spelling the spec allows, as a canonical tuple; ValueError when unreadable."""
    words = text.lower().split()
    if not words:
        raise ValueError("an empty step")
    verb = VERB.get(words[0], words[0])
    rest = words[1:]
    if verb in ("declare", "pass") and not rest:
        return (verb,)
    if verb in ("peek", "reset", "copy") and len(rest) == 1 and rest[0] in ("1", "2", "3"):
        return (verb, rest[0])
    if verb == "set" and len(rest) == 2 and rest[0] in ("1", "2", "3"):
        colours = [c for c in COLOURS if rest[1] in (c, c[0])]
        if colours:
            return ("set", rest[0], colours[0])
    if verb == "swap" and len(rest) == 3 and rest[0] in WHAT:
        pair = sorted(rest[1:])
        if pair[0] != pair[1] and all(p in ("1", "2", "3") for p in pair):
            return ("swap", WHAT[rest[0]], *pair)
    raise ValueError(f"unreadable step {text!r}")


class BlackIce:
    """The game as the record's steps drive it; the throws, nulls, Resets and turn ends derived here."""

    def __init__(self, players: list[str], seed: str, log: Log) -> None:
        if len(players) != 2 or len(set(players)) != 2 or any(p not in SEATS for p in players):
            raise ValueError(f"players must be 2 distinct colours, not {players}")
        self.players, self.seed, self.log = players, seed, log
        dealt = shuffled(BOX, seed, 1)
        self.codes = dealt[:3]  # under Locks 1, 2, 3
        self.marks: list[set[str]] = [set(), set(), set()]  # who has peeked each Lock's present Code
        self.box = in_colour_order(dealt[3:])
        self.keys: dict[str, list[str | None]] = {seat: [None, None, None] for seat in players}
        self.draws = 0
        self.actions: list[str] = []
        self.used: list[bool] = []
        self.winner: str | None = None
        self.reason: str | None = None
        self.to_move = shuffled(players, seed, 0)[0]
        log(f"{self.to_move} starts; the Codes are {' '.join(self.codes)}")
        self.throw()

    @property
    def over(self) -> bool:
        return self.reason is not None

    def opponent(self, seat: str) -> str:
        return self.players[1 - self.players.index(seat)]

    def draw(self, items: Sequence[str]) -> str:
        drawn = shuffled(items, self.seed, 100 + self.draws)[0]
        self.draws += 1
        return drawn

    def throw(self) -> None:
        faces = [self.draw(FACES) for _ in range(3)]
        actions = ["wild" if face in faces[:i] else face for i, face in enumerate(faces)]
        self.actions = ["wild" if self.does_nothing(face) else face for face in actions]
        self.used = [False, False, False]
        self.log(f"  {self.to_move} throws {' '.join(faces)}: actions {' '.join(self.actions)}")

    def does_nothing(self, face: str) -> bool:
        """REC-B5: a Peek with every Lock peeked, a Reset with none the opponent peeked, nothing to Copy."""
        me = self.to_move
        if face == "tip":
            return all(me in marks for marks in self.marks)
        if face == "dig":
            return not any(self.opponent(me) in marks for marks in self.marks)
        if face == "aim":
            return not self.copyable(me)
        return False

    def copyable(self, seat: str) -> list[str]:
        mine, theirs = self.keys[seat], self.keys[self.opponent(seat)]
        return [str(i + 1) for i in range(3) if theirs[i] is not None and theirs[i] != mine[i]]

    def slot(self, face: str) -> int | None:
        """The unused action a step spends: its own face first, else a wild."""
        for wanted in (face, "wild"):
            for i, action in enumerate(self.actions):
                if action == wanted and not self.used[i]:
                    return i
        return None

    def useful(self, seat: str) -> list[Step]:
        """Every action that would change something (REC-B7), whether or not a die allows it."""
        keys = self.keys[seat]
        places = ("1", "2", "3")
        found: list[Step] = [("peek", p) for p in places if seat not in self.marks[int(p) - 1]]
        found += [("swap", "locks", a, b) for a, b in (("1", "2"), ("1", "3"), ("2", "3"))]
        for a, b in (("1", "2"), ("1", "3"), ("2", "3")):
            one, two = keys[int(a) - 1], keys[int(b) - 1]
            if one is not None and two is not None and one != two:
                found.append(("swap", "keys", a, b))
        for p in places:
            found += [("set", p, c) for c in COLOURS if keys.count(c) < 3 and keys[int(p) - 1] != c]
        found += [("reset", p) for p in places if self.opponent(seat) in self.marks[int(p) - 1]]
        found += [("copy", p) for p in self.copyable(seat)]
        return found

    def can_act(self, seat: str) -> bool:
        return any(self.slot(FACE_OF[step[0]]) is not None for step in self.useful(seat))

    def can_declare(self, seat: str) -> bool:
        return None not in self.keys[seat]

    def play(self, by: str, text: str) -> None:
        if by not in self.players:
            raise Rejected(f"{by!r} is not seated")
        if text.strip().lower() == "resign":
            return self.resign(by)
        if self.over:
            raise Rejected("the game is already over")
        if by != self.to_move:
            raise Rejected(f"it is {self.to_move}'s turn, not {by}'s")
        step = read_step(text)
        if step == ("pass",):
            self.log(f"  {by} passes")
            return self.next_turn()
        if step == ("declare",):
            return self.declare(by)
        if step not in self.useful(by):
            raise Rejected(f"{' '.join(step)} would do nothing or is not allowed")
        slot = self.slot(FACE_OF[step[0]])
        if slot is None:
            raise Rejected(f"no unused {FACE_OF[step[0]]} or wild is left")
        self.used[slot] = True
        self.act(by, step)
        if not self.can_act(by) and not self.can_declare(by):
            self.next_turn()  # only `pass` is left: the turn ends by itself
        return None

    def act(self, by: str, step: Step) -> None:
        verb, keys = step[0], self.keys[by]
        if verb == "peek":
            self.marks[int(step[1]) - 1].add(by)
        elif verb == "swap" and step[1] == "locks":
            a, b = int(step[2]) - 1, int(step[3]) - 1
            self.codes[a], self.codes[b] = self.codes[b], self.codes[a]
            self.marks[a], self.marks[b] = self.marks[b], self.marks[a]
        elif verb == "swap":
            a, b = int(step[2]) - 1, int(step[3]) - 1
            keys[a], keys[b] = keys[b], keys[a]
        elif verb == "set":
            keys[int(step[1]) - 1] = step[2]
        elif verb == "copy":
            keys[int(step[1]) - 1] = self.keys[self.opponent(by)][int(step[1]) - 1]
        else:
            self.reset(int(step[1]) - 1)
        self.log(f"  {by}: {' '.join(step)}")

    def reset(self, lock: int) -> None:
        """REC-B8: the new Code comes from the sorted Box before the old one goes back; marks cleared."""
        new = self.draw(self.box)
        self.box.remove(new)
        self.box = in_colour_order([*self.box, self.codes[lock]])
        self.log(f"  Lock {lock + 1}: {self.codes[lock]} out, {new} in")
        self.codes[lock], self.marks[lock] = new, set()

    def declare(self, by: str) -> None:
        if not self.can_declare(by):
            raise Rejected("declare needs a Key on each of the three Nodes")
        right = self.keys[by] == self.codes
        self.winner = by if right else self.opponent(by)
        self.reason = "declaration" if right else "wrong declaration"
        self.log(f"  {by} declares {self.keys[by]} against the Codes {self.codes}: {self.winner} wins")

    def next_turn(self) -> None:
        self.to_move = self.opponent(self.to_move)
        self.throw()

    def resign(self, seat: str) -> None:
        if self.over:
            raise Rejected(f"{seat} cannot resign now: the game is over")
        self.winner, self.reason = self.opponent(seat), "resignation"
        self.log(f"  {seat} resigns")


def check_result(game: BlackIce, result: Any) -> None:
    if result is None:
        if game.over:
            raise Rejected(f"the game ended ({game.winner} won by {game.reason}) but the record has no result")
        return
    winner, reason = result.get("winner"), result.get("reason")
    if winner is None and reason in ("draw", "timeout") and not game.over:
        return  # agreed, or both out of time
    expected = "resignation" if reason == "timeout" else reason
    if not game.over or (game.winner, game.reason) != (winner, expected):
        actual = f"{game.winner} won by {game.reason}" if game.over else "the game is not over"
        raise Rejected(f"the record says {winner} won by {reason}, but after the moves {actual}")


def verify(record: Any, commitment: str | None = None, log: Log = lambda line: None) -> str:
    """A one-line verdict for an honest record; Rejected with the reason otherwise."""
    if not isinstance(record, dict) or record.get("game") != "blackice" or record.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    seed = record.get("seed")
    if not isinstance(seed, str) or not seed:
        raise Rejected("the record has no seed: a game's seed is revealed only when it ends")
    digest = hashlib.sha256(seed.encode()).hexdigest()
    if commitment is not None and digest != commitment.strip().lower():
        raise Rejected(f"SHA-256 of the seed is {digest}, not the commitment {commitment}")
    game = BlackIce(list(record["players"]), seed, log)
    moves = record["moves"]
    for index, entry in enumerate(moves):
        try:
            game.play(entry["by"], entry["move"])
        except (Rejected, ValueError) as error:
            raise Rejected(f"move {index} ({entry['by']}: {entry['move']}): {error}") from None
    check_result(game, record.get("result"))
    return (
        f"verified: who starts, the Codes, all {game.draws} draws (dice and Resets) and all {len(moves)} moves,"
        " every one legal, give the result"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Re-verify a finished Black ICE game record.")
    parser.add_argument("record", help="the game record JSON file (- for standard input)")
    parser.add_argument("--commitment", help="the seed's SHA-256 that the server showed when the game started")
    parser.add_argument("--verbose", "-v", action="store_true", help="print the Codes, every throw and every move")
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
