"""Golden Black ICE playthroughs (2 players): a scripted game's log, as a spectator and as the mover read
each step (a Peek's Code only in the mover's), its record and its final position, diffed against
tests/engine/golden/blackice-* (tests/engine/golden_helpers.py).

The script is a fixed policy that reads the whole State (it is a test's script, not a player): declare
when the Keys match the Codes (or, in the rash game, at the first chance), else a Set toward a Code the
mover has peeked, else a kind of step picked by the ply number. A change in the rules, the events or the
files shows up as a diff. After a deliberate change, regenerate with
`BLACKICE_GOLDEN=write .venv/bin/python -m pytest tests/engine/test_blackice_golden.py` and review it.
"""

from __future__ import annotations

from functools import partial

import pytest

from engine.blackice.game import GAME
from engine.blackice.notation import DECLARE, PASS, Move
from engine.blackice.state import State
from engine.kit.events import lines
from tests.engine.golden_helpers import Playthroughs, Script, script_id

ORDER = ("peek", "set", "swap", "copy", "reset", "pass")  # the kinds, tried from the ply's place on
CAREFUL = Script("blackice-two", ("red", "blue"), "golden-two")
RASH = Script("blackice-rash", ("red", "blue"), "golden-rash")


def choose(state: State, ply: int, rash: bool = False) -> Move:
    seat = state.to_move
    legal = GAME.legal_moves_of(state, seat)
    codes = [lock.code for lock in state.locks]
    if DECLARE in legal and (rash or list(state.keys_of(seat)) == codes):
        return DECLARE
    toward = [
        m for m in legal if m.verb == "set" and state.peeked(m.places[0], seat) and m.colour == codes[m.places[0] - 1]
    ]
    if toward:
        return toward[0]
    for verb in ORDER[ply % len(ORDER) :] + ORDER[: ply % len(ORDER)]:
        if verb == "pass" and ply % 7:
            continue  # pass now and then, not whenever its turn in the order comes
        kind = [m for m in legal if m.verb == verb]
        if kind:
            return kind[ply % len(kind)]
    return PASS


def opening(script: Script) -> tuple[State, list[str]]:
    outcome = GAME.begin(script.players, script.seed, {})
    told = " ".join(lines(outcome.events, None))
    return outcome.state, [f"# Black ICE, players red, blue, seed {script.seed!r}: {told}"]


def told(game: object, state: State, move: Move, by: str, ply: int) -> tuple[State, list[str]]:
    """The step as a spectator reads it, and, when it differs, as its mover does."""
    after = GAME.apply(state, move, by)
    public, own = (GAME.describe(move, by, state, after, viewer) for viewer in (None, by))
    return after, [f"{ply + 1}. {by} {move}: {public}" + ("" if own == public else f" | {by} reads: {own}")]


PLAYTHROUGHS = (  # each script with its policy: the careful one and the rash one
    (CAREFUL, Playthroughs(GAME, "BLACKICE_GOLDEN", opening, choose, told, max_plies=400)),
    (RASH, Playthroughs(GAME, "BLACKICE_GOLDEN", opening, partial(choose, rash=True), told, max_plies=400)),
)
IDS = [script_id(script) for script, _ in PLAYTHROUGHS]


@pytest.mark.parametrize(("script", "playthroughs"), PLAYTHROUGHS, ids=IDS)
def test_the_playthrough_matches_its_golden_files(script: Script, playthroughs: Playthroughs) -> None:
    playthroughs.check_files(script)


def test_the_golden_games_end_both_ways_and_show_every_kind_of_step() -> None:
    reasons, logs = [], []
    for script, playthroughs in PLAYTHROUGHS:
        _, log, state = playthroughs.play(script)
        assert state.outcome is not None
        reasons.append(state.outcome.reason)
        logs.extend(log)
    assert reasons == ["declaration", "wrong declaration"]
    text = "\n".join(logs)
    for words in ("peeked Lock", "reads:", "swaps Locks", "swaps the Keys", "sets a", "resets Lock", "copies"):
        assert words in text, words
    for words in ("passes", "declares", ": actions", "wild"):
        assert words in text, words


@pytest.mark.parametrize(("script", "playthroughs"), PLAYTHROUGHS, ids=IDS)
def test_replaying_the_golden_record_gives_the_golden_position(script: Script, playthroughs: Playthroughs) -> None:
    playthroughs.check_replay(script)
