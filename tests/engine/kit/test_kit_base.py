"""The kit's base (engine/kit/base.py) on a tiny game: what every game gets once, without writing it.

Resignation, draws and time-outs; the `ID-game/1` record, its replay as a fold with sealed
commitments, and result checking; `;` lines all or nothing; descriptions written from events.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.bots.kit import unseen_dealt
from engine.bots.rng import Rng
from engine.errors import IllegalMoveError, NotationError, PositionError, ReplayError
from engine.interface import Result
from engine.kit.base import RESIGN
from engine.kit.core import CardFaces, Hands, Hidden
from engine.kit.events import Event
from engine.kit.steps import play_line, split_line
from tests.engine.kit.tiny import RACE, Race, State, Step


def opened(seed: str = "s1") -> State:
    """red and blue have bid; red (the higher bid) has thrown."""
    state = RACE.new_game(["red", "blue"], seed, {})
    return RACE.resolve(state, {"red": Step("bid", 3), "blue": Step("bid", 1)}).state


def test_resign_is_the_kits_step_for_every_seat() -> None:
    state = opened()
    assert RACE.parse("Resign") is RESIGN
    assert RACE.legal_moves(state, "blue")[-1] is RESIGN
    assert RACE.is_resign(RESIGN) and RACE.move_kinds()[-1].verb == "resign"


def test_the_last_seat_left_wins_by_resignation() -> None:
    outcome = RACE.step(opened(), RESIGN, "blue")
    assert RACE.result(outcome.state) is not None
    assert (RACE.result(outcome.state).winner, RACE.result(outcome.state).reason) == ("red", "resignation")
    assert [e.kind for e in outcome.events] == ["resign", "end"]


def test_a_resignation_of_three_passes_the_turn() -> None:
    state = RACE.resolve(
        RACE.new_game(["red", "yellow", "blue"], "s", {}),
        {"red": Step("bid", 3), "yellow": Step("bid", 1), "blue": Step("bid", 2)},
    ).state
    after = RACE.resign(state, "red")
    assert RACE.result(after) is None and RACE.movers(after) == ("yellow",)


@pytest.mark.parametrize(("end", "reason"), [("agree_draw", "draw"), ("abandon", "timeout")])
def test_draws_and_abandonment_end_with_no_winner(end: str, reason: str) -> None:
    result = RACE.result(getattr(RACE, end)(opened()))
    assert result is not None and (result.winners, result.reason) == ((), reason)


def test_moves_after_the_end_are_refused() -> None:
    with pytest.raises(IllegalMoveError, match="over"):
        RACE.apply(RACE.agree_draw(opened()), Step("pass"), "red")


@pytest.mark.parametrize("end", ["agree_draw", "abandon"])
def test_a_finished_game_is_not_ended_again(end: str) -> None:
    with pytest.raises(IllegalMoveError, match="the game is over"):
        getattr(RACE, end)(RACE.resign(opened(), "blue"))


def test_abandonment_is_only_by_timeout() -> None:
    with pytest.raises(NotationError, match="a draw is agree_draw"):
        RACE.abandon(opened(), "draw")


def test_a_path_is_several_steps_and_parse_takes_one() -> None:
    with pytest.raises(NotationError, match="2 steps"):
        RACE.parse("path 1 1")
    assert RACE.parse_steps("path 1 1") == [Step("add", 1), Step("add", 1)]


def test_a_line_is_applied_in_order_each_step_its_own() -> None:
    state = opened("s3")
    assert state.points > 1  # this seed's first throw
    played = play_line(RACE, state, "add 1; pass", "red")
    assert [p.text for p in played] == ["add 1", "pass"]
    assert RACE.movers(played[0].state) == ("red",) and RACE.movers(played[-1].state) == ("blue",)
    assert [e.kind for e in played[-1].events] == ["pass", "throw"]


def test_a_refused_step_refuses_the_line_and_names_the_step() -> None:
    state = opened("s3")
    with pytest.raises(IllegalMoveError, match=r"^step 2 \(add 9\): you have"):
        play_line(RACE, state, "add 1; add 9", "red")


def test_a_step_after_the_turn_refuses_the_line_unless_ignorable() -> None:
    state = opened()
    line = f"add {state.points}; add 1"
    with pytest.raises(IllegalMoveError, match="step 2 .*after your turn"):
        play_line(RACE, state, line, "red")
    ignorable = lambda move, now, by: str(move) == "pass"  # noqa: E731
    assert len(play_line(RACE, state, f"add {state.points}; pass", "red", ignorable=ignorable)) == 1


def test_only_the_lines_last_step_may_be_dropped() -> None:
    state = opened()
    ignorable = lambda move, now, by: str(move) == "pass"  # noqa: E731
    with pytest.raises(IllegalMoveError, match=r"^step 2 \(pass\): comes after your turn"):
        play_line(RACE, state, f"add {state.points}; pass; pass", "red", ignorable=ignorable)


@pytest.mark.parametrize(("line", "number"), [("add 1; resign", 2), ("Resign; pass", 1)])
def test_resign_goes_on_a_line_of_its_own(line: str, number: int) -> None:
    with pytest.raises(IllegalMoveError, match=rf"^step {number} \([Rr]esign\): resign goes on a line of its own"):
        play_line(RACE, opened("s3"), line, "red")
    assert RACE.result(play_line(RACE, opened("s3"), "resign", "red")[-1].state) is not None


@pytest.mark.parametrize("line", ["", ";", "add 1;;pass", "  "])
def test_an_empty_step_is_malformed(line: str) -> None:
    with pytest.raises(NotationError, match="none empty"):
        split_line(line)


def test_a_trailing_semicolon_is_harmless() -> None:
    assert split_line("add 1; pass;") == ["add 1", "pass"]


def played_record(seed: str = "s1") -> dict:
    """A whole game by the first legal step each time, as the service would record it."""
    state = RACE.new_game(["red", "blue"], seed, {})
    moves = [("red", "bid 3"), ("blue", "bid 1")]
    state = RACE.resolve(state, {"red": Step("bid", 3), "blue": Step("bid", 1)}).state
    while RACE.result(state) is None:
        seat = RACE.movers(state)[0]
        move = RACE.legal_moves(state, seat)[-3]  # the biggest `add` (the list ends with pass, resign)
        moves.append((seat, str(move)))
        state = RACE.apply(state, move, seat)
    return RACE.make_record(["red", "blue"], {}, seed, moves, RACE.record_result(state))


def test_a_record_replays_to_its_stated_result() -> None:
    record = played_record()
    assert record["format"] == "race-game/1" and record["moves"][0] == {"by": "red", "move": "bid 3"}
    final = RACE.replay(record)
    assert RACE.record_result(final) == record["result"]


def test_a_false_winner_is_refused() -> None:
    record = played_record()
    loser = next(p for p in record["players"] if p != record["result"]["winner"])
    record["result"]["winner"] = loser
    with pytest.raises(ReplayError, match=f"the record says {loser} won by finish"):
        RACE.replay(record)


def test_an_illegal_move_carries_its_index() -> None:
    record = played_record()
    record["moves"][2]["move"] = "add 99"
    with pytest.raises(ReplayError) as raised:
        RACE.replay(record)
    assert raised.value.index == 2


def test_an_unfinished_record_may_end_in_a_draw_or_a_timeout() -> None:
    record = played_record()
    record["moves"] = record["moves"][:3]
    record["result"] = {"winner": None, "reason": "draw"}
    assert RACE.result(RACE.replay(record)).reason == "draw"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "zarkcity"}, "this is a zarkcity file, not race"),
        ({"format": "race-game/2"}, "format must be 'race-game/1'"),
        ({"players": ["red", "red"]}, "distinct colours"),
        ({"players": ["red"]}, "seats 2, 3 players, not 1"),
        ({"seed": 7}, "seed must be text"),
        ({"result": {"winner": "red", "reason": "draw"}}, "a draw result has a winner"),
        ({"result": {"winner": "red", "reason": "finish", "scores": {"red": 1}}}, "keeps no scores"),
    ],
)
def test_malformed_records_name_the_fault(change: dict, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        RACE.replay({**played_record(), **change})


def test_a_timeout_recorded_as_resign_replays_as_a_timeout() -> None:
    record = played_record()
    record["moves"] = [*record["moves"][:3], {"by": "blue", "move": "resign"}]
    record["result"] = {"winner": "red", "reason": "timeout"}
    assert RACE.result(RACE.replay(record)).reason == "timeout"


def test_a_sealed_step_commits_until_the_last_seat() -> None:
    state = RACE.new_game(["red", "blue"], "s1", {})
    assert RACE.simultaneous(state) and RACE.movers(state) == ("red", "blue")
    assert not RACE.simultaneous(opened())


def test_describe_is_written_from_events() -> None:
    state = opened()
    after = RACE.apply(state, Step("pass"), "red")
    assert RACE.describe(Step("pass"), "red", state, after, None).startswith("red passes; blue threw ")


def test_a_secret_line_shows_only_to_its_seats_until_revealed() -> None:
    event = Event("draw", "red draws 2 cards", "red", secret="red draws 7H 3S", to=frozenset({"red"}))
    assert event.seen_by("red").text == "red draws 7H 3S"
    assert event.seen_by("blue").text == "red draws 2 cards"
    assert event.seen_by(None).text == "red draws 2 cards"
    assert event.seen_by(None, revealed=True).text == "red draws 7H 3S"


def test_determinize_reseeds_the_future_throws() -> None:
    state = opened()
    other = unseen_dealt(RACE, state, "blue", Rng.from_text("d"))
    assert other.seed != state.seed and other.runners == state.runners


def test_a_sealed_commitment_cannot_be_changed_in_a_record() -> None:
    record = RACE.make_record(["red", "blue"], {}, "s1", [("red", "bid 3"), ("red", "bid 1")], None)
    with pytest.raises(ReplayError, match="cannot be changed") as raised:
        RACE.replay(record)
    assert raised.value.index == 1


def test_a_resignation_at_a_sealed_step_resolves_the_others_commitments() -> None:
    moves = [("red", "bid 3"), ("yellow", "bid 1"), ("blue", "resign")]
    final = RACE.replay(RACE.make_record(["red", "yellow", "blue"], {}, "s1", moves, None))
    assert final.bids == (("red", 3), ("yellow", 1)) and final.to_move == "red" and final.resigned == ("blue",)


def test_a_kit_game_has_only_the_capabilities_it_implements() -> None:
    assert not isinstance(RACE, (Hands, CardFaces, Hidden))


class TiedRace(Race):
    """The race where runners may finish together: its rules end in a tie (a Result of several winners)."""

    info = replace(Race.info, id="tiedrace", reasons=(*Race.info.reasons, "tie"))
    TIE_REASONS = ("tie",)


TIED = TiedRace()


def test_a_result_with_several_winners_is_recorded_as_a_tie() -> None:
    tied = TIED.finish(opened(), Result(winners=("red", "blue"), reason="tie"))
    assert TIED.record_result(tied) == {"winner": None, "reason": "tie", "tied": ["red", "blue"]}


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"winner": None, "reason": "tie", "tied": ["red"]}, "lists two or more players as tied"),
        ({"winner": "red", "reason": "tie", "tied": ["red", "blue"]}, "a tie names no winner"),
        ({"winner": None, "reason": "tie", "tied": ["red", "green"]}, "result tied must be one of the players"),
        ({"winner": "red", "reason": "finish", "tied": ["red", "blue"]}, "a finish result lists no tied players"),
    ],
)
def test_a_malformed_tie_names_the_fault(result: dict, message: str) -> None:
    record = {**played_record(), "game": "tiedrace", "format": "tiedrace-game/1", "result": result}
    with pytest.raises(PositionError, match=message):
        TIED.replay(record)


def test_a_false_tie_is_refused() -> None:
    record = {**played_record(), "game": "tiedrace", "format": "tiedrace-game/1"}
    record["result"] = {"winner": None, "reason": "tie", "tied": ["red", "blue"]}
    with pytest.raises(ReplayError, match="the record says no winner \\(tie\\), but after .* won by finish"):
        TIED.replay(record)
