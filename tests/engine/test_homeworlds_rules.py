"""Homeworlds' rules as a table: one row per rule, REC ruling and tricky scenario of
../shared/spec/homeworlds.md (ids name them), each a position, a line of steps and what must follow.

A row either refuses its line (`refused`: a piece of the message) or plays it and checks the
result (`then`). Lines go through `play_line`: all or nothing, like the web form and email replies.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

import pytest
from homeworlds_helpers import NORTH, SOUTH, in_play, play, position, ships

from engine.errors import IllegalMoveError, NotationError
from engine.homeworlds.game import GAME
from engine.homeworlds.notation import Catastrophe, Done, parse
from engine.homeworlds.state import State
from engine.kit.base import RESIGN
from engine.shuffle import shuffled

END = {"catastrophes": "end"}
ILLEGAL = {"suicide": "illegal"}
FREE = {"setup": "free"}


class Case(NamedTuple):
    id: str
    systems: tuple[str, ...]
    line: str
    by: str = "red"
    options: dict[str, str] = {}
    refused: str = ""  # a piece of the refusal's message
    then: Callable[[State], bool] | None = None


def yellow_moves(state: State) -> bool:
    return state.to_move == "yellow" and state.stage == "start"


def won_by(winner: str | None, reason: str = "homeworld") -> Callable[[State], bool]:
    return lambda state: state.stage == "over" and (state.winner, state.reason) == (winner, reason)


SMALL_GREENS_GONE = ("North@yellow: y2 b1 / - / g3 g1", SOUTH, "Lorem: g1 / g3 / -", "Ipsum: r3 / g1 / -")
ICHAR = ("North@yellow: y2 b1 / - / g3 y1", SOUTH, "Ichar: y1 / g2 / -", "Ultramar: b3 / y1 / -")
LONE_Y3_AT_NORTH = ("North@yellow: y2 b1 / - / y3", SOUTH, "Lorem: g3 / - / r1")
BOTH_HOMES_AT_STAKE = ("North@yellow: y2 b1 / - / r1", "South@red: g2 b3 / g1 / y3")
LAST_SHIP_AT_NORTH = ("North@yellow: y2 b1 / r2 / g1", "South@red: g2 b3 / y3 r2 / -")
YELLOW_G3_AT_NORTH = ("North@yellow: y2 b1 / - / g3", SOUTH)
GREEN_INTO_LOREM = (NORTH, "South@red: g2 b3 / y3 g1 r1 r2 / -", "Lorem: g1 / - / g3 g2", "Ipsum: y1 / - / y3")
RED_AT_LOREM = "Lorem: b1 / y1 / -"  # connected to South (g2 b3), not to North (y2 b1)
CASES = [
    # REC-H1: the bank, 3 of each piece
    Case(
        "H1-bank-lacks-the-piece",
        (NORTH, "South@red: g2 b3 / y3 g1 / -", "Lorem: r1 / r1 / r1"),
        "trade g1 r1 South",
        refused="the bank has no r1",
    ),
    Case(
        "H1-trade-from-the-bank",
        (NORTH, SOUTH),
        "trade y3 b3 South",
        then=lambda s: ships(s, "South", "red") == ("b3",) and s.bank["y3"] == 3 and s.bank["b3"] == 1,
    ),
    # Connection: no star of one has the size of a star of the other
    Case(
        "connected-move",
        (NORTH, SOUTH, "Lorem: b1 / y1 / -", "Ipsum: r1 / - / g1"),
        "move y1 Lorem South",
        then=lambda s: "y1" in ships(s, "South", "red"),
    ),
    Case("not-connected-move", (NORTH, SOUTH, "Lorem: b2 / y1 / -"), "move y1 Lorem South", refused="not connected"),
    # REC-H2: forgetting
    Case(
        "H2-empty-system-is-forgotten",
        (NORTH, SOUTH, RED_AT_LOREM),
        "move y1 Lorem South",
        then=lambda s: not in_play(s, "Lorem") and s.bank["b1"] == 2,
    ),
    Case(
        "H2-forgotten-mid-turn",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM),
        "sacrifice y3 South; move y1 Lorem South; discover y1 South r1 Ipsum; move y1 Ipsum South",
        then=lambda s: not in_play(s, "Lorem") and not in_play(s, "Ipsum") and "y1" in ships(s, "South", "red"),
    ),
    Case(
        "H2-homeworld-never-forgotten",
        (NORTH, SOUTH, "Lorem: b1 / - / g1"),
        "move y3 South Lorem",
        then=lambda s: in_play(s, "South") and won_by("yellow")(s),
    ),
    # REC-H5: colour access
    Case("H5-enemy-ship-gives-no-colour", (NORTH, SOUTH, "Lorem: b1 / r1 / g3"), "build r1 Lorem", refused="no green"),
    Case(
        "H5-own-ship-gives-colour",
        (NORTH, SOUTH, "Lorem: b1 / g1 / -"),
        "build g1 Lorem",
        then=lambda s: ships(s, "Lorem", "red") == ("g1", "g1"),
    ),
    Case(
        "H5-star-gives-colour",
        (NORTH, SOUTH),
        "build y1 South",
        then=lambda s: ships(s, "South", "red") == ("y1", "y3"),
    ),
    # REC-H6 and scenario 1: build the smallest of a colour you have there
    Case("H6-build-needs-your-ship-of-the-colour", (NORTH, SOUTH), "build g1 South", refused="your own green ship"),
    Case(
        "S1-build-refused-while-smaller-in-bank",
        SMALL_GREENS_GONE,
        "build g1 Lorem",
        refused="the smallest green in the bank is g2",
    ),
    Case(
        "S1-build-the-smallest-left",
        SMALL_GREENS_GONE,
        "build g2 Lorem",
        then=lambda s: ships(s, "Lorem", "red") == ("g2", "g3"),
    ),
    Case(
        "H6-build-g2-refused-while-g1-in-bank",
        (NORTH, SOUTH, "Lorem: g1 / g3 / -"),
        "build g2 Lorem",
        refused="the smallest green in the bank is g1",
    ),
    # Trade and scenario 13
    Case("S13-trade-same-colour", (NORTH, SOUTH), "trade y3 y3 South", refused="another colour"),
    Case("trade-other-size", (NORTH, SOUTH), "trade y3 b2 South", refused="same size"),
    Case(
        "S13-move-from-y2-b1-to-size-2",
        (NORTH, SOUTH, "Lorem: b2 / - / y1"),
        "move g3 North Lorem",
        by="yellow",
        refused="not connected",
    ),
    Case(
        "S13-move-from-y2-b1-to-size-1",
        (NORTH, SOUTH, "Lorem: r1 / - / y1"),
        "move g3 North Lorem",
        by="yellow",
        refused="not connected",
    ),
    Case(
        "S13-discover-r1-from-y2-b1", (NORTH, SOUTH), "discover g3 North r1 Lorem", by="yellow", refused="not connected"
    ),
    Case(
        "S13-discover-r3-from-y2-b1",
        ("North@yellow: y2 b1 / - / g3 y1", SOUTH),
        "discover y1 North r3 Ipsum",
        by="yellow",
        then=lambda s: ships(s, "Ipsum", "yellow") == ("y1",) and s.to_move == "red",
    ),
    Case(
        "H12-illegal-a-discovery-may-not-empty-home",
        (NORTH, SOUTH, "Lorem: r1 / - / y1"),
        "discover g3 North r3 Ipsum; done",
        by="yellow",
        options=ILLEGAL,
        refused="without a ship at your homeworld",
    ),
    Case(
        "S13-size-3-star-is-connected",
        (NORTH, SOUTH, "Lorem: g3 / - / y1"),
        "move y1 Lorem North",
        by="yellow",
        then=lambda s: ships(s, "North", "yellow") == ("y1", "g3"),
    ),
    # Attack and scenario 3
    Case("S3-enemy-red-gives-no-attack", (NORTH, SOUTH, "Lorem: b1 / g1 / r1"), "attack r1 Lorem", refused="no red"),
    Case(
        "S3-larger-target-refused", (NORTH, SOUTH, "Lorem: r1 / g1 / y2"), "attack y2 Lorem", refused="size 2 or more"
    ),
    Case(
        "S3-larger-target-refused-with-red-sacrifice",
        (NORTH, "South@red: g2 b3 / y3 r2 / -", "Lorem: b1 / g1 / y2"),
        "sacrifice r2 South; attack y2 Lorem",
        refused="size 2 or more",
    ),
    Case(
        "S3-equal-size-attack",
        (NORTH, SOUTH, "Lorem: r1 / g2 / y2"),
        "attack y2 Lorem",
        then=lambda s: ships(s, "Lorem", "red") == ("y2", "g2") and ships(s, "Lorem", "yellow") == (),
    ),
    # REC-H7: sacrifice
    Case(
        "H7-sacrifice-needs-no-access",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", "Lorem: b1 / g1 / -"),
        "sacrifice y1 South; move g1 Lorem South",
        then=lambda s: "g1" in ships(s, "South", "red") and yellow_moves(s),
    ),
    Case(
        "H7-same-ship-acts-again",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM),
        "sacrifice y3 South; move y1 Lorem South; discover y1 South r1 Ipsum; move y1 Ipsum South",
        then=yellow_moves,
    ),
    Case(
        "H7-no-free-action-in-a-sacrifice-turn",
        (NORTH, "South@red: g2 b3 / y3 y1 / -"),
        "sacrifice y1 South; build y1 South",
        refused="your sacrifice gives yellow actions",
    ),
    Case(
        "H7-no-sacrifice-after-an-action",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", "Lorem: b1 / y1 y2 y3 / y1"),
        "build y2 South; sacrifice y1 South",
        refused="your action is taken",
    ),
    Case(
        "H7-done-drops-unused-actions",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM),
        "sacrifice y3 South; move y1 Lorem South; done",
        then=lambda s: yellow_moves(s) and s.sacrifice is None,
    ),
    Case(
        "H7-sacrifice-build-needs-your-ship-of-the-colour",
        (NORTH, "South@red: g2 b3 / y3 g1 / -"),
        "sacrifice g1 South; build r1 South",
        refused="your own red ship",
    ),
    # REC-H8: pass, only as the whole turn
    Case("H8-pass", (NORTH, SOUTH), "pass", then=yellow_moves),
    Case(
        "H8-pass-after-a-step",
        (NORTH, SOUTH, "Lorem: b1 / y1 y2 y3 / y1"),
        "catastrophe Lorem yellow; pass",
        refused="`pass` is a whole turn",
    ),
    # REC-H9 and scenarios 4, 14: catastrophes
    Case(
        "S14-stars-and-both-players-ships-count",
        (NORTH, SOUTH, "Lorem: y2 / y1 / y1 y3"),
        "catastrophe Lorem yellow",
        then=lambda s: not in_play(s, "Lorem") and s.bank["y1"] == 3 and s.stage == "start",
    ),
    Case(
        "H9-three-is-not-overpopulated",
        (NORTH, SOUTH, "Lorem: y2 / y1 / y3"),
        "catastrophe Lorem yellow",
        refused="not overpopulated",
    ),
    Case(
        "H9-colour-word-or-letter",
        (NORTH, SOUTH, "Lorem: g3 / y2 y1 / y1 y3"),
        "catastrophe Lorem y",
        then=lambda s: not in_play(s, "Lorem") and s.bank["g3"] == 2,
    ),
    Case(
        "S4-blue-catastrophe-at-a-homeworld",
        (NORTH, "South@red: g2 b3 / y3 b1 / b2 b1"),
        "catastrophe South blue",
        then=lambda s: (
            s.home_of("red").stars == ("g2",)
            and ships(s, "South", "red") == ("y3",)  # type: ignore[union-attr]
            and ships(s, "South", "yellow") == ()
        ),
    ),
    Case(
        "S4-catastrophe-of-the-last-star",
        ("North@yellow: g1 g3 / g2 / g1", SOUTH),
        "catastrophe North green; done",
        then=lambda s: not in_play(s, "North") and won_by("red")(s) and s.bank["g2"] == 2,
    ),
    # REC-H10 and scenario 7: when catastrophes happen
    Case(
        "S7-anytime-between-the-moves",
        GREEN_INTO_LOREM,
        "sacrifice y3 South; move g1 South Lorem; catastrophe Lorem green; move r1 South Ipsum; done",
        then=lambda s: not in_play(s, "Lorem") and "r1" in ships(s, "Ipsum", "red") and yellow_moves(s),
    ),
    Case(
        "S7-end-catastrophe-ends-the-moves",
        GREEN_INTO_LOREM,
        "sacrifice y3 South; move g1 South Lorem; catastrophe Lorem green; move r1 South Ipsum",
        options=END,
        refused="comes after your turn",
    ),
    Case(
        "S7-end-catastrophe-then-the-turn-is-over",
        GREEN_INTO_LOREM,
        "sacrifice y3 South; move g1 South Lorem; catastrophe Lorem green",
        options=END,
        then=lambda s: not in_play(s, "Lorem") and yellow_moves(s),
    ),
    Case(
        "H10-catastrophe-before-the-action",
        (NORTH, SOUTH, "Lorem: b1 / y1 y2 y3 / y1"),
        "catastrophe Lorem yellow; build y1 South",
        then=lambda s: not in_play(s, "Lorem") and yellow_moves(s),
    ),
    Case(
        "H10-end-catastrophe-before-the-action",
        (NORTH, SOUTH, "Lorem: b1 / y1 y2 y3 / y1"),
        "catastrophe Lorem yellow; build y1 South",
        options=END,
        then=yellow_moves,
    ),
    # REC-H11 and scenario 10: the end
    Case(
        "S10-capture-the-last-ship-at-home",
        LAST_SHIP_AT_NORTH,
        "sacrifice r2 South; attack g1 North",
        then=lambda s: s.stage == "sacrifice" and in_play(s, "North"),
    ),
    Case(
        "S10-they-lose-when-the-turn-ends",
        LAST_SHIP_AT_NORTH,
        "sacrifice r2 South; attack g1 North; done",
        then=lambda s: won_by("red")(s) and s.system("North").stars == ("y2", "b1"),
    ),  # type: ignore[union-attr]
    Case(
        "H11-enemy-ships-at-your-home-do-not-count",
        ("North@yellow: y2 b1 / r3 / g1", SOUTH),
        "attack g1 North",
        then=won_by("red"),
    ),
    # REC-H12 and scenarios 5, 6, 9: suicide
    Case(
        "S5-default-emptying-home-loses",
        (NORTH, SOUTH, "Lorem: b1 / - / g1"),
        "move y3 South Lorem",
        then=won_by("yellow"),
    ),
    Case(
        "S5-illegal-emptying-home-refused",
        (NORTH, SOUTH, "Lorem: b1 / - / g1"),
        "move y3 South Lorem",
        options=ILLEGAL,
        refused="without a ship at your homeworld",
    ),
    Case(
        "S6-sacrifice-and-come-back",
        LONE_Y3_AT_NORTH,
        "sacrifice y3 North; move r1 Lorem North; done",
        by="yellow",
        then=lambda s: ships(s, "North", "yellow") == ("r1",) and s.to_move == "red",
    ),
    Case(
        "S6-illegal-sacrifice-and-come-back",
        LONE_Y3_AT_NORTH,
        "sacrifice y3 North; move r1 Lorem North; done",
        by="yellow",
        options=ILLEGAL,
        then=lambda s: ships(s, "North", "yellow") == ("r1",) and s.to_move == "red",
    ),
    Case(
        "S6-default-sacrifice-and-done-loses",
        LONE_Y3_AT_NORTH,
        "sacrifice y3 North; done",
        by="yellow",
        then=won_by("red"),
    ),
    Case(
        "S6-illegal-sacrifice-and-done-refused",
        LONE_Y3_AT_NORTH,
        "sacrifice y3 North; done",
        by="yellow",
        options=ILLEGAL,
        refused="may not end your turn without a ship",
    ),
    Case(
        "H12-illegal-needs-a-connected-ship",
        ("North@yellow: y2 b1 / - / y3", SOUTH, "Lorem: b2 / - / r1"),
        "sacrifice y3 North",
        by="yellow",
        options=ILLEGAL,
        refused="without a ship at your homeworld",
    ),
    Case(
        "S9-default-both-lose-a-draw",
        BOTH_HOMES_AT_STAKE,
        "sacrifice r1 North; attack g1 South",
        by="yellow",
        then=won_by(None, "both homeworlds"),
    ),
    Case(
        "S9-illegal-refused",
        BOTH_HOMES_AT_STAKE,
        "sacrifice r1 North; attack g1 South",
        by="yellow",
        options=ILLEGAL,
        refused="without a ship at your homeworld",
    ),
    # REC-H13 and scenario 11: names
    Case(
        "S11-north-is-never-free", (NORTH, SOUTH), "discover g3 North g3 north", by="yellow", refused="homeworld's name"
    ),
    Case(
        "S11-name-in-play-any-case",
        (NORTH, SOUTH, "Lorem: r1 / - / y1"),
        "discover g3 North r3 lorem",
        by="yellow",
        refused="is in play",
    ),
    Case(
        "S11-name-free-once-its-system-left",
        ("North@yellow: y2 b1 / - / g3 y1", SOUTH, "Lorem: r3 / - / y1"),
        "sacrifice y1 Lorem; discover g3 North r3 Lorem",
        by="yellow",
        then=lambda s: s.system("Lorem") is not None and ships(s, "Lorem", "yellow") == ("g3",),
    ),
    Case(
        "H13-discovered-name-keeps-its-spelling",
        ("North@yellow: y2 b1 / - / g3 y1", SOUTH),
        "discover y1 North r3 IpSum_2",
        by="yellow",
        then=lambda s: s.systems[-1].name == "IpSum_2",
    ),
    # REC-H14 and scenarios 8, 12: when a turn ends
    Case(
        "S8-overpopulation-keeps-the-turn-open",
        ("North@yellow: g3 b1 / g2 / g1", SOUTH),
        "build g1 North",
        by="yellow",
        then=lambda s: s.to_move == "yellow" and s.stage == "acted",
    ),
    Case("S8-no-overpopulation-ends-the-turn", (NORTH, SOUTH), "build y1 South", then=yellow_moves),
    Case(
        "S12-a-step-after-the-turn-ended",
        YELLOW_G3_AT_NORTH,
        "build g1 North; build g1 North",
        by="yellow",
        refused="comes after your turn",
    ),
    Case(
        "S12-trailing-done-ignored",
        YELLOW_G3_AT_NORTH,
        "build g1 North; done",
        by="yellow",
        then=lambda s: s.to_move == "red" and s.last_turn is not None and s.last_turn.steps == ("build g1 North",),
    ),
    Case(
        "S12-pass-after-the-turn-ended",
        YELLOW_G3_AT_NORTH,
        "build g1 North; pass",
        by="yellow",
        refused="comes after your turn",
    ),
    Case(
        "H14-only-one-trailing-done",
        YELLOW_G3_AT_NORTH,
        "build g1 North; done; done",
        by="yellow",
        refused="step 2 (done): comes after your turn",
    ),
    Case("H14-done-needs-a-step", (NORTH, SOUTH), "done", refused="after a step"),
    # Scenario 2: a sacrifice's own system leaves play at once
    Case(
        "S2-ichar-y2-refused",
        ICHAR,
        "sacrifice g2 Ichar; build y2 Ultramar",
        refused="the smallest yellow in the bank is y1",
    ),
    Case(
        "S2-ichar-y1-legal",
        ICHAR,
        "sacrifice g2 Ichar; build y1 Ultramar",
        then=lambda s: not in_play(s, "Ichar") and ships(s, "Ultramar", "red") == ("y1", "y1"),
    ),
    # Colour access for each action (REC-H5), the bank (REC-H1), a sacrifice's own conditions (REC-H7)
    Case("H5-trade-needs-blue", (NORTH, SOUTH, "Lorem: r1 / g1 / -"), "trade g1 b1 Lorem", refused="no blue at Lorem"),
    Case(
        "H5-move-needs-yellow",
        (NORTH, SOUTH, "Lorem: g3 / g1 / -"),
        "move g1 Lorem North",
        refused="no yellow at Lorem",
    ),
    Case(
        "H5-discover-needs-yellow",
        (NORTH, SOUTH, "Lorem: g3 / g1 / -"),
        "discover g1 Lorem r1 Ipsum",
        refused="no yellow at Lorem",
    ),
    Case(
        "H1-discover-a-star-the-bank-lacks",
        (NORTH, SOUTH, "Lorem: r1 / r1 / r1"),
        "discover y3 South r1 Alpha",
        refused="the bank has no r1",
    ),
    Case(
        "H7-sacrifice-move-needs-a-connection",
        (NORTH, "South@red: g2 b3 / y3 y2 / -"),
        "sacrifice y2 South; move y3 South North",
        refused="not connected",
    ),
    Case(
        "H7-a-refused-step-is-named-in-the-line",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM),
        "sacrifice y3 South; move y1 Lorem South; move g1 South North",
        refused="step 3 (move g1 South North): you have no g1 at South",
    ),
    # REC-H2 and REC-H11: a homeworld with stars but no ships stays in play; its owner loses at the turn's end
    Case(
        "H2-homeworld-without-ships-stays-until-the-turn-ends",
        ("North@yellow: y2 b1 / y1 / y3 y1", SOUTH),
        "catastrophe North yellow",
        then=lambda s: s.system("North") is not None and s.system("North").stars == ("b1",) and s.stage == "start",  # type: ignore[union-attr]
    ),
    Case(
        "H11-homeworld-without-ships-loses-at-the-turns-end",
        ("North@yellow: y2 b1 / y1 / y3 y1", SOUTH),
        "catastrophe North yellow; build y1 South",
        then=lambda s: won_by("red")(s) and in_play(s, "North"),
    ),
    # REC-H10: several catastrophes, in any order, before or after the action; `done` after one
    Case(
        "H10-several-catastrophes-yellow-then-green",
        (NORTH, SOUTH, "Lorem: b2 / y1 y2 g1 g2 / y3 y1 g1 g3"),
        "catastrophe Lorem yellow; catastrophe Lorem green; build y1 South",
        then=lambda s: not in_play(s, "Lorem") and s.bank["b2"] == 3 and yellow_moves(s),
    ),
    Case(
        "H10-several-catastrophes-green-then-yellow",
        (NORTH, SOUTH, "Lorem: b2 / y1 y2 g1 g2 / y3 y1 g1 g3"),
        "catastrophe Lorem green; catastrophe Lorem yellow; done",
        then=lambda s: not in_play(s, "Lorem") and yellow_moves(s),
    ),
    Case(
        "H10-catastrophe-after-the-action",
        ("North@yellow: g3 b1 / g2 / g1", SOUTH),
        "build g1 North; catastrophe North green",
        by="yellow",
        then=won_by("red"),  # it took yellow's own ships at home: legal by default, and yellow loses
    ),
    Case(
        "H10-end-catastrophe-after-the-last-action",
        ("North@yellow: g3 b1 / g2 / g1", SOUTH),
        "build g1 North; catastrophe North green",
        by="yellow",
        options=END,
        then=won_by("red"),
    ),
    Case(
        "H12-illegal-a-catastrophe-may-not-empty-home",
        ("North@yellow: g3 b1 / g2 / g1", SOUTH),
        "build g1 North; catastrophe North green",
        by="yellow",
        options=ILLEGAL,
        refused="without a ship at your homeworld",
    ),
    Case(
        "H14-done-after-a-catastrophe-alone",
        (NORTH, SOUTH, "Lorem: b1 / y1 y2 y3 / y1"),
        "catastrophe Lorem yellow; done",
        then=lambda s: not in_play(s, "Lorem") and yellow_moves(s) and s.last_turn.steps[-1] == "done",  # type: ignore[union-attr]
    ),
    Case("H14-pass-then-a-trailing-done", (NORTH, SOUTH), "pass; done", then=yellow_moves),
    Case("H14-pass-then-a-step", (NORTH, SOUTH), "pass; build y1 South", refused="comes after your turn"),
    # The notation: `resign` is alone on its line
    Case(
        "resign-after-a-step-refused",
        (NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM),
        "sacrifice y3 South; resign",
        refused="step 2 (resign): resign goes on a line of its own",
    ),
    Case(
        "resign-then-done-refused",
        (NORTH, SOUTH),
        "RESIGN; done",
        refused="step 1 (RESIGN): resign goes on a line of its own",
    ),
    # REC-H13: South is never free either; a name may be 40 characters long
    Case(
        "H13-south-is-never-free", (NORTH, SOUTH), "discover g3 North r3 SOUTH", by="yellow", refused="homeworld's name"
    ),
    Case(
        "H13-a-name-of-40-characters",
        ("North@yellow: y2 b1 / - / g3 y1", SOUTH),
        "discover y1 North r3 " + "A" + "b" * 39,
        by="yellow",
        then=lambda s: s.systems[-1].name == "A" + "b" * 39,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_rule(case: Case) -> None:
    state = position(*case.systems, to_move=case.by, options=case.options)
    if case.refused:
        with pytest.raises(IllegalMoveError, match=_escaped(case.refused)):
            play(state, case.line, case.by)
        return
    after = play(state, case.line, case.by)
    assert case.then is not None and case.then(after), GAME.board_text(GAME.view(after, None))


def _escaped(text: str) -> str:
    return re.escape(text)


# --- setup, REC-H3 and REC-H4, scenario 15 -------------------------------------------------------
SETUPS = [
    ("S15-standard-needs-a-large-ship", "homeworld y2 b1 g2", {}, "must be large"),
    ("S15-equal-star-sizes", "homeworld g2 b2 y3", {}, ""),
    ("H4-standard-needs-two-stars", "homeworld b2 g3", {}, "two stars"),
    ("H4-free-one-star", "homeworld b2 g3", FREE, ""),
    ("H4-free-any-ship", "homeworld y2 b1 g1", FREE, ""),
    ("H4-bank-limits-the-setup", "homeworld g3 g3 g3", {}, ""),
]


@pytest.mark.parametrize(("line", "options", "refused"), [row[1:] for row in SETUPS], ids=[row[0] for row in SETUPS])
def test_setup(line: str, options: dict[str, str], refused: str) -> None:
    state = GAME.new_game(["red", "yellow"], "demo", options)
    if refused:
        with pytest.raises(IllegalMoveError, match=refused):
            GAME.apply(state, parse(line), state.first_player)
        return
    after = GAME.apply(state, parse(line), state.first_player)
    assert after.systems[0].name == "North" and after.to_move == "red" and after.turn == 2


def test_H3_who_starts_is_the_seeds_shuffle_and_their_homeworld_is_north() -> None:
    state = GAME.new_game(["red", "yellow"], "demo", {})
    assert state.first_player == shuffled(["red", "yellow"], "demo", 0)[0] == "yellow"
    state = GAME.apply(state, parse("homeworld y2 b1 g3"), "yellow")
    state = GAME.apply(state, parse("homeworld g2 b3 y3"), "red")
    assert [(s.name, s.home) for s in state.systems] == [("North", "yellow"), ("South", "red")]
    assert (state.to_move, state.turn, state.stage) == ("yellow", 3, "start")


def test_H4_a_second_g3_g3_g3_homeworld_lacks_pieces() -> None:
    state = GAME.new_game(["red", "yellow"], "demo", {})
    state = GAME.apply(state, parse("homeworld g3 g3 g3"), "yellow")
    with pytest.raises(IllegalMoveError, match="the bank has no g3"):
        GAME.apply(state, parse("homeworld y1 g3 b3"), "red")


def test_S15_homeworld_is_read_in_any_case_and_printed_in_colour_order() -> None:
    assert str(parse("Homeworld B1 Y2 G3")) == "homeworld y2 b1 g3"


def test_setup_lists_every_homeworld_the_bank_allows() -> None:
    assert len(GAME.legal_moves_of(GAME.new_game(["red", "yellow"], "s", {}), "yellow")) == 78 * 4
    assert len(GAME.legal_moves_of(GAME.new_game(["red", "yellow"], "s", FREE), "yellow")) == 90 * 12


def test_no_catastrophe_in_setup() -> None:
    state = GAME.new_game(["red", "yellow"], "demo", {})
    with pytest.raises(IllegalMoveError, match="first make your homeworld"):
        GAME.apply(state, parse("catastrophe North red"), "yellow")


# --- legal-step lists ------------------------------------------------------------------------------
def test_S8_only_the_catastrophe_and_done_are_left() -> None:
    state = play(position("North@yellow: g3 b1 / g2 / g1", SOUTH, to_move="yellow"), "build g1 North", "yellow")
    assert GAME.legal_moves(state, "yellow") == [Catastrophe("North", "g"), Done(), RESIGN]
    assert GAME.legal_moves(state, "red") == [RESIGN]


def test_H10_no_catastrophe_in_the_opponents_turn() -> None:
    state = position(NORTH, SOUTH, "Lorem: b1 / y1 y2 y3 / y1", to_move="red")
    with pytest.raises(IllegalMoveError, match="it is red's turn"):
        play(state, "catastrophe Lorem yellow", "yellow")


def test_the_spec_example_lists_15_steps_and_done() -> None:
    from test_homeworlds_files import SPEC_RECORD

    state = GAME.replay(SPEC_RECORD)
    listed = [str(step) for step in GAME.legal_moves(state, "red")]
    assert len(listed) == 17 and listed[-2:] == ["done", "resign"]
    assert "move y1 Lorem South" in listed and "discover y3 South r1 Alpha" in listed


def test_the_list_is_sorted_by_the_notation_table_then_text() -> None:
    state = position(NORTH, "South@red: g2 b3 / y3 g1 / -", "Lorem: b1 / y1 y2 y3 / y1")
    listed = [str(step) for step in GAME.legal_moves(state, "red")]
    verbs = ["build", "trade", "move", "discover", "attack", "sacrifice", "catastrophe", "pass"]
    ranks = [verbs.index(text.split()[0]) for text in listed[:-1]]
    assert ranks == sorted(ranks) and listed[-2:] == ["pass", "resign"]
    assert all(GAME.parse(text) in GAME.legal_moves(state, "red") for text in listed[:-1])


def test_a_discovery_is_listed_under_the_first_free_greek_letter() -> None:
    state = position(NORTH, SOUTH, "Alpha: b1 / y1 / -")
    discoveries = [str(s) for s in GAME.legal_moves_of(state, "red") if str(s).startswith("discover")]
    assert discoveries and all(text.endswith(" Beta") for text in discoveries)


def test_the_waiting_player_may_only_resign() -> None:
    assert GAME.legal_moves(position(NORTH, SOUTH), "yellow") == [RESIGN]


# --- notation ----------------------------------------------------------------------------------------
NOTATION = [
    ("build g1 Lorem", "build g1 Lorem"),
    ("  BUILD   G1   Lorem ", "build G1 Lorem".replace("G1", "g1")),
    ("trade g1 y1 Lorem", "trade g1 y1 Lorem"),
    ("move y1 Lorem Ipsum", "move y1 Lorem Ipsum"),
    ("discover y1 Lorem g2 Ipsum", "discover y1 Lorem g2 Ipsum"),
    ("attack r2 Lorem", "attack r2 Lorem"),
    ("sacrifice y3 Lorem", "sacrifice y3 Lorem"),
    ("catastrophe Lorem r", "catastrophe Lorem red"),
    ("Catastrophe Lorem RED", "catastrophe Lorem red"),
    ("build g3 G3", "build g3 G3"),  # parsing by position: a system may be called G3, Red or Build
    ("move r1 Red Build", "move r1 Red Build"),
    ("pass", "pass"),
    ("DONE", "done"),
    ("homeworld b2 g3", "homeworld b2 g3"),
]


@pytest.mark.parametrize(("text", "canonical"), NOTATION)
def test_notation_reads_and_prints_canonically(text: str, canonical: str) -> None:
    step = parse(text)
    assert str(step) == canonical and parse(str(step)) == step


@pytest.mark.parametrize(
    "text",
    [
        "build g4 Lorem",
        "build g1",
        "trade g1 Lorem",
        "fly y1 Lorem",
        "catastrophe Lorem purple",
        "build g1 9Lorem",
        "pass now",
        "homeworld g3",
        "discover y1 Lorem g2 " + "x" * 41,
        "",
    ],
)
def test_notation_refuses(text: str) -> None:
    with pytest.raises(NotationError):
        parse(text)


def test_resign_is_the_kits_step() -> None:
    state = position(NORTH, SOUTH)
    after = GAME.apply(state, GAME.parse("resign"), "yellow")
    assert (after.winner, after.reason, after.stage) == ("red", "resignation", "over")


@pytest.mark.parametrize("who", ["red", "yellow"])
def test_either_player_may_resign_mid_turn(who: str) -> None:
    """Resignation is any time, by either player, in the middle of a sacrifice too (spec, End and result)."""
    state = play(position(NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM), "sacrifice y3 South")
    assert state.stage == "sacrifice"
    after = GAME.apply(state, GAME.parse("resign"), who)
    assert (after.winner, after.reason, after.stage) == ("yellow" if who == "red" else "red", "resignation", "over")


def test_a_step_that_leaves_the_turn_open_continues_it() -> None:
    """Each step is its own ply; the kit's `continues_turn` says whether the same player goes on."""
    state = position(NORTH, "South@red: g2 b3 / y3 y1 / -", RED_AT_LOREM)
    sacrificed = play(state, "sacrifice y3 South")
    moved = play(sacrificed, "move y1 Lorem South")
    ended = play(moved, "done")
    assert GAME.continues_turn(state, sacrificed) and GAME.continues_turn(sacrificed, moved)
    assert not GAME.continues_turn(moved, ended) and ended.to_move == "yellow"


