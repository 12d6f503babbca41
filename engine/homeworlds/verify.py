#!/usr/bin/env python3
"""Re-verify a finished Homeworlds game from its record, offline, standard library only.

    python3 engine/homeworlds/verify.py GAME.json [--commitment HEX] [--verbose]

It checks that SHA-256(seed) is the commitment the server published when the game started, draws
who starts from the seed with the documented shuffle (docs/notation.md: the first of the seats
shuffled by number 0; that player's homeworld is North), checks the options, and follows every
step by its own re-implementation of the rules (../shared/spec/homeworlds.md): the homeworlds,
build, trade, move, discover and its names, attack, the sacrifice and its actions, catastrophes,
pass and done, forgetting empty systems, when a turn ends, the homeworld checks at a turn's end,
the options `catastrophes`, `suicide` and `setup`, and resignation. The result must be what the
steps produce. It imports nothing from the engine on purpose: it is a second, independent
implementation.

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a homeworlds-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from typing import Any

FORMAT = "homeworlds-game/1"
FORMATS = {"homeworlds": FORMAT}  # the formats it reads, by game (tools/verify_game.py asks)
OPTIONS = {"catastrophes": ("anytime", "end"), "suicide": ("legal", "illegal"), "setup": ("standard", "free")}
PIECE = re.compile(r"[rygb][123]")
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
WORDS = {"red": "r", "yellow": "y", "green": "g", "blue": "b"}
ACTION_COLOUR = {"build": "g", "trade": "b", "move": "y", "discover": "y", "attack": "r"}
ARGUMENTS = {"build": 2, "trade": 3, "move": 3, "discover": 4, "attack": 2, "sacrifice": 2, "catastrophe": 2}
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


class System:
    def __init__(self, name: str, home: int | None, stars: list[str], ships: list[list[str]]) -> None:
        self.name, self.home, self.stars, self.ships = name, home, stars, ships

    def sizes(self) -> set[str]:
        return {star[1] for star in self.stars}

    def connected(self, other: System) -> bool:
        return not self.sizes() & other.sizes()

    def count(self, colour: str) -> int:
        return sum(p[0] == colour for p in self.stars + self.ships[0] + self.ships[1])


class Game:
    def __init__(self, players: list[str], seed: str, options: dict[str, str], log: Any) -> None:
        self.players, self.options, self.log = players, options, log
        self.first = shuffled(players, seed, 0)[0]
        log(f"who starts: {self.first} (North)")
        self.mover: int | None = players.index(self.first)
        self.turn, self.stage, self.steps = 1, "setup", 0
        self.sacrifice: tuple[str, int] | None = None  # (colour, actions left)
        self.systems: list[System] = []
        self.winner: str | None = None
        self.reason: str | None = None

    # the table
    def bank(self, piece: str) -> int:
        return 3 - sum((s.stars + s.ships[0] + s.ships[1]).count(piece) for s in self.systems)

    def find(self, name: str) -> System:
        found = [s for s in self.systems if s.name.lower() == name.lower()]
        if not found:
            raise ValueError(f"no system {name} is in play")
        return found[0]

    def forget(self, system: System) -> None:
        """REC-H2: a system that is not a homeworld leaves play the moment it has no ships."""
        if system.home is None and not system.ships[0] and not system.ships[1] and system in self.systems:
            self.systems.remove(system)

    def home_ship(self, seat: int) -> bool:
        return any(s.home == seat and s.ships[seat] for s in self.systems)

    @staticmethod
    def take_ship(system: System, seat: int, piece: str) -> None:
        if piece not in system.ships[seat]:
            raise ValueError(f"you have no {piece} at {system.name}")
        system.ships[seat].remove(piece)

    # a recorded step
    def play(self, by: str, text: str) -> None:
        if self.reason is not None:
            raise ValueError("the game is already over")
        seat, words = self.players.index(by), text.split()
        verb = words[0].lower() if words else ""
        if verb == "resign" and len(words) == 1:
            return self.finish(self.players[1 - seat], "resignation")
        if seat != self.mover:
            raise ValueError(f"it is {self.players[self.mover or 0]}'s turn")
        if self.stage == "setup" or verb == "homeworld":
            return self.setup(seat, verb, words[1:])
        if verb in ("pass", "done") and len(words) == 1:
            if (verb == "pass") == bool(self.steps):
                raise ValueError("`pass` is only a whole turn, `done` only after a step")
            self.sacrifice = None  # the turn ends: no action left excuses an empty homeworld
            self.check_suicide(seat)
            return self.end_turn()
        if ARGUMENTS.get(verb) != len(words) - 1:
            raise ValueError(f"{text!r} is not a step")
        if verb == "catastrophe":
            self.catastrophe(words[1], words[2].lower())
        elif verb == "sacrifice":
            self.sacrifice_ship(seat, piece(words[1]), words[2])
        else:
            self.action(seat, verb, words[1:])
        self.steps += 1
        self.check_suicide(seat)
        if self.stage == "acted" and not self.overpopulated():
            self.end_turn()  # REC-H14: nothing is left to do
        return None

    def setup(self, seat: int, verb: str, args: list[str]) -> None:
        """REC-H4: two stars and a large ship (setup=free: one or two stars, a ship of any size)."""
        if self.stage != "setup" or verb != "homeworld" or len(args) not in (2, 3):
            raise ValueError("a homeworld is made on your first turn, and only then")
        pieces = [piece(arg) for arg in args]
        stars, ship = pieces[:-1], pieces[-1]
        if self.options["setup"] == "standard" and (len(stars) != 2 or ship[1] != "3"):
            raise ValueError("setup=standard: two stars and a large ship")
        if any(pieces.count(p) > self.bank(p) for p in pieces):
            raise ValueError("the bank lacks a piece of that homeworld")
        ships: list[list[str]] = [[], []]
        ships[seat].append(ship)
        name = "North" if self.players[seat] == self.first else "South"
        self.systems.append(System(name, seat, stars, ships))
        self.end_turn()

    def action(self, seat: int, verb: str, args: list[str]) -> None:
        colour = ACTION_COLOUR[verb]
        if self.stage == "acted":
            raise ValueError("the turn's action is taken: only a catastrophe or `done` may follow")
        if self.sacrifice is not None and self.sacrifice[0] != colour:
            raise ValueError(f"the sacrifice gives {self.sacrifice[0]} actions, not {colour}")
        if verb == "trade":  # `trade PIECE NEW SYSTEM`: the others name the system (or origin) second
            args = [args[0], args[2], args[1]]
        ship, system = piece(args[0]), self.find(args[1])
        if self.sacrifice is None and not any(p[0] == colour for p in system.stars + system.ships[seat]):
            raise ValueError(f"no {colour} star or ship of yours at {system.name}")
        getattr(self, verb)(seat, ship, system, args[2:])
        if self.sacrifice is None or self.sacrifice[1] == 1:
            self.stage, self.sacrifice = "acted", None
        else:
            self.sacrifice = (colour, self.sacrifice[1] - 1)

    def build(self, seat: int, ship: str, system: System, rest: list[str]) -> None:
        """REC-H6: the smallest of its colour in the bank, beside your own ship of that colour."""
        if not any(p[0] == ship[0] for p in system.ships[seat]):
            raise ValueError(f"no ship of yours of {ship}'s colour at {system.name}")
        smallest = next((ship[0] + size for size in "123" if self.bank(ship[0] + size)), None)
        if smallest != ship:
            raise ValueError(f"the smallest of that colour in the bank is {smallest}, not {ship}")
        system.ships[seat].append(ship)

    def trade(self, seat: int, ship: str, system: System, rest: list[str]) -> None:
        new = piece(rest[0])
        if new[1] != ship[1] or new[0] == ship[0] or not self.bank(new):
            raise ValueError(f"{ship} cannot become {new} (same size, another colour, from the bank)")
        self.take_ship(system, seat, ship)
        system.ships[seat].append(new)

    def move(self, seat: int, ship: str, system: System, rest: list[str]) -> None:
        destination = self.find(rest[0])
        if destination is system or not system.connected(destination):
            raise ValueError(f"{system.name} and {destination.name} are not connected")
        self.take_ship(system, seat, ship)
        destination.ships[seat].append(ship)
        self.forget(system)

    def discover(self, seat: int, ship: str, system: System, rest: list[str]) -> None:
        star, name = piece(rest[0]), rest[1]
        if star[1] in system.sizes() or not self.bank(star):
            raise ValueError(f"{star} is not a bank piece of a size {system.name}'s stars lack")
        if not NAME.fullmatch(name) or name.lower() in ("north", "south"):
            raise ValueError(f"{name} is not a name a new system may take")
        if any(s.name.lower() == name.lower() for s in self.systems):
            raise ValueError(f"a system called {name} is in play")
        self.take_ship(system, seat, ship)
        ships: list[list[str]] = [[], []]
        ships[seat].append(ship)
        self.forget(system)
        self.systems.append(System(name, None, [star], ships))

    def attack(self, seat: int, ship: str, system: System, rest: list[str]) -> None:
        if ship not in system.ships[1 - seat]:
            raise ValueError(f"the opponent has no {ship} at {system.name}")
        if ship[1] > max((p[1] for p in system.ships[seat]), default="0"):
            raise ValueError(f"{ship} is larger than your largest ship at {system.name}")
        system.ships[1 - seat].remove(ship)
        system.ships[seat].append(ship)

    def sacrifice_ship(self, seat: int, ship: str, name: str) -> None:
        """REC-H7: instead of the action; the ship's size in actions of its colour follow."""
        if self.stage != "start":
            raise ValueError("a sacrifice is instead of the turn's action")
        system = self.find(name)
        self.take_ship(system, seat, ship)
        self.forget(system)
        self.stage, self.sacrifice = "sacrifice", (ship[0], int(ship[1]))

    def catastrophe(self, name: str, colour: str) -> None:
        """REC-H9/H10: 4 or more pieces of a colour go back; a system left without stars goes whole."""
        colour = WORDS.get(colour, colour)
        system = self.find(name)
        if colour not in WORDS.values() or system.count(colour) < 4:
            raise ValueError(f"{system.name} is not overpopulated in {colour}")
        system.stars = [p for p in system.stars if p[0] != colour]
        system.ships = [[p for p in ships if p[0] != colour] for ships in system.ships]
        if not system.stars:
            self.systems.remove(system)
        self.forget(system)
        if self.stage == "sacrifice" and self.options["catastrophes"] == "end":
            self.stage, self.sacrifice = "acted", None

    def overpopulated(self) -> bool:
        return any(s.count(colour) >= 4 for s in self.systems for colour in "rygb")

    def check_suicide(self, seat: int) -> None:
        """REC-H12 illegal: never without a ship at home, but in a yellow sacrifice with actions left
        while a ship of yours is in a system connected to your homeworld."""
        if self.options["suicide"] != "illegal" or self.home_ship(seat):
            return
        home = next((s for s in self.systems if s.home == seat), None)
        moving = home is not None and self.sacrifice is not None and self.sacrifice[0] == "y"
        if moving and any(s is not home and s.ships[seat] and s.connected(home) for s in self.systems if home):
            return
        raise ValueError("suicide=illegal: that leaves you without a ship at your homeworld")

    def end_turn(self) -> None:
        """REC-H11: from turn 2 on, a player with no own ship at their homeworld loses; both: a draw."""
        losers = [seat for seat in (0, 1) if not self.home_ship(seat)] if self.turn >= 2 else []
        if len(losers) == 2:
            return self.finish(None, "both homeworlds")
        if losers:
            return self.finish(self.players[1 - losers[0]], "homeworld")
        self.log(f"  turn {self.turn} ends")
        self.mover = 1 - (self.mover or 0)
        self.stage = "setup" if self.turn < 2 else "start"
        self.turn, self.steps, self.sacrifice = self.turn + 1, 0, None
        return None

    def finish(self, winner: str | None, reason: str) -> None:
        self.winner, self.reason, self.mover = winner, reason, None
        self.log(f"  the game ends: {winner or 'no winner'} ({reason})")


