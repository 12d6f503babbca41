"""The Zark City rules as pure functions: the deal, the first round, turns, leaving and the win.

`step(state, move, by)` checks one move and returns the next State with the events recorded on the
way (`apply` is its State); the State machine is in the engine contract and docs/rules.md. The Turn
Options themselves live in options.py. Resignation, draws and time-outs are the kit's (engine/kit/base.py):
these rules say what a seat that leaves takes with it (`leave`) and how a game ends (`finish`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import IllegalMoveError, NotationError, PositionError
from ..kit.events import Outcome
from ..shuffle import shuffled
from . import events
from .board import sides
from .cards import CardInfo
from .draft import Draft
from .notation import COLOURS, Choose, Discard, Draw, Move, Place, cell_str
from .options import is_option, perform
from .ruleset import ZARK_CITY, Ruleset
from .state import Square, State

OPENING_HAND = 3
START = (0, 0)


# --- the deal (rules.md 3.1-3.4) ------------------------------------------------------------------


def new_game(players: Sequence[str], seed: str, deck_type: str = "standard", ruleset: Ruleset = ZARK_CITY) -> State:
    """Shuffle, deal 3 each and run the re-deal rounds; starts again with the next shuffle if the deck runs out."""
    seating = _seating(players, ruleset)
    if deck_type not in ruleset.decks:
        raise PositionError(f"unknown deck {deck_type!r} (use {' or '.join(ruleset.decks)})")
    cards = ruleset.decks[deck_type]
    shuffle_number = 0
    while (dealt := deal(seating, shuffled(cards, seed, shuffle_number), ruleset.cards)) is None:
        shuffle_number += 1
    hands, deck, revealed = dealt
    return State(
        deck_type=deck_type,
        players=seating,
        phase="choose",
        to_move=None,
        board={},
        hands=hands,
        deck=deck,
        discard=(),
        seed=seed,
        shuffles=shuffle_number,
        revealed=revealed,
        ruleset=ruleset,
    )


def _seating(players: Sequence[str], ruleset: Ruleset) -> tuple[str, ...]:
    seating = tuple(players)
    if not 2 <= len(seating) <= 5:
        raise PositionError(f"{ruleset.name} seats 2 to 5 players, not {len(seating)}")
    for colour in seating:
        if colour not in COLOURS:
            raise PositionError(f"{colour!r} is not a player colour (red, yellow, green, blue or black)")
    if len(set(seating)) != len(seating):
        raise PositionError("each player needs a different colour")
    return seating


Revealed = tuple[tuple[int, str, tuple[str, ...]], ...]


def deal(
    players: tuple[str, ...], deck: tuple[str, ...], cards: Mapping[str, CardInfo] = ZARK_CITY.cards
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...], Revealed] | None:
    """Deal one card at a time in seat order, then re-deal rounds; None when the deck runs out."""
    seats = len(players)
    top = OPENING_HAND * seats
    hands = {p: deck[i:top:seats] for i, p in enumerate(players)}
    revealed: Revealed = ()
    round_number = 0
    while short := [p for p in players if not any(cards[c].is_number for c in hands[p])]:
        round_number += 1
        revealed += tuple((round_number, p, hands[p]) for p in short)
        if top + seats > len(deck):
            return None
        for i, p in enumerate(players):
            hands[p] += (deck[top + i],)
        top += seats
    return hands, deck[top:], revealed


# --- who may move ---------------------------------------------------------------------------------


def movers(state: State) -> tuple[str, ...]:
    """Who may make a move other than resign now (several while starters are chosen, else one or none)."""
    if state.phase == "choose":
        chosen = {colour for colour, _ in state.starters}
        return tuple(p for p in state.active_players() if p not in chosen)
    if state.phase == "over" or state.to_move is None:
        return ()
    return (state.to_move,)


def winners(state: State) -> set[str]:
    """Players who control a winning block: a Power Block (rules.md 9), a poker block in Deck Town (14.2)."""
    return state.ruleset.winners_through(state.board, state.board)


def _clockwise_after(players: tuple[str, ...], resigned: tuple[str, ...], colour: str) -> tuple[str, ...]:
    """The active players in turn order, starting after `colour` (who may have resigned), without them."""
    seat = players.index(colour)
    order = players[seat + 1 :] + players[:seat]
    return tuple(p for p in order if p not in resigned)


def _next_active(draft: Draft, colour: str) -> str:
    return _clockwise_after(draft.base.players, draft.resigned, colour)[0]


def _win(draft: Draft, found: set[str]) -> None:
    """The game ends with a block won; the game's tie-break settles a double win (one winner, or a tie)."""
    settled = draft.rules.settle(draft.board, found, draft.to_move, draft.base.players)
    if len(settled) == 1:
        _game_over(draft, settled[0], draft.rules.win_reason)
    else:
        draft.tied = settled
        _game_over(draft, None, "tie")


