"""The turn (spec "The turn"): throws, the part, moves, failure, rockets; every step an Outcome."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..errors import IllegalMoveError
from ..kit import draw
from ..kit.events import Event, Outcome
from ..shuffle import shuffled
from .notation import Add, Shift, Start, Word
from .state import (
    CELLS,
    COLOUR_FACES,
    COLOURS,
    FACTORY,
    PYRAMID_FACES,
    Piece,
    State,
    is_rocket,
    neighbours,
    put,
    take,
)

Events = tuple[Event, ...]


# --- the dice -----------------------------------------------------------------------------------
def die(seed: str, number: int, faces: tuple[str, ...]) -> str:
    """Die number `number` of the game shows `shuffled(FACES, seed, 100 + number)[0]`."""
    return shuffled(faces, seed, 100 + number)[0]


def throw(state: State, seat: str) -> Outcome[State]:
    """Both dice, pyramid die first; the turn waits for the part."""
    size, colour = die(state.seed, state.dice, PYRAMID_FACES), die(state.seed, state.dice + 1, COLOUR_FACES)
    thrown = replace(state, throw=(size, colour), dice=state.dice + 2, phase="add", moves_left=0)
    text = f"{seat} throws {size} + {colour}"
    data = {"dice": [size, colour], "size": size, "colour": colour}
    dice = (draw.Die(0, 0, size, title="pyramid die"), draw.Die(0, 0, colour, title="colour die"))
    return Outcome(thrown, (Event("throw", text, seat, data, dice=dice),))


def offered(face: tuple[str, str]) -> tuple[Piece, ...]:
    """Each size shown with the colour shown; the atom stands for any of the five colours."""
    size, colour = face
    colours = COLOURS if colour == "atom" else (colour,)
    return tuple(Piece(c, s) for s in size.split("/") for c in colours)


def move_allowance(face: tuple[str, str]) -> int:
    """2, plus 1 for two sizes shown, plus 1 for the atom."""
    return 2 + ("/" in face[0]) + (face[1] == "atom")


def adds(state: State) -> list[Add]:
    """Each offered kind from the Bank, or (none there) off each other seated player's pad (REC-L5)."""
    if state.throw is None or state.to_move is None:
        return []
    found: list[Add] = []
    for kind in offered(state.throw):
        if state.in_bank(kind):
            found.append(Add(kind.size, kind.colour))
            continue
        pads = (seat for seat in state.seated() if seat != state.to_move)
        found.extend(Add(kind.size, kind.colour, seat) for seat in pads if kind in state.cell(state.pad(seat)))
    return sorted(found, key=str)


def may_reroll(state: State) -> bool:
    """REC-L6: once a turn, and only when some offered kind is missing from the Bank."""
    missing = state.throw is not None and any(not state.in_bank(kind) for kind in offered(state.throw))
    return missing and not state.rerolled


def part_choices(state: State) -> list[Add | Word]:
    return [*adds(state), *([Word("reroll")] if may_reroll(state) else [])]


def settle_part(state: State, events: Events) -> Outcome[State]:
    """After a throw: one choice is made by the engine, none adds nothing, several wait for the mover."""
    seat = state.to_move or ""
    choices = part_choices(state)
    if len(choices) > 1:
        return Outcome(state, events)
    if not choices:
        nothing = Event("no part", f"{seat} can add nothing", seat)
        return enter_moves(state, (*events, nothing))
    choice = choices[0]
    if isinstance(choice, Word):
        again = Event("reroll", "nothing to add or take: the dice are thrown again", seat, {"automatic": True})
        return reroll(state, seat, (*events, again))
    return add(state, choice, seat, events, automatic=True)


def reroll(state: State, seat: str, events: Events) -> Outcome[State]:
    thrown = throw(replace(state, rerolled=True), seat)
    return settle_part(thrown.state, (*events, *thrown.events))


def add(state: State, part: Add, seat: str, events: Events, *, automatic: bool = False) -> Outcome[State]:
    """The part goes to the Factory, from the Bank or off `part.source`'s pad; then the moves."""
    piece = Piece(part.colour, part.size)
    board = state.board if part.source is None else take(state.board, state.pad(part.source), piece)
    added = replace(state, board=put(board, FACTORY, piece))
    whence = "the Bank" if part.source is None else f"{part.source}'s pad"
    data = {"piece": str(piece), "from": part.source, "automatic": automatic}
    text = f"{seat} adds {part.size} {part.colour} from {whence} to the Factory"
    done = (*events, Event("add", text, seat, data))
    won = rocket(added, done)
    return won if won is not None else enter_moves(added, done)


