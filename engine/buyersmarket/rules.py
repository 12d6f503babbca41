"""Buyer's Market as pure functions: setup, legal moves, a turn, the last round, the end (rules.md 15).

Every rule is section 15's and its rulings B1-B15; the rulings this engine adds are in docs/rules.md
(Buyer's Market).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalMoveError
from ..interface import Result
from ..kit.events import Event, Outcome
from . import events, market
from .notation import KIND_ORDER, Action, Buy, Contribute, Move, Pass, PickPile, Place
from .pieces import SIZES, SUIT_NAMES, SUITS
from .scoring import Breakdown, best_building
from .setup import fresh
from .state import Pallet, State

# --- setup --------------------------------------------------------------------------------------------


def new_game(players: Sequence[str], seed: str) -> State:
    """Shuffled piles, the GRP, the banks, and the four setup rolls by the first player."""
    return setup_step(players, seed).state


def setup_step(players: Sequence[str], seed: str) -> Outcome[State]:
    """`new_game` with its events: the setup throws and the pallets they bring."""
    happened: list[Event] = []
    state = fresh(players, seed)
    dealt = _dealt(market.deal(state, state.first_player, happened), state.first_player, happened)
    return Outcome(dealt, tuple(happened))


def _dealt(state: State, roller: str, happened: list[Event] | None = None) -> State:
    """After the rolls: the roller picks a pile if the die says so; else the turn goes on or ends."""
    if state.pending is not None:
        return state.evolve(to_move=state.pending.roller)
    if state.turn == 0:
        first = state.first_player
        if first in state.resigned:
            first = next_player(state, first)
        return state.evolve(turn=1, to_move=first)
    return end_turn(state, roller, happened)


# --- which moves are legal ----------------------------------------------------------------------------


def actions(state: State, colour: str) -> list[Action]:
    """Every legal place, contribute and buy of `colour`, with and without `call`."""
    found: list[Action] = []
    for pallet in state.pallets:
        found += [Place(size, pallet.card) for size in SIZES]
        found += [Contribute(size, pallet.card) for size in SIZES]
        found += _buys(state, pallet, colour)
    legal = [a for a in found if market.action_error(state, a, colour) is None]
    called = [_with_call(a) for a in legal]
    return legal + [a for a in called if market.action_error(state, a, colour) is None]


def _with_call(action: Action) -> Action:
    if isinstance(action, Buy):
        return Buy(action.card, action.paid, action.back, action.returned, True)
    return type(action)(action.size, action.card, True)


def _buys(state: State, pallet: Pallet, colour: str) -> list[Buy]:
    buys = [Buy(pallet.card)]
    for paid in market.paid_options(state.banks[colour]):
        overpaid = pallet.total + sum({"S": 1, "M": 2, "L": 3}[s] for s in paid) - pallet.value
        if overpaid < 0:
            continue
        crp = market.bought_crp(state, Buy(pallet.card, paid), pallet, colour)
        # One kind of change per purchase (B13): own colour back to the bank, or the pallet's to the GRP.
        buys += [Buy(pallet.card, paid, back) for back in market.change_options(crp, colour, overpaid)]
        buys += [Buy(pallet.card, paid, (), ret) for ret in market.change_options(crp, pallet.suit, overpaid) if ret]
    return buys


def legal_moves(state: State, colour: str) -> list[Move]:
    """The player to move: a pile to pick, or every action (pass only with none). Any other seat has
    none (each may still resign: the kit lists it)."""
    if state.phase == "over" or colour != state.to_move:
        return []
    if state.pending is not None:
        moves: list[Move] = [PickPile(suit) for suit in market.pile_choices(state)]
    else:
        moves = list(actions(state, colour)) or [Pass()]
    moves.sort(key=lambda m: (KIND_ORDER.index(type(m)), str(m)))
    return moves


def movers(state: State) -> tuple[str, ...]:
    return (state.to_move,) if state.to_move is not None and state.phase != "over" else ()


# --- making a move ------------------------------------------------------------------------------------


def play(state: State, move: Move, by: str) -> Outcome[State]:
    """The State after `by` plays `move`, with what happened on the way, in order: the action, each
    throw, each new pallet, the end; IllegalMoveError naming the rule when it may not."""
    happened: list[Event] = []
    after = _play(state, move, by, happened)
    return Outcome(after, tuple(happened))


def _play(state: State, move: Move, by: str, happened: list[Event]) -> State:
    if state.phase == "over":
        raise IllegalMoveError("the game is over")
    if by not in state.players:
        raise IllegalMoveError(f"{by} is not seated in this game")
    if by in state.resigned:
        raise IllegalMoveError(f"{by} has resigned")
    if by != state.to_move:
        raise IllegalMoveError(f"it is {state.to_move}'s turn, not {by}'s")
    if isinstance(move, PickPile):
        return _pick(state, move, by, happened)
    if state.pending is not None:
        why = "the die showed the atom" if state.pending.reason == "atom" else "the rolled colour has nothing left (B6)"
        raise IllegalMoveError(f"{why}: first pick the pile of the next pallet (pile S, H, D, C or T)")
    if isinstance(move, Pass):
        if actions(state, by):
            raise IllegalMoveError("pass: only when you have no action at all")
        happened.append(events.acted(move, by, None))
        return end_turn(state.evolve(passes=state.passes + 1), by, happened)
    error = market.action_error(state, move, by)
    if error is not None:
        raise IllegalMoveError(error)
    happened.append(events.acted(move, by, state.pallet(move.card)))
    after = market.act(state, move, by).evolve(passes=0)
    if move.call:
        happened.append(events.called(by))
        after = after.evolve(called_by=by, last_round=_others(after, by))
    if isinstance(move, Buy):
        return _dealt(market.deal(after, by, happened), by, happened)
    return end_turn(after, by, happened)


def _pick(state: State, move: PickPile, by: str, happened: list[Event]) -> State:
    if state.pending is None:
        raise IllegalMoveError("pile: only after the die shows the atom or a colour with nothing left (B6)")
    if not state.piles[move.suit]:
        raise IllegalMoveError(f"pile: the {SUIT_NAMES[move.suit]} pile is empty")
    happened.append(events.acted(move, by, None))
    picked = market.put_pallet(state.evolve(pending=None), move.suit, happened)
    return _dealt(market.deal(picked, by, happened), by, happened)


def _others(state: State, by: str) -> tuple[str, ...]:
    """Everyone else still in, in turn order after `by`: each gets one more turn (15.5)."""
    seats = state.players
    start = seats.index(by)
    return tuple(p for p in seats[start + 1 :] + seats[:start] if p not in state.resigned)


def next_player(state: State, after: str) -> str:
    seats = state.players
    start = seats.index(after)
    return next(p for p in seats[start + 1 :] + seats[: start + 1] if p not in state.resigned)


def end_turn(state: State, by: str, happened: list[Event] | None = None) -> State:
    """The turn is over: the last round counts down; the game ends after it, when every pile and pallet
    is gone (B7), or when everyone in turn passed; else the next player moves."""
    state = state.evolve(last_round=tuple(p for p in state.last_round if p != by))
    exhausted = not state.pallets and not any(state.piles[s] for s in SUITS)
    stuck = state.passes >= len(state.active_players())
    if (state.called_by is not None and not state.last_round) or exhausted or stuck:
        return score_end(state, happened)
    return state.evolve(to_move=next_player(state, by), turn=state.turn + 1)


# --- the end ------------------------------------------------------------------------------------------


def buildings(state: State) -> dict[str, Breakdown]:
    """Each player still in: the best-scoring building of their CRP (B9, B10)."""
    return {c: best_building(state.crp[c], sum(state.banks[c].values())) for c in state.active_players()}


def scores(state: State) -> dict[str, int]:
    return {colour: b.total for colour, b in buildings(state).items()}


def scored(state: State) -> dict[str, int] | None:
    """The scores of a game that ended by score; None for one that ended otherwise (nobody is scored)."""
    return scores(state) if state.reason == "score" else None


def score_end(state: State, happened: list[Event] | None = None) -> State:
    """Highest score wins; a tie goes to the most cards collected; a tie on both is shared (15.5)."""
    points = scores(state)
    ranked = {c: (points[c], len(state.collected[c])) for c in points}
    best = max(ranked.values())
    winners = tuple(c for c in state.players if ranked.get(c) == best)
    if happened is not None:
        happened.append(events.ended(winners))
    return state.evolve(to_move=None, pending=None, winners=winners, reason="score", last_round=())


def leave(state: State, colour: str) -> Outcome[State]:
    """rules.md 19: the player leaves (resigned or timed out); their bank pyramids on pallets go home;
    a pile they owe is picked for them (market.auto_pile); the turn passes if it was theirs. With one
    player left the kit ends the game: nothing more is dealt."""
    happened: list[Event] = []
    pallets = tuple(Pallet(p.card, tuple(x for x in p.pieces if x[0] != colour)) for p in state.pallets)
    banks = dict(state.banks)
    home = [size for p in state.pallets for owner, size in p.pieces if owner == colour]
    banks[colour] = {s: banks[colour][s] + home.count(s) for s in SIZES}
    state = state.evolve(
        resigned=(*state.resigned, colour),
        pallets=pallets,
        banks=banks,
        last_round=tuple(p for p in state.last_round if p != colour),
    )
    if len(state.active_players()) == 1 or state.to_move != colour:
        return Outcome(state)
    if state.pending is not None:
        pending = state.pending
        picked = market.put_pallet(state.evolve(pending=None), market.auto_pile(state), happened)
        state = _dealt(market.deal(picked, pending.roller, happened), pending.roller, happened)
    else:
        state = end_turn(state, colour, happened)
    return Outcome(state, tuple(happened))


def finish(state: State, result: Result) -> State:
    """The game ended as `result` says: the last player standing, an agreed draw, a time-out."""
    return state.evolve(to_move=None, pending=None, winners=result.winners, reason=result.reason)
