"""Golden IceDice playthroughs (2 and 3 players): a scripted game's log, with every throw, forced take, bust,
steal and bonus, its record and its final position, diffed against tests/engine/golden/icedice-*
(tests/engine/golden_helpers.py).

The script is a fixed policy (in a choice, a steal when there is one, else a take picked by the ply
number; then roll until the Counter holds 2 to 5 pieces, by the ply number), so a change in the rules, the
events or the files shows up as a diff. After a deliberate change, regenerate with
`ICEDICE_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_icedice_golden.py` and review the diff.
"""

from __future__ import annotations

import pytest

from engine.icedice.game import GAME
from engine.icedice.notation import Move, Roll, Stop, Take
from engine.icedice.state import State
from engine.kit.events import lines
from tests.engine.golden_helpers import Playthroughs, Script, script_id

SCRIPTS = (
    Script("icedice-two", ("red", "blue"), "golden-two-3"),
    Script("icedice-three", ("red", "yellow", "blue"), "golden-three", {40: "yellow"}),
)


def choose(state: State, ply: int) -> Move:
    if state.phase == "take":
        takes = [m for m in GAME.legal_moves_of(state, state.to_move or "") if isinstance(m, Take)]
        steals = [t for t in takes if t.source]
        return steals[0] if steals else takes[ply % len(takes)]
    return Roll() if len(state.counter) < 2 + ply % 4 else Stop()  # 5: on to a bust or a rainbow bonus


def opening(script: Script) -> tuple[State, list[str]]:
    outcome = GAME.begin(script.players, script.seed, {})
    told = " ".join(lines(outcome.events, None))
    return outcome.state, [f"# IceDice, players {', '.join(script.players)}, seed {script.seed!r}: {told}"]


PLAYTHROUGHS = Playthroughs(GAME, "ICEDICE_GOLDEN", opening, choose, max_plies=1000)


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_the_playthrough_matches_its_golden_files(script: Script) -> None:
    PLAYTHROUGHS.check_files(script)


def test_the_golden_games_end_with_three_trios_and_show_every_kind_of_event() -> None:
    logs = []
    for script in SCRIPTS:
        _, log, state = PLAYTHROUGHS.play(script)
        assert state.reason == "trios" and state.winner is not None
        logs.extend(log)
    text = "\n".join(logs)
    for words in ("threw", "busts:", "(the only choice)", "stole", "rainbow bonus", "gets nothing", "wins with"):
        assert words in text, words


@pytest.mark.parametrize("script", SCRIPTS, ids=script_id)
def test_replaying_the_golden_record_gives_the_golden_position(script: Script) -> None:
    PLAYTHROUGHS.check_replay(script)
