"""The "zarkcity-position/1" JSON file: the whole truth of a game, read with validation, written stably.

Field meanings and defaults are documented in docs/notation.md. A file that cannot be a Zark City
position raises PositionError with a message naming what is wrong (CLI exit code 2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import files
from ..errors import NotationError, PositionError, shown
from ..files import parse_json, pretty
from .notation import COLOURS, SIZES, Cell, cell_str
from .ruleset import ZARK_CITY, Ruleset
from .state import PHASES, PIECES_PER_SIZE, REASONS, Square, State

FORMAT = ZARK_CITY.position_format  # Deck Town's is DECK_TOWN.position_format
SIZE_NAMES = {"S": "small", "M": "medium", "L": "large"}
_TO_MOVE_PHASES = ("place", "act", "discard")


# ----------------------------------------------------------------------------- writing


def to_position(state: State) -> dict[str, Any]:
    """The position as a JSON-able dict with every field written out (nothing left to defaults)."""
    rules = state.ruleset
    data: dict[str, Any] = {
        "format": rules.position_format,
        "game": rules.game,
        "rules": rules.version,
        "deck_type": state.deck_type,
        "players": list(state.players),
        "phase": state.phase,
        "to_move": state.to_move,
        "turn": state.turn,
        "first_player": state.first_player,
        "pending": list(state.pending),
        "board": board_list(state),
        "hands": {colour: list(state.hands.get(colour, ())) for colour in state.players},
        "deck": list(state.deck),
        "discard": list(state.discard),
        "seed": state.seed,
        "shuffles": state.shuffles,
        "starters": [[colour, card] for colour, card in state.starters],
        "resigned": list(state.resigned),
        "revealed": revealed_list(state),
        "winner": state.winner,
        "reason": state.reason,
    }
    if state.tied:
        data["tied"] = list(state.tied)
    if state.extra:
        data["extra"] = dict(state.extra)
    return data


def board_list(state: State) -> list[dict[str, Any]]:
    """The board as {"at", "card", "pieces"} entries sorted by row, then column (y, then x)."""
    return [
        {"at": [x, y], "card": state.board[(x, y)].card, "pieces": pieces_text(state.board[(x, y)], state.players)}
        for x, y in sorted(state.board, key=lambda cell: (cell[1], cell[0]))
    ]


def pieces_text(square: Square, players: Sequence[str]) -> dict[str, str]:
    """{colour: "SSM"}: each colour's pieces as size letters S, M, L in that order, colours in seat order."""
    order = {size: i for i, size in enumerate(SIZES)}
    by_colour: dict[str, list[str]] = {}
    for colour, size in square.pieces:
        by_colour.setdefault(colour, []).append(size)
    seats = [c for c in players if c in by_colour] + sorted(c for c in by_colour if c not in players)
    return {c: "".join(sorted(by_colour[c], key=order.__getitem__)) for c in seats}


def revealed_list(state: State) -> list[dict[str, Any]]:
    return [{"round": rnd, "player": colour, "cards": list(hand)} for rnd, colour, hand in state.revealed]


def dumps(state: State) -> str:
    """The position file text: stable (same state, same bytes), indented, board sorted, newline-terminated."""
    return pretty(to_position(state)) + "\n"


# ----------------------------------------------------------------------------- reading


def loads(text: str, ruleset: Ruleset = ZARK_CITY) -> State:
    """Read a position file's text; bad JSON or a bad position raises PositionError."""
    return from_position(parse_json(text), ruleset)


def game_of(data: Any) -> str:
    """The game a file says it is: its "game" field, Zark City when it has none (games.md)."""
    return files.game_of(data, ZARK_CITY.game)


def check_header(data: Any, file_format: str, what: str, rules: Ruleset = ZARK_CITY) -> None:
    """The checks every zarkcity JSON file starts with: an object, its game and format tag, a rules version we play."""
    if not isinstance(data, dict):
        raise PositionError(f"{what} must be a JSON object")
    if game_of(data) != rules.game:
        raise PositionError(f"this is a {game_of(data)} file, not {rules.game}")
    if data.get("format") != file_format:
        raise PositionError(f"format must be {file_format!r}, not {data.get('format')!r}")
    if data.get("rules", rules.version) != rules.version:
        raise PositionError(f"rules {data.get('rules')!r} are not supported (this engine plays {rules.version})")


@dataclass(frozen=True)
class Deck:
    """The cards a file may name: its game's card table and the deck it was dealt from."""

    rules: Ruleset
    deck_type: str


