"""IceDice rule table (../shared/spec/icedice.md): one row per rule, every REC-I ruling and the 14 scenarios.

Each row is a small function named after the rule; the positions come from `icedice_cases.pos`, whose
seed is chosen so the next throws are the ones the row needs.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.errors import IllegalMoveError, NotationError
from engine.icedice.game import GAME
from engine.icedice.notation import Roll, Stop, Take
from engine.icedice.rules import die
from engine.icedice.state import COLOUR_FACES, SIZE_FACES, State, trios
from engine.kit.events import Event
from engine.kit.steps import play_line
from engine.shuffle import shuffled
from tests.engine.icedice_cases import DICE, bank, moves, pos

Row = Callable[[], None]
ROWS: list[tuple[str, Row]] = []


def row(name: str) -> Callable[[Row], Row]:
    def register(check: Row) -> Row:
        ROWS.append((name, check))
        return check

    return register


def step(state: State, text: str, by: str = "red") -> tuple[State, tuple[Event, ...]]:
    outcome = GAME.step(state, GAME.parse(text), by)
    return outcome.state, outcome.events


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [event.kind for event in events]


def texts(events: tuple[Event, ...]) -> list[str]:
    return [event.text for event in events]


# --- the 14 scenarios --------------------------------------------------------------------------------


@row("scenario 1: a turn's opening throw with one possible take is taken by the engine")
def _() -> None:
    state = pos(("L", "green"), to_move="blue")
    after, events = step(state, "stop", "blue")
    assert after.to_move == "red" and after.counter == (("green", "L"),)
    assert "red took L green (the only choice)" in texts(events)
    assert moves(after) == ["roll", "stop", "resign"]


@row("scenario 2: a colour already on the Counter busts; the next seat throws")
def _() -> None:
    state = pos(("S", "red"), counter=["red:M"])
    after, events = step(state, "roll")
    assert kinds(events)[:3] == ["roll", "throw", "bust"] and "red busts: 1 piece back to the Bank" in texts(events)
    assert bank(after, "red:M") == 2 and after.to_move == "blue"
    assert events[3].kind == "throw" and events[3].seat == "blue"


@row("scenario 3: the atom offers every colour not on the Counter")
def _() -> None:
    state = pos(phase="take", throw={"size": "M", "colour": "atom"}, counter=["red:S", "blue:M"])
    assert moves(state) == ["take M black", "take M green", "take M yellow", "resign"]
    with pytest.raises(IllegalMoveError, match="does not offer take M red"):
        GAME.apply(state, Take("M", "red"), "red")


SCENARIO_4 = {
    "phase": "take",
    "throw": {"size": "S/M", "colour": "green"},
    "vaults": {"red": ["green:S"], "blue": ["green:S"]},
}


@row("scenario 4: a steal may be chosen when another offered kind is in the Bank; not a kind the Bank has")
def _() -> None:
    state = pos(**SCENARIO_4)
    assert moves(state) == ["take M green", "take S green from blue", "resign"]
    with pytest.raises(IllegalMoveError, match="the Bank has a M green"):
        GAME.apply(state, Take("M", "green", "blue"), "red")


@row("a steal written without its seat is recorded with it (the canonical form names the seat)")
def _() -> None:
    state = pos(**SCENARIO_4)
    assert GAME.canonical(state, "take S green") == "take S green from blue"
    assert GAME.canonical(state, "take M green") == "take M green" and GAME.canonical(state, "stop") == "stop"


@row("scenario 5: the only possible take is a steal: the engine makes it")
def _() -> None:
    state = pos(("L", "black"), counter=["red:S"], vaults={"red": ["black:L"], "blue": ["black:L"]})
    after, events = step(state, "roll")
    assert after.counter == (("red", "S"), ("black", "L")) and after.vault("blue") == ()
    assert "red stole L black from blue (the only choice)" in texts(events) and after.phase == "decide"


@row("scenario 6: nothing to be had gives nothing; the colour does not join the Counter")
def _() -> None:
    state = pos(("L", "yellow"), ("S", "yellow"), counter=["red:S"], vaults={"red": ["yellow:L", "yellow:L"]})
    after, events = step(state, "roll")
    assert after.counter == (("red", "S"),) and kinds(events) == ["roll", "throw", "nothing"]
    assert moves(after) == ["roll", "stop", "resign"]
    later, events = step(after, "roll")
    assert ("yellow", "S") in later.counter and "bust" not in kinds(events)


@row("scenario 7: when any offered kind can be had, nothing is not a choice (REC-I3)")
def _() -> None:
    state = pos(("M/L", "yellow"), vaults={"red": ["yellow:L", "yellow:L"]})
    after, events = step(state, "roll")
    assert after.counter == (("yellow", "M"),) and "red took M yellow (the only choice)" in texts(events)


@row("scenario 8: five colours on the Counter: the rainbow bonus vaults them and the engine throws again")
def _() -> None:
    counter = ["red:S", "yellow:S", "green:S", "blue:S"]
    state = pos(phase="take", throw={"size": "S/M", "colour": "black"}, counter=counter)
    after, events = step(state, "take S black")
    assert kinds(events)[:3] == ["take", "bonus", "throw"] and after.to_move == "red"
    assert len(after.vault("red")) == 5 and after.dice == DICE + 2 and after.reason is None


TWO_TRIOS_AND_BLUE_SM = ["red:S", "red:M", "red:L", "green:S", "green:M", "green:L", "blue:S", "blue:M"]


@row("scenario 9: stop completing a third Trio wins; a roll that busts instead loses the piece")
def _() -> None:
    state = pos(("S", "blue"), counter=["blue:L"], vaults={"red": TWO_TRIOS_AND_BLUE_SM})
    won, events = step(state, "stop")
    assert (won.winner, won.reason, won.phase) == ("red", "trios", "over") and events[-1].kind == "end"
    busted, _ = step(state, "roll")
    assert busted.reason is None and bank(busted, "blue:L") == 2 and busted.to_move == "blue"


@row("scenario 10: a rainbow bonus that makes three Trios wins at once: no further throw")
def _() -> None:
    counter = ["yellow:S", "green:S", "blue:L", "black:S"]
    state = pos(("S", "red"), counter=counter, vaults={"red": TWO_TRIOS_AND_BLUE_SM})
    after, events = step(state, "roll")
    assert (after.winner, after.reason) == ("red", "trios") and after.dice == DICE + 2
    assert kinds(events) == ["roll", "throw", "take", "bonus", "end"]


@row("scenario 11: two Trios may share a colour (REC-I6)")
def _() -> None:
    vault = ["red:S", "red:S", "red:M", "red:M", "red:L", "red:L", "green:S", "green:M"]
    state = pos(counter=["green:L"], vaults={"red": vault})
    after, _ = step(state, "stop")
    assert (after.winner, after.reason) == ("red", "trios") and trios(after.vault("red")) == 3


@row("scenario 12: a stolen piece lost in a bust goes to the Bank, not back to its Vault (REC-I5)")
def _() -> None:
    seed_state = pos(("S", "green"), **SCENARIO_4)
    stolen, _ = step(seed_state, "take S green from blue")
    assert stolen.vault("blue") == () and stolen.counter == (("green", "S"),)
    after, events = step(stolen, "roll")
    assert "bust" in kinds(events) and after.vault("blue") == () and bank(after, "green:S") == 1


THREE = ["red", "yellow", "blue"]
SCENARIO_13 = {
    "players": THREE,
    "phase": "take",
    "throw": {"size": "S", "colour": "green"},
    "vaults": {"red": ["green:S"], "yellow": ["green:S"], "blue": ["green:S"]},
}


@row("scenario 13: several opponents hold the only pieces: the mover picks whom to steal from (REC-I2)")
def _() -> None:
    state = pos(**SCENARIO_13)
    assert moves(state) == ["take S green from blue", "take S green from yellow", "resign"]
    with pytest.raises(IllegalMoveError, match="write take S green from blue or take S green from yellow"):
        GAME.apply(state, GAME.parse("take S green"), "red")


@row("scenario 14: a take and stop share a line; roll; stop is refused whole; stop with nothing changes nothing")
def _() -> None:
    state = pos(**SCENARIO_4)
    played = play_line(GAME, state, "take S green from blue; stop", "red")
    assert [p.text for p in played] == ["take S green from blue", "stop"] and played[-1].state.to_move == "blue"
    decide = pos()
    with pytest.raises(IllegalMoveError, match=r"step 1 \(roll\): roll must be last on its line"):
        play_line(GAME, decide, "roll; stop", "red")
    after, _ = step(decide, "stop")
    assert after.vaults == decide.vaults and after.to_move == "blue"


# --- the REC-I rulings ---------------------------------------------------------------------------------


@row("REC-I1: one Rainbow Stash per player: n of each of the 15 kinds")
def _() -> None:
    for players in (["red", "blue"], ["red", "yellow", "green", "blue", "black"]):
        state = GAME.new_game(players, "s", {})
        held = len(state.counter) + sum(len(v) for v in state.vaults)
        assert sum(state.bank().values()) + held == 15 * len(players)


@row("REC-I2: the mover picks the opponent to steal from, and the seat is named")
def _() -> None:
    state = pos(**SCENARIO_13)
    after = GAME.apply(state, GAME.parse("take S green from yellow"), "red")
    assert after.vault("yellow") == () and after.vault("blue") == (("green", "S"),)


@row("REC-I3: no declining a piece to roll again free")
def _() -> None:
    state = pos(**SCENARIO_4)
    for verb in ("roll", "stop"):
        with pytest.raises(IllegalMoveError, match="first take one of the offered pieces"):
            GAME.apply(state, GAME.parse(verb), "red")


@row("REC-I4: the opening throw of a turn never busts: the Counter is empty")
def _() -> None:
    for n in range(40):
        outcome = GAME.begin(["red", "blue"], f"open{n}", {})
        assert kinds(outcome.events)[:2] == ["start", "throw"] and "bust" not in kinds(outcome.events)


@row("REC-I5: a stolen piece leaves the opponent's Vault at once")
def _() -> None:
    state = pos(**SCENARIO_4)
    after = GAME.apply(state, GAME.parse("take S green from blue"), "red")
    assert after.vault("blue") == () and ("green", "S") in after.counter


@row("REC-I6: Trios are counted per colour, the fewest of S, M and L")
def _() -> None:
    assert trios([("red", "S"), ("red", "M"), ("red", "L"), ("red", "S"), ("green", "S")]) == 1
    assert trios([("red", s) for s in "SSMMLL"]) == 2 and trios([("blue", "S"), ("blue", "M")]) == 0


@row("REC-I7: Counter pieces never count: three Trios only once they enter the Vault")
def _() -> None:
    state = pos(("S", "yellow"), counter=["blue:L"], vaults={"red": TWO_TRIOS_AND_BLUE_SM})
    after, _ = step(state, "roll")
    assert after.reason is None and ("blue", "L") in after.counter and after.to_move == "red"


@row("REC-I8: who starts is the first of the seats shuffled by shuffle 0")
def _() -> None:
    for seed in ("a", "b", "c", "d"):
        players = ("red", "yellow", "green")
        state = GAME.new_game(players, seed, {})
        assert state.first_player == shuffled(players, seed, 0)[0]


# --- the turn, dice and notation -----------------------------------------------------------------------


@row("dice: die k shows the first face of its faces shuffled with number 100 + k, the pyramid die first")
def _() -> None:
    outcome = GAME.begin(["red", "blue"], "dice", {})
    throw = next(event for event in outcome.events if event.kind == "throw")
    assert throw.data == {"size": die("dice", 0, SIZE_FACES), "colour": die("dice", 1, COLOUR_FACES), "dice": [0, 1]}
    assert die("dice", 0, SIZE_FACES) == shuffled(SIZE_FACES, "dice", 100)[0]


@row("the atom never busts: with four colours on the Counter it offers the fifth")
def _() -> None:
    state = pos(("S", "atom"), counter=["red:S", "yellow:S", "green:S", "blue:S"])
    after, events = step(state, "roll")
    assert "bust" not in kinds(events) and "bonus" in kinds(events)


@row("a two-size face offers either size; the atom may force a steal")
def _() -> None:
    state = pos(phase="take", throw={"size": "S/L", "colour": "atom"}, counter=["red:S", "yellow:S", "blue:S"])
    assert moves(state) == ["take L black", "take L green", "take S black", "take S green", "resign"]
    vaults = {"red": ["green:M"], "blue": ["green:M", "blue:M", "blue:M"]}  # the Bank has no green or blue M
    stolen = pos(
        phase="take", throw={"size": "M", "colour": "atom"}, counter=["red:S", "yellow:S", "black:S"], vaults=vaults
    )
    assert moves(stolen) == ["take M blue from blue", "take M green from blue", "resign"]


@row("stop moves the Counter into the Vault and passes the dice in seating order")
def _() -> None:
    state = pos(counter=["red:S", "blue:M"], players=THREE)
    after, events = step(state, "stop")
    assert after.vault("red") == (("red", "S"), ("blue", "M")) and after.to_move == "yellow"
    assert texts(events)[0] == "red stops: 2 pieces into the Vault"


@row("only the mover has steps; the others may only resign")
def _() -> None:
    state = pos(**SCENARIO_4)
    assert moves(state, "blue") == ["resign"]
    with pytest.raises(IllegalMoveError, match="Not your turn"):
        GAME.apply(state, Roll(), "blue")


@row("notation: case-insensitive, colour before size read too, canonical size before colour")
def _() -> None:
    assert (
        GAME.parse("TAKE green m") == Take("M", "green") and str(Take("S", "green", "blue")) == "take S green from blue"
    )
    assert GAME.parse(" Roll ") == Roll() and GAME.parse("stop") == Stop()
    for bad in ("take X green", "take M purple", "take M green from", "jump", "roll twice"):
        with pytest.raises(NotationError):
            GAME.parse(bad)


@row("notation: from SEAT may be left out when the Bank has none and only one opponent has one")
def _() -> None:
    state = pos(**SCENARIO_4)
    assert GAME.apply(state, GAME.parse("take green S"), "red").vault("blue") == ()


# --- service rulings ------------------------------------------------------------------------------------


@row("resigning on one's turn: Vault and Counter to the Bank, the next seat throws")
def _() -> None:
    state = pos(counter=["red:S"], players=THREE, vaults={"red": ["blue:L"]})
    outcome = GAME.resign_step(state, "red", "resignation")
    after = outcome.state
    assert after.vault("red") == () and after.counter != (("red", "S"),) and after.to_move == "yellow"
    assert bank(after, "blue:L") + sum(p == ("blue", "L") for p in after.counter) == 3
    assert "red" in after.resigned and kinds(outcome.events)[:3] == ["resign", "bank", "throw"]


@row("another seat resigning reworks the pending choice, made by the engine if one take is left")
def _() -> None:
    state = pos(**SCENARIO_13)
    after = GAME.resign(state, "yellow")
    assert after.counter == (("green", "S"),) and after.vault("blue") == (("green", "S"),) and after.phase == "decide"


@row("the last seat left wins by resignation; all may agree a draw")
def _() -> None:
    state = pos(**SCENARIO_4)
    after = GAME.resign(state, "red")
    assert (after.winner, after.reason, after.to_move) == ("blue", "resignation", None)
    drawn = GAME.agree_draw(state)
    assert GAME.result(drawn) is not None and (drawn.winner, drawn.reason) == (None, "draw")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        GAME.apply(after, Roll(), "blue")


@pytest.mark.parametrize("check", [check for _, check in ROWS], ids=[name for name, _ in ROWS])
def test_rule(check: Row) -> None:
    check()


def test_every_scenario_has_a_row() -> None:
    assert sorted(int(name.split()[1].rstrip(":")) for name, _ in ROWS if name.startswith("scenario")) == list(
        range(1, 15)
    )
    assert [name.split(":")[0] for name, _ in ROWS if name.startswith("REC")] == [f"REC-I{n}" for n in range(1, 9)]
