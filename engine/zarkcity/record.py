"""The "zarkcity-game/1" game record, and replay: a fold of `apply` over its moves from the deal.

Anyone holding a finished game's record (its seed is revealed at the end) can re-verify the deal,
every draw and the result with `python -m engine replay GAME.json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import PositionError, ReplayError
from ..records import play_moves, read_moves
from .notation import Move, parse
from .position import check_header, read_deck_type, read_players, seated
from .rules import abandon, agree_draw, apply, new_game
from .ruleset import ZARK_CITY, Ruleset
from .state import REASONS, State

FORMAT = ZARK_CITY.record_format  # Deck Town's is DECK_TOWN.record_format
WINNERLESS = ("draw", "timeout")  # the results a game not otherwise over may end with (no extra move)


def make_record(
    players: Sequence[str],
    deck_type: str,
    seed: str,
    moves: list[tuple[str, str]],
    result: dict[str, Any] | None,
    ruleset: Ruleset = ZARK_CITY,
) -> dict[str, Any]:
    """A game record: `moves` are (colour, move text) in the order they were played."""
    return {
        "format": ruleset.record_format,
        "game": ruleset.game,
        "rules": ruleset.version,
        "deck_type": deck_type,
        "players": list(players),
        "seed": seed,
        "moves": [{"by": by, "move": text} for by, text in moves],
        "result": result,
    }


def result_of(state: State) -> dict[str, Any] | None:
    """The record's `result` for a finished game, None while it is still on."""
    if state.phase != "over":
        return None
    if state.tied:
        return {"winner": None, "reason": state.reason, "tied": list(state.tied)}
    return {"winner": state.winner, "reason": state.reason}


def replay(record: Any, ruleset: Ruleset = ZARK_CITY) -> State:
    """The final State of a record; ReplayError(index) at the first illegal move or a wrong result."""
    players, deck_type, seed, moves, result = read_record(record, ruleset)
    state = play_moves(new_game(players, seed, deck_type, ruleset), moves, apply)
    return state if result is None else check_result(state, result, len(moves))


def read_record(
    record: Any, ruleset: Ruleset = ZARK_CITY
) -> tuple[tuple[str, ...], str, str, list[tuple[str, Move]], dict[str, Any] | None]:
    """Validate a parsed record: players, deck, seed, parsed moves and result (PositionError if malformed)."""
    check_header(record, ruleset.record_format, "a game record", ruleset)
    players = read_players(record.get("players"))
    seed = record.get("seed")
    if not isinstance(seed, str):
        raise PositionError(f"seed must be a string, not {seed!r}")
    moves = _moves(record.get("moves"), players, ruleset)
    deck_type = read_deck_type(record.get("deck_type"), ruleset)
    return players, deck_type, seed, moves, _result(record.get("result"), players)


def _moves(value: Any, players: Sequence[str], ruleset: Ruleset) -> list[tuple[str, Move]]:
    def parse_here(text: str) -> Move:
        return parse(text, ruleset.parse_card, ruleset.sort)

    return read_moves(value, players, parse_here, seated, "draw")


def _result(value: Any, players: Sequence[str]) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("reason") not in REASONS:
        raise PositionError(f"result must be {{winner, reason}} with a reason in {', '.join(REASONS)}, not {value!r}")
    winner, reason = value.get("winner"), value["reason"]
    # Every stated fact is checked (rules.md B15): these games keep no scores, and only a tie lists tied players.
    if value.get("scores") is not None:
        raise PositionError("result: this game keeps no scores, so its result states none (winner, reason, tied)")
    if reason == "tie":
        return _tie(value, players)
    if value.get("tied"):
        raise PositionError(f"result: a {reason} result lists no tied players")
    # A draw never has a winner; a timeout may have none (everyone ran out of time at once).
    if (winner is None and reason not in WINNERLESS) or (winner is not None and reason == "draw"):
        raise PositionError(f"result: a {reason} result {'has no' if winner is None else 'has a'} winner")
    return {"winner": None if winner is None else seated(winner, "result winner", players), "reason": value["reason"]}


def _tie(value: dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """A shared win (Deck Town): no single winner, and the players who tied."""
    tied = value.get("tied")
    if value.get("winner") is not None or not isinstance(tied, list) or len(tied) < 2:
        raise PositionError("result: a tie names no winner and lists two or more players as tied")
    return {"winner": None, "reason": "tie", "tied": [seated(c, "result tied", players) for c in tied]}


def check_result(state: State, result: dict[str, Any], plies: int) -> State:
    """The final State if the game really ended as `result` says, else ReplayError(None).

    A timeout is recorded as the loser's `resign`, so it matches a game that ended by resignation;
    an agreed draw, or a timeout with no winner (every remaining player out of time at once),
    matches a game still on, which the result then ends.
    """
    winner, reason = result["winner"], result["reason"]
    if winner is None and reason in WINNERLESS and state.phase != "over":
        return agree_draw(state) if reason == "draw" else abandon(state, reason)
    expected = "resignation" if reason == "timeout" else reason
    tied = tuple(result.get("tied", ()))
    if state.phase == "over" and (state.winner, state.reason, state.tied) == (winner, expected, tied):
        return state.evolve(reason=reason)
    said = f"{winner} won by {reason}" if winner else ("a draw" if reason == "draw" else f"no winner ({reason})")
    raise ReplayError(None, f"the record says {said}, but after {plies} moves {_outcome(state)}")


def _outcome(state: State) -> str:
    if state.phase != "over":
        return "the game is not over"
    if state.tied:
        return f"{' and '.join(state.tied)} tied"
    if state.winner is None:
        return (
            "the game ended in a draw" if state.reason == "draw" else f"the game ended with no winner ({state.reason})"
        )
    return f"{state.winner} won by {state.reason}"