# --- apply ----------------------------------------------------------------------------------------


def apply(state: State, move: Move, by: str) -> State:
    """The State after player `by` makes `move`; IllegalMoveError (naming the rule) if the rules forbid it."""
    return step(state, move, by).state


def step(state: State, move: Move, by: str) -> Outcome[State]:
    """`apply` with what happened on the way: the step, draws, reshuffles, the next turn, the win."""
    if by not in state.players:
        raise NotationError(f"{by} is not seated in this game")
    _check_may_move(state, by)
    if state.phase == "act" and is_option(move):
        return _done(_act(state, move, by))
    if state.phase == "choose" and isinstance(move, Choose):
        return _done(_choose(state, move, by))
    if state.phase == "place" and isinstance(move, Place):
        return _done(_place(state, move, by))
    if state.phase == "discard" and isinstance(move, Discard):
        return _done(_discard(state, move, by))
    verb = str(move).split()[0].capitalize()
    raise IllegalMoveError(f"{verb}: not now; {_step_now(state)}")


def _done(draft: Draft) -> Outcome[State]:
    return Outcome(draft.finish(), tuple(draft.events))


def _check_may_move(state: State, by: str) -> None:
    if state.phase == "over":
        raise IllegalMoveError(f"Game over: {_result(state)}")
    if by in state.resigned:
        raise IllegalMoveError(f"Resigned: {by} has resigned and takes no further part")
    if by in movers(state):
        return
    if state.phase == "choose":
        waiting = " and ".join(movers(state))
        raise IllegalMoveError(f"Choose: {by} has already chosen a starter (waiting for {waiting})")
    raise IllegalMoveError(f"Not your turn: {_step_now(state)}")


def _step_now(state: State) -> str:
    who = state.to_move
    return {
        "choose": "every player is choosing a starter card",
        "place": f"it is {who}'s turn to place a starter",
        "act": f"it is {who}'s turn to act",
        "discard": f"{who} must discard down to {state.ruleset.hand_limit} cards",
    }[state.phase]


def _result(state: State) -> str:
    if state.reason == "tie":
        return f"{' and '.join(state.tied)} tied"
    if state.winner is None:
        return (
            "the game ended in a draw" if state.reason == "draw" else f"the game ended with no winner ({state.reason})"
        )
    return f"{state.winner} won ({state.reason})"


# --- the first round (rules.md 3.5-3.9) -----------------------------------------------------------


def _choose(state: State, move: Choose, by: str) -> Draft:
    """A starter leaves the hand at once, face down; commit order breaks ties for first player."""
    draft = Draft(state)
    draft.take(by, (move.card,), "Choose")
    if not draft.rules.cards[move.card].is_number:
        raise IllegalMoveError(
            f"Choose: {move.card} is not a number card (a starter is a number card, {draft.rules.number_ranks})"
        )
    draft.starters += ((by, move.card),)
    draft.events.append(events.chose(by, move.card))
    _reveal_starters_if_all_chose(draft)
    return draft


def _reveal_starters_if_all_chose(draft: Draft) -> None:
    chosen = dict(draft.starters)
    active = draft.active_players()
    if any(p not in chosen for p in active):
        return
    rank = draft.rules.starter_rank
    cards = draft.rules.cards
    high = max(rank(cards[card]) for _, card in draft.starters)
    first = next(colour for colour, card in draft.starters if rank(cards[card]) == high)  # commit order breaks ties
    draft.first_player = first
    draft.events.append(events.revealed(draft.starters, first))
    draft.put(START, Square(chosen[first], ((first, "S"),)))
    order = _clockwise_after(draft.base.players, draft.resigned, first)
    draft.phase, draft.to_move, draft.pending = "place", order[0], order[1:]