def piece(text: str) -> str:
    if not PIECE.fullmatch(text.lower()):
        raise ValueError(f"{text!r} is not a piece")
    return text.lower()


# ----------------------------------------------------------------------------- the record


def read(record: Any) -> tuple[list[str], str, dict[str, str], list[tuple[str, str]], Any]:
    if not isinstance(record, dict) or record.get("format") != FORMAT or record.get("game") != "homeworlds":
        raise ValueError(f"not a {FORMAT} record")
    if record.get("rules", "homeworlds/1") != "homeworlds/1":
        raise ValueError(f"these are rules {record.get('rules')!r}, not homeworlds/1")
    players, seed, moves = record.get("players"), record.get("seed"), record.get("moves")
    if not isinstance(players, list) or len(players) != 2 or len(set(players)) != 2:
        raise ValueError(f"players must be 2 distinct seats, not {players!r}")
    if not all(isinstance(p, str) for p in players) or not isinstance(seed, str) or not isinstance(moves, list):
        raise ValueError("players, seed and moves must be text, text and a list")
    given = record.get("options", {})
    if not isinstance(given, dict) or any(OPTIONS.get(key, ()).count(value) != 1 for key, value in given.items()):
        raise ValueError(f"options must be among {OPTIONS}, not {given!r}")
    options = {key: given.get(key, values[0]) for key, values in OPTIONS.items()}
    steps = []
    for index, entry in enumerate(moves):
        if not isinstance(entry, dict) or entry.get("by") not in players or not isinstance(entry.get("move"), str):
            raise ValueError(f"move {index} must be an object like {{'by': 'red', 'move': 'build g1 North'}}")
        steps.append((entry["by"], " ".join(entry["move"].split())))
    return players, seed, options, steps, record.get("result")


