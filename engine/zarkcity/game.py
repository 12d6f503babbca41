"""Zark City on the game kit (engine/kit/base.py): what the service calls, and the table in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

from ..errors import IllegalMoveError, PositionError
from ..interface import (
    BoardScript,
    Card,
    Choice,
    GameInfo,
    HandPick,
    MoveKind,
    Option,
    Result,
    SeatSummary,
    Table,
    View,
)
from ..kit.base import KitGame, Resign
from ..kit.core import Randomness
from ..kit.events import Event, Outcome
from . import events, movegen, notation, picture, position, rules, textboard, views
from .cards import CARDS, SUIT_NAMES
from .describe import describe as describe_move
from .determinize import determinize as deal_unseen
from .notation import Move
from .options import DRAW_OPTION_CARDS
from .ruleset import ZARK_CITY, Ruleset
from .state import HAND_LIMIT, RULES_VERSION, State

INFO = GameInfo(
    id="zarkcity",
    name="Zark City",
    player_counts=(2, 3, 4, 5),
    options=(
        Option(
            "deck",
            "Deck",
            (Choice("standard", "standard deck (52 + 2 jokers)"), Choice("arcade", "Pyramid Arcade deck (5 suits)")),
            "standard",
        ),
    ),
    summary="Build a city of cards and be the first to control a Power Block of three.",
    hidden_information=True,
    rules_version=RULES_VERSION,
    has_hands=True,
    board_hint="Hover a card for its pieces.",
    chance="the deal and every draw",
    reasons=("power block", "resignation", "timeout", "draw"),
    movers_words={"choose": "Choosing starters"},
)

KINDS = (
    MoveKind("choose", "Choose your starter", quick=True),
    MoveKind("place", "Place your starter", quick=True),
    MoveKind("draw", "Draw", quick=True),
    MoveKind("grow", "Grow", quick=True),
    MoveKind("spawn", "Spawn", quick=True),
    MoveKind("build", "Build", quick=True),
    MoveKind("move", "Move a pyramid", quick=True),
    MoveKind("demolish", "Demolish"),
    MoveKind("convert", "Convert"),
    MoveKind("fly", "Fly"),
    MoveKind("hatch", "Hatch", quick=True),
    MoveKind("discard", "Discard down to the hand limit"),
)

HELP = (
    ("choose 9S", "commit a starter card, face down, at the start"),
    ("place 1,0", "first round: put your starter at that cell with a small"),
    ("draw", "take three more cards"),
    ("grow S 1,0", "grow your small on 1,0 to a medium"),
    ("spawn 1,0", "add a small to a card you occupy"),
    ("build 7H -1,0", "build a number card from your hand beside a card you occupy"),
    ("move S 0,0 1,0", "move your small to the adjacent card"),
    ("demolish blue L 1,0 pay QH JS", "remove blue's large, paying with face cards"),
    ("convert blue L 1,0 into M pay KH", "replace blue's large with your medium"),
    ("fly 2,0 0,1 pay AD", "move a card you occupy, with its pieces, paying an ace"),
    ("hatch 6C 0,1", "with no pieces on the board: build a card and put a small on it"),
    ("discard 3C 4D", "end of turn: discard down to the hand limit of 6"),
)

RULES = (
    "Each turn you draw a card, then take one option: draw three, grow, spawn, build, move, attack"
    " with face cards, fly a card with an ace, or hatch. Control (be the only one on) the three cards"
    " of a Power Block, three in a row or an L that are three of a kind or a suited run, to win."
    f" Discard down to {HAND_LIMIT} cards at the end of your turn."
)


class ZarkCity(KitGame[State, Move]):
    """Zark City on the game kit: the rules (rules.py) behind `KitGame`, with its `Hands`, the `Hidden`
    deck and starters, and the `Sealed` starter choice; it draws its own board (picture.py).

    Deck Town (engine/decktown/game.py) is this class with another Ruleset, card names and pictures:
    everything that reads a State asks the State's own ruleset."""

    info = INFO
    ruleset: Ruleset = ZARK_CITY
    KINDS: ClassVar[tuple[MoveKind, ...]] = KINDS
    HELP: ClassVar[tuple[tuple[str, str], ...]] = HELP
    RULES = RULES
    TIE_REASONS = ("tie",)  # Deck Town's shared win (rules.md 14.2); Zark City's double win has one winner

    def deck_type(self, options: Mapping[str, str]) -> str:
        """The deck a game with these options is dealt from."""
        return self.info.check_options(options)["deck"]

    def deck_options(self, deck_type: str) -> dict[str, str]:
        """The options a game dealt from `deck_type` was made with (the record names the deck)."""
        return {"deck": deck_type}

    # --- the core -------------------------------------------------------------------------------
    def start(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Outcome[State]:
        return Outcome(rules.new_game(players, seed, self.deck_type(options), self.ruleset))

    def parse_steps(self, text: str) -> list[Move]:
        return [notation.parse(text, self.ruleset.parse_card, self.ruleset.sort)]

    def play(self, state: State, move: Move, by: str) -> Outcome[State]:
        return rules.step(state, move, by)

    def legal_moves_of(self, state: State, seat: str) -> list[Move]:
        return movegen.legal_moves(state, seat)

    def only_kind(self, state: State, colour: str) -> str | None:
        """In a turn, "draw" unless another option has a move, found without listing every move (a turn
        email asks it of every mid-game board, where the list was 5% of the email's CPU)."""
        if state.phase != "act" or colour not in rules.movers(state):
            return super().only_kind(state, colour)  # the other phases' lists are short
        return None if movegen.more_than_draw(state, colour) else self.move_kind(notation.Draw())

    def movers(self, state: State) -> tuple[str, ...]:
        return rules.movers(state)

    def turn(self, state: State) -> int:
        return state.turn

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        if state.tied:
            return Result(winners=state.tied, reason=state.reason or "tie")
        return Result(winners=(state.winner,) if state.winner else (), reason=state.reason or "")

    def leave(self, state: State, seat: str) -> Outcome[State]:
        return rules.leave(state, seat)

    def finish(self, state: State, result: Result) -> State:
        return rules.finish(state, result.winners, result.reason)

    def view(self, state: State, viewer: str | None) -> View:
        return cast(View, views.view(state, viewer))

    def table(self, view: View) -> Table:
        return table(cast(views.ZarkCityView, view), self.card)

    def to_position(self, state: State) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: Any) -> State:
        return position.from_position(data, self.ruleset)

    def phase(self, state: State) -> str:
        """The rules' own phase: the apps name the starter choice by it (`movers_words`)."""
        return state.phase

    def continues_turn(self, before: State, after: State) -> bool:
        # Turn 0 is the setup (choose, place, the hand-limit discards): each of its steps is a new one.
        return before.turn == after.turn > 0 and after.to_move == before.to_move

    # --- the rules' own words for leaving and ending ---------------------------------------------
    def refuse(self, state: State, action: str, seat: str | None = None) -> None:
        rules.refuse(state, action, seat)

    def leaving_events(self, state: State, seat: str, reason: str) -> tuple[Event, ...]:
        return (events.resigned(seat, reason),)

    def last_seat_events(self, winner: str, reason: str) -> tuple[Event, ...]:
        return (events.ended(winner, reason, ()),)

    # --- Sealed: the starter choice (rules.md 3.5-3.6) -----------------------------------------
    def sealed_seats(self, state: State) -> tuple[str, ...]:
        """Every seat still to choose a starter: each commits one, face down, before any is revealed."""
        return rules.movers(state) if state.phase == "choose" else ()

    def committed_note(self, state: State, seat: str) -> str:
        """That a seat has chosen its starter is public (rules.md, "Starter commitment"); which card is not."""
        return "has chosen a starter"

    def check_commitment(self, state: State, seat: str, move: Move | Resign) -> None:
        """A starter the seat holds and may choose: the rules' own check, its result left unseen."""
        if isinstance(move, Resign):  # a seat leaves at once: it is no choice to seal
            raise IllegalMoveError("Resign: not a starter")
        rules.apply(state, move, seat)  # "Place: not now; every player is choosing a starter card", a card not held...

    def resolve(self, state: State, commitments: Mapping[str, Move]) -> Outcome[State]:
        """Every starter chosen, in the order the commitments arrived (it breaks ties for first player,
        rules.md 3.6): the same moves, in the same order, as the game record lists them."""
        for seat, move in commitments.items():
            state = rules.apply(state, move, seat)
        return Outcome(state)

    # --- Hidden: the hands, the deck order and the starters not yet revealed ---------------------
    def determinize(self, state: State, seat: str, rng: Randomness) -> State:
        return deal_unseen(state, seat, rng)

    def reveal(self, state: State) -> View:
        """The public view plus every hand, the deck order, the seed, the reshuffles and every starter
        chosen, at any ply: what the replay of a finished game shows (`view` shows them only once over)."""
        starters: dict[str, Any] = {"chosen": [colour for colour, _ in state.starters]}
        starters["revealed"] = [[colour, code] for colour, code in state.starters]
        return cast(View, views.view(state, None) | views._full(state) | {"starters": starters})

    def public_move_text(self, move: Move | Resign, by: str, now: State, viewer: str | None) -> str:
        return views.public_move_text(move, by, now.starters_revealed(), viewer)

    def describe(self, move: Move | Resign, by: str, before: State, after: State, viewer: str | None) -> str:
        """The step in the game's own sentences ("you drew 1 card: 9D"), from its events."""
        return describe_move(move, by, before, after, viewer, self.step(before, move, by).events)

    # --- Hands ----------------------------------------------------------------------------------
    def spent_cards(self, move: Move | Resign) -> tuple[str, ...]:
        return () if isinstance(move, Resign) else views.spent_cards(move)

    def card(self, code: str) -> Card:
        return card(code)

    def hand_svg(self, view: View) -> str:
        shown = cast(views.ZarkCityView, view)
        hand = list(shown.get("hand", []))
        return picture.render_hand_svg(hand, style=self.card_style(shown)) if hand else ""

    # --- its own pictures -----------------------------------------------------------------------
    def card_style(self, view: views.ZarkCityView) -> picture.CardStyle:
        """How this game's cards are drawn: square Arcade cards, turned standard ones."""
        return picture.CardStyle(square=view["deck_type"] == "arcade")

    def board_svg(self, view: View, *, interactive: bool = False) -> str:
        style = self.card_style(cast(views.ZarkCityView, view))
        return picture.render_board_svg(cast(dict[str, Any], view), interactive=interactive, style=style)

    def board_text(self, view: View) -> str:
        return textboard.board_text(cast(dict[str, Any], view))

    def board_script(self, view: View) -> BoardScript:
        return board_script(cast(views.ZarkCityView, view), self.card, self.ruleset)

    # --- the record `zarkcity-game/1`: its rules version and deck besides the kit's fields --------
    @property
    def record_format(self) -> str:
        return self.ruleset.record_format

    def record_head(self, players: Sequence[str], options: Mapping[str, str], seed: str) -> dict[str, Any]:
        return {
            "format": self.ruleset.record_format,
            "game": self.ruleset.game,
            "rules": self.ruleset.version,
            "deck_type": self.deck_type(options),
            "players": list(players),
            "seed": seed,
        }

    def read_record_head(self, record: dict[str, Any]) -> tuple[tuple[str, ...], str, dict[str, str]]:
        position.check_header(record, self.ruleset.record_format, "a game record", self.ruleset)
        players = position.read_players(record.get("players"))
        seed = record.get("seed")
        if not isinstance(seed, str):
            raise PositionError(f"seed must be a string, not {seed!r}")
        deck_type = position.read_deck_type(record.get("deck_type"), self.ruleset)
        return players, seed, self.deck_options(deck_type)

    def read_seat(self, value: Any, what: str, players: tuple[str, ...]) -> str:
        return position.seated(value, what, players)

    def _example(self) -> str:
        return "draw"