def test_a_discovery_under_any_other_free_name_is_as_legal_as_the_listed_one() -> None:
    state = position(NORTH, SOUTH)
    listed = [str(s) for s in GAME.legal_moves_of(state, "red") if str(s).startswith("discover y3 South r1")]
    assert listed == ["discover y3 South r1 Alpha"]
    after = play(state, "discover y3 South r1 Zeta_9")
    assert ships(after, "Zeta_9", "red") == ("y3",) and not in_play(after, "Alpha")


# --- events ------------------------------------------------------------------------------------------
def test_events_say_each_action_catastrophe_loss_and_win() -> None:
    state = position("North@yellow: g1 g3 / g2 / g1", SOUTH)
    played = GAME.play_line(state, "catastrophe North green; done", "red")
    kinds = [event.kind for step in played for event in step.events]
    assert kinds == ["catastrophe", "done", "homeworld lost", "end"]
    assert played[-1].events[-1].text == "red wins"


def test_H13_a_line_is_recorded_with_names_spelled_as_discovered() -> None:
    state = position(NORTH, SOUTH, "IpSum: b1 / y1 / -")
    played = GAME.play_line(state, "MOVE Y1 ipsum SOUTH; done", "red")
    assert [step.text for step in played] == ["move y1 IpSum South"]


def test_every_ruling_and_scenario_of_the_spec_has_a_row() -> None:
    """REC-H1 to REC-H14 and the 15 tricky scenarios each name a row (or a test) of this module."""
    names = [case.id for case in CASES] + [row[0] for row in SETUPS]
    names += [name.removeprefix("test_") for name in globals() if name.startswith("test_")]
    named = {found for name in names for found in re.findall(r"(?:^|[-_])([HS]\d+)(?=[-_])", name)}
    assert {f"H{n}" for n in range(1, 15)} <= named
    assert {f"S{n}" for n in range(1, 16)} <= named
