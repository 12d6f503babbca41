"""Random legal playouts keep every invariant (STYLE.md, test layer 3).

Each example deals a game of every registered game of the Zark City family (Zark City and Deck
Town: 2-5 players, any of the game's options, any seed) and plays up to MAX_PLIES random legal
moves through the game interface (engine.registry). At every ply: cards and pieces are conserved,
the board is 8-connected, the generator and `apply` agree (listed moves apply, sampled unlisted
ones are refused), moves print and parse back, `apply` leaves its input alone, views hide every
secret, and a finished game names the right winner. At the end the game record replays to the
very same State.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.errors import IllegalMoveError
from engine.interface import Game
from engine.kit.base import Resign
from engine.zarkcity.board import TOUCH_STEPS, sides
from engine.zarkcity.movegen import KINDS
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
    Spawn,
)
from engine.zarkcity.rules import movers, winners
from engine.zarkcity.ruleset import ZARK_CITY
from engine.zarkcity.state import PIECES_PER_SIZE, State

GAMES = registry.all_games()

MAX_PLIES = 200
RESIGN_CHANCE = 0.004  # per ply: about one resignation in 250 plies, so most games run their course
APPLY_SAMPLE = 4  # listed moves applied per ply, besides the one played
UNLISTED_SAMPLE = 8  # well-formed moves tried per ply; those not listed must be refused
WIN_TRIES = 6  # moves that could win, tried before a random one

playouts = settings(
    max_examples=50,  # per game
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- invariants of one State -----------------------------------------------------------------------


def unplaced_starters(state: State) -> list[str]:
    """Chosen starters still face down: everyone's while choosing, then those not yet placed (and not given up).

    Told by who still has to place rather than by the board's cards: a deck may hold two of a card."""
    if state.phase == "choose":
        return [card for colour, card in state.starters if colour not in state.resigned]
    if state.phase == "place":
        return [card for colour, card in state.starters if colour in (state.to_move, *state.pending)]
    return []


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
    assert cards_everywhere(state) == state.ruleset.copies(state.deck_type), "cards are not conserved"
    for colour in state.players:
        stash = state.stash(colour)
        assert all(0 <= stash[size] <= PIECES_PER_SIZE for size in SIZES), f"{colour}'s stash is {stash}"
    on_board = {owner for square in state.board.values() for owner, _ in square.pieces}
    assert on_board <= set(state.active_players()), "a resigned player still has pieces on the board"
    assert is_connected(set(state.board)), "the board is not 8-connected"
    assert all(state.ruleset.cards[square.card].is_number for square in state.board.values())
    if state.phase == "over":
        assert state.to_move is None and state.pending == () and movers(state) == ()
    else:
        assert movers(state), "nobody may move in a game that is not over"
        assert winners(state) == set(), "someone controls a Power Block but the game goes on"


def check_listing(game: Game, state: State, colour: str, moves: list[Move]) -> None:
    """The list is canonical: sorted by kind then text, no repeats, Resign last, and every move parses back."""
    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(texts)
    assert moves[-1] == Resign() and Resign() not in moves[:-1]
    keys = [(KINDS.index(type(m)), str(m)) for m in moves[:-1]]
    assert keys == sorted(keys)
    for move in moves:
        assert game.parse(str(move)) == move


def check_only_kind(game: Game, state: object, colour: str, moves: list[Move]) -> None:
    """`only_kind` (what a turn email asks: "place your starter") agrees with the list, which Zark City's
    answers without making."""
    kinds = {game.move_kind(m) for m in moves if not game.is_resign(m)}
    only = game.only_kind(state, colour)
    assert only == (kinds.pop() if len(kinds) == 1 else None), (colour, only, kinds)
    event(f"one kind of move: {only}" if only else "a choice of kinds, or none")


def check_view(game: Game, state: State, viewer: str) -> None:
    """No view shows another player's hand, the deck or another's face-down starter.

    A card the deck holds twice (Zark City's jokers, Deck Town's number cards, Pawns and Courts) may
    show for its public twin, so those are checked by the view's shape: no hands, deck or seed, the
    viewer's own hand only, and no other player's starter while starters are face down."""
    shown_view = game.view(state, viewer)
    if state.phase == "over":
        return  # everything is published at the end
    assert not {"hands", "deck", "seed"} & set(shown_view), f"{viewer}'s view holds secrets"
    assert shown_view.get("hand") == list(state.hands[viewer])
    if state.phase == "choose":
        assert set(shown_view["starters"]) == {"chosen", "mine"}  # type: ignore[typeddict-item]
    copies = state.ruleset.copies(state.deck_type)
    shown = {card for _, _, hand in state.revealed for card in hand}
    secret = set(state.deck) | {c for p, hand in state.hands.items() if p != viewer for c in hand}
    secret |= {card for p, card in state.starters if p != viewer and state.phase == "choose"}
    text = json.dumps(shown_view)
    leaked = [c for c in secret - shown if copies[c] == 1 and f'"{c}"' in text]
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
    cards = state.ruleset.decks[state.deck_type]

    def card() -> str:
        return rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(cards)

    def cell() -> Cell:
        return rng.choice(cells)

    def near(at: Cell) -> Cell:
        return (at[0] + rng.choice((-1, 0, 1)), at[1] + rng.choice((-1, 0, 1)))

    def some_cards(most: int) -> tuple[str, ...]:
        return state.ruleset.sort([card() for _ in range(rng.randint(1, most))])

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
    if after.ruleset is not ZARK_CITY:  # Deck Town: the highest card of a winning block settles a double win
        won = set(after.tied) if after.reason == "tie" else {after.winner}
        assert won <= found and (len(found) > 1 or won == found), f"{won} won, but {found} hold a block"
        assert after.reason == "tie" or after.reason == after.ruleset.win_reason
        return
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


