"""`python -m engine new|apply|moves|view|replay`: the engine on the command line (docs/notation.md).

Exit codes: 0 done; 1 an illegal move (or a record whose move or result is wrong); 2 malformed
input (bad JSON, bad position, unreadable move, unseated colour, missing --as). Errors are one
line on standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from ..errors import EngineError, IllegalMoveError, PositionError, ReplayError
from .movegen import legal_moves
from .notation import Choose, Move, Resign, parse, parse_colour
from .position import dumps, loads, parse_json, pretty
from .record import replay
from .rules import apply, new_game
from .state import State
from .views import view


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit code 2) like every other error."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="The Zark City rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="deal a new game and print its starting position")
    new.add_argument("--players", required=True, help="seat colours in turn order, e.g. red,blue")
    new.add_argument("--seed", required=True, help="the game's secret seed (drives every shuffle)")
    new.add_argument("--deck", default="standard", help="standard (default) or arcade")
    play = commands.add_parser("apply", help="apply one move and print the resulting position")
    play.add_argument("position", help="position file, or - for standard input")
    play.add_argument("move", help="one move in the notation, e.g. 'build 7H 1,0'")
    play.add_argument("--as", dest="colour", help="who makes the move (default: the player to move)")
    moves = commands.add_parser("moves", help="list every legal move of a player, one per line")
    moves.add_argument("position", help="position file, or - for standard input")
    moves.add_argument("--as", dest="colour", help="whose moves (default: the player to move)")
    show = commands.add_parser("view", help="print what one player may see")
    show.add_argument("position", help="position file, or - for standard input")
    show.add_argument("--as", dest="colour", help="whose view (default: a spectator's)")
    again = commands.add_parser("replay", help="replay a game record and print the final position")
    again.add_argument("record", help="game record file, or - for standard input")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run one command; return the exit code."""
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    try:
        out.write(_run(args))
    except (IllegalMoveError, ReplayError) as error:
        return _fail(error, 1)
    except (EngineError, OSError) as error:
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


def _run(args: argparse.Namespace) -> str:
    if args.command == "new":
        players = [p.strip().lower() for p in args.players.split(",") if p.strip()]
        return dumps(new_game(players, args.seed, args.deck.lower()))
    if args.command == "replay":
        return dumps(replay(_read_json(args.record)))
    state = loads(_read(args.position))
    if args.command == "view":
        viewer = None if args.colour is None else _seated(state, args.colour)
        return pretty(view(state, viewer)) + "\n"
    if args.command == "moves":
        return "".join(f"{m}\n" for m in legal_moves(state, _actor(state, args.colour, None)))
    move = parse(args.move)
    return dumps(apply(state, move, _actor(state, args.colour, move)))


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


def _read_json(path: str) -> Any:
    return parse_json(_read(path))


def _seated(state: State, text: str) -> str:
    colour = parse_colour(text)
    if colour not in state.players:
        raise PositionError(f"--as {colour}: not seated in this game (players: {', '.join(state.players)})")
    return colour


def _actor(state: State, given: str | None, move: Move | None) -> str:
    """Who moves: --as if given; otherwise the player to move (choose and resign always need --as)."""
    if given is not None:
        return _seated(state, given)
    if isinstance(move, (Choose, Resign)):
        raise PositionError(f"'{move}' needs --as COLOUR: any player may send it")
    if state.to_move is None:
        raise PositionError(f"nobody is to move now (phase {state.phase}): say who with --as COLOUR")
    return state.to_move
