"""Golden Buyer's Market playthroughs (2, 3 and 4 players): a scripted game's log, record and final
position, diffed against tests/engine/golden/buyersmarket-* (tests/engine/golden_helpers.py).

The script is a fixed policy (call the building phase when it may, else buy the pallet that costs the
fewest bank pips, else place or contribute by the ply number), so a change in the rules, describe or
the files shows up as a diff. After a deliberate change, regenerate with
`BUYERSMARKET_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_buyersmarket_golden.py`
and review the diff.
"""

from __future__ import annotations

import pytest

from engine.buyersmarket.game import GAME
from engine.buyersmarket.notation import Buy, Move
from engine.buyersmarket.rules import buildings
from engine.buyersmarket.state import State
from tests.engine.golden_helpers import Playthroughs, Script, script_id

SCRIPTS = (
    Script("buyersmarket-two", ("red", "blue"), "golden-two"),
    Script("buyersmarket-three", ("red", "yellow", "green"), "golden-three"),
    Script("buyersmarket-four", ("red", "yellow", "green", "blue"), "golden-four", {21: "green"}),
)


def choose(state: State, ply: int) -> Move:
    mover = state.to_move or ""
    moves = [m for m in GAME.legal_moves(state, mover) if not GAME.is_resign(m)]
    calls = [m for m in moves if getattr(m, "call", False)]
    if calls:
        return calls[0]
    buys = [m for m in moves if isinstance(m, Buy)]
    if buys and ply % 3 != 1:
        return min(buys, key=lambda m: (len(m.paid), len(m.back) + len(m.returned), str(m)))
    plain = [m for m in moves if not isinstance(m, Buy)] or moves
    return plain[(ply * 7 + 3) % len(plain)]


def opening(script: Script) -> tuple[State, list[str]]:
    state = GAME.new_game(script.players, script.seed, {})
    return state, [
        f"# Buyer's Market, players {', '.join(script.players)}, seed {script.seed!r}",
        f"# setup: {', '.join(p.card for p in state.pallets)} in play; {state.to_move} to move ({state.phase})",
    ]


PLAYTHROUGHS = Playthroughs(GAME, "BUYERSMARKET_GOLDEN", opening, choose, max_plies=400)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_playthrough_matches_its_golden_files(script: Script) -> None:
    PLAYTHROUGHS.check_files(script)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_golden_game_ends_by_the_building_phase(script: Script) -> None:
    moves, _, state = PLAYTHROUGHS.play(script)
    assert state.phase == "over" and state.reason == "score" and state.called_by is not None
    caller = state.called_by
    after_call = next(i for i, (by, text) in enumerate(moves) if by == caller and text.endswith(" call"))
    others = [p for p in state.active_players() if p != caller]
    last_turns = [by for by, text in moves[after_call + 1 :] if not text.startswith("pile ")]
    assert sorted(last_turns) == sorted(others), "everyone else has exactly one more turn (15.5)"
    result = GAME.result(state)
    assert result is not None and result.scores is not None
    assert result.scores == {c: b.total for c, b in buildings(state).items()}
    ranked = {c: (result.scores[c], len(state.collected[c])) for c in result.scores}
    assert set(result.winners) == {c for c, r in ranked.items() if r == max(ranked.values())}


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_replaying_the_golden_record_gives_the_golden_position(script: Script) -> None:
    PLAYTHROUGHS.check_replay(script)
