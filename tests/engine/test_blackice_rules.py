"""Black ICE's rules, one row per rule, REC ruling and scenario of ../shared/spec/blackice.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from blackice_helpers import make, moves, steps

from engine.blackice import rules
from engine.blackice.game import GAME
from engine.blackice.notation import parse
from engine.blackice.state import BOX, FACES, die, first_player, new_code, starting_codes
from engine.errors import IllegalMoveError, NotationError
from engine.kit.core import Chance, Hidden
from engine.kit.steps import play_line
from engine.shuffle import shuffled

RED_KEYS = {"red": ["green", "red", "green"], "blue": [None, None, None]}


def codes(state: object) -> list[str]:
    return [lock.code for lock in state.locks]  # type: ignore[attr-defined]


def thrown(faces: list[str], **changes: object) -> tuple[str, ...]:
    state = make(**changes)  # type: ignore[arg-type]
    return rules.actions_of_throw(state, "red", faces)


# --- equipment and setup -------------------------------------------------------------------------


def rec_b1_keys() -> None:
    """Each seat has 12 Keys, 3 of each colour; any password can be set (REC-B1, REC-B3)."""
    state = make()
    assert all(state.supply(seat, c) == 3 for seat in ("red", "blue") for c in ("red", "yellow", "green", "blue"))
    state, _ = steps(
        make(actions=["hop", "wild", "wild"], throw=["hop", "wild", "wild"]), "set 1 red; set 2 red; set 3 red"
    )
    assert state.keys_of("red") == ("red", "red", "red") and state.supply("red", "red") == 0


def rec_b2_key_i_against_code_i() -> None:
    state = make(codes=("green", "red", "blue"), keys={"red": ["blue", "red", "green"], "blue": [None] * 3})
    after, _ = steps(state, "declare")
    assert after.outcome is not None and after.outcome.winner == "blue"


def rec_b3_codes_may_repeat() -> None:
    seeds = [f"s{n}" for n in range(200)]
    dealt = [starting_codes(seed) for seed in seeds]
    assert all(Counter(locks + box) == Counter(BOX) and len(box) == 9 for locks, box in dealt)
    assert any(len(set(locks)) < 3 for locks, _ in dealt)
    locks, box = starting_codes("demo")
    assert list(locks) == list(shuffled(BOX, "demo", 1)[:3])


def rec_b4_who_starts() -> None:
    players = ("red", "blue")
    starters = {first_player(players, f"s{n}") for n in range(40)}
    assert starters == {"red", "blue"}
    state = GAME.new_game(["red", "blue"], "demo", {})
    assert state.first_player == state.to_move == shuffled(players, "demo", 0)[0]


def random_events_dice() -> None:
    state = GAME.new_game(["red", "blue"], "demo", {})
    assert state.throw == tuple(die("demo", k) for k in range(3)) and state.draws == 3
    assert die("demo", 5) == shuffled(list(FACES), "demo", 105)[0]


def turn_1_duplicates_wild() -> None:
    assert rules.duplicates_wild(["hop", "hop", "tip"]) == ("hop", "wild", "tip")
    assert rules.duplicates_wild(["dig", "dig", "dig"]) == ("dig", "wild", "wild")


def scenario_1_tip_hop_hop() -> None:
    assert thrown(["tip", "hop", "hop"]) == ("tip", "hop", "wild")


def scenario_2_dig_dig_dig() -> None:
    assert thrown(["dig", "dig", "dig"], marks=(["red"], [], [])) == ("wild", "wild", "wild")


def scenario_3_aim_when_blue_has_no_keys() -> None:
    assert thrown(["aim", "swap", "tip"]) == ("wild", "swap", "tip")


def scenario_4_tip_when_all_peeked() -> None:
    assert thrown(["tip", "swap", "aim"], marks=(["red"], ["red"], ["red"])) == ("wild", "swap", "wild")


def rec_b5_null_is_decided_at_the_throw() -> None:
    """dig stays when blue peeked a Lock; aim stays when blue holds a Key red lacks; swap and hop never null."""
    assert thrown(
        ["dig", "aim", "hop"], marks=([], ["blue"], []), keys={"red": [None] * 3, "blue": [None, "red", None]}
    ) == (
        "dig",
        "aim",
        "hop",
    )
    assert thrown(["aim", "swap", "hop"], keys={"red": [None, "red", None], "blue": [None, "red", None]})[0] == "wild"
    assert thrown(["swap", "hop", "tip"], marks=(["red"], ["red"], ["red"]))[:2] == ("swap", "hop")


def rec_b6_own_face_first() -> None:
    state = make(throw=["tip", "wild", "hop"], actions=["tip", "wild", "hop"])
    after, _ = steps(state, "peek 1")
    assert after.used == (True, False, False)
    after, _ = steps(after, "set 1 red")
    assert after.used == (True, False, True)


def rec_b7_nothing_to_do_not_offered() -> None:
    state = make(keys={"red": ["yellow", "yellow", None], "blue": [None] * 3}, marks=(["red"], [], []))
    listed = moves(state)
    assert "set 1 yellow" not in listed and "swap keys 1 2" not in listed and "peek 1" not in listed
    assert [m for m in listed if m.startswith("peek")] == ["peek 2", "peek 3"]


def scenario_5_swap_carries_the_mark() -> None:
    state = make(
        codes=("green", "red", "blue"),
        marks=(["red"], [], []),
        to_move="blue",
        throw=["swap", "hop", "tip"],
        actions=["swap", "hop", "tip"],
    )
    after, _ = steps(state, "swap locks 1 3", "blue")
    shown = GAME.view(after, "red")["locks"]  # type: ignore[typeddict-item]
    assert shown[2] == {"code": "green", "peeked_by": ["red"]} and shown[0]["code"] is None


def scenario_6_reset() -> None:
    state = make(
        codes=("yellow", "green", "blue"),
        marks=([], ["red", "blue"], []),
        throw=["dig", "hop", "tip"],
        actions=["dig", "hop", "tip"],
    )
    box = state.box
    after, events = steps(state, "reset 2")
    expected = new_code(box, "demo", 3)
    assert after.locks[1].code == expected and after.locks[1].peeked_by == () and after.draws == 4
    assert Counter(after.box) == Counter(box) - Counter([expected]) + Counter(["green"])
    reset = next(e for e in events if e.kind == "reset")
    assert reset.text == "red resets Lock 2 (the old Code was green)"
    for viewer in ("red", "blue", None):
        assert reset.seen_by(viewer).text == reset.text
    only_red: tuple[list[str], ...] = (["red"], [], [])
    for marks in (only_red, ([], [], [])):
        with pytest.raises(IllegalMoveError):
            steps(make(marks=marks, throw=["dig", "hop", "tip"], actions=["dig", "hop", "tip"]), "reset 1")


def rec_b8_reset_only_opponents_mark() -> None:
    state = make(marks=(["red"], ["blue"], []), throw=["dig", "hop", "tip"], actions=["dig", "hop", "tip"])
    assert [m for m in moves(state) if m.startswith("reset")] == ["reset 2"]


def scenario_7_set_replaces() -> None:
    state = make(keys={"red": [None, "yellow", None], "blue": [None] * 3})
    after, events = steps(state, "set 2 green")
    assert after.keys_of("red")[1] == "green" and after.supply("red", "yellow") == 3
    assert "yellow goes back" in events[0].text
    with pytest.raises(IllegalMoveError):
        steps(state, "set 2 yellow")


def scenario_8_swap_keys_needs_two_colours() -> None:
    with pytest.raises(IllegalMoveError):
        steps(make(keys={"red": ["red", "blue", None], "blue": [None] * 3}), "swap keys 1 3")
    with pytest.raises(IllegalMoveError):
        steps(make(keys={"red": ["red", "blue", "red"], "blue": [None] * 3}), "swap keys 1 3")
    after, _ = steps(make(keys={"red": ["red", "blue", "green"], "blue": [None] * 3}), "swap keys 1 3")
    assert after.keys_of("red") == ("green", "blue", "red")


def scenario_9_second_peek_uses_the_wild() -> None:
    state = make(throw=["tip", "swap", "wild"], actions=["tip", "swap", "wild"])
    after, _ = steps(state, "peek 1; peek 2")
    assert after.to_move == "red" and after.used == (True, False, True)
    assert {m.split()[0] for m in moves(after)} == {"swap", "pass", "resign"}


def scenario_10_copy() -> None:
    state = make(
        keys={"red": [None] * 3, "blue": ["blue", None, None]},
        throw=["aim", "hop", "tip"],
        actions=["aim", "hop", "tip"],
    )
    after, _ = steps(state, "copy 1")
    assert after.keys_of("red")[0] == "blue"
    with pytest.raises(IllegalMoveError):
        steps(state, "copy 2")


def scenario_11_declare() -> None:
    win, events = steps(make(codes=("green", "red", "green"), keys=RED_KEYS), "declare")
    assert win.outcome is not None and (win.outcome.winner, win.outcome.reason) == ("red", "declaration")
    lose, lost = steps(make(codes=("green", "red", "blue"), keys=RED_KEYS), "declare")
    assert lose.outcome is not None and (lose.outcome.winner, lose.outcome.reason) == ("blue", "wrong declaration")
    for said in (events, lost):
        assert "Lock 1 green, Lock 2 red" in said[0].seen_by("blue").text
    assert GAME.view(lose, "blue")["locks"][2]["code"] == "blue"  # type: ignore[typeddict-item]
    with pytest.raises(IllegalMoveError):
        steps(make(), "declare")


def rec_b10_declare_only_with_three_keys() -> None:
    state = make(keys={"red": ["green", "red", None], "blue": [None] * 3})
    assert "declare" not in moves(state)
    assert "declare" in moves(make(keys=RED_KEYS))


def scenario_12_third_action() -> None:
    state = make(keys={"red": ["green", "red", None], "blue": [None] * 3})
    full, _ = steps(state, "set 3 green; swap locks 1 2; peek 1")
    assert full.to_move == "red" and moves(full) == ["declare", "pass", "resign"]
    short, events = steps(state, "set 1 blue; swap locks 1 2; peek 1")
    assert short.to_move == "blue" and events[-1].kind == "throw" and events[-1].seat == "blue"


def scenario_13_pass() -> None:
    after, events = steps(make(), "peek 2; pass")
    assert after.to_move == "blue" and after.used == (False, False, False)
    assert [e.kind for e in events] == ["peek", "pass", "throw"]


def rec_b9_pass_after_turn_end_ignored() -> None:
    state = make(keys={"red": ["green", "red", None], "blue": [None] * 3})
    played = play_line(GAME, state, "set 1 blue; swap locks 1 2; peek 1; pass", "red")
    assert len(played) == 3 and played[-1].state.to_move == "blue"
    with pytest.raises(IllegalMoveError, match="step 4"):
        play_line(GAME, state, "set 1 blue; swap locks 1 2; peek 1; peek 2", "red")
    with pytest.raises(IllegalMoveError, match="step 2"):
        play_line(GAME, make(codes=("green", "red", "green"), keys=RED_KEYS), "declare; pass", "red")


def scenario_14_peek_views() -> None:
    after, events = steps(make(codes=("green", "yellow", "blue")), "peek 2")
    assert GAME.view(after, "blue")["locks"][1] == {"code": None, "peeked_by": ["red"]}  # type: ignore[typeddict-item]
    assert GAME.view(after, "red")["locks"][1] == {"code": "yellow", "peeked_by": ["red"]}  # type: ignore[typeddict-item]
    peek = events[0]
    assert peek.seen_by("blue").text == "red peeked Lock 2" and peek.seen_by(None).text == "red peeked Lock 2"
    assert peek.seen_by("red").text.endswith("yellow") and peek.seen_by("red").data["code"] == "yellow"


def rec_b11_marks_vanish_on_reset() -> None:
    state = make(marks=(["red"], ["red", "blue"], []), throw=["dig", "swap", "tip"], actions=["dig", "swap", "tip"])
    after, _ = steps(state, "swap locks 2 3; reset 3")
    assert [lock.peeked_by for lock in after.locks] == [("red",), (), ()]


def line_after_peek_goes_on() -> None:
    after, _ = steps(make(), "peek 1; swap locks 1 2; set 1 red")
    assert after.locks[1].peeked_by == ("red",) and after.to_move == "blue"


def only_the_mover_moves() -> None:
    state = make()
    assert moves(state, "blue") == ["resign"]
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, parse("pass"), "blue")


def end_by_service_rulings() -> None:
    state = make()
    gone = GAME.resign(state, "red")
    assert gone.outcome is not None and (gone.outcome.winner, gone.outcome.reason) == ("blue", "resignation")
    drawn = GAME.agree_draw(state)
    assert drawn.outcome is not None and drawn.outcome.winners == () and drawn.outcome.reason == "draw"
    out = GAME.resign(state, "blue", "timeout")
    assert out.outcome is not None and (out.outcome.winner, out.outcome.reason) == ("red", "timeout")


def notation_canonical_and_aliases() -> None:
    pairs = {
        "TIP 2": "peek 2",
        "swap lock 3 1": "swap locks 1 3",
        "Swap Key 2 1": "swap keys 1 2",
        "hop 2 r": "set 2 red",
        "set 1 Y": "set 1 yellow",
        "dig 3": "reset 3",
        "aim 2": "copy 2",
        "Declare": "declare",
        " pass ": "pass",
    }
    for text, canonical in pairs.items():
        assert str(parse(text)) == canonical
    for bad in ("peek 4", "peek", "swap locks 1 1", "swap 1 2", "set 2 purple", "set 2", "jump 1", "pass now", ""):
        with pytest.raises(NotationError):
            parse(bad)


def moves_listed_in_order() -> None:
    state = make(
        keys={"red": ["red", "blue", None], "blue": ["green", None, None]},
        marks=(["blue"], [], []),
        throw=["wild", "wild", "wild"],
        actions=["wild", "wild", "wild"],
    )
    listed = moves(state)
    actions = listed[:-2]
    assert actions == sorted(actions) and listed[-2:] == ["pass", "resign"]
    assert {"copy 1", "peek 1", "reset 1", "swap keys 1 2", "swap locks 2 3"} <= set(actions)
    assert len([m for m in actions if m.startswith("set")]) == 10


def public_lines_name_no_code() -> None:
    state = make(codes=("green", "yellow", "blue"))
    _, events = steps(state, "peek 1; swap locks 1 2; set 1 red")
    for event in events:
        for word in ("green", "yellow"):
            assert word not in event.seen_by("blue").text and word not in event.seen_by(None).text


def capabilities_hidden_and_chance() -> None:
    assert isinstance(GAME, Hidden) and isinstance(GAME, Chance)
    state = make()
    assert GAME.reseed(state, "other").seed == "other" and GAME.reseed(state, "other").locks == state.locks


ROWS: list[Callable[[], None]] = [
    capabilities_hidden_and_chance,
    rec_b1_keys,
    rec_b2_key_i_against_code_i,
    rec_b3_codes_may_repeat,
    rec_b4_who_starts,
    random_events_dice,
    turn_1_duplicates_wild,
    scenario_1_tip_hop_hop,
    scenario_2_dig_dig_dig,
    scenario_3_aim_when_blue_has_no_keys,
    scenario_4_tip_when_all_peeked,
    rec_b5_null_is_decided_at_the_throw,
    rec_b6_own_face_first,
    rec_b7_nothing_to_do_not_offered,
    scenario_5_swap_carries_the_mark,
    scenario_6_reset,
    rec_b8_reset_only_opponents_mark,
    scenario_7_set_replaces,
    scenario_8_swap_keys_needs_two_colours,
    scenario_9_second_peek_uses_the_wild,
    scenario_10_copy,
    scenario_11_declare,
    rec_b10_declare_only_with_three_keys,
    scenario_12_third_action,
    scenario_13_pass,
    rec_b9_pass_after_turn_end_ignored,
    scenario_14_peek_views,
    rec_b11_marks_vanish_on_reset,
    line_after_peek_goes_on,
    only_the_mover_moves,
    end_by_service_rulings,
    notation_canonical_and_aliases,
    moves_listed_in_order,
    public_lines_name_no_code,
]


@pytest.mark.parametrize("rule", ROWS, ids=[row.__name__ for row in ROWS])
def test_rule(rule: Callable[[], None]) -> None:
    rule()