def enter_moves(state: State, events: Events) -> Outcome[State]:
    assert state.throw is not None
    moving = replace(state, phase="move", moves_left=move_allowance(state.throw))
    return moving_on(moving, events)


def moving_on(state: State, events: Events) -> Outcome[State]:
    """The turn ends by itself when the moves are spent or none is legal."""
    if state.moves_left <= 0 or not moves(state):
        return next_turn(state, events)
    return Outcome(state, events)


def moves(state: State) -> list[Shift | Word]:
    """The mover's shifts (any piece not on another seated player's pad) and `failure`."""
    seat = state.to_move
    if seat is None:
        return []
    found: list[Shift | Word] = []
    for cell in CELLS:
        owner = state.pad_owner(cell)
        if owner is not None and owner != seat:
            continue
        for kind in sorted(set(state.cell(cell))):
            found.extend(Shift(kind.size, kind.colour, cell, there) for there in neighbours(cell))
    shifts = sorted(found, key=str)
    return [*shifts, *([Word("failure")] if state.cell(state.pad(seat)) else [])]


def next_turn(state: State, events: Events) -> Outcome[State]:
    """The next seated player in seating order throws."""
    seats = state.seated()
    current = state.to_move
    following = seats[0] if current is None else _after(state, current)
    fresh = replace(state, to_move=following, turns=state.turns + 1, rerolled=False, moves_left=0)
    thrown = throw(fresh, following)
    return settle_part(thrown.state, (*events, *thrown.events))


def _after(state: State, seat: str) -> str:
    order = state.players
    index = order.index(seat)
    later = (order[(index + k) % len(order)] for k in range(1, len(order) + 1))
    return next(other for other in later if other in state.seated())


def rocket(state: State, events: Events) -> Outcome[State] | None:
    """REC-L8: the moment a seated player's pad holds a rocket, that player wins."""
    for seat in state.seated():
        if is_rocket(state.cell(state.pad(seat))):
            won = replace(state, phase="over", winners=(seat,), reason="rocket", to_move=None)
            pad = state.pad(seat)
            launch = Event("launch", f"{seat}'s rocket stands on {pad}: lift-off", seat, {"pad": pad})
            return Outcome(won, (*events, launch, Event("end", f"{seat} wins", seat, {"reason": "rocket"})))
    return None


# --- the mover's steps --------------------------------------------------------------------------
def play_turn(state: State, move: Add | Shift | Word, by: str) -> Outcome[State]:
    if state.to_move != by:
        raise IllegalMoveError(f"it is not {by}'s turn" if state.to_move else "the opening pieces are not all chosen")
    if state.phase == "add":
        return _part(state, move, by)
    if isinstance(move, Add) or move == Word("reroll"):
        raise IllegalMoveError("the part is already settled this turn: move, `failure` or `pass`")
    if move == Word("pass"):
        return next_turn(state, (Event("pass", f"{by} passes", by),))
    if move == Word("failure"):
        return _failure(state, by)
    assert isinstance(move, Shift)
    return _shift(state, move, by)


def _part(state: State, move: Add | Shift | Word, by: str) -> Outcome[State]:
    if move == Word("reroll"):
        if not may_reroll(state):
            raise IllegalMoveError(_no_reroll(state))
        return reroll(state, by, (Event("reroll", f"{by} rerolls", by, {"automatic": False}),))
    if not isinstance(move, Add):
        raise IllegalMoveError("first add a part (`add M red`) or `reroll`")
    if move not in adds(state):
        raise IllegalMoveError(_bad_add(state, move))
    return add(state, move, by, ())


def _no_reroll(state: State) -> str:
    if state.rerolled:
        return "you have already rerolled this turn"
    return "every offered kind is in the Bank: no reroll"


def _bad_add(state: State, move: Add) -> str:
    kind = Piece(move.colour, move.size)
    assert state.throw is not None
    if kind not in offered(state.throw):
        return f"the throw {state.throw[0]} + {state.throw[1]} does not offer {move.size} {move.colour}"
    if move.source is None:
        return f"the Bank has no {move.size} {move.colour}: take one off a pad (`add ... from SEAT`)"
    if state.in_bank(kind):
        return f"the Bank has a {move.size} {move.colour}: take it from there"
    if move.source == state.to_move or move.source not in state.seated():
        return f"a part is taken only off another seated player's pad, not {move.source}'s"
    return f"{move.source}'s pad has no {move.size} {move.colour}"


