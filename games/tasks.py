"""Celery tasks of the games app: thin wrappers that take ids and call games.bot_turns, and the hand-off
of a bot's turn to the broker (the BotToMove event's subscriber, connected in games.apps)."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games import bot_turns
from games.events import BotToMove

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.play_bot_turn", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def play_bot_turn(game_id: int, ply: int) -> str:
    """A bot's move at `ply`, queued after commit by the write that saved the position; does nothing if
    the game has moved on or ended (a task delivered twice, or overtaken by the bot sweep)."""
    return bot_turns.play(game_id=game_id, ply=ply)


@shared_task(name="games.tasks.bot_sweep", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def bot_sweep() -> int:
    """Every minute (CELERY_BEAT_SCHEDULE): queue again the bot turns waiting longer than a couple of minutes."""
    return requeue_waiting(timezone.now())


def requeue_waiting(now: datetime) -> int:
    """Queue again every bot turn whose task got lost (bot_turns.lost_turns); returns how many were queued."""
    return sum(send_bot_turn(game_id, ply) for game_id, ply in bot_turns.lost_turns(now))


def bot_to_move(event: BotToMove) -> None:
    send_bot_turn(event.game_id, event.ply)


def send_bot_turn(game_id: int, ply: int) -> bool:
    """Hand the broker a bot's turn; a broker that is down costs a delay: the bot sweep queues it again."""
    try:
        play_bot_turn.apply_async((game_id, ply), retry=False, queue=settings.ZARKCITY_BOT_QUEUE)
    except Exception as error:  # kombu raises several kinds; none may break the request that made the move
        log.warning("bot turn of game %s at ply %s not queued (%s); the bot sweep will queue it", game_id, ply, error)
        return False
    return True