def _place(state: State, move: Place, by: str) -> Draft:
    if move.at in state.board:
        raise IllegalMoveError(f"Place: {cell_str(move.at)} already holds {state.board[move.at].card}")
    if not any(n in state.board for n in sides(move.at)):
        raise IllegalMoveError(f"Place: {cell_str(move.at)} touches no card (place your starter beside a card in play)")
    draft = Draft(state)
    draft.events.append(events.acted(move, by, state))
    draft.put(move.at, Square(dict(state.starters)[by], ((by, "S"),)))
    _next_placement(draft)
    return draft


def _next_placement(draft: Draft) -> None:
    if draft.pending:
        draft.to_move, draft.pending = draft.pending[0], draft.pending[1:]
        return
    assert draft.first_player is not None
    order = (draft.first_player, *_clockwise_after(draft.base.players, draft.resigned, draft.first_player))
    over = tuple(p for p in order if p not in draft.resigned and len(draft.hands[p]) > draft.rules.hand_limit)
    draft.pending = over
    _next_setup_discard(draft)


def _next_setup_discard(draft: Draft) -> None:
    """The hand-limit step after the first round (A20), in turn order; then turn 1 begins."""
    if draft.pending:
        draft.phase, draft.to_move, draft.pending = "discard", draft.pending[0], draft.pending[1:]
        _owes(draft, draft.to_move)
        return
    first = draft.first_player
    assert first is not None
    _start_turn(draft, first if first not in draft.resigned else _next_active(draft, first))


# --- turns (rules.md 4) ---------------------------------------------------------------------------


def _start_turn(draft: Draft, colour: str) -> None:
    """A Zark City turn opens with one automatic draw (A23); a Deck Town turn with none (14.2)."""
    draft.turn += 1
    draft.phase, draft.to_move, draft.pending = "act", colour, ()
    draft.events.append(events.turn(colour, draft.turn))
    if draft.rules.turn_draw:
        draft.draw(colour, draft.rules.turn_draw)


def _act(state: State, move: Move, by: str) -> Draft:
    draft = Draft(state)
    changed = perform(draft, move, by)
    if not isinstance(move, Draw):  # a draw is its own event, recorded as the cards are taken
        draft.events.insert(0, events.acted(move, by, state))  # the step, then its change draw
    found = draft.rules.winners_through(draft.board, changed) if changed else set()
    if found:
        _win(draft, found)
    elif len(draft.hands[by]) > draft.rules.hand_limit:
        draft.phase, draft.pending = "discard", ()
        _owes(draft, by)
    else:
        _start_turn(draft, _next_active(draft, by))
    return draft


def _owes(draft: Draft, colour: str) -> None:
    draft.events.append(events.owes(colour, len(draft.hands[colour]) - draft.rules.hand_limit))


def _discard(state: State, move: Discard, by: str) -> Draft:
    """Exactly the excess over the hand limit (A21): no voluntary discards, no partial ones."""
    excess = len(state.hands[by]) - state.ruleset.hand_limit
    if len(move.cards) != excess:
        raise IllegalMoveError(
            f"Discard: {by} holds {len(state.hands[by])} cards and must discard exactly {excess}, not {len(move.cards)}"
        )
    draft = Draft(state)
    draft.take(by, move.cards, "Discard")
    draft.events.append(events.acted(move, by, state))
    draft.to_discard(draft.rules.sort(move.cards))
    if draft.turn == 0:
        _next_setup_discard(draft)
    else:
        _start_turn(draft, _next_active(draft, by))
    return draft


def _game_over(draft: Draft, winner: str | None, reason: str) -> None:
    _return_unplaced_starters(draft)
    draft.phase, draft.to_move, draft.pending = "over", None, ()
    draft.winner, draft.reason = winner, reason
    draft.events.append(events.ended(winner, reason, draft.tied))


def _return_unplaced_starters(draft: Draft) -> None:
    """A game that ends before every starter is down (a resignation, a draw, a timeout) gives each
    face-down starter back to its owner's hand: no card may vanish with the setup (docs/rules.md)."""
    waiting: set[str | None]
    if draft.phase == "choose":
        waiting = set(draft.active_players())
    elif draft.phase == "place":
        waiting = {draft.to_move, *draft.pending}
    else:
        return
    for colour, card in draft.starters:
        if colour in waiting:
            draft.hands[colour] = draft.hands[colour] + (card,)


