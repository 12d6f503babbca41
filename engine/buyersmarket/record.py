"""The `buyersmarket-game/1` record, and replay: a fold of `apply` over its moves from the setup.

The seed is in the record once the game is over, so anyone can check every pile and die roll and
every move with `python -m engine replay GAME.json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import PositionError, ReplayError
from ..records import check_scores, play_moves, read_moves, read_scores
from .notation import Move, parse
from .pieces import GAME_ID, RULES_VERSION
from .position import check_header, read_players, seated
from .rules import abandon, agree_draw, apply, new_game, scores
from .state import REASONS, State

FORMAT = "buyersmarket-game/1"
WINNERLESS = ("draw", "timeout")


def make_record(
    players: Sequence[str], seed: str, moves: Sequence[tuple[str, str]], result: Mapping[str, Any] | None
) -> dict[str, Any]:
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
    """The record's `result`: winner (or null), winners, reason, and the scores when the game was scored."""
    if state.phase != "over":
        return None
    result: dict[str, Any] = {
        "winner": state.winners[0] if len(state.winners) == 1 else None,
        "winners": list(state.winners),
        "reason": state.reason,
    }
    if state.reason == "score":
        result["scores"] = scores(state)
    return result


def replay(record: Any) -> State:
    check_header(record, FORMAT, "a game record")
    players = read_players(record.get("players"))
    seed = record.get("seed")
    if not isinstance(seed, str):
        raise PositionError(f"seed must be text, not {seed!r}")
    moves = _moves(record.get("moves"), players)
    result = record.get("result")
    state = play_moves(new_game(players, seed), moves, apply)
    return state if result is None else check_result(state, result, len(moves))


def _moves(value: Any, players: tuple[str, ...]) -> list[tuple[str, Move]]:
    return read_moves(value, players, parse, seated, "buy 7H")


def winners_of(result: Mapping[str, Any]) -> tuple[str, ...]:
    """The winners a result names: "winners", else "winner" (the service writes several as "red,blue").
    A result stating both must state the same players."""
    winner = result.get("winner")
    named = tuple(winner.split(",")) if isinstance(winner, str) and winner else ()
    if not isinstance(result.get("winners"), list):
        return named
    winners = tuple(result["winners"])
    if winner is not None and set(named) != set(winners):
        raise PositionError(f"result: winner {winner!r} and winners {list(winners)} name different players")
    return winners


def check_result(state: State, result: Mapping[str, Any], plies: int) -> State:
    """The final State if the game really ended as `result` says, winners, reason and every score
    (rules.md B15), else ReplayError(None). A timeout is recorded as the loser's `resign`; an agreed
    draw or a timeout with no winner ends a game still on."""
    if not isinstance(result, Mapping) or result.get("reason") not in REASONS:
        raise PositionError(f"result must name a reason in {', '.join(REASONS)}, not {result!r}")
    winners, reason = winners_of(result), result["reason"]
    for colour in winners:
        seated(colour, "result winner", state.players)
    stated_scores = read_scores(result.get("scores"), state.players)
    if not winners and reason in WINNERLESS and state.phase != "over":
        check_scores(stated_scores, None, plies)
        return agree_draw(state) if reason == "draw" else abandon(state, str(reason))
    expected = "resignation" if reason == "timeout" else reason
    if state.phase == "over" and (set(state.winners), state.reason) == (set(winners), expected):
        check_scores(stated_scores, scores(state) if state.reason == "score" else None, plies)
        return state.evolve(reason=reason)
    said = f"{' and '.join(winners)} won by {reason}" if winners else f"no winner ({reason})"
    now = (
        "the game is not over"
        if state.phase != "over"
        else f"it ended {state.reason}: {', '.join(state.winners) or 'no winner'}"
    )
    raise ReplayError(None, f"the record says {said}, but after {plies} moves {now}")
