"""The `icedice-position/1` file (icedice.md, Position file): the whole truth of one moment.

`to_position` writes every field in a fixed order, pieces in colour then size order, so the same
State always gives the same file. `from_position` raises PositionError naming the first fault.
"""

from __future__ import annotations

from collections import Counter as Tally
from typing import Any

from ..errors import PositionError
from ..interface import COLOURS
from ..kit.files import a_list, check_header, read_players, seated, text
from .rules import offered
from .state import (
    COLOUR_FACES,
    GAME_ID,
    KINDS,
    PLAYER_COUNTS,
    REASONS,
    SIZE_FACES,
    TRIOS_TO_WIN,
    Piece,
    State,
    Throw,
    piece_text,
    sort_pieces,
    trios,
)

FORMAT = "icedice-position/1"
PHASES = ("take", "decide", "over")


def to_position(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": list(state.players),
        "first_player": state.first_player,
        "to_move": state.to_move,
        "phase": state.phase,
        "throw": None if state.throw is None else {"size": state.throw.size, "colour": state.throw.colour},
        "counter": [piece_text(p) for p in state.counter],
        "vaults": {seat: [piece_text(p) for p in state.vault(seat)] for seat in state.players},
        "dice": state.dice,
        "resigned": list(state.resigned),
        "winner": state.winner,
        "reason": state.reason,
        "seed": state.seed,
    }


def from_position(data: Any) -> State:
    check_header(data, GAME_ID, FORMAT)
    players = read_players(data.get("players"), "IceDice", PLAYER_COUNTS)
    resigned = tuple(seated(seat, "resigned", players) for seat in a_list(data.get("resigned", []), "resigned"))
    state = State(
        players=players,
        first_player=seated(data.get("first_player"), "first_player", players),
        to_move=_optional_seat(data.get("to_move"), "to_move", players),
        phase=_phase(data.get("phase")),
        throw=_throw(data.get("throw")),
        counter=_pieces(data.get("counter", []), "counter"),
        vaults=_vaults(data.get("vaults", {}), players),
        dice=_dice(data.get("dice", 0)),
        seed=text(data.get("seed", ""), "seed"),
        resigned=resigned,
        winner=_optional_seat(data.get("winner"), "winner", players),
        reason=_reason(data.get("reason")),
    )
    _check(state)
    return state


def _optional_seat(value: Any, what: str, players: tuple[str, ...]) -> str | None:
    return None if value is None else seated(value, what, players)


def _phase(value: Any) -> str:
    if value not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {value!r}")
    return str(value)


def _reason(value: Any) -> str | None:
    if value is not None and value not in REASONS:
        raise PositionError(f"reason must be one of {', '.join(REASONS)} or null, not {value!r}")
    return None if value is None else str(value)


def _dice(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value % 2:
        raise PositionError(f"dice must be an even count of dice thrown (0, 2, 4, ...), not {value!r}")
    return value


def _throw(value: Any) -> Throw | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("size") not in SIZE_FACES or value.get("colour") not in COLOUR_FACES:
        faces = f"size one of {', '.join(SIZE_FACES)} and colour one of {', '.join(COLOUR_FACES)}"
        raise PositionError(f"throw must be null or {{size, colour}} with {faces}, not {value!r}")
    return Throw(value["size"], value["colour"])


def _piece(value: Any, what: str) -> Piece:
    colour, _, size = value.partition(":") if isinstance(value, str) else ("", "", "")
    if (colour, size) not in KINDS:
        raise PositionError(f"{what}: {value!r} is not a piece (write colour:size, like green:M)")
    return (colour, size)


def _pieces(value: Any, what: str) -> tuple[Piece, ...]:
    return sort_pieces(_piece(item, what) for item in a_list(value, what))


def _vaults(value: Any, players: tuple[str, ...]) -> tuple[tuple[Piece, ...], ...]:
    if not isinstance(value, dict):
        raise PositionError(f"vaults must be an object of seat to pieces, not {value!r}")
    for seat in value:
        seated(seat, "vaults", players)
    return tuple(_pieces(value.get(seat, []), f"{seat}'s vault") for seat in players)


def _check(state: State) -> None:
    """What no game reaches: too many pieces, a Counter that should have busted or been banked, and so on."""
    held = Tally(state.counter) + Tally(p for vault in state.vaults for p in vault)
    for kind, count in held.items():
        if count > len(state.players):
            players = len(state.players)
            raise PositionError(f"{count} pieces of {piece_text(kind)}: with {players} players there are {players}")
    colours = [colour for colour, _ in state.counter]
    if len(set(colours)) != len(colours):
        raise PositionError("the Counter holds two pieces of one colour (that throw busts)")
    if len(colours) == len(COLOURS):
        raise PositionError("the Counter holds all five colours (the rainbow bonus moves them into the Vault)")
    _check_turn(state)


def _check_turn(state: State) -> None:
    over = state.phase == "over"
    if over != (state.reason is not None):
        raise PositionError("phase over goes with a reason, and a reason only with phase over")
    if over:
        if state.to_move is not None:
            raise PositionError("to_move must be null once the game is over")
        return
    if state.to_move is None or state.to_move in state.resigned:
        raise PositionError(f"to_move must name a player still in the game while it is on, not {state.to_move!r}")
    if state.winner is not None:
        raise PositionError("a game still on has no winner")
    for seat in state.players:
        if trios(state.vault(seat)) >= TRIOS_TO_WIN:
            raise PositionError(f"{seat}'s Vault holds three Trios, but the game is still on")
    if state.phase == "take" and state.throw is not None and state.throw.colour in state.counter_colours():
        raise PositionError(
            f"phase take with a throw of {state.throw.colour}, already on the Counter (that throw busts)"
        )
    if state.phase == "take" and len(offered(state)) < 2:
        raise PositionError(f"phase take needs a throw that offers two takes or more (offered: {len(offered(state))})")
