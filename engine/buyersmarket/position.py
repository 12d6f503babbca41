"""The `buyersmarket-position/1` file (docs/notation.md, Buyer's Market): the whole truth of one moment.

`to_position` writes every field in a fixed order, so the same State always gives the same file.
`from_position` raises PositionError naming the first thing wrong, including pyramids or cards that
are missing or doubled (every pyramid and card is somewhere exactly once).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import NotationError, PositionError
from .pieces import ALL_CARDS, BANK_TRIOS, GAME_ID, RULES_VERSION, SIZES, SUITS, Piece, parse_card, piece_text
from .setup import seating, trios_per_colour
from .state import PICK_REASONS, REASONS, Pallet, Pick, State

FORMAT = "buyersmarket-position/1"


def to_position(state: State) -> dict[str, Any]:
    players = state.players
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "rules": RULES_VERSION,
        "players": list(players),
        "first_player": state.first_player,
        "to_move": state.to_move,
        "turn": state.turn,
        "rolls": state.rolls,
        "owed": state.owed,
        "pending": None
        if state.pending is None
        else {"roller": state.pending.roller, "reason": state.pending.reason, "rolled": state.pending.rolled},
        "piles": {suit: list(state.piles[suit]) for suit in SUITS},
        "pallets": [{"card": p.card, "pieces": [piece_text(x) for x in p.pieces]} for p in state.pallets],
        "grp": {suit: {size: state.grp[suit][size] for size in SIZES} for suit in SUITS},
        "banks": {c: {size: state.banks[c][size] for size in SIZES} for c in players},
        "crp": {c: [piece_text(x) for x in state.crp[c]] for c in players},
        "collected": {c: list(state.collected[c]) for c in players},
        "called_by": state.called_by,
        "last_round": list(state.last_round),
        "passes": state.passes,
        "last_roll": None if state.last_roll is None else {"by": state.last_roll[0], "face": state.last_roll[1]},
        "resigned": list(state.resigned),
        "winners": list(state.winners),
        "reason": state.reason,
        "seed": state.seed,
    }


def check_header(data: Any, file_format: str, what: str) -> None:
    if not isinstance(data, dict):
        raise PositionError(f"{what} must be a JSON object")
    game = data.get("game", "zarkcity")
    if game != GAME_ID:
        raise PositionError(f"this is a {game} file, not {GAME_ID}" if isinstance(game, str) else "game must be text")
    if data.get("format") != file_format:
        raise PositionError(f"format must be {file_format!r}, not {data.get('format')!r}")
    if data.get("rules", RULES_VERSION) != RULES_VERSION:
        raise PositionError(f"rules must be {RULES_VERSION!r}, not {data.get('rules')!r}")


def read_players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise PositionError(f"players must be a list of colours, not {value!r}")
    return seating(value)


def seated(value: Any, what: str, players: tuple[str, ...], *, none: bool = False) -> Any:
    if value is None and none:
        return None
    if value not in players:
        raise PositionError(f"{what} must be one of the players ({', '.join(players)}), not {value!r}")
    return value


def from_position(data: Any) -> State:
    check_header(data, FORMAT, "a position")
    players = read_players(data.get("players"))
    state = State(
        players=players,
        seed=_of(data, "seed", str, ""),
        first_player=seated(data.get("first_player", players[0]), "first_player", players),
        piles=_piles(data.get("piles")),
        pallets=tuple(_pallet(p, players) for p in _of(data, "pallets", list, [])),
        grp={suit: _sizes(_of(data, "grp", dict, {}).get(suit), f"grp {suit}") for suit in SUITS},
        banks={c: _sizes(_of(data, "banks", dict, {}).get(c), f"banks {c}") for c in players},
        crp={
            c: tuple(_piece(x, players) for x in _list(_of(data, "crp", dict, {}).get(c, []), "crp")) for c in players
        },
        collected={
            c: tuple(_card(x) for x in _list(_of(data, "collected", dict, {}).get(c, []), "collected")) for c in players
        },
        to_move=seated(data.get("to_move"), "to_move", players, none=True),
        turn=_count(data.get("turn", 1), "turn"),
        rolls=_count(data.get("rolls", 0), "rolls"),
        owed=_count(data.get("owed", 0), "owed"),
        pending=_pending(data.get("pending"), players),
        called_by=seated(data.get("called_by"), "called_by", players, none=True),
        last_round=tuple(seated(c, "last_round", players) for c in _list(data.get("last_round", []), "last_round")),
        passes=_count(data.get("passes", 0), "passes"),
        last_roll=_last_roll(data.get("last_roll"), players),
        resigned=tuple(seated(c, "resigned", players) for c in _list(data.get("resigned", []), "resigned")),
        winners=tuple(seated(c, "winners", players) for c in _list(data.get("winners", []), "winners")),
        reason=data.get("reason"),
    )
    _check(state)
    return state


def _check(state: State) -> None:
    if state.reason is not None and state.reason not in REASONS:
        raise PositionError(f"reason must be one of {', '.join(REASONS)} or null, not {state.reason!r}")
    if state.reason is None and (state.to_move is None or state.to_move in state.resigned):
        raise PositionError("to_move must name a player still in the game while it is on")
    if state.reason is not None and state.to_move is not None:
        raise PositionError("to_move must be null once the game is over")
    cards = Counter(c for s in SUITS for c in state.piles[s]) + Counter(p.card for p in state.pallets)
    cards += Counter(c for cs in state.collected.values() for c in cs)
    wrong = sorted(set(ALL_CARDS) - set(cards)) + sorted(c for c, n in cards.items() if n > 1)
    if wrong:
        raise PositionError(f"card {wrong[0]} is missing or in two places (every card once: piles, pallets, collected)")
    pieces: Counter[Piece] = Counter(x for p in state.pallets for x in p.pieces)
    pieces += Counter(x for crp in state.crp.values() for x in crp)
    for suit in SUITS:
        for size in SIZES:
            total = pieces[(suit, size)] + state.grp[suit][size]
            if total != trios_per_colour(len(state.players)):
                raise PositionError(
                    f"there are {total} {suit} {size} resource pyramids, not {trios_per_colour(len(state.players))}"
                )
    for colour in state.players:
        for size in SIZES:
            if pieces[(colour, size)] + state.banks[colour][size] != BANK_TRIOS:
                raise PositionError(f"{colour}'s bank pyramids of size {size} do not add up to {BANK_TRIOS}")
    for piece in pieces:
        if piece[0] not in SUITS and piece[0] not in state.players:
            raise PositionError(f"{piece_text(piece)}: no such owner")
    for pallet in state.pallets:
        if any(o in SUITS and o != pallet.suit for o, _ in pallet.pieces):
            raise PositionError(f"pallet {pallet.card} holds a resource pyramid of another colour")


def _of(data: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = data.get(key, default)
    if not isinstance(value, kind):
        raise PositionError(f"{key} must be a {kind.__name__}, not {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list, not {value!r}")
    return value


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{what} must be a whole number, not {value!r}")
    return value


def _card(value: Any) -> str:
    try:
        return parse_card(value if isinstance(value, str) else "")
    except NotationError as error:
        raise PositionError(str(error)) from None


def _piles(value: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise PositionError(f'piles must be an object like {{"H": ["7H", "AH"]}}, not {value!r}')
    piles = {suit: tuple(_card(c) for c in _list(value.get(suit, []), f"piles {suit}")) for suit in SUITS}
    for suit, cards in piles.items():
        if any(c[-1] != suit for c in cards):
            raise PositionError(f"the {suit} pile holds a card of another suit")
    return piles


def _sizes(value: Any, what: str) -> dict[str, int]:
    if not isinstance(value, dict) or set(value) - set(SIZES):
        raise PositionError(f'{what} must be an object like {{"S": 3, "M": 3, "L": 3}}, not {value!r}')
    return {size: _count(value.get(size, 0), what) for size in SIZES}


def _piece(value: Any, players: tuple[str, ...]) -> Piece:
    owner, _, size = (value if isinstance(value, str) else "").partition(":")
    if size not in SIZES or (owner not in SUITS and owner not in players):
        raise PositionError(f'a pyramid is written like "H:L" or "red:S", not {value!r}')
    return owner, size


def _pallet(value: Any, players: tuple[str, ...]) -> Pallet:
    if not isinstance(value, dict):
        raise PositionError(f'a pallet is written like {{"card": "7H", "pieces": ["H:L"]}}, not {value!r}')
    return Pallet(_card(value.get("card")), tuple(_piece(x, players) for x in _list(value.get("pieces", []), "pieces")))


def _pending(value: Any, players: tuple[str, ...]) -> Pick | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("reason") not in PICK_REASONS:
        raise PositionError(
            f'pending must be null or {{"roller", "reason": "atom"|"nothing left", "rolled"}}, not {value!r}'
        )
    rolled = value.get("rolled", "atom")
    if rolled not in (*SUITS, "atom"):
        raise PositionError(f"pending rolled must be a suit or atom, not {rolled!r}")
    return Pick(seated(value.get("roller"), "pending roller", players), value["reason"], rolled)


def _last_roll(value: Any, players: tuple[str, ...]) -> tuple[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("face") not in (*SUITS, "atom"):
        raise PositionError(f'last_roll must be null or {{"by": "red", "face": "H"}}, not {value!r}')
    return seated(value.get("by"), "last_roll by", players), value["face"]