def from_position(data: Any, ruleset: Ruleset = ZARK_CITY) -> State:
    """Validate a parsed position file and build its State (defaults for the optional fields)."""
    check_header(data, ruleset.position_format, "a position", ruleset)
    deck_type = read_deck_type(data.get("deck_type"), ruleset)
    deck = Deck(ruleset, deck_type)
    players = read_players(data.get("players"))
    phase = _phase(data.get("phase"))
    state = State(
        deck_type=deck_type,
        players=players,
        phase=phase,
        to_move=_to_move(data.get("to_move"), players, phase),
        board=_board(data.get("board", []), players, deck),
        hands=_hands(data.get("hands", {}), players, deck),
        deck=_cards(data.get("deck", []), "deck", deck),
        discard=_cards(data.get("discard", []), "discard", deck),
        seed=_string(data.get("seed", ""), "seed"),
        shuffles=_count(data.get("shuffles", 0), "shuffles"),
        starters=_starters(data.get("starters", []), players, deck),
        first_player=_first_player(data, players, phase),
        resigned=_colours(data.get("resigned", []), "resigned", players),
        revealed=_revealed(data.get("revealed", []), players, deck),
        pending=_colours(data.get("pending", []), "pending", players),
        turn=_count(data.get("turn", 1 if phase in ("act", "discard") else 0), "turn"),
        winner=_optional_colour(data.get("winner"), "winner", players),
        reason=_reason(data.get("reason")),
        extra=_extra(data.get("extra", {})),
        ruleset=ruleset,
        tied=_colours(data.get("tied", []), "tied", players),
    )
    check_state(state)
    return state


def check_state(state: State) -> None:
    """Checks across fields: cards listed once, piece supply, connected board, a result only when over."""
    _check_cards_once(state)
    _check_piece_supply(state)
    _check_connected(state.board)
    if state.phase != "over" and (state.winner is not None or state.reason is not None):
        raise PositionError(f"winner and reason must be null while the game is on (phase is {state.phase})")
    if state.to_move is not None and state.to_move in state.resigned:
        raise PositionError(f"to_move: {state.to_move} has resigned and cannot be to move")
    _check_discard_owed(state)
    _check_no_block_already_won(state)


def _check_no_block_already_won(state: State) -> None:
    """A game still on cannot hold a finished Power Block: play checks wins only around what a move
    changes, so a hand-written position with one already made would never be declared over."""
    if state.phase == "over":
        return
    found = state.ruleset.winners_through(state.board, state.board)
    if found:
        who = ", ".join(sorted(found))
        block = state.ruleset.block_name
        raise PositionError(f"{who} already controls a {block}: a position with one must be over (phase over)")


def _check_discard_owed(state: State) -> None:
    """The discard phase exists only while the player to move holds more than the hand limit."""
    if state.phase != "discard" or state.to_move is None:
        return
    held, limit = len(state.hands.get(state.to_move, ())), state.ruleset.hand_limit
    if held <= limit:
        raise PositionError(
            f"phase is discard but {state.to_move} holds {held} cards: a discard is owed only above {limit}"
        )


def read_deck_type(value: Any, rules: Ruleset = ZARK_CITY) -> str:
    if value not in rules.decks:
        raise PositionError(f"deck_type must be one of {', '.join(rules.decks)}, not {value!r}")
    return str(value)


def read_players(value: Any) -> tuple[str, ...]:
    """2 to 5 distinct colours in seat order."""
    if not isinstance(value, list) or not 2 <= len(value) <= 5:
        raise PositionError(f"players must be a list of 2 to 5 colours, not {value!r}")
    players = tuple(read_colour(v, "players") for v in value)
    if len(set(players)) != len(players):
        raise PositionError(f"players must be distinct: {', '.join(players)}")
    return players


def read_colour(value: Any, where: str) -> str:
    if not isinstance(value, str) or value.lower() not in COLOURS:
        raise PositionError(f"{where}: {value!r} is not a player colour ({', '.join(COLOURS)})")
    return value.lower()


def seated(value: Any, where: str, players: Sequence[str]) -> str:
    colour = read_colour(value, where)
    if colour not in players:
        raise PositionError(f"{where}: {colour} is not seated in this game (players: {', '.join(players)})")
    return colour


