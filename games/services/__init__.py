"""Every write to a game, by concept: the lobby (create, join, add a bot, start), invitations, play
(moves, resign, abandon), draws and chat; bots.py says which bots a game seats and queues their turns.

Views, forms, the email handler, the sweep and the admin call these, by keyword; they hold the
rules of the service, and each game's rules come from `game.rules` (engine/interface.py). Each
function is one transaction; what it did is announced as games.events, which the other apps hear:
in the transaction (outbox rows, the archive's summary) or after commit (a bot's turn to a worker).
"""

from __future__ import annotations

# Tests and benches fix a deal's seed with mock.patch("games.services.secrets.token_hex"): the same module object.
import secrets  # noqa: F401

from .chat import chat_post
from .clocks import clock_check_at
from .core import state_of
from .draws import draw_accept, draw_decline, draw_propose
from .errors import MoveRejected, NotAPlayer, PlayError, StaleMove
from .invitations import invitation_create, invitation_decline
from .lobby import (
    MAX_DAYS,
    MAX_SEATS,
    MIN_DAYS,
    MIN_SEATS,
    game_add_bot,
    game_create,
    game_join,
    game_start,
    invitation_accept,
)
from .play import game_abandon, move_submit, player_resign, timeout_step

__all__ = [
    "MAX_DAYS",
    "MAX_SEATS",
    "MIN_DAYS",
    "MIN_SEATS",
    "MoveRejected",
    "NotAPlayer",
    "PlayError",
    "StaleMove",
    "chat_post",
    "clock_check_at",
    "draw_accept",
    "draw_decline",
    "draw_propose",
    "game_abandon",
    "game_add_bot",
    "game_create",
    "game_join",
    "game_start",
    "invitation_accept",
    "invitation_create",
    "invitation_decline",
    "move_submit",
    "player_resign",
    "timeout_step",
    "state_of",
]
