"""Games through the interface (any game), a seat's reply address, and delivering mail to the service."""

from __future__ import annotations

from unittest import mock

from django.core import mail

from engine import registry
from games import services as games
from games.models import Game
from replies import services

SEED = "seed7"


def start(game_id: str, *players) -> Game:
    """A started game of `game_id` (its default options) with these users seated in order and a fixed seed."""
    options = registry.get(game_id).info.default_options()
    game = games.game_create(
        creator=players[0], game=game_id, seats=len(players), options=options, time_limit_days=3, is_private=False
    )
    with mock.patch("games.services.secrets.token_hex", return_value=SEED):
        for user in players[1:]:
            games.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def state(game: Game):
    game.refresh_from_db()
    return game.rules.from_position(game.snapshot)


def mover(game: Game) -> str:
    game.refresh_from_db()
    return game.to_move.split(",")[0]


def legal(game: Game, colour: str) -> list[str]:
    rules = game.rules
    return [str(m) for m in rules.legal_moves(state(game), colour) if not rules.is_resign(m)]


def play_until(game: Game, phase: str, *, prefer: str = "draw", limit: int = 40) -> Game:
    """Play on the web path (move_submit), drawing when allowed, until the game's phase is `phase`."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.phase == phase:
            return game
        colour = mover(game)
        moves = legal(game, colour)
        text = prefer if prefer in moves else moves[0]
        games.move_submit(game=game, user=game.seats.get(colour=colour).user, text=text, seen_ply=game.ply)
    raise AssertionError(f"never reached {phase}")


def reply_address(game: Game, user) -> str:
    game.refresh_from_db()
    address = services.turn_reply_address(game=game, user=user)
    assert address, "no reply address: not their move?"
    return address


def answers_to(message_bytes: bytes) -> list:
    """The emails we sent in answer to this message (In-Reply-To its Message-ID)."""
    from email import message_from_bytes

    message_id = str(message_from_bytes(message_bytes)["Message-ID"]).strip()
    return [m for m in mail.outbox if m.extra_headers.get("In-Reply-To") == message_id]


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.ply, game.status, game.to_move, tuple(game.moves.values_list("notation", flat=True)))
