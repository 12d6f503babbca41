"""What one player (or a spectator) may see of a game: the one place hidden information is stripped.

Web pages, emails and exports build on `view`, never on the State itself (STYLE.md, boardgame.io's
playerView). A view never holds another player's hand, the deck order, the seed or another
player's unrevealed starter, until the game is over: then everything is shown.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from ..interface import View
from ..kit.base import Resign
from ..shuffle import commitment
from .notation import SIZES, Build, Choose, Convert, Demolish, Discard, Fly, Hatch, Move
from .position import board_list, pieces_text, revealed_list
from .rules import movers
from .ruleset import ZARK_CITY
from .state import State

FORMAT = ZARK_CITY.view_format  # each game of the family names its own (state.ruleset.view_format)
GAME_ID = ZARK_CITY.game


class BoardEntry(TypedDict):
    at: list[int]
    card: str
    pieces: dict[str, str]


class ZarkCityView(View):
    """What one seat may see of a Zark City (or Deck Town) game; keys after `View`'s are this game's."""

    deck_type: str
    board: list[BoardEntry]
    hand: NotRequired[list[str]]  # the viewer's own hand; absent for spectators
    hand_limit: int
    hand_sizes: dict[str, int]
    deck_size: int
    discard: list[str]
    stashes: dict[str, dict[str, int]]
    starters: dict[str, Any]  # {"chosen": [...], then "revealed": [[colour, card]...] or "mine": card}
    first_player: str | None
    revealed: list[dict[str, Any]]
    # Published once the game is over (the whole truth, to re-verify the deal):
    hands: NotRequired[dict[str, list[str]]]
    deck: NotRequired[list[str]]
    seed: NotRequired[str]
    shuffles: NotRequired[int]
    tied: NotRequired[list[str]]  # the players of a shared win (Deck Town), once over


def view(state: State, viewer: str | None) -> ZarkCityView:
    """The JSON-able view of `state` for `viewer` (a seated colour) or a spectator (None)."""
    seated = viewer if viewer in state.players else None
    data: dict[str, Any] = {
        "format": state.ruleset.view_format,
        "game": state.ruleset.game,
        "viewer": viewer,
        "deck_type": state.deck_type,
        "players": list(state.players),
        "phase": state.phase,
        "to_move": state.to_move,
        "movers": list(movers(state)),
        "turn": state.turn,
        "board": board_list(state),
    }
    if seated is not None:
        data["hand"] = list(state.hands.get(seated, ()))
    data |= {
        "hand_limit": state.ruleset.hand_limit,
        "hand_sizes": {colour: len(state.hands.get(colour, ())) for colour in state.players},
        "deck_size": len(state.deck),
        "discard": list(state.discard),
        "stashes": {colour: _stash(state, colour) for colour in state.players},
        "starters": _starters(state, seated),
        "first_player": state.first_player,
        "resigned": list(state.resigned),
        "revealed": revealed_list(state),
        "seed_commitment": commitment(state.seed),
        "winner": state.winner,
        "reason": state.reason,
    }
    if state.tied:
        data["tied"] = list(state.tied)
    return cast(ZarkCityView, data | _full(state) if state.phase == "over" else data)


def _stash(state: State, colour: str) -> dict[str, int]:
    stash = state.stash(colour)
    return {size: stash[size] for size in SIZES}


def _starters(state: State, viewer: str | None) -> dict[str, Any]:
    """Who has chosen (public); the viewer's own card; every card once all have chosen (or at the end)."""
    shown: dict[str, Any] = {"chosen": [colour for colour, _ in state.starters]}
    if state.starters_revealed():
        shown["revealed"] = [[colour, card] for colour, card in state.starters]
    else:
        mine = [card for colour, card in state.starters if colour == viewer]
        shown["mine"] = mine[0] if mine else None
    return shown


def _full(state: State) -> dict[str, Any]:
    """The secrets, published once the game is over so anyone can re-verify the deal and every draw."""
    return {
        "hands": {colour: list(state.hands.get(colour, ())) for colour in state.players},
        "deck": list(state.deck),
        "seed": state.seed,
        "shuffles": state.shuffles,
    }


def public_move_text(move: Move | Resign, by: str, starters_revealed: bool, viewer: str | None) -> str:
    """The notation of a history entry as `viewer` may see it: another's starter stays "choose ?"."""
    if isinstance(move, Choose) and viewer != by and not starters_revealed:
        return "choose ?"
    return str(move)


def spent_cards(move: Move) -> tuple[str, ...]:
    """The cards a move takes out of the mover's hand (to the board, the discard pile or face down)."""
    if isinstance(move, (Choose, Build, Hatch)):
        return (move.card,)
    if isinstance(move, (Demolish, Convert)):
        return move.pay
    if isinstance(move, Fly):
        return (move.ace,)
    if isinstance(move, Discard):
        return move.cards
    return ()


INITIALS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}


def board_text(state: State) -> str:
    """The public board as a plain-text grid for emails and logs: "7H rS bSM" is 7H with red's small and
    blue's small and medium; "." an empty cell. Rows are y (south is down), columns x."""
    if not state.board:
        return "(no cards on the board)\n"
    xs, ys = [x for x, _ in state.board], [y for _, y in state.board]
    columns, rows = range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)
    cells = {cell: _cell_text(state, cell) for cell in state.board}
    width = max(len(text) for text in cells.values()) + 2
    label = max(len(str(y)) for y in rows) + 1
    lines = [(" " * label + " " + "".join(str(x).ljust(width) for x in columns)).rstrip()]
    for y in rows:
        line = str(y).rjust(label) + " " + "".join(cells.get((x, y), ".").ljust(width) for x in columns)
        lines.append(line.rstrip())
    legend = " ".join(f"{INITIALS.get(c, c)}={c}" for c in state.players)
    return "\n".join([*lines, f"pieces: {legend}; sizes S M L"]) + "\n"


def _cell_text(state: State, cell: tuple[int, int]) -> str:
    square = state.board[cell]
    pieces = pieces_text(square, state.players)
    return " ".join([square.card, *(f"{INITIALS.get(c, c)}{sizes}" for c, sizes in pieces.items())])
