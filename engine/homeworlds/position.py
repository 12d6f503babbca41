"""The position file `homeworlds-position/1`: written from a State, read back with every check the
spec lists (a bad piece, more than 3 of one, a bad or repeated name, a malformed system, an
unseated seat, a stage that disagrees with its sacrifice, steps or turn, a homeworld not called
North (the first player's) or South, a result while the game is on).
"""

from __future__ import annotations

from typing import Any

from ..errors import NotationError, PositionError
from ..interface import COLOURS as SEATS
from ..kit import files
from .notation import NAME, Catastrophe, SacrificeStep, parse
from .pieces import COLOUR_LETTERS, COLOUR_WORDS, COPIES, colour, is_piece, ordered, size
from .state import GAME_ID, HOMEWORLD_NAMES, RULES_VERSION, STAGES, LastTurn, Options, Sacrifice, State, System

FORMAT = f"{GAME_ID}-position/1"
OPTION_VALUES = {"catastrophes": ("anytime", "end"), "suicide": ("legal", "illegal"), "setup": ("standard", "free")}


def to_position(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT, "game": GAME_ID, "rules": RULES_VERSION}
    data.update(options=state.options.as_dict(), players=list(state.players), first_player=state.first_player)
    data.update(to_move=state.to_move, turn=state.turn, stage=state.stage)
    given = state.sacrifice
    data["sacrifice"] = None if given is None else {"colour": COLOUR_WORDS[given.colour], "left": given.left}
    data["this_turn"] = list(state.this_turn)
    data["systems"] = [_system_data(state, system) for system in state.systems]
    last = state.last_turn
    data["last_turn"] = None if last is None else {"by": last.by, "steps": list(last.steps)}
    data.update(seed=state.seed, winner=state.winner, reason=state.reason)
    if state.resigned:
        data["resigned"] = list(state.resigned)
    return data


def _system_data(state: State, system: System) -> dict[str, Any]:
    ships = {seat: list(system.ships[i]) for i, seat in enumerate(state.players) if system.ships[i]}
    return {"name": system.name, "home": system.home, "stars": list(system.stars), "ships": ships}


def from_position(data: Any) -> State:
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    if data.get("game") != GAME_ID or data.get("format") != FORMAT:
        raise PositionError(f"format must be {FORMAT!r} and game {GAME_ID!r}")
    players = _players(data.get("players"))
    options = _options(data.get("options", {}))
    systems = tuple(_system(entry, players) for entry in _list(data.get("systems"), "systems"))
    _check_table(systems, players)
    state = State(
        players=players,
        first_player=_seat(data.get("first_player"), players, "first_player"),
        seed=files.text(data.get("seed"), "seed"),
        options=options,
        to_move=None if data.get("to_move") is None else _seat(data.get("to_move"), players, "to_move"),
        turn=_turn(data.get("turn")),
        stage=_stage(data.get("stage")),
        sacrifice=_sacrifice(data.get("sacrifice")),
        this_turn=_steps(data.get("this_turn"), "this_turn"),
        systems=systems,
        last_turn=_last_turn(data.get("last_turn"), players),
        winner=None if data.get("winner") is None else _seat(data.get("winner"), players, "winner"),
        reason=None if data.get("reason") is None else files.text(data.get("reason"), "reason"),
        resigned=tuple(_seat(s, players, "resigned") for s in _list(data.get("resigned", []), "resigned")),
    )
    _check_stage(state)
    _check_turn_steps(state)
    _check_homeworld_names(state)
    return state


def _players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 2 or len(set(value)) != 2 or any(p not in SEATS for p in value):
        raise PositionError(f"players must be two distinct colours among {', '.join(SEATS)}, not {value!r}")
    return tuple(value)


def _options(value: Any) -> Options:
    if not isinstance(value, dict):
        raise PositionError(f"options must be an object, not {value!r}")
    for name, given in value.items():
        if given not in OPTION_VALUES.get(name, ()):
            raise PositionError(f"option {name!r} cannot be {given!r}")
    return Options(**value)


def _system(entry: Any, players: tuple[str, ...]) -> System:
    if not isinstance(entry, dict):
        raise PositionError(f"a system must be an object, not {entry!r}")
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise PositionError(f"bad system name {name!r}")
    home = entry.get("home")
    if home is not None:
        _seat(home, players, f"{name}'s home")
    stars = _pieces(entry.get("stars"), f"{name}'s stars")
    ships = entry.get("ships", {})
    if not isinstance(ships, dict):
        raise PositionError(f"{name}'s ships must map seats to pieces")
    for seat in ships:
        _seat(seat, players, f"a seat with ships at {name}")
    fleets = tuple(_pieces(ships.get(seat, []), f"{seat}'s ships at {name}") for seat in players)
    system = System(name, home, stars, (fleets[0], fleets[1]))
    if home is None and (len(stars) != 1 or system.empty()):
        raise PositionError(f"{name} is not a homeworld: it needs exactly one star and at least one ship")
    if home is not None and len(stars) not in (1, 2):
        raise PositionError(f"{name} is a homeworld: it needs one or two stars, not {len(stars)}")
    return system


