"""The result of a `buyersmarket-game/1` record: shared winners, and scores only when the game was scored.

The kit's `KitGame` writes the record and replays it (a fold of `apply` from the setup); this game's
result names every winner (`winners`, or the service's "red,blue" as `winner`), which the kit's
single `winner` cannot, so it is read, written and checked here (rules.md B15).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import PositionError, ReplayError
from ..interface import Result
from ..records import check_scores, read_scores
from .position import seated
from .rules import finish, scored
from .state import REASONS, State

WINNERLESS = ("draw", "timeout")  # results a game not otherwise over may end with (no extra move)


def result_of(state: State) -> dict[str, Any] | None:
    """The record's `result`: winner (or null), winners, reason, and the scores when the game was scored."""
    if state.phase != "over":
        return None
    result: dict[str, Any] = {
        "winner": state.winners[0] if len(state.winners) == 1 else None,
        "winners": list(state.winners),
        "reason": state.reason,
    }
    if (points := scored(state)) is not None:
        result["scores"] = points
    return result


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


def read_result(value: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """A stated result as {winners, reason, scores}, each checked (and read alike again: `winners` is a
    list); PositionError naming the fault."""
    if not isinstance(value, Mapping) or value.get("reason") not in REASONS:
        raise PositionError(f"result must name a reason in {', '.join(REASONS)}, not {value!r}")
    winners = [seated(colour, "result winner", players) for colour in winners_of(value)]
    return {"winners": winners, "reason": value["reason"], "scores": read_scores(value.get("scores"), players)}


def check_result(state: State, result: Mapping[str, Any], plies: int) -> State:
    """The final State if the game really ended as `result` says, winners, reason and every score
    (rules.md B15), else ReplayError(None). A timeout is recorded as the loser's `resign`; an agreed
    draw or a timeout with no winner ends a game still on."""
    stated = read_result(result, state.players)
    winners, reason = stated["winners"], stated["reason"]
    if not winners and reason in WINNERLESS and state.phase != "over":
        check_scores(stated["scores"], None, plies)
        return finish(state, Result(winners=(), reason=reason))
    expected = "resignation" if reason == "timeout" else reason
    if state.phase == "over" and (set(state.winners), state.reason) == (set(winners), expected):
        check_scores(stated["scores"], scored(state), plies)
        return state.evolve(reason=reason)
    said = f"{' and '.join(winners)} won by {reason}" if winners else f"no winner ({reason})"
    now = (
        "the game is not over"
        if state.phase != "over"
        else f"it ended {state.reason}: {', '.join(state.winners) or 'no winner'}"
    )
    raise ReplayError(None, f"the record says {said}, but after {plies} moves {now}")