def _failure(state: State, by: str) -> Outcome[State]:
    pad = state.pad(by)
    if not state.cell(pad):
        raise IllegalMoveError("total system failure needs at least one piece on your pad (REC-L7)")
    emptied = replace(state, board=_emptied(state, pad), moves_left=state.moves_left - 1)
    pieces = [str(p) for p in state.cell(pad)]
    text = f"{by}: total system failure, {len(pieces)} piece(s) back to the Bank"
    event = Event("failure", text, by, {"pieces": pieces})
    return moving_on(emptied, (event,))


def _emptied(state: State, pad: str) -> tuple[tuple[Piece, ...], ...]:
    return tuple(() if cell == pad else pieces for cell, pieces in zip(CELLS, state.board, strict=True))


def _shift(state: State, move: Shift, by: str) -> Outcome[State]:
    piece = Piece(move.colour, move.size)
    owner = state.pad_owner(move.origin)
    if owner is not None and owner != by:
        raise IllegalMoveError(f"{move.origin} is {owner}'s pad: its pieces are not yours to move")
    if piece not in state.cell(move.origin):
        raise IllegalMoveError(f"there is no {move.size} {move.colour} on {move.origin}")
    if move.target not in neighbours(move.origin):
        raise IllegalMoveError(f"{move.target} is not next to {move.origin} (sides only)")
    board = put(take(state.board, move.origin, piece), move.target, piece)
    moved = replace(state, board=board, moves_left=state.moves_left - 1)
    data = {"piece": str(piece), "from": move.origin, "to": move.target}
    event = Event("move", f"{by} moves {move.size} {move.colour} {move.origin}-{move.target}", by, data)
    won = rocket(moved, (event,))
    return won if won is not None else moving_on(moved, (event,))


# --- the sealed opening -------------------------------------------------------------------------
def choose(state: State, commitments: Mapping[str, Start]) -> Outcome[State]:
    """Each commitment kept (hidden); when every seated player has chosen, the pieces go down."""
    starts = tuple(commitments[s].size if s in commitments else state.start_of(s) for s in state.players)
    chosen = replace(state, starts=starts)
    events = tuple(_chosen_event(seat, move) for seat, move in commitments.items())
    return open_if_ready(chosen, events)


def _chosen_event(seat: str, move: Start) -> Event:
    """A pick names no one in public (issue 27: whether a seat has chosen is secret until all have); the
    service records the picks only when the last arrives, and the opening shows them all."""
    secret, data = f"{seat} chooses a {move.size} opening piece", {"seat": seat, "size": move.size}
    return Event("start", "an opening piece is chosen", None, secret=secret, secret_data=data, to=frozenset({seat}))


def open_if_ready(state: State, events: Events) -> Outcome[State]:
    """REC-L3, REC-L4: every opening piece onto its pad at once, then who starts is drawn."""
    seated = state.seated()
    if len(seated) < 2 or any(state.start_of(seat) is None for seat in seated):
        return Outcome(state, events)
    board = state.board
    for seat in seated:
        board = put(board, state.pad(seat), Piece(seat, state.start_of(seat) or ""))
    first = shuffled(seated, state.seed, 0)[0]
    opened = replace(state, board=board, first_player=first)
    placed = ", ".join(f"{seat} {state.start_of(seat)} on {state.pad(seat)}" for seat in seated)
    shown = Event("opening", f"opening pieces: {placed}", data={"starts": {s: state.start_of(s) for s in seated}})
    drawn = Event("first player", f"{first} starts", first, {"first_player": first})
    started = replace(opened, to_move=first, turns=1)
    thrown = throw(started, first)
    return settle_part(thrown.state, (*events, shown, drawn, *thrown.events))


# --- a seat leaves ------------------------------------------------------------------------------
def leave(state: State, seat: str) -> Outcome[State]:
    """Pieces stay, the pad becomes a depot; a setup choice is dropped; the turn or the part goes on."""
    index = state.players.index(seat)
    starts = state.starts[:index] + (None,) + state.starts[index + 1 :] if state.phase == "start" else state.starts
    left = replace(state, resigned=(*state.resigned, seat), starts=starts)
    if len(left.seated()) < 2:
        return Outcome(left)
    if state.phase == "start":
        return open_if_ready(left, ())
    if state.to_move == seat:
        return next_turn(left, ())
    if state.phase == "add":
        return settle_part(left, ())
    return Outcome(left)