def read_card(value: Any, where: str, deck: Deck) -> str:
    if not isinstance(value, str):
        raise PositionError(f"{where}: {value!r} is not a card")
    try:
        card = deck.rules.parse_card(value)
    except NotationError as error:
        raise PositionError(f"{where}: {error}") from None
    if not deck.rules.in_deck(card, deck.deck_type):
        raise PositionError(f"{where}: {card} is not in the {deck.deck_type} deck")
    return card


def _phase(value: Any) -> str:
    if value not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {value!r}")
    return str(value)


def _to_move(value: Any, players: Sequence[str], phase: str) -> str | None:
    if phase in _TO_MOVE_PHASES:
        if value is None:
            raise PositionError(f"to_move is missing: phase {phase} needs the colour of the player to move")
        return seated(value, "to_move", players)
    if value is not None:
        raise PositionError(f"to_move must be null in phase {phase}, not {value!r}")
    return None


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list, not {value!r}")
    return value


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise PositionError(f"{where} must be a string, not {value!r}")
    return value


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(f"{where} must be a whole number 0 or more, not {value!r}")
    return value


def _cards(value: Any, where: str, deck: Deck) -> tuple[str, ...]:
    return tuple(read_card(card, where, deck) for card in _list(value, where))


def _colours(value: Any, where: str, players: Sequence[str]) -> tuple[str, ...]:
    colours = tuple(seated(v, where, players) for v in _list(value, where))
    if len(set(colours)) != len(colours):
        raise PositionError(f"{where}: a colour is listed twice ({', '.join(colours)})")
    return colours


def _optional_colour(value: Any, where: str, players: Sequence[str]) -> str | None:
    return None if value is None else seated(value, where, players)


def _reason(value: Any) -> str | None:
    if value is not None and value not in REASONS:
        raise PositionError(f"reason must be one of {', '.join(REASONS)} or null, not {value!r}")
    return None if value is None else str(value)


def _extra(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"extra must be an object, not {value!r}")
    return value


def _first_player(data: Mapping[str, Any], players: Sequence[str], phase: str) -> str | None:
    """Given, or by default None while starters are being chosen and the first seat after that."""
    if "first_player" in data:
        return _optional_colour(data["first_player"], "first_player", players)
    return None if phase == "choose" else players[0]


def _hands(value: Any, players: Sequence[str], deck: Deck) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise PositionError(f"hands must be an object mapping colours to lists of cards, not {value!r}")
    hands = {colour: () for colour in players} | {
        seated(colour, "hands", players): _cards(cards, f"hands.{colour}", deck) for colour, cards in value.items()
    }
    return {colour: hands[colour] for colour in players}


def _starters(value: Any, players: Sequence[str], deck: Deck) -> tuple[tuple[str, str], ...]:
    starters: list[tuple[str, str]] = []
    for entry in _list(value, "starters"):
        if not isinstance(entry, list) or len(entry) != 2:
            raise PositionError(f"starters: each entry must be [colour, card], not {entry!r}")
        colour = seated(entry[0], "starters", players)
        card = read_card(entry[1], f"starters.{colour}", deck)
        if not deck.rules.cards[card].is_number:
            raise PositionError(f"starters.{colour}: {card} is not a number card ({deck.rules.number_ranks})")
        if any(colour == c for c, _ in starters):
            raise PositionError(f"starters: {colour} has chosen twice")
        starters.append((colour, card))
    return tuple(starters)


def _revealed(value: Any, players: Sequence[str], deck: Deck) -> tuple[tuple[int, str, tuple[str, ...]], ...]:
    rows: list[tuple[int, str, tuple[str, ...]]] = []
    for entry in _list(value, "revealed"):
        if not isinstance(entry, dict):
            raise PositionError(f"revealed: each entry must be {{round, player, cards}}, not {entry!r}")
        rnd = _count(entry.get("round"), "revealed.round")
        colour = seated(entry.get("player"), "revealed.player", players)
        rows.append((rnd, colour, _cards(entry.get("cards"), f"revealed.{colour}", deck)))
    return tuple(rows)


# ----------------------------------------------------------------------------- the board


def _board(value: Any, players: Sequence[str], deck: Deck) -> dict[Cell, Square]:
    board: dict[Cell, Square] = {}
    for entry in _list(value, "board"):
        cell, square = _square(entry, players, deck)
        if cell in board:
            raise PositionError(f"board: two cards at {cell_str(cell)}")
        board[cell] = square
    return board