def verify(record: Any, commitment: str | None = None, log: Any = lambda line: None) -> str:
    players, seed, options, steps, result = read(record)
    digest = hashlib.sha256(seed.encode()).hexdigest()
    if commitment is not None and digest != commitment.strip().lower():
        raise Rejected(f"SHA-256 of the seed is {digest}, not the commitment {commitment}")
    game = Game(players, seed, options, log)
    log(f"options: {options}")
    for index, (by, text) in enumerate(steps):
        log(f"{index}. {by}: {text}")
        try:
            game.play(by, text)
        except ValueError as error:
            raise Rejected(f"move {index} ({by}: {text}): {error}") from None
    check_result(game, result, len(steps))
    moves = f"all {len(steps)} moves"
    return f"verified: who starts ({game.first}), the options, {moves}, every one legal, reproduce the result"


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
    actual = "the game is not over" if game.reason is None else f"{game.winner or 'no one'} won by {game.reason}"
    raise Rejected(f"the record says {winner} won by {reason}, but after {plies} moves {actual}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Re-verify a finished Homeworlds game record.")
    parser.add_argument("record", help="the game record JSON file (- for standard input)")
    parser.add_argument("--commitment", help="the seed's SHA-256 that the server showed when the game started")
    parser.add_argument("--verbose", "-v", action="store_true", help="print who starts and every step")
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
