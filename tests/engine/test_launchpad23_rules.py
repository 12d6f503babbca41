"""Launch Pad 23's rules: one row per rule, REC ruling and scenario of ../shared/spec/launchpad23.md."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.errors import IllegalMoveError, NotationError
from engine.kit import draw
from engine.kit.steps import play_line
from engine.launchpad23.game import GAME
from engine.launchpad23.rules import die, enter_moves, settle_part
from engine.launchpad23.state import COLOUR_FACES, COLOURS, PADS, PYRAMID_FACES, Piece
from engine.shuffle import shuffled
from tests.engine.launchpad23_helpers import THREE, seed_throwing, state, texts


def legal(board: dict[str, list[str]], seat: str = "red", **given: object) -> list[str]:
    return texts(GAME.legal_moves(state(board, **given), seat))


def refused(board: dict[str, list[str]], move: str, by: str = "red", **given: object) -> str:
    with pytest.raises(IllegalMoveError) as error:
        GAME.apply(state(board, **given), GAME.parse(move), by)
    return str(error.value)


def opened(players: tuple[str, ...], seed: str = "demo", size: str = "M") -> object:
    current = GAME.new_game(players, seed, {})
    for seat in players:
        current = GAME.apply(current, GAME.parse(f"start {size}"), seat)
    return current


# --- the scenarios ------------------------------------------------------------------------------
def scenario_1_setup() -> None:
    current = GAME.apply(GAME.new_game(("red", "blue"), "demo", {}), GAME.parse("start M"), "red")
    # Issue 27 over the spec's "hidden": blue cannot tell whether red has chosen.
    assert GAME.view(current, "blue")["starts"] == {"red": None, "blue": None}
    assert GAME.view(current, "blue")["movers"] == ["red", "blue"]
    assert texts(GAME.legal_moves(current, "red")) == ["resign"]
    outcome = GAME.step(current, GAME.parse("start L"), "blue")
    after = outcome.state
    assert after.cell("a1") == (Piece("red", "M"),) and after.cell("c3") == (Piece("blue", "L"),)
    assert after.first_player == shuffled(("red", "blue"), "demo", 0)[0] == after.to_move
    assert [e.kind for e in outcome.events][:4] == ["start", "opening", "first player", "throw"]


def scenario_2_atom_offers_ten() -> None:
    moves = legal({"a1": ["red:M"], "c3": ["blue:L"]}, phase="add", throw=("S/M", "atom"))
    assert moves == sorted(f"add {s} {c}" for s in "SM" for c in COLOURS) + ["resign"]
    after = GAME.apply(state({"a1": ["red:M"]}, phase="add", throw=("S/M", "atom")), GAME.parse("add S red"), "red")
    assert after.moves_left == 4 and after.cell("b2") == (Piece("red", "S"),)


def scenario_3_depot_piece_not_taken() -> None:
    board = {"a1": ["red:M"], "c3": ["blue:L", "red:L"], "b1": ["red:L"]}
    assert legal(board, phase="add", throw=("L", "red")) == ["add L red from blue", "reroll", "resign"]


def scenario_4_reroll_offers_nothing() -> None:
    seed = seed_throwing(2, "S", "green")
    board = {"a1": ["red:M"], "c3": ["blue:L", "red:L"], "b1": ["red:L", "green:S", "green:S"]}
    after = GAME.apply(state(board, phase="add", throw=("L", "red"), seed=seed), GAME.parse("reroll"), "red")
    assert after.throw == ("S", "green") and after.phase == "move" and after.moves_left == 2
    assert after.cell("b2") == () and "reroll" not in texts(GAME.legal_moves(after, "red"))


def scenario_5_three_ways() -> None:
    board = {"a1": ["red:M"], "a3": ["yellow:M", "blue:L"], "b1": ["blue:L", "blue:S"], "c3": ["green:M"]}
    moves = legal(board, players=THREE, phase="add", throw=("S/L", "blue"))
    assert moves == ["add L blue from yellow", "add S blue", "reroll", "resign"]


def scenario_6_engine_rethrows() -> None:
    before = state({"a1": ["red:M", "yellow:M", "yellow:M"]}, phase="add", throw=("M", "yellow"), dice=6)
    after = settle_part(before, ()).state
    assert after.rerolled and after.dice == 8
    assert "reroll" not in texts(GAME.legal_moves(after, "red"))


def scenario_7_other_pads_locked() -> None:
    board = {"a1": ["red:M", "blue:M"], "c3": ["blue:M"]}
    assert "blue's pad" in refused(board, "M blue c3-c2")
    assert GAME.apply(state(board), GAME.parse("M blue a1-b1"), "red").cell("b1") == (Piece("blue", "M"),)
    three = {"a1": ["red:M"], "a3": ["yellow:M"], "c3": ["green:M"], "c1": ["black:S"]}
    assert "S black c1-b1" in legal(three, players=THREE)
    assert "S black c1-b1" in legal(three, "yellow", players=THREE, to_move="yellow")


def scenario_8_any_piece_of_a_tower() -> None:
    board = {"b2": ["green:S", "red:M", "green:L"], "a1": ["red:M"]}
    assert GAME.apply(state(board), GAME.parse("M red b2-a2"), "red").cell("a2") == (Piece("red", "M"),)
    assert "not next to" in refused(board, "M red b2-a1")
    assert "not next to" in refused(board, "M red a1-c1")


def scenario_9_win_in_another_turn() -> None:
    board = {"a1": ["red:M"], "c3": ["red:S", "yellow:S", "green:S", "blue:S"], "c2": ["black:S"]}
    after = GAME.apply(state(board, moves_left=2), GAME.parse("S black c2-c3"), "red")
    assert GAME.result(after) is not None and after.winners == ("blue",) and after.reason == "rocket"
    events = GAME.step(state(board, moves_left=2), GAME.parse("S black c2-c3"), "red").events
    assert [(e.kind, e.seat) for e in events] == [("move", "red"), ("launch", "blue"), ("end", "blue")]


def scenario_10_six_pieces_no_rocket() -> None:
    pad = [f"{c}:S" for c in COLOURS] + ["red:M"]
    current = state({"a1": pad}, moves_left=2)
    assert GAME.result(current) is None
    after = GAME.apply(current, GAME.parse("M red a1-a2"), "red")
    assert after.winners == ("red",)


def scenario_11_taking_makes_a_rocket() -> None:
    board = {"a1": ["red:M"], "c3": [f"{c}:L" for c in COLOURS] + ["black:S"], "b1": ["black:S"]}
    current = state(board, phase="add", throw=("S", "black"))
    assert "add S black from blue" in legal(board, phase="add", throw=("S", "black"))
    assert GAME.apply(current, GAME.parse("add S black from blue"), "red").winners == ("blue",)


def scenario_12_failure() -> None:
    board = {"a1": ["red:M", "red:S", "blue:L"], "b1": ["black:S"]}
    after = GAME.apply(state(board, moves_left=3), GAME.parse("failure"), "red")
    assert after.cell("a1") == () and after.moves_left == 2 and after.in_bank(Piece("red", "M")) == 2
    assert "REC-L7" in refused({"b1": ["red:M"]}, "failure")


def scenario_13_line_with_pass() -> None:
    board = {"a1": ["red:M"], "a3": ["yellow:M"], "c3": ["green:M"], "b2": ["red:S"]}
    played = play_line(GAME, state(board, players=THREE, moves_left=3), "S red b2-b1; pass", "red")
    assert [p.text for p in played] == ["S red b2-b1", "pass"]
    assert played[-1].state.to_move == "yellow" and any(e.kind == "throw" for e in played[-1].events)


def scenario_14_resigned_pad_is_a_depot() -> None:
    board = {"a1": ["red:M"], "a3": ["yellow:M", "red:S", "blue:S", "green:S", "black:S"], "c3": ["green:M"]}
    left = GAME.resign(state(board, players=THREE, moves_left=2), "yellow")
    assert left.pad_owner("a3") is None and "S red a3-a2" in texts(GAME.legal_moves(left, "red"))
    assert GAME.result(GAME.apply(left, GAME.parse("S red a3-b3"), "red")) is None
    yellow_board = {"a1": ["red:M"], "a3": ["yellow:M", "yellow:L"], "b1": ["yellow:L"], "c3": ["green:M"]}
    gone = GAME.resign(state(yellow_board, players=THREE, phase="add", throw=("L", "yellow")), "yellow")
    assert not any("from yellow" in text for text in texts(GAME.legal_moves(gone, "red")))


SCENARIOS = [value for name, value in sorted(globals().items()) if name.startswith("scenario_")]


@pytest.mark.parametrize("check", SCENARIOS, ids=lambda check: check.__name__)
def test_scenario(check: Callable[[], None]) -> None:
    check()


# --- the rules and rulings ----------------------------------------------------------------------
def rule_rec_l1_pads() -> None:
    assert PADS == {2: ("a1", "c3"), 3: ("a1", "a3", "c3"), 4: ("a1", "a3", "c3", "c1")}
    four = opened(("red", "yellow", "green", "blue"))
    assert [four.pad(seat) for seat in four.players] == ["a1", "a3", "c3", "c1"]


def rule_rec_l2_tower_unordered() -> None:
    board = {"b2": ["red:L", "blue:S"]}
    assert "L red b2-b1" in legal(board) and "S blue b2-b1" in legal(board)


def rule_rec_l3_any_order_then_at_once() -> None:
    players = ("red", "yellow", "green")
    current = GAME.new_game(players, "x", {})
    for seat in ("green", "red"):
        current = GAME.apply(current, GAME.parse("start S"), seat)
        assert current.board == tuple(() for _ in range(9))
    assert GAME.movers(current) == ("yellow",)
    done = GAME.apply(current, GAME.parse("start L"), "yellow")
    assert done.cell("a3") == (Piece("yellow", "L"),) and done.phase in ("add", "move")


def rule_pick_cannot_change() -> None:
    current = GAME.apply(GAME.new_game(("red", "blue"), "x", {}), GAME.parse("start M"), "red")
    with pytest.raises(IllegalMoveError, match="cannot be changed"):
        GAME.apply(current, GAME.parse("start S"), "red")


def rule_a_pick_is_no_ones_turn() -> None:
    before = GAME.new_game(THREE, "x", {})
    after = GAME.apply(before, GAME.parse("start S"), "red")
    assert not GAME.continues_turn(before, after)
    moving = state({"a1": ["red:M"]}, moves_left=2)
    assert GAME.continues_turn(moving, GAME.apply(moving, GAME.parse("M red a1-b1"), "red"))


def rule_rec_l4_first_player_from_seed() -> None:
    for seed in ("a", "b", "c", "d"):
        assert opened(THREE, seed).first_player == shuffled(THREE, seed, 0)[0]


def rule_dice_from_seed() -> None:
    after = opened(("red", "blue"), "dice")
    assert after.throw is not None
    first = (die("dice", 0, PYRAMID_FACES), die("dice", 1, COLOUR_FACES))
    assert first == (shuffled(PYRAMID_FACES, "dice", 100)[0], shuffled(COLOUR_FACES, "dice", 101)[0])


def rule_rec_l5_from_pad_beside_bank_kind() -> None:
    board = {"a1": ["red:M"], "c3": ["blue:L", "green:S"], "b1": ["green:S"]}
    moves = legal(board, phase="add", throw=("S", "atom"))
    assert "add S green from blue" in moves and "add S red" in moves


def rule_rec_l6_reroll_only_with_shortage() -> None:
    assert "no reroll" in refused({"a1": ["red:M"]}, "reroll", phase="add", throw=("S/M", "atom"))
    board = {"a1": ["red:M"], "c3": ["red:S"], "b1": ["red:S"]}
    assert "already rerolled" in refused(board, "reroll", phase="add", throw=("S/M", "red"), rerolled=True)


def rule_rec_l7_failure_needs_a_piece() -> None:
    assert "failure" not in legal({"b1": ["red:M"]}) and "failure" in legal({"a1": ["red:M"]})


def rule_rec_l8_rocket_checked_after_automatic_add() -> None:
    board = {"a1": ["red:M"], "c3": [f"{c}:L" for c in COLOURS] + ["black:S"], "b1": ["black:S"]}
    rethrown = state(board, phase="add", throw=("S", "black"), rerolled=True)
    assert settle_part(rethrown, ()).state.winners == ("blue",)


def rule_moves_two_three_four() -> None:
    for throw, count in ((("S", "red"), 2), (("S/M", "red"), 3), (("L", "atom"), 3), (("S/L", "atom"), 4)):
        assert enter_moves(state({"a1": ["red:M"]}, phase="add", throw=throw), ()).state.moves_left == count


def rule_no_throw_offered_kind() -> None:
    assert "does not offer" in refused({"a1": ["red:M"]}, "add M red", phase="add", throw=("S", "red"))


def rule_bank_first_for_from() -> None:
    message = refused({"a1": ["red:M"], "c3": ["red:S"]}, "add S red from blue", phase="add", throw=("S", "red"))
    assert "the Bank has" in message


def rule_never_own_pad_or_depot() -> None:
    board = {"a1": ["red:S"], "b1": ["red:S"]}
    assert "another seated player's pad" in refused(board, "add S red from red", phase="add", throw=("S", "red"))


def rule_part_first() -> None:
    assert "first add a part" in refused({"a1": ["red:M"]}, "pass", phase="add", throw=("S", "atom"))


def rule_no_add_in_moves() -> None:
    assert "already settled" in refused({"a1": ["red:M"]}, "add S red")


def rule_not_your_turn() -> None:
    assert "not blue's turn" in refused({"a1": ["red:M"]}, "pass", by="blue")


def rule_turn_ends_when_moves_spent() -> None:
    after = GAME.apply(state({"a1": ["red:M"]}, moves_left=1), GAME.parse("M red a1-b1"), "red")
    assert after.to_move == "blue" and after.turns == 1 + state({}).turns


def rule_turn_ends_when_nothing_legal() -> None:
    after = enter_moves(state({"c3": ["blue:M", "red:M"]}, phase="add", throw=("S", "red")), ()).state
    assert after.to_move == "blue"


def rule_moves_list_order() -> None:
    moves = legal({"a1": ["red:M"]})
    assert moves == ["M red a1-a2", "M red a1-b1", "failure", "pass", "resign"]
    assert legal({"a1": ["red:M"]}, "blue") == ["resign"]


def rule_reroll_last_on_line() -> None:
    board = {"a1": ["red:M"], "c3": ["red:S"], "b1": ["red:S"]}
    with pytest.raises(IllegalMoveError, match="must be last"):
        play_line(GAME, state(board, phase="add", throw=("S", "red")), "reroll; pass", "red")


def rule_line_all_or_nothing() -> None:
    with pytest.raises(IllegalMoveError, match=r"step 2 \(M red b2-a1\)"):
        play_line(GAME, state({"b2": ["red:M"]}, moves_left=3), "M red b2-b1; M red b2-a1", "red")


def rule_trailing_pass_ignored_other_step_refused() -> None:
    played = play_line(GAME, state({"a1": ["red:M"]}, moves_left=1), "M red a1-b1; pass", "red")
    assert [p.text for p in played] == ["M red a1-b1"]
    with pytest.raises(IllegalMoveError, match="after your turn"):
        play_line(GAME, state({"a1": ["red:M"]}, moves_left=1), "M red a1-b1; M red b1-a1", "red")


def rule_notation_forms() -> None:
    for text in ("red M b2-b1", "M RED b2b1", "m red b2 b1", "M red B2-B1"):
        assert str(GAME.parse(text)) == "M red b2-b1"
    assert str(GAME.parse("ADD red m FROM Blue")) == "add M red from blue"
    for bad in ("M red b2-d1", "X red b2-b1", "add M pink", "start Q", "fly"):
        with pytest.raises(NotationError):
            GAME.parse(bad)


def rule_resign_in_setup_drops_choice() -> None:
    current = GAME.apply(GAME.new_game(THREE, "x", {}), GAME.parse("start S"), "red")
    current = GAME.apply(current, GAME.parse("start M"), "yellow")
    left = GAME.resign(current, "yellow")
    assert left.start_of("yellow") is None and left.phase == "start"
    done = GAME.resign(GAME.apply(GAME.new_game(THREE, "x", {}), GAME.parse("start S"), "red"), "green")
    assert done.phase == "start" and GAME.movers(done) == ("yellow",)


def rule_resign_completes_setup() -> None:
    current = GAME.apply(GAME.new_game(THREE, "x", {}), GAME.parse("start S"), "red")
    current = GAME.apply(current, GAME.parse("start M"), "yellow")
    left = GAME.resign(current, "green")
    assert left.phase != "start" and left.cell("c3") == () and left.first_player in ("red", "yellow")


def rule_resign_on_turn_passes_it() -> None:
    board = {"a1": ["red:M"], "a3": ["yellow:M"], "c3": ["green:M"]}
    assert GAME.resign(state(board, players=THREE), "red").to_move == "yellow"


def rule_last_player_wins() -> None:
    after = GAME.resign(state({"a1": ["red:M"]}), "red")
    assert (after.winners, after.reason) == (("blue",), "resignation")


def rule_timeout_and_draw() -> None:
    assert GAME.resign(state({"a1": ["red:M"]}), "red", "timeout").reason == "timeout"
    drawn = GAME.agree_draw(state({"a1": ["red:M"]}))
    assert GAME.result(drawn) is not None and drawn.winners == () and drawn.reason == "draw"


RULES = [value for name, value in sorted(globals().items()) if name.startswith("rule_")]


@pytest.mark.parametrize("check", RULES, ids=lambda check: check.__name__)
def test_rule(check: Callable[[], None]) -> None:
    check()


def test_the_scene_draws_the_complex_the_pieces_and_the_dice() -> None:
    shown = GAME.view(state({"a1": ["red:M", "blue:S"], "b2": ["green:L"]}, throw=("S/M", "atom"), moves_left=3), "red")
    scene = GAME.scene(shown)
    assert {"a1", "b2", "c3"} <= draw.targets(scene)
    assert [item.face for item in scene.items if isinstance(item, draw.Die)] == ["S/M", "atom"]
    assert "rM" in GAME.board_text(shown) and "<svg" in GAME.board_svg(shown, interactive=True)
    steps = GAME.click_steps(shown, ["M red a1-b1", "pass"])
    assert [step["path"] for step in steps] == [["a1:red:M", "b1"], []]  # the piece, then its cell
    assert GAME.move_kind(GAME.parse("M red a1-b1")) == "move"