# ----------------------------------------------------------------------------- the table in words


def _who(colour: str, viewer: str | None) -> str:
    return "you" if colour == viewer else colour


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _reshuffles(n: int) -> str:
    if n == 0:
        return "The discard pile has not been reshuffled into the deck."
    return f"The discard pile has been reshuffled into the deck {({1: 'once', 2: 'twice'}).get(n, f'{n} times')}."


def status_line(view: views.ZarkCityView) -> str:
    """Whose move it is, in words: "Waiting for blue and green to choose a starter card.", "Your turn"."""
    viewer, phase, movers = view["viewer"], view["phase"], view["movers"]
    if phase == "over":
        return "The game is over."
    names = " and ".join(_who(c, viewer) for c in movers)
    if phase == "choose":
        return f"Waiting for {names} to choose a starter card."
    mover = movers[0] if movers else ""
    if phase == "place":
        return "Your move: place your starter card." if mover == viewer else f"Waiting for {mover} to place a starter."
    if phase == "discard":
        cards = _cards(view["hand_sizes"].get(mover, 0) - view["hand_limit"])
        return f"You must discard {cards}." if mover == viewer else f"Waiting for {mover} to discard {cards}."
    turn = view["turn"]
    return f"Your turn (turn {turn})." if mover == viewer else f"{mover.capitalize()}'s turn (turn {turn})."


