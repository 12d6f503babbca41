"""What happened, as events: each game's `step` says what its rules did, marked with who may see it.

Tables per game (one row a rule case: the events' kinds, their public lines, the secret lines and to
whom), then for every game a seeded playout: `step(...).state` is `apply`, and each draw event names
exactly the cards that reached the drawer's hand while its public line names none of them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import make_state

from engine import registry
from engine.buyersmarket import rules as market_rules
from engine.buyersmarket.game import GAME as BUYERS_MARKET
from engine.buyersmarket.notation import Buy, PickPile
from engine.buyersmarket.setup import roll
from engine.buyersmarket.state import Pallet
from engine.decktown.ruleset import DECK_TOWN
from engine.kit.base import RESIGN
from engine.kit.core import Hands
from engine.kit.events import Event, lines
from engine.martianchess.game import GAME as MARTIAN_CHESS
from engine.martianchess.position import from_position
from engine.zarkcity.game import GAME as ZARK_CITY
from engine.zarkcity.notation import parse

STANDING = {(0, 0): ("7H", "red:S blue:L"), (1, 0): ("8H", "red:M")}


def zark(text: str, by: str = "red", **fields: object) -> tuple[Event, ...]:
    fields.setdefault("board", STANDING)
    fields.setdefault("hands", {"red": ("QH", "QD", "2C"), "blue": ("5D",)})
    fields.setdefault("deck", ("4S", "9D", "KH", "3C"))
    state = make_state(**fields)  # type: ignore[arg-type]
    return ZARK_CITY.step(state, ZARK_CITY.parse(text), by).events


def public(events: tuple[Event, ...]) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in events]


ZARK_ROWS = [
    (
        "the draw option: public count, the cards to the drawer, then the next turn's draw",
        "draw",
        {},
        [("draw", "red drew 3 cards"), ("turn", "blue's turn"), ("draw", "blue drew 1 card")],
        {"red": ["red drew 3 cards: 4S 9D KH"], "blue": ["blue drew 1 card: 3C"]},
    ),
    (
        "a build is public, the next player's draw is theirs",
        "build 2C 2,0",
        {},
        [("build", "red built 2C at 2,0"), ("turn", "blue's turn"), ("draw", "blue drew 1 card")],
        {"blue": ["blue drew 1 card: 4S"]},
    ),
    (
        "an attack captures, and its change is drawn as it is paid for",
        "demolish blue L 0,0 pay QH QD",
        {},
        [
            ("capture", "red demolished blue's large on 0,0 paying QH QD"),
            ("draw", "red drew 1 card as change"),
            ("turn", "blue's turn"),
            ("draw", "blue drew 1 card"),
        ],
        {"red": ["red drew 1 card as change: 4S"], "blue": ["blue drew 1 card: 9D"]},
    ),
    (
        "an empty deck is rebuilt from the discard pile, in public",
        "draw",
        {"deck": (), "discard": ("3C", "4S")},
        [
            ("reshuffle", "the discard pile was shuffled to make a new deck"),
            ("draw", "red drew 2 cards"),
            ("turn", "blue's turn"),
            ("draw", "blue drew 0 cards"),
        ],
        None,  # the new deck's order is the seed's
    ),
    (
        "too many cards: the hand limit is owed",
        "draw",
        {"hands": {"red": ("QH", "JS", "2C", "5C"), "blue": ("5D",)}},
        [("draw", "red drew 3 cards"), ("owe", "red must discard 1 card")],
        {"red": ["red drew 3 cards: 4S 9D KH"]},
    ),
    (
        "a discard is public",
        "discard 2C",
        {"phase": "discard", "hands": {"red": ("QH", "JS", "2C", "5C", "4S", "9D", "KH"), "blue": ("5D",)}},
        [("discard", "red discarded 2C"), ("turn", "blue's turn"), ("draw", "blue drew 1 card")],
        {"blue": ["blue drew 1 card: 4S"]},
    ),
    (
        "a capture that leaves red alone on a Power Block wins",
        "demolish blue S 2,0 pay JS",
        {
            "board": {(0, 0): ("7H", "red:S"), (1, 0): ("8H", "red:M"), (2, 0): ("9H", "red:S blue:S")},
            "hands": {"red": ("JS",), "blue": ()},
        },
        [("capture", "red demolished blue's small on 2,0 paying JS"), ("end", "red wins with a power block")],
        {},
    ),
]


@pytest.mark.parametrize(("rule", "move", "fields", "said", "secrets"), ZARK_ROWS, ids=[row[0] for row in ZARK_ROWS])
def test_zark_city_events(
    rule: str,
    move: str,
    fields: dict[str, object],
    said: list[tuple[str, str]],
    secrets: dict[str | None, list[str]] | None,
) -> None:
    events = zark(move, **fields)
    assert public(events) == said
    told: dict[str | None, list[str]] = {}
    for event in (e for e in events if e.secret):
        assert event.to == frozenset({event.seat}), "a secret is its seat's alone"
        told.setdefault(event.seat, []).append(event.secret)
    if secrets is not None:
        assert told == secrets


def test_a_drawn_card_is_read_only_by_its_drawer_until_the_game_is_over() -> None:
    events = zark("draw")
    assert lines(events, "red") == ("red drew 3 cards: 4S 9D KH", "blue's turn", "blue drew 1 card")
    assert lines(events, "blue") == ("red drew 3 cards", "blue's turn", "blue drew 1 card: 3C")
    assert lines(events, None) == ("red drew 3 cards", "blue's turn", "blue drew 1 card")
    assert lines(events, None, revealed=True)[0] == "red drew 3 cards: 4S 9D KH"
    drawn = events[0].seen_by("red")
    assert drawn.data == {"count": 3, "cards": ["4S", "9D", "KH"]}
    assert events[0].seen_by("blue").data == {"count": 3}


def test_starters_are_secret_until_every_one_is_chosen_then_revealed() -> None:
    start = ZARK_CITY.new_game(["red", "blue"], "events", {})
    red_card = next(c for c in start.hands["red"] if start.ruleset.cards[c].is_number)
    blue_card = next(c for c in start.hands["blue"] if start.ruleset.cards[c].is_number)
    first = ZARK_CITY.step(start, parse(f"choose {red_card}"), "red")
    assert public(first.events) == [("choose", "red chose a starter")]
    assert lines(first.events, "blue") == ("red chose a starter",)
    assert lines(first.events, "red") == (f"red chose {red_card}",)
    second = ZARK_CITY.step(first.state, parse(f"choose {blue_card}"), "blue")
    kinds = [e.kind for e in second.events]
    assert kinds == ["choose", "reveal"]
    assert second.events[1].text.startswith(f"starters revealed: red {red_card}, blue {blue_card}; ")
    assert second.events[1].data["starters"] == [["red", red_card], ["blue", blue_card]]


def test_a_resignation_then_the_last_one_standing_wins() -> None:
    events = zark("resign")
    assert public(events) == [("resign", "red resigned"), ("end", "blue wins: every other player resigned")]


def test_a_deck_town_turn_opens_with_no_draw() -> None:
    state = make_state(
        board={(0, 0): ("2MK", "red:S"), (1, 0): ("3MW", "blue:S")},
        hands={"red": ("AM",), "blue": ()},
        ruleset=DECK_TOWN,
        deck_type="myrmex",
    )
    assert state.ruleset is DECK_TOWN
    spawned = ZARK_CITY.step(state, parse("spawn 0,0"), "red").events
    assert public(spawned) == [("spawn", "red spawned a small at 0,0"), ("turn", "blue's turn")]


# --- Buyer's Market ------------------------------------------------------------------------------------


def _seed_rolling(face: str) -> str:
    """A seed whose fifth throw (the first after the setup's four) shows `face`."""
    return next(f"ev{i}" for i in range(1000) if roll(f"ev{i}", 4) == face)


def _market(seed: str) -> market_rules.State:
    state = market_rules.new_game(("red", "blue"), "events")
    while state.pending is not None:
        state = state.evolve(pending=None)
    pallets = (Pallet("4H", (("H", "L"), ("H", "S"))),)
    return state.evolve(pallets=pallets, to_move="red", turn=1, seed=seed, rolls=4)


def test_buyers_market_a_purchase_then_the_die_then_the_new_pallet() -> None:
    state = _market(_seed_rolling("S"))
    top = state.piles["S"][0]
    events = market_rules.play(state, Buy("4H"), "red").events
    assert [e.kind for e in events] == ["buy", "roll", "pallet"]
    assert events[0].text == "red bought 4♥, collecting a hearts Large, a hearts Small"
    assert events[0].data["collected"] == ["H:L", "H:S"]
    assert events[1].data == {"face": "S"} and events[1].seat == "red"
    assert events[2].data == {"card": top}
    assert all(not e.secret for e in events)  # nothing in Buyer's Market is hidden once it happens


def test_buyers_market_the_atom_owes_a_pile_and_the_pick_deals_it() -> None:
    state = _market(_seed_rolling("atom"))
    after = market_rules.play(state, Buy("4H"), "red")
    assert [(e.kind, e.text) for e in after.events][1:] == [
        ("roll", "red rolled the atom"),
        ("pick", "red picks the pile"),
    ]
    top = after.state.piles["D"][0]
    picked = market_rules.play(after.state, PickPile("D"), "red").events
    assert [(e.kind, e.data.get("card")) for e in picked][:2] == [("pile", None), ("pallet", top)]


def test_buyers_market_setup_throws_are_events_too() -> None:
    setup = market_rules.setup_step(("red", "blue"), "golden-two")
    assert [e.kind for e in setup.events].count("roll") == setup.state.rolls
    assert {e.data["card"] for e in setup.events if e.kind == "pallet"} == {p.card for p in setup.state.pallets}


# --- Martian Chess -------------------------------------------------------------------------------------


def chess(board: dict[str, str], move: str) -> tuple[Event, ...]:
    base = {"format": "martianchess-position/1", "game": "martianchess", "players": ["red", "blue"]}
    state = from_position(base | {"board": board, "to_move": "red", "captured": {"red": ["S"], "blue": []}})
    return MARTIAN_CHESS.step(state, MARTIAN_CHESS.parse(move), "red").events


CHESS_ROWS = [
    ("a quiet move", {"c3": "S", "d8": "S", "a1": "L"}, "c3-b2", [("move", "red moved a Pawn from c3 to b2")]),
    (
        "a capture across the canal",
        {"c4": "L", "c5": "M", "a1": "S", "d8": "S"},
        "c4-c5",
        [("capture", "red moved a Queen from c4 to c5, capturing a Drone (2)"), ("cross", "it is now blue's")],
    ),
    (
        "a field promotion",
        {"b2": "M", "b3": "S", "d8": "S"},
        "b2-b3",
        [("promote", "red merged a Drone from b2 with the Pawn on b3 into a Queen")],
    ),
    (
        "an empty zone ends the game",
        {"c4": "M", "d8": "S"},
        "c4-c5",
        [
            ("move", "red moved a Drone from c4 to c5"),
            ("cross", "it is now blue's"),
            ("end", "the game is over and red wins"),
        ],
    ),
]


@pytest.mark.parametrize(("rule", "board", "move", "said"), CHESS_ROWS, ids=[row[0] for row in CHESS_ROWS])
def test_martian_chess_events(rule: str, board: dict[str, str], move: str, said: list[tuple[str, str]]) -> None:
    assert public(chess(board, move)) == said


def test_martian_chess_capture_and_promotion_facts() -> None:
    captured = chess({"c4": "L", "c5": "M", "a1": "S", "d8": "S"}, "c4-c5")[0]
    assert captured.data == {"piece": "L", "from": "c4", "to": "c5", "captured": "M", "points": 2}
    promoted = chess({"b2": "M", "b3": "S", "d8": "S"}, "b2-b3")[0]
    assert promoted.data["into"] == "L"


def test_martian_chess_resignations_say_what_they_always_said() -> None:
    """The kit's resign step in the game's own words: with four the zone stays; the last seat left wins
    without a line of its own (the result says it)."""
    four = MARTIAN_CHESS.new_game(["red", "yellow", "green", "blue"], "resigns", {})
    assert public(MARTIAN_CHESS.step(four, RESIGN, "green").events) == [
        ("resign", "green resigned; their zone stays on the board")
    ]
    two = MARTIAN_CHESS.new_game(["red", "blue"], "resigns", {})
    over = MARTIAN_CHESS.step(two, RESIGN, "blue")
    assert public(over.events) == [("resign", "blue resigned")]
    assert (over.state.winner, over.state.reason, over.state.to_move) == ("red", "resignation", None)
    assert MARTIAN_CHESS.describe(RESIGN, "blue", two, over.state, "red") == "blue resigned"


def test_buyers_market_a_roller_who_resigns_has_the_pile_picked_in_the_log() -> None:
    """The kit's resign step: the game's line, then what its rules did (the owed pile picked, a new
    pallet); the last seat left wins without a line of its own."""
    three = market_rules.new_game(("red", "blue", "green"), "events")
    while three.pending is not None:
        three = three.evolve(pending=None)
    pallets = (Pallet("4H", (("H", "L"), ("H", "S"))),)
    three = three.evolve(pallets=pallets, seed=_seed_rolling("atom"), rolls=4, to_move="red", turn=1)
    picking = BUYERS_MARKET.step(three, Buy("4H"), "red").state
    left = BUYERS_MARKET.step(picking, RESIGN, "red")
    assert [e.kind for e in left.events] == ["resign", "pallet"] and left.events[0].text == "red resigned"
    assert left.state.pending is None and left.state.to_move == "blue"
    assert BUYERS_MARKET.describe(RESIGN, "red", picking, left.state, None).startswith("red resigned; ")
    assert public(BUYERS_MARKET.step(left.state, RESIGN, "blue").events) == [("resign", "blue resigned")]


# --- every game: step is apply, and draws say exactly what reached a hand ---------------------------


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.info.id)
def test_step_is_apply_and_draw_events_match_the_hands(game: registry.Game) -> None:
    players = ["red", "blue"]
    state = game.new_game(players, "events-playout", game.info.default_options())
    pick = random.Random(7)
    for _ in range(120):
        if game.result(state) is not None:
            break
        by = game.movers(state)[0]
        move = pick.choice([m for m in game.legal_moves(state, by) if not game.is_resign(m)])
        outcome = game.step(state, move, by)
        assert outcome.state == game.apply(state, move, by)
        if isinstance(game, Hands):  # a game without hands draws nothing to account for
            _check_draws(game, state, outcome.state, outcome.events, move, by)
        state = outcome.state


def _check_draws(
    game: registry.Game, before: object, after: object, events: tuple[Event, ...], move: object, by: str
) -> None:
    """Test-only cross-check against the hands (what the apps must never do): the draws account for every gain."""
    for colour in ("red", "blue"):
        drawn = [c for e in events if e.kind == "draw" and e.seat == colour for c in e.secret_data["cards"]]
        had = Counter(game.table(game.view(before, colour)).hand)
        has = Counter(game.table(game.view(after, colour)).hand)
        spent = Counter(game.spent_cards(move) if colour == by else ())
        if str(move).startswith("choose") and colour == by:
            spent[str(move).split()[1]] += 1
        assert has - (had - spent) == Counter(drawn), (colour, move, events)
        for event in events:
            if event.kind == "draw":
                assert not any(card in event.text.split() for card in event.secret_data["cards"])
