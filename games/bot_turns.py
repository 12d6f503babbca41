"""A bot's turn, as a worker plays it: re-check the game, ask the engine bot for its move from what its
seat may see, and submit it through move_submit like any player's. And what the bot sweep looks for:
turns whose task got lost (a broker down at the wrong moment, a worker killed).

The Celery tasks in games.tasks are thin wrappers around these two functions; they hand the lost turns
to the broker again.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings

from accounts.selectors import bot_of
from engine import bots
from games import services
from games.models import Game, Seat
from games.services.bots import bot_movers

log = logging.getLogger(__name__)

# A bot that cannot move (a bug in its search, a move the rules refuse) hands this turn to the random
# bot rather than leave the table waiting for the clock to run out.
FALLBACK = "random"
REQUEUE_BATCH = 1000  # bot turns queued again by one sweep at most; the next takes the rest


def play(*, game_id: int, ply: int) -> str:
    """Play the move of the first bot to move in `game_id`, if the game is still at `ply` (else do
    nothing: someone moved, or the game ended, since this turn was queued). One move per call: the
    position it saves queues the next bot's turn."""
    game = _still_at(game_id, ply)
    if game is None:
        return "stale"
    seat = bot_movers(game).first()
    if seat is None:
        return "no bot to move"
    state = services.state_of(game)
    for bot in dict.fromkeys((bot_of(seat.user), FALLBACK)):
        try:
            text = bots.choose_move(game.rules, bot, state, seat.colour, bot_seed(game, ply, seat), effort=_effort())
            services.move_submit(game=game, user=seat.user, text=text, seen_ply=ply)
        except services.StaleMove:  # a player moved alongside while the bot thought: theirs queued the next turn
            return "stale"
        except Exception:
            if _still_at(game_id, ply) is None:  # the game moved on or ended while the bot thought
                return "stale"
            log.exception("game %s ply %s: the %s bot could not move for %s", game_id, ply, bot, seat.colour)
        else:
            return "moved"
    return "failed"  # the bot sweep tries again in a few minutes


def bot_seed(game: Game, ply: int, seat: Seat) -> str:
    """The bot's seed for this decision: from public facts only, never the game's secret seed. The
    same turn queued twice gets the same move, which move_submit takes as the one already played."""
    return f"game {game.pk} ply {ply} seat {seat.colour}"


def _effort() -> float:
    return float(settings.ZARKCITY_BOT_EFFORT)


def _still_at(game_id: int, ply: int) -> Game | None:
    return Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE, ply=ply).first()


def lost_turns(now: datetime) -> list[tuple[int, int]]:
    """(game id, ply) of every bot turn whose position was saved more than services.bots.REQUEUE_AFTER ago
    (its Game.bot_due_at has come): the task that should have played it never ran (or failed). One indexed
    read when nothing is due, whatever the number of games."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, bot_due_at__lte=now).order_by("bot_due_at", "pk")
    games = {pk: (ply, to_move) for pk, ply, to_move in due.values_list("pk", "ply", "to_move")[:REQUEUE_BATCH]}
    if not games:
        return []
    bot_seats = Seat.objects.filter(game_id__in=games, resigned=False, user__profile__bot__gt="")
    bot_seats = bot_seats.filter(commitments__isnull=True)  # a sealed choice in: that bot owes nothing
    waiting = {
        game_id
        for game_id, colour in bot_seats.values_list("game_id", "colour")
        if colour in games[game_id][1].split(",")
    }
    # No bot to move any more (one resigned, say): nothing to look at. A move saved meanwhile set a later time: kept.
    Game.objects.filter(pk__in=set(games) - waiting, bot_due_at__lte=now).update(bot_due_at=None)
    for game_id in waiting:
        log.info("bot sweep: game %s waited on a bot at ply %s; its turn is queued again", game_id, games[game_id][0])
    return [(game_id, games[game_id][0]) for game_id in sorted(waiting)]
