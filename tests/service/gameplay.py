"""Helpers for the games-core tests: start a game with a known seed, and a deterministic player.

The policy (`pick`) looks one move ahead with the engine: it takes a winning move when there is
one, else the move that most improves "cards I control minus cards they control", breaking ties
by the turn number so games do not loop. With seed GOOD_SEED two players finish in a few hundred plies.
"""

from __future__ import annotations

from unittest import mock

from engine.zarkcity import rules
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.state import State
from games import services
from games.models import Game

GOOD_SEED = "seed7"  # red wins with a power block at ply 239 under `pick` (two players)
PIPS = {"S": 1, "M": 2, "L": 3}


def start_game(*players, seed: str = GOOD_SEED, deck: str = "standard", game: str = "zarkcity", **options: str) -> Game:
    """A started game of `game` (Zark City with `deck` unless told) with these users seated in order
    (red, yellow, ...) and a fixed seed."""
    options = options or ({"deck": deck} if game == "zarkcity" else {})
    game = services.game_create(
        creator=players[0], game=game, seats=len(players), options=options, time_limit_days=3, is_private=False
    )
    with mock.patch("games.services.secrets.token_hex", return_value=seed):
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def user_of(game: Game, colour: str):
    return game.seats.get(colour=colour).user


def mover(game: Game) -> str:
    return game.to_move.split(",")[0]


def _controlled(state: State, colour: str) -> int:
    return sum(1 for square in state.board.values() if square.controller() == colour)


def _score(after: State, colour: str) -> float:
    if after.phase == "over":
        return 1000 if after.winner == colour else -1000
    theirs = sum(_controlled(after, c) for c in after.players if c != colour)
    pips = sum(PIPS[size] for sq in after.board.values() for owner, size in sq.pieces if owner == colour)
    return 3 * _controlled(after, colour) - 2 * theirs + 0.3 * pips + 0.1 * len(after.board)


def pick(state: State, colour: str, offered: list[str] | None = None) -> str:
    """The policy's move for `colour`, chosen among `offered` (the page's list) or the engine's."""
    legal = legal_moves(state, colour)  # the rules' moves: resigning is the kit's step
    if offered is not None:
        legal = [m for m in legal if str(m) in set(offered)]
    if state.phase != "act":
        return str(legal[0])
    scored = [(_score(rules.apply(state, m, colour), colour), i) for i, m in enumerate(legal)]
    top = max(s for s, _ in scored)
    best = [legal[i] for s, i in scored if s == top]
    return str(best[(state.turn * 7) % len(best)])


def play_plies(game: Game, count: int) -> Game:
    """Play `count` plies through the service with the policy (or until the game ends)."""
    for _ in range(count):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        colour = mover(game)
        text = pick(services.state_of(game), colour)
        services.move_submit(game=game, user=user_of(game, colour), text=text, seen_ply=game.ply)
    game.refresh_from_db()
    return game


def before_a_full_hand(game: Game, limit: int = 40) -> tuple[Game, str, str]:
    """Play (drawing when allowed) until the mover's `draw` would leave them over the hand limit: a
    real two-step turn, `draw; discard ...`. The game, the mover, and a discard that brings them down."""
    rules = game.rules
    for _ in range(limit):
        game.refresh_from_db()
        colour = mover(game)
        state = services.state_of(game)
        if state.phase == "act":
            after = rules.apply(state, rules.parse("draw"), colour)
            if after.phase == "discard" and after.to_move == colour:
                over = len(after.hands[colour]) - after.ruleset.hand_limit
                return game, colour, str(rules.parse("discard " + " ".join(state.hands[colour][:over])))
        moves = [str(m) for m in legal_moves(state, colour)]  # the rules' moves: resigning is the kit's step
        text = "draw" if "draw" in moves else moves[0]
        services.move_submit(game=game, user=user_of(game, colour), text=text, seen_ply=game.ply)
    raise AssertionError("no draw ever filled a hand")
