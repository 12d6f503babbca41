"""`python -m engine new|apply|moves|view|replay|games`: every game on the command line (docs/notation.md).

The command line knows games only through the registry and the interface (games.md): `new` deals
the game `--game` names (Zark City by default), the other commands read the game from the file.
Exit codes: 0 done; 1 an illegal move (or a record whose move or result is wrong); 2 malformed
input (bad JSON, bad position, unreadable move, unknown game or option, unseated colour, missing
--as). Errors are one line on standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from . import registry
from .errors import IllegalMoveError, PositionError, ReplayError
from .interface import COLOURS, Game
from .kit.steps import play_line, read_line
from .zarkcity.position import game_of, parse_json, pretty


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit code 2) like every other error."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="zarkcity's rules engines.")
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser(
        "new", help="deal a new game and print its starting position; game options follow, e.g. --deck arcade"
    )
    new.add_argument("--game", default=registry.DEFAULT, help=f"the game's id (default {registry.DEFAULT})")
    new.add_argument("--players", required=True, help="seat colours in turn order, e.g. red,blue")
    new.add_argument("--seed", required=True, help="the game's secret seed (drives every shuffle)")
    play = commands.add_parser("apply", help="apply one move, or a line of steps, and print the resulting position")
    play.add_argument("position", help="position file, or - for standard input")
    play.add_argument("move", help="one move in the notation, e.g. 'build 7H 1,0', or steps: 'draw; discard 3C'")
    play.add_argument("--as", dest="colour", help="who makes the move (default: the player to move)")
    moves = commands.add_parser("moves", help="list every legal move of a player, one per line")
    moves.add_argument("position", help="position file, or - for standard input")
    moves.add_argument("--as", dest="colour", help="whose moves (default: the player to move)")
    show = commands.add_parser("view", help="print what one player may see")
    show.add_argument("position", help="position file, or - for standard input")
    show.add_argument("--as", dest="colour", help="whose view (default: a spectator's)")
    again = commands.add_parser("replay", help="replay a game record and print the final position")
    again.add_argument("record", help="game record file, or - for standard input")
    commands.add_parser("games", help="list the games: ids, player counts and options")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run one command; return the exit code."""
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    out = out or sys.stdout
    try:
        options = _options(rest) if args.command == "new" else {}
        if rest and args.command != "new":
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        out.write(_run(args, options))
    except (IllegalMoveError, ReplayError) as error:
        return _fail(error, 1)
    except (ValueError, OSError) as error:  # EngineError, an unknown game or a bad option
        return _fail(error, 2)
    return 0


def _fail(error: Exception, code: int) -> int:
    text = (
        f"cannot read {error.filename}: {error.strerror}"
        if isinstance(error, OSError) and error.filename
        else str(error)
    )
    sys.stderr.write(" ".join(text.split()) + "\n")
    return code


def _options(words: list[str]) -> dict[str, str]:
    """Game options after `new`: `--deck arcade` or `--deck=arcade` (values in any case)."""
    options: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--") or len(word) < 3:
            raise PositionError(f"unexpected argument {word!r} (game options look like --deck arcade)")
        name, _, value = word[2:].partition("=")
        if not value:
            if i + 1 >= len(words):
                raise PositionError(f"--{name} needs a value")
            i += 1
            value = words[i]
        options[name] = value.lower()
        i += 1
    return options


def _run(args: argparse.Namespace, options: dict[str, str]) -> str:
    if args.command == "games":
        return "".join(f"{line}\n" for line in games_list())
    if args.command == "new":
        game = registry.get(args.game.lower())
        players = [p.strip().lower() for p in args.players.split(",") if p.strip()]
        return _position(game, game.new_game(players, args.seed, options))
    if args.command == "replay":
        data = parse_json(_read(args.record))
        game = registry.get(game_of(data))
        return _position(game, game.replay(data))
    data = parse_json(_read(args.position))
    game = registry.get(game_of(data))
    state = game.from_position(data)
    if args.command == "view":
        viewer = None if args.colour is None else _seated(game, state, args.colour)
        return pretty(game.view(state, viewer)) + "\n"
    if args.command == "moves":
        return "".join(f"{m}\n" for m in game.legal_moves(state, _actor(game, state, args.colour, None)))
    first = read_line(game, args.move)[0][1][0]  # the first step says who moves, as a lone move would
    return _position(game, play_line(game, state, args.move, _actor(game, state, args.colour, first))[-1].state)


def games_list() -> list[str]:
    """One line a game: "decktown  Deck Town  2-5 players  no options"."""
    lines = []
    for info in registry.infos():
        options = "; ".join(
            f"--{o.name} {'|'.join(c.value for c in o.choices)} (default {o.default})" for o in info.options
        )
        lines.append(f"{info.id}  {info.name}  {player_counts(info.player_counts)} players  {options or 'no options'}")
    return lines


def player_counts(counts: Sequence[int]) -> str:
    """ "2-5" for a run of table sizes, "2 or 4" (or "2, 3 or 5") when the game skips some."""
    if len(counts) > 1 and tuple(counts) == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _position(game: Game, state: Any) -> str:
    """The position file text: stable (same state, same bytes), indented, newline-terminated."""
    return pretty(game.to_position(state)) + "\n"


def _read(path: str) -> str:
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as file:
            raw = file.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        where = "standard input" if path == "-" else path
        raise PositionError(f"{where} is not UTF-8 text (byte {error.start} cannot be read)") from None


def _seated(game: Game, state: Any, text: str) -> str:
    colour = text.lower()
    if colour not in COLOURS:
        raise PositionError(f"{text!r} is not a player colour (red, yellow, green, blue or black)")
    players = game.view(state, None)["players"]
    if colour not in players:
        raise PositionError(f"--as {colour}: not seated in this game (players: {', '.join(players)})")
    return colour


def _actor(game: Game, state: Any, given: str | None, move: Any) -> str:
    """Who moves: --as if given; otherwise the one player who may move (a move any of several may send,
    like choosing a starter, and resigning always need --as)."""
    if given is not None:
        return _seated(game, state, given)
    movers = game.movers(state)
    several = len(movers) > 1 and move is not None and any(move in game.legal_moves(state, p) for p in movers)
    if several or (move is not None and game.is_resign(move)):
        raise PositionError(f"'{move}' needs --as COLOUR: any player may send it")
    if len(movers) != 1:
        raise PositionError(f"nobody is to move now (phase {game.phase(state)}): say who with --as COLOUR")
    return movers[0]
