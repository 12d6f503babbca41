"""Re-verify a finished Martian Chess game from its record, offline, standard library only.

    python3 verify_martianchess.py GAME.json [--commitment HEX] [--verbose]

(in the repository: engine/martianchess/verify.py; tools/verify_game.py runs it for these records)

Martian Chess records (martianchess-game/1, martian_chess.md) have no cards: the seed decides only
who starts, the first of the seats shuffled by shuffle number 0 (engine/martianchess/rules.py). The
tool checks that, then every move in full by its own compact re-implementation of the rules (zones,
the three move patterns without jumping, captures only into another zone, field promotions, no undo
with two, pass only when stuck, resignation), and the result and scores when a zone empties.
It imports nothing from engine/: it is a second, independent implementation (`python -m engine
replay GAME.json` is the other check).

Exit codes: 0 verified; 1 the record fails a check (the message says which move and why);
2 the file cannot be read as a martianchess-game/1 record.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

FORMATS = {"martianchess": "martianchess-game/1"}
DEFAULT = "martianchess"
NAMES = "Martian Chess"


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
    if record.get("rules", "martianchess/1") != "martianchess/1":
        raise ValueError(f"unknown Martian Chess rules {record.get('rules')!r}")
    chess = MartianChess(list(record["players"]), seed, log)
    starter = chess.to_move
    follow_moves(moves, chess.play, log)
    check_result(chess, record.get("result"))
    check_scores(chess, record.get("result"))
    return f"verified: who starts ({starter}) and all {len(moves)} moves, every one legal, reproduce the result"


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


def check_result(game: MartianChess, result) -> None:
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