CardOf = Callable[[str], Card]


def table(view: views.ZarkCityView, card_of: CardOf | None = None) -> Table:
    chosen = set(view["starters"]["chosen"])
    seats = []
    for colour in view["players"]:
        stash = view["stashes"].get(colour, {})
        facts = (_cards(view["hand_sizes"].get(colour, 0)), "stash " + " ".join(f"{s}{n}" for s, n in stash.items()))
        note = "has chosen a starter" if view["phase"] == "choose" and colour in chosen else ""
        seats.append(SeatSummary(colour=colour, facts=facts, note=note))
    mine = view["starters"].get("mine") if view["phase"] == "choose" else None
    return Table(
        status=status_line(view),
        seats=tuple(seats),
        private_note=f"You chose {mine}." if mine else "",
        hand=tuple(view.get("hand", ())),
        notes=table_notes(view, card_of or card),
        pick=discard_pick(view),
    )


def discard_pick(view: views.ZarkCityView) -> HandPick | None:
    """The end-of-turn discard as tick-boxes, for the viewer who owes it (every combination would be a long list)."""
    owed = len(view.get("hand", [])) - view["hand_limit"]
    if view["phase"] != "discard" or view["viewer"] not in view["movers"] or owed <= 0:
        return None
    cards = "card" if owed == 1 else "cards"
    prompt = f"Your hand is over the limit of {view['hand_limit']}: tick {owed} {cards} to discard"
    return HandPick(verb="discard", count=owed, prompt=prompt, button="Discard")


