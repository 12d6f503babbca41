"""Black ICE's rules: the throw, the five actions, the declaration (../shared/spec/blackice.md).

Every function is pure: a State in, an Outcome (the next State and its events) out. Events name no
Code except a Reset's old one and the Codes a declaration reveals; a Peek's Code is its secret, for
the peeker only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalMoveError
from ..interface import Result
from ..kit import draw
from ..kit.events import Event, Outcome
from .notation import DECLARE, PASS, Move
from .state import COLOURS, PLACES, Keys, Lock, State, die, first_player, new_code, sorted_codes, starting_codes


def start(players: Sequence[str], seed: str) -> Outcome[State]:
    """REC-B3, REC-B4: who starts and the three hidden Codes from the seed, then the first throw."""
    seats = tuple(players)
    codes, box = starting_codes(seed)
    first = first_player(seats, seed)
    state = State(
        players=seats,
        seed=seed,
        first_player=first,
        to_move=first,
        locks=tuple(Lock(code) for code in codes),
        box=box,
        keys=tuple((None, None, None) for _ in seats),
    )
    return throw(state, first)


# --- the throw ------------------------------------------------------------------------------------


def throw(state: State, seat: str) -> Outcome[State]:
    """`seat`'s three dice from the next draws, duplicates and nulls made `wild` (REC-B5)."""
    faces = tuple(die(state.seed, state.draws + i) for i in range(3))
    thrown = state.evolve(to_move=seat, throw=faces, used=(False, False, False), draws=state.draws + 3)
    actions = actions_of_throw(thrown, seat, faces)
    after = thrown.evolve(actions=actions, turn=state.turn + 1)
    said = " ".join(faces) if actions == faces else f"{' '.join(faces)}: actions {' '.join(actions)}"
    data = {"dice": list(faces), "actions": list(actions)}
    dice = tuple(draw.Die(0, 0, face, title=f"die {i + 1}") for i, face in enumerate(faces))
    return Outcome(after, (Event("throw", f"{seat} throws {said}", seat, data, dice=dice),))


def actions_of_throw(state: State, seat: str, faces: Sequence[str]) -> tuple[str, ...]:
    """The turn's actions: duplicates made `wild`, then each null face (REC-B5)."""
    return tuple("wild" if is_null(state, seat, face) else face for face in duplicates_wild(faces))


def duplicates_wild(faces: Sequence[str]) -> tuple[str, ...]:
    """Each face repeating an earlier die of the throw becomes `wild` (`hop hop tip`: `hop wild tip`)."""
    return tuple("wild" if face in faces[:i] else face for i, face in enumerate(faces))


def is_null(state: State, seat: str, face: str) -> bool:
    """REC-B5: a face whose action could do nothing at the throw."""
    if face == "tip":
        return all(state.peeked(place, seat) for place in PLACES)
    if face == "dig":
        return not any(state.peeked(place, state.opponent(seat)) for place in PLACES)
    if face == "aim":
        return not copyable(state, seat)
    return False


def copyable(state: State, seat: str) -> list[int]:
    """The Nodes where the opponent holds a Key that `seat`'s Node in that place lacks."""
    mine, theirs = state.keys_of(seat), state.keys_of(state.opponent(seat))
    return [place for place in PLACES if theirs[place - 1] is not None and theirs[place - 1] != mine[place - 1]]


# --- the legal steps ------------------------------------------------------------------------------


def can_declare(state: State, seat: str) -> bool:
    """REC-B10: only while all three of the mover's Nodes hold Keys."""
    return all(key is not None for key in state.keys_of(seat))


def action_slot(state: State, face: str) -> int | None:
    """The unused action a step of `face` spends: its own face first (REC-B6), else a `wild`."""
    unused = [i for i, used in enumerate(state.used) if not used]
    own = [i for i in unused if state.actions[i] == face]
    wild = [i for i in unused if state.actions[i] == "wild"]
    chosen = own or wild
    return chosen[0] if chosen else None


def actions_of(state: State, seat: str) -> list[Move]:
    """Every action with something to do (REC-B7) that an unused die lets `seat` take."""
    candidates: list[Move] = []
    keys = state.keys_of(seat)
    candidates += [Move("peek", (p,)) for p in PLACES if not state.peeked(p, seat)]
    candidates += [Move("swap", pair, what="locks") for pair in ((1, 2), (1, 3), (2, 3))]
    candidates += [
        Move("swap", (a, b), what="keys")
        for a, b in ((1, 2), (1, 3), (2, 3))
        if keys[a - 1] is not None and keys[b - 1] is not None and keys[a - 1] != keys[b - 1]
    ]
    candidates += [
        Move("set", (p,), colour=c) for p in PLACES for c in COLOURS if state.supply(seat, c) and keys[p - 1] != c
    ]
    candidates += [Move("reset", (p,)) for p in PLACES if state.peeked(p, state.opponent(seat))]
    candidates += [Move("copy", (p,)) for p in copyable(state, seat)]
    return sorted((move for move in candidates if action_slot(state, move.face) is not None), key=str)


def legal_steps(state: State, seat: str) -> list[Move]:
    """The legal actions sorted by text, then `declare` if allowed, then `pass`; others: nothing."""
    if state.outcome is not None or seat != state.to_move:
        return []
    return [*actions_of(state, seat), *([DECLARE] if can_declare(state, seat) else []), PASS]


# --- one step -------------------------------------------------------------------------------------