def draw_cards(state: State, colour: str, n: int) -> State:
    """`colour` draws `n` cards, reshuffling the discard pile into an empty deck (rules.md 10)."""
    draft = Draft(state)
    draft.draw(colour, n)
    return draft.finish()


# --- leaving the game (rules.md 19) ---------------------------------------------------------------


def refuse(state: State, action: str, seat: str | None = None) -> None:
    """The rules' refusals of `action` (a `move`, `resign`, `draw`, `abandon`): the game is over,
    `seat` is not seated or has already left."""
    if seat is not None and seat not in state.players:
        raise NotationError(f"{seat} is not seated in this game")
    if state.phase == "over":
        heading = "Game over:" if action == "move" else f"{action.capitalize()}: the game is over;"
        raise IllegalMoveError(f"{heading} {_result(state)}")
    if seat is not None and seat in state.resigned:
        raise IllegalMoveError(f"Resign: {seat} has already resigned")


def leave(state: State, colour: str) -> Outcome[State]:
    """`colour` leaves: pieces to the stash, hand and unplaced starter to the discard pile; play goes on
    (when one player is left the kit ends the game: `finish`)."""
    draft = Draft(state)
    left = _lift_pieces(draft, colour)
    _withdraw_face_down_starter(draft, colour)
    draft.to_discard(draft.rules.sort(draft.hands[colour]))
    draft.hands[colour] = ()
    _discard_unplaced_starter(draft, colour)
    draft.resigned += (colour,)
    draft.pending = tuple(p for p in draft.pending if p != colour)
    if len(draft.active_players()) > 1:
        _after_leaving(draft, colour, left)
    return _done(draft)


def _lift_pieces(draft: Draft, colour: str) -> list[tuple[int, int]]:
    """Take `colour`'s pieces off the board; the cards stay. Returns the cells they left."""
    left = []
    for cell, square in draft.board.items():
        kept = tuple(piece for piece in square.pieces if piece[0] != colour)
        if len(kept) != len(square.pieces):
            left.append((cell, Square(square.card, kept)))
    for cell, square in left:
        draft.put(cell, square)
    return [cell for cell, _ in left]


def _withdraw_face_down_starter(draft: Draft, colour: str) -> None:
    """A starter still face down is a sealed choice: a seat that leaves withdraws it, unseen, and the
    card goes with its hand (the game record's replay holds it as an uncommitted choice: engine/kit)."""
    chosen = dict(draft.starters)
    if draft.phase == "choose" and colour in chosen:
        draft.hands[colour] += (chosen[colour],)
        draft.starters = tuple(entry for entry in draft.starters if entry[0] != colour)


def _discard_unplaced_starter(draft: Draft, colour: str) -> None:
    """A revealed starter its owner has not placed yet goes to the discard pile after the hand."""
    unplaced = draft.phase == "place" and colour in (draft.to_move, *draft.pending)
    chosen = dict(draft.starters)
    if unplaced and colour in chosen:
        draft.to_discard((chosen[colour],))
        draft.starters = tuple(entry for entry in draft.starters if entry[0] != colour)


def _after_leaving(draft: Draft, colour: str, left: list[tuple[int, int]]) -> None:
    found = draft.rules.winners_through(draft.board, left)
    if found:
        _win(draft, found)
    elif draft.phase == "choose":
        _reveal_starters_if_all_chose(draft)
    elif colour == draft.to_move:
        _continue_after(draft, colour)


def _continue_after(draft: Draft, colour: str) -> None:
    """The resigner was to move: play goes on as if their step were done."""
    if draft.phase == "place":
        _next_placement(draft)
    elif draft.phase == "discard" and draft.turn == 0:
        _next_setup_discard(draft)
    else:
        _start_turn(draft, _next_active(draft, colour))


def finish(state: State, winners: tuple[str, ...], reason: str) -> State:
    """The game ends as a resignation, time-out or agreed draw says; every face-down starter goes back
    to its owner's hand (several winners are a tie)."""
    draft = Draft(state)
    draft.tied = winners if len(winners) > 1 else ()
    _game_over(draft, winners[0] if len(winners) == 1 else None, reason)
    return draft.finish()
