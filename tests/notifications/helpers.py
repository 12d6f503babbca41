"""Helpers for the notification tests: start a game, make legal moves for whoever must move, compare
board pictures."""

from __future__ import annotations

import io

from django.core import mail
from PIL import Image

from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.notation import Discard, Draw
from engine.zarkcity.position import from_position
from engine.zarkcity.rules import movers
from games import services
from games.models import Game


def start_game(*players, days: int = 3, game_id: str = "zarkcity", options: dict[str, str] | None = None) -> Game:
    """A game with these players seated (red, yellow, ...) and dealt; the outbox rows are written.
    Zark City with the standard deck unless another registered game is asked for."""
    game = services.game_create(
        creator=players[0],
        seats=len(players),
        game=game_id,
        options={"deck": "standard"} if options is None else options,
        time_limit_days=days,
        is_private=False,
    )
    for user in players[1:]:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def state(game: Game):
    game.refresh_from_db()
    return from_position(game.snapshot)


def pick(game: Game, colour: str, *, prefer=None):
    """A legal move for `colour`: the first of the preferred kind if any, else the first that is not a resign."""
    options = legal_moves(state(game), colour)  # the rules' moves: resigning is the kit's step
    preferred = [m for m in options if prefer is not None and isinstance(m, prefer)]
    return (preferred or options)[0]


def play(game: Game, colour: str | None = None, *, prefer=None):
    """Submit one legal move by `colour` (default: the first player who must move now)."""
    if colour is None:
        game.refresh_from_db()
        colour = game.to_move.split(",")[0]  # whom the game waits on: not a seat whose sealed choice is in
    move = pick(game, colour, prefer=prefer)
    user = game.seats.get(colour=colour).user
    return services.move_submit(game=game, user=user, text=str(move), seen_ply=game.ply)


def play_setup(game: Game) -> None:
    """Choose starters and place them (and any setup discards) until turn 1 begins."""
    while state(game).phase in ("choose", "place") or (state(game).phase == "discard" and state(game).turn == 0):
        play(game)


def play_turn(game: Game) -> str:
    """The current player's whole turn: one option (a Draw when asked for) and the discard if the hand is over 6."""
    colour = movers(state(game))[0]
    play(game, colour, prefer=Draw)
    while state(game).phase == "discard" and colour in movers(state(game)):
        play(game, colour, prefer=Discard)
    return colour


def mail_to(user) -> list:
    return [m for m in mail.outbox if any(user.email in to for to in m.to)]


def picture(png: bytes) -> tuple[tuple[int, int], str, bytes]:
    """What a PNG shows: its size, mode and every pixel. Two drawings of the same board are compared by
    this, not by their bytes: ISA-L's deflate (notifications/librsvg.py) may pick another, equally
    valid, match for the same rows, so the same pixels do not always come out as the same bytes."""
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.size, image.mode, image.tobytes()