def play(state: State, move: Move, by: str) -> Outcome[State]:
    if state.outcome is not None:
        raise IllegalMoveError("the game is over")
    if by != state.to_move:
        raise IllegalMoveError(f"it is {state.to_move}'s turn, not {by}'s")
    if move == PASS:
        return end_turn(state, (Event("pass", f"{by} passes", by),))
    if move == DECLARE:
        if not can_declare(state, by):
            raise IllegalMoveError("declare needs a Key on each of your three Nodes (REC-B10)")
        return declare(state, by)
    refuse(state, move, by)
    slot = action_slot(state, move.face)
    assert slot is not None  # refuse() checked it
    spent = state.evolve(used=tuple(used or i == slot for i, used in enumerate(state.used)))
    done = ACTIONS[move.verb](spent, move, by)
    if actions_of(done.state, by) or can_declare(done.state, by):
        return done
    return end_turn(done.state, done.events)  # `pass` is all that is left: the turn ends by itself


def refuse(state: State, move: Move, by: str) -> None:
    """IllegalMoveError naming the rule when `move` is not one of `by`'s actions now."""
    if move in actions_of(state, by):
        return
    if action_slot(state, move.face) is None:
        raise IllegalMoveError(f"no unused {move.face} or wild is left for {move.verb} this turn")
    raise IllegalMoveError(f"{move} would do nothing or is not allowed: {WHY[move.verb]}")


WHY = {
    "peek": "you peek only a Lock that does not carry your mark",
    "swap": "swap keys needs Keys of two different colours on both Nodes",
    "set": "set needs a colour left in your supply that the Node does not already hold",
    "reset": "reset only a Lock your opponent has peeked (REC-B8)",
    "copy": "copy needs a Key on your opponent's Node that your Node lacks",
}


def peek(state: State, move: Move, by: str) -> Outcome[State]:
    place = move.places[0]
    lock = state.locks[place - 1]
    marked = Lock(lock.code, tuple(seat for seat in state.players if seat in (*lock.peeked_by, by)))
    text = f"{by} peeked Lock {place}"
    event = Event(
        "peek",
        text,
        by,
        {"lock": place},
        secret=f"{text}: {lock.code}",
        secret_data={"code": lock.code},
        to=frozenset({by}),
    )
    return Outcome(_with_lock(state, place, marked), (event,))


def swap(state: State, move: Move, by: str) -> Outcome[State]:
    a, b = move.places
    if move.what == "locks":
        locks = list(state.locks)
        locks[a - 1], locks[b - 1] = locks[b - 1], locks[a - 1]
        return Outcome(
            state.evolve(locks=tuple(locks)), (Event("swap", f"{by} swaps Locks {a} and {b}", by, {"locks": [a, b]}),)
        )
    keys = list(state.keys_of(by))
    keys[a - 1], keys[b - 1] = keys[b - 1], keys[a - 1]
    text = f"{by} swaps the Keys on Nodes {a} and {b}"
    return Outcome(state.with_keys(by, _keys(keys)), (Event("swap", text, by, {"nodes": [a, b]}),))


def set_key(state: State, move: Move, by: str) -> Outcome[State]:
    place, colour = move.places[0], move.colour
    keys = list(state.keys_of(by))
    back = keys[place - 1]
    keys[place - 1] = colour
    text = f"{by} sets a {colour} Key on Node {place}" + (f" ({back} goes back to the supply)" if back else "")
    return Outcome(state.with_keys(by, _keys(keys)), (Event("set", text, by, {"node": place, "colour": colour}),))


def reset(state: State, move: Move, by: str) -> Outcome[State]:
    """REC-B8: the new Code is drawn before the old one goes back to the Box; every mark is cleared."""
    place = move.places[0]
    old = state.locks[place - 1].code
    new = new_code(state.box, state.seed, state.draws)
    box = list(state.box)
    box.remove(new)
    after = _with_lock(state, place, Lock(new)).evolve(box=sorted_codes([*box, old]), draws=state.draws + 1)
    text = f"{by} resets Lock {place} (the old Code was {old})"
    event = Event(
        "reset",
        text,
        by,
        {"lock": place, "old": old},
        secret=f"{text}; the new Code is {new}",
        secret_data={"new": new},
    )
    return Outcome(after, (event,))


def copy(state: State, move: Move, by: str) -> Outcome[State]:
    place = move.places[0]
    colour = state.keys_of(state.opponent(by))[place - 1]
    keys = list(state.keys_of(by))
    keys[place - 1] = colour
    text = f"{by} copies {state.opponent(by)}'s Node {place}: a {colour} Key on Node {place}"
    return Outcome(state.with_keys(by, _keys(keys)), (Event("copy", text, by, {"node": place, "colour": colour}),))


ACTIONS = {"peek": peek, "swap": swap, "set": set_key, "reset": reset, "copy": copy}


def declare(state: State, by: str) -> Outcome[State]:
    """Every Code is revealed; Key i against Code i decides who wins."""
    codes = [lock.code for lock in state.locks]
    right = list(state.keys_of(by)) == codes
    winner = by if right else state.opponent(by)
    result = Result((winner,), "declaration" if right else "wrong declaration")
    shown = ", ".join(f"Lock {p} {code}" for p, code in zip(PLACES, codes, strict=True))
    events = (
        Event("declare", f'{by} declares "I win!": {shown}', by, {"codes": codes}),
        Event("end", f"{winner} wins ({result.reason})", winner),
    )
    return Outcome(state.evolve(outcome=result), events)


def end_turn(state: State, events: tuple[Event, ...]) -> Outcome[State]:
    thrown = throw(state, state.opponent(state.to_move))
    return Outcome(thrown.state, (*events, *thrown.events))


def _with_lock(state: State, place: int, lock: Lock) -> State:
    return state.evolve(locks=(*state.locks[: place - 1], lock, *state.locks[place:]))


def _keys(keys: list[str | None]) -> Keys:
    return (keys[0], keys[1], keys[2])
