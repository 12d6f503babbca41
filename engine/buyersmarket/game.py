"""Buyer's Market on the kit: the core (engine/kit/core.py `Rules`) and the Scores, Hidden and CardFaces
capabilities.

The kit's `KitGame` turns it into the service's interface and gives resignation, draws, time-outs,
the `buyersmarket-game/1` record (with its `rules` field) and its replay; the result, which may name
several winners, is this game's own (record.py). The game draws its own pictures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from ..interface import BoardScript, Card, GameInfo, MoveKind, Randomness, Result, Table, View
from ..kit import files
from ..kit.base import KitGame
from ..kit.events import Event, Outcome
from . import events, notation, picture, position, record, rules, textboard, views
from .notation import Move
from .pieces import ALL_CARDS, GAME_ID, PLAYER_COUNTS, RULES_VERSION
from .state import REASONS, State

INFO = GameInfo(
    id=GAME_ID,
    name="Buyer's Market",
    player_counts=PLAYER_COUNTS,
    options=(),
    summary="Fill and buy pallets of pyramids with your bank, then build the best building by the code.",
    hidden_information=False,
    rules_version=RULES_VERSION,
    has_hands=False,
    board_hint="White pyramids with a letter are the players' banks; hover a pyramid for its name.",
    chance="who starts, the piles and every die roll",
    reasons=REASONS,
)

KINDS = (
    MoveKind("pile", "Pick the pile of the next pallet", quick=True),
    MoveKind("place", "Place a global resource", quick=True),
    MoveKind("contribute", "Contribute from your bank", quick=True),
    MoveKind("buy", "Buy a pallet", quick=True),
    MoveKind("pass", "Pass (no action)", quick=True),
)

HELP = (
    ("place M 7H", "put a hearts Medium from the global resources on the 7 of hearts (GRP pips on it at most 7)"),
    ("contribute L 7H", "put a Large from your bank on the 7 of hearts, not yet complete"),
    ("buy 7H", "take the 7 of hearts: it already holds 7 pips or more"),
    ("buy 3C with LS", "complete and buy the 3 of clubs with bank pyramids of at most 4 pips"),
    ("buy 3C with L back S", "... and make change: a Small of your colour from your collected pile to your bank"),
    ("buy 3C with L return S", "... or instead a clubs Small from your collected pile back to the global resources"),
    ("place M 7H call", "any action may end with call: the building phase (4 L, 3 M and 1 S collected)"),
    ("pile H", "after the atom, or a colour with nothing left: the pile the next pallet comes from"),
    ("pass", "only when you have no action at all"),
)

RULES = (
    "On your turn do one thing: place a pyramid from the global resources on a pallet of its colour"
    " (its resource pips may not exceed the card's value; an Ace is 11), contribute a pyramid from your"
    " bank to a pallet not yet complete, or buy a pallet: one that holds its value, or complete it with"
    " up to 4 pips from your bank. With three or more players it must already hold a resource. You"
    " collect everything on it except other banks' pyramids, which go home, and roll the die for a new"
    " pallet. With 4 Larges, 3 Mediums and a Small collected you may call the building phase after your"
    " action; everyone else has one more turn, then the best building of each collected pile is scored:"
    " bricks, levels, cohesiveness, diversity, regality, minus unused, plus your bank. Ties go to the"
    " most cards bought."
)


class BuyersMarket(KitGame[State, Move]):
    info = INFO
    KINDS: ClassVar[tuple[MoveKind, ...]] = KINDS
    HELP: ClassVar[tuple[tuple[str, str], ...]] = HELP
    RULES: ClassVar[str] = RULES

    # --- the core --------------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return rules.setup_step(players, seed)

    def parse_steps(self, text: str) -> list[Move]:
        return [notation.parse(text)]

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        return rules.play(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        return rules.legal_moves(state, seat)

    def movers(self, state: State) -> tuple[str, ...]:
        return rules.movers(state)

    def turn(self, state: State) -> int:
        return state.turn

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        return Result(winners=state.winners, reason=state.reason or "", scores=rules.scored(state))

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return rules.leave(state, seat)

    def finish(self, state: State, result: Result) -> State:
        return rules.finish(state, result)

    def view(self, state: State, viewer: str | None) -> View:
        return views.view(state, viewer)

    def table(self, view: View) -> Table:
        return views.table(cast(views.BuyersMarketView, view))

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data)

    # --- the game's own words and turns ----------------------------------------------------------
    def phase(self, state: State) -> str:
        return state.phase  # setup, pick, play, last, over: a new phase restarts the clock

    def continues_turn(self, before: State, after: State) -> bool:
        # A purchase and the pile its buyer then picks are one turn.
        return before.turn == after.turn > 0 and before.to_move == after.to_move

    def leaving_events(self, state: State, seat: str, reason: str) -> tuple[Event, ...]:
        return (events.resigned(seat),)

    def last_seat_events(self, winner: str, reason: str) -> tuple[Event, ...]:
        return ()  # the log says who resigned; the result says who is left

    def describe(self, move: Any, by: str, before: State, after: State, viewer: str | None) -> str:
        return views.describe(self.step(before, move, by).events)

    # --- Scores, and the record: `buyersmarket-game/1` names its rules and every winner ------------
    def scores(self, state: State) -> dict[str, int] | None:
        return rules.scored(state)

    def record_head(self, players: Sequence[str], options: Mapping[str, str], seed: str) -> dict[str, Any]:
        head = super().record_head(players, self.info.check_options(options), seed)
        return {"format": head["format"], "game": head["game"], "rules": RULES_VERSION, **head}

    def read_record_head(self, record: dict[str, Any]) -> tuple[tuple[str, ...], str, dict[str, str]]:
        position.check_header(record, self.record_format, "a game record")  # the rules version too
        return position.read_players(record.get("players")), files.text(record.get("seed"), "seed"), {}

    def record_result(self, state: State) -> dict[str, Any] | None:
        return record.result_of(state)

    def read_result(self, value: Any, players: tuple[str, ...]) -> dict[str, Any] | None:
        return None if value is None else record.read_result(value, players)

    def check_result(self, state: State, result: Mapping[str, Any], plies: int) -> State:
        return record.check_result(state, result, plies)

    # --- Hidden: each pile's order under its top card, and the die rolls to come ------------------
    def determinize(self, state: State, seat: str, rng: Randomness) -> State:
        """Buyer's Market hides only each pile's order under its face-up top card and the die rolls to
        come: shuffle every pile under its top (sorted first, so only what is seen matters) and replace
        the seed that drives the rolls."""
        piles = {}
        for suit, cards in state.piles.items():
            below = sorted(cards[1:])
            rng.shuffle(below)
            piles[suit] = cards[:1] + tuple(below)
        return state.evolve(piles=piles, seed=f"determinized:{rng.randrange(1 << 62)}")

    def reveal(self, state: State) -> View:
        """The public view and, besides, each pile's whole order: for the replay of a finished game."""
        shown = cast(dict[str, Any], views.view(state, None))
        shown["seed"] = state.seed
        shown["pile_order"] = {suit: list(cards) for suit, cards in state.piles.items()}
        return cast(View, shown)

    def public_move_text(self, move: Move, by: str, now: State, viewer: str | None) -> str:
        return str(move)

    # --- CardFaces: the pallets' and piles' cards ------------------------------------------------
    def card(self, code: str) -> Card:
        if code not in ALL_CARDS:
            return Card(code=code, label=code, name=code)
        return Card(code=code, label=views.card_label(code), name=views.card_name(code), css=code[-1])

    # --- pictures: the game's own ----------------------------------------------------------------
    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        return picture.board_svg(cast(views.BuyersMarketView, view), interactive=interactive)

    def board_text(self, view: View) -> str:
        return textboard.board_text(cast(views.BuyersMarketView, view))

    def board_script(self, view: View) -> BoardScript:
        """The script builds moves from the legal-move list and reads pallets and piles from the
        picture's data-pallet/data-pile; it needs only card labels (all public)."""
        shown = cast(views.BuyersMarketView, view)
        cards = [p["card"] for p in shown["pallets"]] + [p["top"] for p in shown["piles"].values() if p["top"]]
        return BoardScript(
            module="games/buyersmarket/board.js",
            data={"phase": shown["phase"], "labels": {c: views.card_label(c) for c in cards}},
        )


GAME = BuyersMarket()
