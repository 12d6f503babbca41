"""The rules of IceDice (../shared/spec/icedice.md): throws, busts, takes and steals, the rainbow bonus, Trios.

Every function is pure: a State in, an `Outcome` (the next State and its events) out. The engine's own
doings (throws, forced takes, busts, the bonus, the win) are events, not steps: replay derives them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalMoveError, PositionError
from ..interface import COLOURS
from ..kit import draw
from ..kit.events import Event, Outcome
from ..shuffle import shuffled
from .notation import Move, Roll, Stop, Take
from .state import ATOM, COLOUR_FACES, PLAYER_COUNTS, SIZE_FACES, TRIOS_TO_WIN, Piece, State, Throw, sort_pieces, trios

Events = tuple[Event, ...]
DIE_SHUFFLES = 100  # die k shows shuffled(FACES, seed, 100 + k)[0]


def new_game(players: Sequence[str], seed: str) -> Outcome[State]:
    """REC-I8: who starts is drawn from the seed; the first player's first throw is made at once."""
    seats = tuple(players)
    if len(set(seats)) != len(seats) or any(seat not in COLOURS for seat in seats):
        raise PositionError(f"players must be distinct colours among {', '.join(COLOURS)}, not {list(seats)}")
    if len(seats) not in PLAYER_COUNTS:
        raise PositionError(f"IceDice seats 2 to 5 players, not {len(seats)}")
    first = shuffled(seats, seed, 0)[0]
    state = State(
        players=seats,
        first_player=first,
        to_move=first,
        phase="decide",
        throw=None,
        counter=(),
        vaults=tuple(() for _ in seats),
        dice=0,
        seed=seed,
    )
    return throw(state, (Event("start", f"{first} holds the dice", first),))


def die(seed: str, number: int, faces: Sequence[str]) -> str:
    return shuffled(faces, seed, DIE_SHUFFLES + number)[0]


def throw(state: State, events: Events = ()) -> Outcome[State]:
    """Both dice, the pyramid die first: a bust, nothing, one take made by the engine, or a choice."""
    thrown = Throw(die(state.seed, state.dice, SIZE_FACES), die(state.seed, state.dice + 1, COLOUR_FACES))
    mover = str(state.to_move)
    data = {"size": thrown.size, "colour": thrown.colour, "dice": [state.dice, state.dice + 1]}
    dice = (draw.Die(0, 0, thrown.size, title="pyramid die"), draw.Die(0, 0, thrown.colour, title="colour die"))
    said = Event("throw", f"{mover} threw {thrown}", mover, data, dice=dice)
    state = state.evolve(throw=thrown, dice=state.dice + 2)
    if thrown.colour in state.counter_colours():
        return _bust(state, (*events, said))
    return offer(state, (*events, said))


def offered(state: State) -> list[Take]:
    """Every take the latest throw allows the mover, canonical (a steal names its seat), sorted by text."""
    if state.throw is None or state.to_move is None:
        return []
    on_counter = state.counter_colours()
    colours = [c for c in COLOURS if c not in on_counter] if state.throw.colour == ATOM else [state.throw.colour]
    bank = state.bank()
    takes: list[Take] = []
    for colour in colours:
        for size in state.throw.sizes():
            if bank[(colour, size)]:
                takes.append(Take(size, colour))
            else:
                owners = [o for o in state.opponents(state.to_move) if (colour, size) in state.vault(o)]
                takes.extend(Take(size, colour, owner) for owner in owners)  # REC-I2: the mover picks
    return sorted(takes, key=str)


def offer(state: State, events: Events = ()) -> Outcome[State]:
    """After a throw that did not bust (or when a resignation changed what it offers): REC-I3, I4."""
    takes = offered(state)
    mover = str(state.to_move)
    if not takes:
        nothing = Event("nothing", f"{mover} gets nothing for that throw", mover)
        return Outcome(state.evolve(phase="decide"), (*events, nothing))
    if len(takes) == 1:
        return take(state.evolve(phase="decide"), takes[0], events, " (the only choice)")
    return Outcome(state.evolve(phase="take"), events)


def take(state: State, chosen: Take, events: Events = (), forced: str = "") -> Outcome[State]:
    """The piece onto the Counter (REC-I5: a stolen one leaves its Vault at once); then the rainbow bonus."""
    mover = str(state.to_move)
    piece: Piece = (chosen.colour, chosen.size)
    if chosen.source:
        stolen = list(state.vault(chosen.source))
        stolen.remove(piece)
        state = state.with_vault(chosen.source, stolen)
        text = f"{mover} stole {chosen.size} {chosen.colour} from {chosen.source}"
        kind = "steal"
    else:
        text, kind = f"{mover} took {chosen.size} {chosen.colour}", "take"
    data = {"size": chosen.size, "colour": chosen.colour, "from": chosen.source}
    events = (*events, Event(kind, text + forced, mover, data))
    state = state.evolve(counter=sort_pieces((*state.counter, piece)), phase="decide")
    if len(state.counter_colours()) == len(COLOURS):
        return _rainbow(state, events)
    return Outcome(state, events)


