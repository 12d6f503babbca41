"""Random legal playouts keep every invariant (STYLE.md, test layer 3).

Each example deals a game (2-5 players, either deck, any seed) and plays up to MAX_PLIES random
legal moves. At every ply: cards and pieces are conserved, the board is 8-connected, the generator
and `apply` agree (listed moves apply, sampled unlisted ones are refused), moves print and parse
back, `apply` leaves its input alone, views hide every secret, and a finished game names the right
winner. At the end the game record replays to the very same State.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError
from engine.zarkcity.board import TOUCH_STEPS, sides
from engine.zarkcity.cards import CARDS, DECK_TYPES, deck_cards, sort_cards
from engine.zarkcity.movegen import KINDS, legal_moves
from engine.zarkcity.notation import (
    COLOURS,
    SIZES,
    Build,
    Cell,
    Choose,
    Convert,
    Demolish,
    Discard,
    Draw,
    Fly,
    Grow,
    Hatch,
    Move,
    MovePiece,
    Place,
    Resign,
    Spawn,
    parse,
)
from engine.zarkcity.record import make_record, replay, result_of
from engine.zarkcity.rules import apply, movers, new_game, winners
from engine.zarkcity.state import PIECES_PER_SIZE, State
from engine.zarkcity.views import view

MAX_PLIES = 200
RESIGN_CHANCE = 0.004  # per ply: about one resignation in 250 plies, so most games run their course
APPLY_SAMPLE = 4  # listed moves applied per ply, besides the one played
UNLISTED_SAMPLE = 8  # well-formed moves tried per ply; those not listed must be refused
WIN_TRIES = 6  # moves that could win, tried before a random one

playouts = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- invariants of one State -----------------------------------------------------------------------


def unplaced_starters(state: State) -> list[str]:
    """Chosen starters still face down: not yet placed (cards never leave the board), and not given up."""
    placed = {square.card for square in state.board.values()}
    return [card for colour, card in state.starters if colour not in state.resigned and card not in placed]


def cards_everywhere(state: State) -> Counter[str]:
    cards = Counter(state.deck) + Counter(state.discard) + Counter(unplaced_starters(state))
    cards += Counter(square.card for square in state.board.values())
    for hand in state.hands.values():
        cards += Counter(hand)
    return cards


def is_connected(cells: set[Cell]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in TOUCH_STEPS:
            n = (x + dx, y + dy)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def check_invariants(state: State) -> None:
    assert cards_everywhere(state) == Counter(deck_cards(state.deck_type)), "cards are not conserved"
    for colour in state.players:
        stash = state.stash(colour)
        assert all(0 <= stash[size] <= PIECES_PER_SIZE for size in SIZES), f"{colour}'s stash is {stash}"
    on_board = {owner for square in state.board.values() for owner, _ in square.pieces}
    assert on_board <= set(state.active_players()), "a resigned player still has pieces on the board"
    assert is_connected(set(state.board)), "the board is not 8-connected"
    assert all(CARDS[square.card].is_number for square in state.board.values())
    if state.phase == "over":
        assert state.to_move is None and state.pending == () and movers(state) == ()
    else:
        assert movers(state), "nobody may move in a game that is not over"
        assert winners(state) == set(), "someone controls a Power Block but the game goes on"


def check_listing(state: State, colour: str, moves: list[Move]) -> None:
    """The list is canonical: sorted by kind then text, no repeats, Resign last, and every move parses back."""
    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(texts)
    assert moves[-1] == Resign() and Resign() not in moves[:-1]
    keys = [(KINDS.index(type(m)), str(m)) for m in moves[:-1]]
    assert keys == sorted(keys)
    for move in moves:
        assert parse(str(move)) == move


def check_view(state: State, viewer: str) -> None:
    """No view shows another player's hand, the deck or another's face-down starter (jokers: two alike)."""
    if state.phase == "over":
        return  # everything is published at the end
    shown = {card for _, _, hand in state.revealed for card in hand}
    secret = set(state.deck) | {c for p, hand in state.hands.items() if p != viewer for c in hand}
    secret |= {card for p, card in state.starters if p != viewer and state.phase == "choose"}
    text = json.dumps(view(state, viewer))
    leaked = [c for c in secret - shown - {"JK"} if f'"{c}"' in text]
    assert not leaked, f"{viewer}'s view shows {leaked}"


# --- the generator and apply agree ---------------------------------------------------------------------


def check_listed_apply(state: State, colour: str, moves: list[Move], rng: random.Random) -> None:
    # Squares and tuples are frozen: copies of the two dicts are enough to see any change.
    before = state.evolve(board=dict(state.board), hands=dict(state.hands))
    for move in rng.sample(moves, min(APPLY_SAMPLE, len(moves))):
        apply(state, move, colour)
    assert state == before, "apply changed the State it was given"


def candidate_moves(state: State, rng: random.Random) -> list[Move]:
    """Well-formed moves built from all cards and the cells on and around the board, at random."""
    cells = list(state.board) + [n for c in state.board for n in sides(c)] + [(0, 0), (5, -7)]
    hand = [c for h in state.hands.values() for c in h]
    cards = deck_cards(state.deck_type)

    def card() -> str:
        return rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(cards)

    def cell() -> Cell:
        return rng.choice(cells)

    def near(at: Cell) -> Cell:
        return (at[0] + rng.choice((-1, 0, 1)), at[1] + rng.choice((-1, 0, 1)))

    def some_cards(most: int) -> tuple[str, ...]:
        return sort_cards([card() for _ in range(rng.randint(1, most))])

    size, colour = (lambda: rng.choice(SIZES)), (lambda: rng.choice(state.players))
    makers = [
        lambda: Choose(card()),
        lambda: Place(cell()),
        lambda: Draw(),
        lambda: Grow(size(), cell()),
        lambda: Spawn(cell()),
        lambda: Build(card(), cell()),
        lambda: MovePiece(size(), (at := cell()), near(at)),
        lambda: Demolish(colour(), size(), cell(), some_cards(3)),
        lambda: Convert(colour(), size(), cell(), size(), some_cards(3)),
        lambda: Fly((at := cell()), near(near(at)), card()),
        lambda: Hatch(card(), cell()),
        lambda: Discard(some_cards(4)),
    ]
    return [rng.choice(makers)() for _ in range(UNLISTED_SAMPLE)]


def check_unlisted_refused(state: State, colour: str, listed: list[Move], rng: random.Random) -> None:
    """A well-formed move of `colour` that the generator does not list is refused with IllegalMoveError."""
    for move in candidate_moves(state, rng):
        if move in listed:
            continue
        try:
            apply(state, move, colour)
        except IllegalMoveError:
            continue
        raise AssertionError(f"{colour}: {move} is not listed but apply accepts it")


# --- the end of the game --------------------------------------------------------------------------


def clockwise_from(players: tuple[str, ...], colour: str | None) -> tuple[str, ...]:
    if colour is None:
        return players
    seat = players.index(colour)
    return players[seat:] + players[:seat]


def check_outcome(before: State, after: State, move: Move, by: str) -> None:
    if after.phase != "over":
        return
    active = after.active_players()
    if isinstance(move, Resign) and len(active) == 1:
        assert (after.winner, after.reason) == (active[0], "resignation")
        return
    found = winners(after)
    assert after.reason == "power block" and after.winner in found
    if isinstance(move, Resign):
        # The player to move wins a double win; else the first winner clockwise after them.
        expected = next(p for p in clockwise_from(before.players, before.to_move) if p in found)
    else:
        assert by in found or len(found) == 1, f"{found} win at once after {by}'s {move}"
        expected = by if by in found else next(iter(found))
    assert after.winner == expected


# --- the playout --------------------------------------------------------------------------------------


def choose_move(state: State, rng: random.Random) -> tuple[str, Move, list[Move]]:
    """A random player who may move and one of their moves: kind first, so rare kinds get played too.

    A few moves that could win are tried first, so that games also end by a Power Block.
    """
    if rng.random() < RESIGN_CHANCE:
        colour = rng.choice(state.active_players())
        return colour, Resign(), legal_moves(state, colour)
    colour = rng.choice(movers(state))
    moves = legal_moves(state, colour)
    attacks = [m for m in moves if isinstance(m, MovePiece | Demolish | Convert | Fly)]
    for move in rng.sample(attacks, min(WIN_TRIES, len(attacks))):
        if apply(state, move, colour).phase == "over":
            return colour, move, moves
    kind = KINDS[rng.choice(sorted({KINDS.index(type(m)) for m in moves[:-1]}))]
    return colour, rng.choice([m for m in moves if type(m) is kind]), moves


def random_playout(seating: tuple[str, ...], deck_type: str, seed: str, rng: random.Random) -> list[tuple[str, str]]:
    """Play up to MAX_PLIES random moves from the deal, checking everything at each ply; returns the log."""
    state = new_game(seating, seed, deck_type)
    log: list[tuple[str, str]] = []
    for _ in range(MAX_PLIES):
        check_invariants(state)
        check_view(state, rng.choice(seating))
        if state.phase == "over":
            break
        colour, move, moves = choose_move(state, rng)
        if moves:
            check_listing(state, colour, moves)
            check_listed_apply(state, colour, moves, rng)
        check_unlisted_refused(state, colour, moves, rng)
        idle = [p for p in seating if p not in movers(state)]
        if idle:  # someone who may not move now: only resign is listed (active) or nothing (resigned)
            bystander = rng.choice(idle)
            listed = legal_moves(state, bystander)
            assert listed == ([Resign()] if bystander in state.active_players() else [])
            check_unlisted_refused(state, bystander, listed, rng)
        after = apply(state, move, colour)
        check_outcome(state, after, move, colour)
        log.append((colour, str(move)))
        state = after
    check_invariants(state)
    return log


@playouts
@given(
    players=st.integers(min_value=2, max_value=5),
    deck_type=st.sampled_from(DECK_TYPES),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=16),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(players: int, deck_type: str, seed: str, rng: random.Random) -> None:
    seating = COLOURS[:players]
    log = random_playout(seating, deck_type, seed, rng)
    record = make_record(seating, deck_type, seed, log, None)
    state = replay(json.loads(json.dumps(record)))
    event(f"ended by {state.reason}" if state.phase == "over" else f"still on after {len(log)} plies")
    event(
        "the discard pile was reshuffled"
        if state.shuffles > new_game(seating, seed, deck_type).shuffles
        else "no reshuffle"
    )
    # The record, with its result, replays to the State the moves reached, and checks that result.
    finished = make_record(seating, deck_type, seed, log, result_of(state))
    assert replay(json.loads(json.dumps(finished))) == state
