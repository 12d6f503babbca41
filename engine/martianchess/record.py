"""The `martianchess-game/1` record, and replay: a fold of `apply` over its moves from the setup.

The seed is in the record once the game is over, so anyone can check who started and every move
with `python -m engine replay GAME.json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import PositionError, ReplayError
from ..records import check_scores, play_moves, read_moves, read_scores
from .notation import Move, parse
from .position import check_header, read_players, seated
from .rules import abandon, agree_draw, apply, new_game
from .state import GAME_ID, REASONS, RULES_VERSION, State

FORMAT = "martianchess-game/1"
WINNERLESS = ("draw", "timeout")  # results a game not otherwise over may end with (no extra move)


def make_record(
    players: Sequence[str], seed: str, moves: Sequence[tuple[str, str]], result: Mapping[str, Any] | None
) -> dict[str, Any]:
    """A game record: `moves` are (colour, move text) in the order they were played."""
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "rules": RULES_VERSION,
        "players": list(players),
        "seed": seed,
        "moves": [{"by": by, "move": text} for by, text in moves],
        "result": None if result is None else dict(result),
    }


def result_of(state: State) -> dict[str, Any] | None:
    """The record's `result` for a finished game (with the scores), None while it is on."""
    if state.phase != "over":
        return None
    return {"winner": state.winner, "reason": state.reason, "scores": state.scores()}


def replay(record: Any) -> State:
    """The final State of a record; ReplayError(index) at the first illegal move or a wrong result."""
    check_header(record, FORMAT, "a game record")
    if record.get("rules", RULES_VERSION) != RULES_VERSION:
        raise PositionError(f"rules must be {RULES_VERSION!r}, not {record.get('rules')!r}")
    players = read_players(record.get("players"))
    seed = record.get("seed")
    if not isinstance(seed, str):
        raise PositionError(f"seed must be text, not {seed!r}")
    moves = _moves(record.get("moves"), players)
    result = _result(record.get("result"), players)
    state = play_moves(new_game(players, seed), moves, apply)
    return state if result is None else check_result(state, result, len(moves))


def _moves(value: Any, players: tuple[str, ...]) -> list[tuple[str, Move]]:
    return read_moves(value, players, parse, seated, "c2-d3")


def _result(value: Any, players: tuple[str, ...]) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("reason") not in REASONS:
        raise PositionError(f"result must be {{winner, reason}} with a reason in {', '.join(REASONS)}, not {value!r}")
    winner, reason = value.get("winner"), value["reason"]
    if (winner is None and reason not in WINNERLESS) or (winner is not None and reason == "draw"):
        raise PositionError(f"result: a {reason} result {'has no' if winner is None else 'has a'} winner")
    return {
        "winner": None if winner is None else seated(winner, "result winner", players),
        "reason": reason,
        "scores": read_scores(value.get("scores"), players),
    }


def check_result(state: State, result: Mapping[str, Any], plies: int) -> State:
    """The final State if the game really ended as `result` says, scores included (rules.md B15), else
    ReplayError(None).

    As for every game, a timeout is recorded as the loser's `resign`; an agreed draw, or a timeout
    with no winner, matches a game still on, which the result then ends.
    """
    ended = _ended_as_stated(state, result, plies)
    # The captures are the scores however the game ended (result_of always writes them).
    check_scores(result.get("scores"), ended.scores(), plies)
    return ended


def _ended_as_stated(state: State, result: Mapping[str, Any], plies: int) -> State:
    winner, reason = result.get("winner"), result.get("reason")
    if winner is None and reason in WINNERLESS and state.phase != "over":
        return agree_draw(state) if reason == "draw" else abandon(state, str(reason))
    expected = "resignation" if reason == "timeout" else reason
    if state.phase == "over" and (state.winner, state.reason) == (winner, expected):
        return state.evolve(reason=reason)
    said = f"{winner} won by {reason}" if winner else ("a draw" if reason == "draw" else f"no winner ({reason})")
    raise ReplayError(None, f"the record says {said}, but after {plies} moves {_outcome(state)}")


def _outcome(state: State) -> str:
    if state.phase != "over":
        return "the game is not over"
    if state.winner is None:
        return "the game ended in a draw" if state.reason == "draw" else f"it ended with no winner ({state.reason})"
    return f"{state.winner} won by {state.reason}"