def _check_table(systems: tuple[System, ...], players: tuple[str, ...]) -> None:
    names = [system.key for system in systems]
    for name in names:
        if names.count(name) > 1:
            raise PositionError(f"two systems are called {name!r} (names are compared without case)")
    homes = [system.home for system in systems if system.home is not None]
    if len(set(homes)) != len(homes):
        raise PositionError("a seat has two homeworlds")
    pieces = [piece for system in systems for piece in system.pieces()]
    for piece in set(pieces):
        if pieces.count(piece) > COPIES:
            raise PositionError(f"there are only {COPIES} {piece} pieces, not {pieces.count(piece)}")


def _check_stage(state: State) -> None:
    staged = state.stage == "sacrifice"
    if staged != (state.sacrifice is not None):
        raise PositionError("sacrifice is given exactly when the stage is `sacrifice`")
    if state.stage in ("sacrifice", "acted") and not state.this_turn:
        raise PositionError(f"stage {state.stage} needs the steps of this turn in this_turn")
    if state.stage in ("setup", "over") and state.this_turn:
        raise PositionError(f"stage {state.stage} has no steps in this_turn")
    over = state.stage == "over"
    if not over and (state.winner is not None or state.reason is not None):
        raise PositionError("a result is given while the game is on")
    if over != (state.to_move is None) or (over and state.reason is None):
        raise PositionError("to_move is null exactly when the game is over, with its reason")


def _check_turn_steps(state: State) -> None:
    """The stage agrees with the turn and with this_turn: setup is turns 1 and 2, for a seat with no
    homeworld; `start` has had only catastrophes; a sacrifice has the colour and actions its steps leave."""
    if state.stage != "over" and (state.stage == "setup") != (state.turn <= 2):
        raise PositionError(f"stage {state.stage} does not fit turn {state.turn} (setup is turns 1 and 2)")
    if state.stage == "setup" and state.to_move is not None and state.home_of(state.to_move) is not None:
        raise PositionError(f"stage setup, but {state.to_move} has a homeworld")
    taken = [step for step in map(parse, state.this_turn) if not isinstance(step, Catastrophe)]
    if state.stage == "start" and taken:
        raise PositionError("stage start has had no action or sacrifice: this_turn holds only catastrophes")
    if state.stage == "acted" and not taken:
        raise PositionError("stage acted needs the action or sacrifice of this turn in this_turn")
    if state.sacrifice is None:
        return
    first, actions = (taken[0], len(taken) - 1) if taken else (None, 0)
    if not isinstance(first, SacrificeStep) or colour(first.piece) != state.sacrifice.colour:
        raise PositionError("stage sacrifice needs this turn's sacrifice of that colour first in this_turn")
    if state.sacrifice.left != size(first.piece) - actions:
        raise PositionError(
            f"{first} then {actions} action(s) leave {size(first.piece) - actions}, not {state.sacrifice.left}"
        )


def _check_homeworld_names(state: State) -> None:
    for system in state.systems:
        if system.home is not None:
            name = HOMEWORLD_NAMES[0] if system.home == state.first_player else HOMEWORLD_NAMES[1]
            if system.name.lower() != name.lower():
                raise PositionError(f"{system.home}'s homeworld is called {name}, not {system.name}")


def _pieces(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) and is_piece(p) for p in value):
        raise PositionError(f"{what} must be a list of pieces like g1, not {value!r}")
    return ordered(value)


def _seat(value: Any, players: tuple[str, ...], what: str) -> str:
    if value not in players:
        raise PositionError(f"{what} must be one of the players ({', '.join(players)}), not {value!r}")
    return str(value)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list, not {value!r}")
    return value


def _turn(value: Any) -> int:
    if type(value) is not int or value < 1:
        raise PositionError(f"turn must be a whole number from 1, not {value!r}")
    return value


def _stage(value: Any) -> str:
    if value not in STAGES:
        raise PositionError(f"stage must be one of {', '.join(STAGES)}, not {value!r}")
    return str(value)


def _sacrifice(value: Any) -> Sacrifice | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("colour") not in COLOUR_LETTERS or value.get("left") not in (1, 2, 3):
        raise PositionError(f'sacrifice must be like {{"colour": "yellow", "left": 1}}, not {value!r}')
    return Sacrifice(COLOUR_LETTERS[value["colour"]], value["left"])


def _steps(value: Any, what: str) -> tuple[str, ...]:
    steps = _list(value, what)
    for text in steps:
        try:
            parse(files.text(text, what))
        except NotationError as error:
            raise PositionError(f"{what}: {error}") from None
    return tuple(steps)


def _last_turn(value: Any, players: tuple[str, ...]) -> LastTurn | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise PositionError(f"last_turn must be {{by, steps}}, not {value!r}")
    return LastTurn(_seat(value.get("by"), players, "last_turn by"), _steps(value.get("steps"), "last_turn steps"))