def table_notes(view: views.ZarkCityView, card_of: CardOf | None = None) -> tuple[str, ...]:
    """The public lines beside the seats: deck, discard pile, starters, re-deals; every hand once over."""
    name = card_of or card

    def _labels(codes: Sequence[str]) -> str:
        return " ".join(name(code).label for code in codes)

    notes = [f"Deck: {_cards(view['deck_size'])}."]
    if "deck" in view:  # the whole truth (a finished game, `reveal`): the order, and how often it was rebuilt
        notes.append(f"Deck order, next first: {_labels(view['deck'])}." if view["deck"] else "Deck order: empty.")
        notes.append(_reshuffles(view.get("shuffles", 0)))
    discard = view["discard"]
    notes.append(f"Discard pile ({len(discard)}, top last): {_labels(discard)}." if discard else "Discard pile: empty.")
    revealed = view["starters"].get("revealed", [])
    if revealed:
        starters = ", ".join(f"{colour} {name(code).label}" for colour, code in revealed)
        first = f"; {view['first_player']} went first" if view["first_player"] else ""
        notes.append(f"Starters: {starters}{first}.")
    for shown in view["revealed"]:
        notes.append(
            f"Re-deal round {shown['round']}: {shown['player']} showed {_labels(shown['cards'])} (no number card)."
        )
    for colour, hand in view.get("hands", {}).items():
        notes.append(f"{colour}'s hand: {_labels(hand) if hand else 'empty'}.")
    return tuple(notes)


def board_script(
    view: views.ZarkCityView, card_of: Callable[[str], Card] | None = None, ruleset: Ruleset = ZARK_CITY
) -> BoardScript:
    """The board script's data: the discard owed and the hand limit it brings the hand down to, the
    cards the draw option takes, the viewer's own starter, labels and pips of the viewer's own cards
    (nothing another player holds)."""
    viewer = view["viewer"]
    hand = view.get("hand", [])
    owed = len(hand) - view["hand_limit"] if view["phase"] == "discard" and viewer in view["movers"] else 0
    starter = next((card for colour, card in view["starters"].get("revealed", []) if colour == viewer), None)
    known = set(hand) | {c for c in (starter,) if c}
    name = card_of or card
    cards = ruleset.cards
    return BoardScript(
        module="games/zarkcity/board.js",
        data={
            "phase": view["phase"],
            "discard": owed,
            "handLimit": view["hand_limit"],  # the discard prompt's "down to N": each game's own limit
            "drawCards": DRAW_OPTION_CARDS,  # the Draw button's "Draw N cards"
            "starter": starter,
            "labels": {code: name(code).label for code in sorted(known)},
            "pips": {code: cards[code].pips for code in sorted(known) if cards[code].pips},
        },
    )


_RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def card(code: str) -> Card:
    info = CARDS.get(code)
    if info is None:
        return Card(code=code, label=code, name=code)
    if info.suit is None:
        return Card(code=code, label="Joker", name="Joker", css="joker")
    rank = _RANK_NAMES.get(info.rank, info.rank)
    return Card(
        code=code,
        label=picture.card_label(code),
        name=f"{rank} of {SUIT_NAMES[info.suit]}",
        css=info.suit,
    )


GAME = ZarkCity()
