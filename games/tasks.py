"""Celery tasks of the games app: thin wrappers that take ids and call games.bot_turns."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from games import bot_turns


@shared_task(name="games.tasks.play_bot_turn", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def play_bot_turn(game_id: int, ply: int) -> str:
    """A bot's move at `ply`, queued after commit by the write that saved the position; does nothing if
    the game has moved on or ended (a task delivered twice, or overtaken by the bot sweep)."""
    return bot_turns.play(game_id=game_id, ply=ply)


@shared_task(name="games.tasks.bot_sweep", acks_late=True)  # type: ignore[untyped-decorator]  # celery is untyped
def bot_sweep() -> int:
    """Every minute (CELERY_BEAT_SCHEDULE): queue again the bot turns waiting longer than a couple of minutes."""
    return bot_turns.requeue_waiting(timezone.now())