def _rainbow(state: State, events: Events) -> Outcome[State]:
    """All five colours on the Counter go into the Vault; unless that wins, the engine throws again."""
    mover = str(state.to_move)
    events = (*events, Event("bonus", f"rainbow bonus: {mover} vaults all five colours", mover))
    state = _vault_counter(state)
    if state.phase == "over":
        return Outcome(state, (*events, _win_event(state)))
    return throw(state, events)


def _vault_counter(state: State) -> State:
    """REC-I7: pieces enter the mover's Vault, and only then is the win checked."""
    mover = str(state.to_move)
    vault = (*state.vault(mover), *state.counter)
    state = state.with_vault(mover, vault).evolve(counter=())
    if trios(vault) >= TRIOS_TO_WIN:
        return state.evolve(phase="over", to_move=None, winner=mover, reason="trios")
    return state


def _win_event(state: State) -> Event:
    winner = str(state.winner)
    return Event("end", f"{winner} wins with {trios(state.vault(winner))} Trios", winner)


def _bust(state: State, events: Events) -> Outcome[State]:
    """Every Counter piece, stolen ones included, goes to the Bank (REC-I5: not back to its Vault)."""
    mover = str(state.to_move)
    count = len(state.counter)
    said = Event("bust", f"{mover} busts: {count} piece{'s' if count != 1 else ''} back to the Bank", mover)
    return next_turn(state.evolve(counter=()), (*events, said))


def next_turn(state: State, events: Events = ()) -> Outcome[State]:
    """The next seated player in turn order holds the dice and throws (REC-I4: the Counter is empty)."""
    ring = state.opponents(str(state.to_move)) if state.to_move in state.players else state.seated()
    return throw(state.evolve(to_move=ring[0], counter=(), phase="decide"), events)


def play(state: State, move: Move, by: str) -> Outcome[State]:
    if by != state.to_move:
        raise IllegalMoveError(f"Not your turn: it is {state.to_move}'s turn")
    if isinstance(move, Take):
        return take(state, canonical_take(state, move))
    if state.phase == "take":
        raise IllegalMoveError(f"{str(move).capitalize()}: first take one of the offered pieces ({_listed(state)})")
    if isinstance(move, Roll):
        return throw(state, (Event("roll", f"{by} rolls", by),))
    return _stop(state, by)


def _stop(state: State, by: str) -> Outcome[State]:
    count = len(state.counter)
    said = Event("stop", f"{by} stops: {count} piece{'s' if count != 1 else ''} into the Vault", by)
    state = _vault_counter(state)
    if state.phase == "over":
        return Outcome(state, (said, _win_event(state)))
    return next_turn(state, (said,))


def canonical_take(state: State, move: Take) -> Take:
    """The offered take `move` names; `from SEAT` may be left out when only one opponent has one."""
    if state.phase != "take":
        raise IllegalMoveError("Take: there is no choice to make now: roll or stop")
    takes = offered(state)
    if move.source is None:
        matching = [t for t in takes if (t.size, t.colour) == (move.size, move.colour)]
    else:
        matching = [t for t in takes if t == move]
    if len(matching) == 1:
        return matching[0]
    if len(matching) > 1:
        seats = " or ".join(str(t) for t in matching)
        raise IllegalMoveError(f"Take: several opponents have a {move.size} {move.colour}: write {seats}")
    if move.source is not None and Take(move.size, move.colour) in takes:
        raise IllegalMoveError(f"Take: the Bank has a {move.size} {move.colour}: take it from the Bank")
    raise IllegalMoveError(f"Take: the throw {state.throw} does not offer {move} (offered: {_listed(state)})")


def _listed(state: State) -> str:
    return ", ".join(str(t) for t in offered(state))


def legal_moves(state: State, seat: str) -> list[Move]:
    if state.phase == "over" or seat != state.to_move:
        return []
    if state.phase == "take":
        return list(offered(state))
    return [Roll(), Stop()]


def leave(state: State, seat: str) -> Outcome[State]:
    """Service ruling: the Vault (and the Counter, on one's own turn) goes to the Bank; turns skip the seat."""
    count = len(state.vault(seat))
    state = state.with_vault(seat, ()).evolve(resigned=(*state.resigned, seat))
    events: Events = (Event("bank", f"{seat}'s Vault goes back to the Bank ({count} pieces)", seat),) if count else ()
    if len(state.seated()) <= 1:
        return Outcome(state, events)  # the kit ends the game: nobody throws again
    if seat == state.to_move:
        return next_turn(state, events)
    if state.phase == "take":
        return offer(state, events)  # the pending choice is worked out again
    return Outcome(state, events)


def finish(state: State, winner: str | None, reason: str) -> State:
    return state.evolve(phase="over", to_move=None, winner=winner, reason=reason)
