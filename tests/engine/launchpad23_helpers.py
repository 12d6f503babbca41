"""Positions for Launch Pad 23's tests, written as the spec's position file."""

from __future__ import annotations

from typing import Any

from engine.launchpad23.game import GAME
from engine.launchpad23.notation import Add, Move, Shift, Start, Word
from engine.launchpad23.rules import die
from engine.launchpad23.state import COLOUR_FACES, PYRAMID_FACES, SIZES, Piece, State

TWO = ("red", "blue")
THREE = ("red", "yellow", "green")
THROWS = {0: ("S", "red"), 1: ("S", "red"), 2: ("S", "red"), 3: ("S/M", "red"), 4: ("S/L", "atom")}  # by moves_left


def position(
    board: dict[str, list[str]],
    *,
    players: tuple[str, ...] = TWO,
    to_move: str = "red",
    throw: tuple[str, str] | None = None,
    phase: str = "move",
    moves_left: int = 2,
    rerolled: bool = False,
    seed: str = "demo",
    dice: int = 2,
    resigned: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "format": "launchpad23-position/1",
        "game": "launchpad23",
        "players": list(players),
        "phase": phase,
        "starts": {seat: "M" for seat in players},
        "first_player": players[0],
        "to_move": to_move,
        "throw": dict(zip(("size", "colour"), throw or THROWS[moves_left], strict=True)),
        "rerolled": rerolled,
        "moves_left": moves_left,
        "board": board,
        "dice": dice,
        "resigned": list(resigned),
        "winner": None,
        "reason": None,
        "seed": seed,
    }


def state(board: dict[str, list[str]], **given: Any) -> State:
    return GAME.from_position(position(board, **given))


def seed_throwing(number: int, size: str, colour: str) -> str:
    """A seed whose die `number` shows `size` and die `number + 1` shows `colour`."""
    for k in range(100000):
        seed = f"seed{k}"
        if die(seed, number, PYRAMID_FACES) == size and die(seed, number + 1, COLOUR_FACES) == colour:
            return seed
    raise AssertionError("no such seed")


def texts(moves: list[Any]) -> list[str]:
    return [str(move) for move in moves]


# --- a scripted player -------------------------------------------------------------------------
def target(state: State, seat: str) -> str:
    return SIZES[state.players.index(seat) % 3]


def distance(one: str, two: str) -> int:
    return abs(ord(one[0]) - ord(two[0])) + abs(int(one[1]) - int(two[1]))


def wanted(state: State, seat: str, piece: Piece) -> bool:
    """A piece of the seat's size whose colour its pad lacks."""
    pad = state.cell(state.pad(seat))
    return piece.size == target(state, seat) and piece not in pad and all(p.colour != piece.colour for p in pad)


def builder_step(state: State, seat: str, ply: int) -> Move:
    """A fixed policy that builds a rocket of one size (by the seat): in setup that size; a part of that
    size and a colour its pad lacks (else a reroll, else a choice by the ply); then a move that takes a
    piece that does not belong off its pad or brings a wanted one a step nearer, else `pass`."""
    moves = GAME.legal_moves_of(state, seat)
    if state.phase == "start":
        return Start(target(state, seat))
    if state.phase == "add":
        adds = [m for m in moves if isinstance(m, Add)]
        useful = [m for m in adds if wanted(state, seat, Piece(m.colour, m.size))]
        if useful:
            return useful[ply % len(useful)]
        return Word("reroll") if Word("reroll") in moves else moves[ply % len(moves)]
    return _best_move(state, seat, moves)


def _best_move(state: State, seat: str, moves: list[Move]) -> Move:
    pad = state.pad(seat)
    for move in moves:
        if isinstance(move, Shift) and move.origin == pad and not _belongs(state, seat, move):
            return move  # a piece that spoils the rocket leaves
    for move in moves:
        if not isinstance(move, Shift) or move.origin == pad:
            continue
        nearer = distance(move.target, pad) < distance(move.origin, pad)
        if nearer and wanted(state, seat, Piece(move.colour, move.size)):
            return move
    return Word("pass")


def _belongs(state: State, seat: str, move: Shift) -> bool:
    pad = state.cell(state.pad(seat))
    same = [p for p in pad if p == Piece(move.colour, move.size)]
    return move.size == target(state, seat) and len(same) == 1