def _square(entry: Any, players: Sequence[str], deck: Deck) -> tuple[Cell, Square]:
    if not isinstance(entry, dict):
        raise PositionError(f"board: each entry must be {{at, card, pieces}}, not {entry!r}")
    cell = _cell(entry.get("at"))
    where = f"board {cell_str(cell)}"
    card = read_card(entry.get("card"), where, deck)
    _check_number_card(card, where, deck.rules)
    return cell, Square(card, _pieces(entry.get("pieces", {}), where, players))


# As in the notation: 65 cards at most, so no cell lies further than 9,999 steps from 0,0.
_FARTHEST = 9999


def _cell(value: Any) -> Cell:
    ok = isinstance(value, list) and len(value) == 2
    if not ok or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise PositionError(f"board: 'at' must be [x, y] with two whole numbers, not {shown(repr(value))}")
    if any(abs(v) > _FARTHEST for v in value):
        raise PositionError(f"board: 'at' must be [x, y] with numbers from -{_FARTHEST} to {_FARTHEST}")
    return value[0], value[1]


def _check_number_card(card: str, where: str, rules: Ruleset) -> None:
    info = rules.cards[card]
    if info.is_number:
        return
    kind = "a joker" if info.suit is None else "an ace" if info.is_ace else "a face card"
    raise PositionError(f"{where}: {card} is {kind}; only number cards ({rules.number_ranks}) can be on the board")


def _pieces(value: Any, where: str, players: Sequence[str]) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise PositionError(f'{where}: pieces must map colours to size letters like "SM", not {value!r}')
    pieces: list[tuple[str, str]] = []
    for colour, sizes in value.items():
        owner = seated(colour, f"{where} pieces", players)
        if not isinstance(sizes, str) or any(s.upper() not in SIZES for s in sizes):
            raise PositionError(f"{where}: {owner}'s pieces must be size letters S, M, L, not {sizes!r}")
        pieces.extend((owner, s.upper()) for s in sizes)
    return tuple(sorted(pieces))


def _check_piece_supply(state: State) -> None:
    counts = Counter(piece for square in state.board.values() for piece in square.pieces)
    for (colour, size), n in sorted(counts.items()):
        if n > PIECES_PER_SIZE:
            raise PositionError(
                f"pieces: {colour} has {n} {SIZE_NAMES[size]} pieces on the board; each player has only 3"
            )


def _check_connected(board: Mapping[Cell, Square]) -> None:
    """Every card is linked to every other through side or corner contact (rules.md 1.3)."""
    if not board:
        return
    start = min(board, key=lambda c: (c[1], c[0]))
    reached, frontier = {start}, [start]
    while frontier:
        x, y = frontier.pop()
        for cell in ((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            if cell in board and cell not in reached:
                reached.add(cell)
                frontier.append(cell)
    cut_off = sorted((c for c in board if c not in reached), key=lambda c: (c[1], c[0]))
    if cut_off:
        raise PositionError(
            f"board: the board is not connected: {cell_str(cut_off[0])} is cut off from {cell_str(start)}"
        )


# ----------------------------------------------------------------------------- cards listed once


def held_starters(state: State) -> list[tuple[str, str]]:
    """Starters still held face down: every active player's while choosing, the unplaced ones while placing.

    After that `starters` is only the record of who chose what: those cards are on the board (or,
    for a resigned player, went to the discard pile) and are counted there.
    """
    if state.phase == "choose":
        return [(c, card) for c, card in state.starters if c not in state.resigned]
    if state.phase == "place":
        waiting = {state.to_move, *state.pending}
        return [(c, card) for c, card in state.starters if c in waiting]
    return []


def card_places(state: State) -> Iterable[tuple[str, str]]:
    """(card, where) for every card the position holds: board, hands, deck, discard, held starters."""
    for cell, square in state.board.items():
        yield square.card, f"board {cell_str(cell)}"
    for colour, hand in state.hands.items():
        for card in hand:
            yield card, f"hands.{colour}"
    yield from ((card, "deck") for card in state.deck)
    yield from ((card, "discard") for card in state.discard)
    yield from ((card, f"starters.{colour}") for colour, card in held_starters(state))


def _check_cards_once(state: State) -> None:
    seen: dict[str, list[str]] = {}
    for card, where in card_places(state):
        seen.setdefault(card, []).append(where)
    copies = state.ruleset.copies(state.deck_type)
    for card, places in seen.items():
        allowed = copies[card]
        if len(places) > allowed:
            what = "listed twice" if allowed == 1 else f"listed {len(places)} times (the deck has {allowed})"
            raise PositionError(f"{card} is {what}: {', '.join(places)}")