def legal_moves(state: State, colour: str) -> list[Move]:
    return registry.get(state.game).legal_moves(state, colour)


def apply(state: State, move: Move, colour: str) -> State:
    return registry.get(state.game).apply(state, move, colour)


def random_playout(
    game: Game, seating: tuple[str, ...], options: dict[str, str], seed: str, rng: random.Random
) -> list[tuple[str, str]]:
    """Play up to MAX_PLIES random moves from the deal, checking everything at each ply; returns the log."""
    state = game.new_game(seating, seed, options)
    log: list[tuple[str, str]] = []
    for _ in range(MAX_PLIES):
        check_invariants(state)
        check_view(game, state, rng.choice(seating))
        if state.phase == "over":
            break
        colour, move, moves = choose_move(state, rng)
        check_only_kind(game, state, colour, moves)
        if moves:
            check_listing(game, state, colour, moves)
            check_listed_apply(state, colour, moves, rng)
        check_unlisted_refused(state, colour, moves, rng)
        idle = [p for p in seating if p not in movers(state)]
        if idle:  # someone who may not move now: only resign is listed (active) or nothing (resigned)
            bystander = rng.choice(idle)
            listed = legal_moves(state, bystander)
            assert listed == ([Resign()] if bystander in state.active_players() else [])
            check_only_kind(game, state, bystander, listed)
            check_unlisted_refused(state, bystander, listed, rng)
        after = game.apply(state, move, colour)
        check_outcome(state, after, move, colour)
        log.append((colour, str(move)))
        state = after
    check_invariants(state)
    return log


def options_of(game: Game) -> st.SearchStrategy[dict[str, str]]:
    """Any choice of each of the game's options (Zark City's deck; Deck Town has none)."""
    return st.fixed_dictionaries({o.name: st.sampled_from([c.value for c in o.choices]) for o in game.info.options})


def interface_playout(game: Game, state: object, rng: random.Random) -> tuple[object, list[tuple[str, str]]]:
    """A game outside the Zark City family: the invariants the interface alone can state, at every ply.

    Moves print and parse back, `apply` leaves its input alone, every seat's view is JSON, and
    someone may move until there is a result."""
    log: list[tuple[str, str]] = []
    for _ in range(MAX_PLIES):
        players = game.view(state, None)["players"]
        for seat in players:
            json.dumps(game.view(state, seat))
        if game.result(state) is not None:
            break
        movers = game.movers(state)
        assert movers, "nobody may move in a game that is not over"
        colour = rng.choice(movers)
        moves = game.legal_moves(state, colour)
        assert all(game.parse(str(m)) == m for m in moves)
        check_only_kind(game, state, colour, moves)
        playable = [m for m in moves if not game.is_resign(m)] or moves
        move = rng.choice(playable)
        before = json.dumps(game.to_position(state))
        after = game.apply(state, move, colour)
        assert json.dumps(game.to_position(state)) == before, "apply changed the State it was given"
        log.append((colour, str(move)))
        state = after
    return state, log


@pytest.mark.parametrize("game", GAMES, ids=[g.info.id for g in GAMES])
@playouts
@given(
    data=st.data(),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=16),
    rng=st.randoms(use_true_random=True),
)
def test_random_playouts_keep_every_invariant(game: Game, data: st.DataObject, seed: str, rng: random.Random) -> None:
    seating = COLOURS[: data.draw(st.sampled_from(game.info.player_counts))]
    options = data.draw(options_of(game))
    if not isinstance(game.new_game(seating, seed, options), State):
        final, moves = interface_playout(game, game.new_game(seating, seed, options), rng)
        replayed = game.replay(json.loads(json.dumps(game.make_record(seating, options, seed, moves, None))))
        assert game.to_position(replayed) == game.to_position(final)
        return
    log = random_playout(game, seating, options, seed, rng)
    record = game.make_record(seating, options, seed, log, None)
    state = game.replay(json.loads(json.dumps(record)))
    event(f"ended by {state.reason}" if state.phase == "over" else f"still on after {len(log)} plies")
    event(
        "the discard pile was reshuffled"
        if state.shuffles > game.new_game(seating, seed, options).shuffles
        else "no reshuffle"
    )
    # The record, with its result, replays to the State the moves reached, and checks that result.
    finished = game.make_record(seating, options, seed, log, game.record_result(state))
    assert game.replay(json.loads(json.dumps(finished))) == state
    assert game.from_position(json.loads(json.dumps(game.to_position(state)))) == state
