"""Bot seats: which engine bots a game may seat, the bot seats to move, and announcing a bot's turn.

A bot is a user whose profile names an engine bot (`Profile.bot`, accounts.services.bot_user_for). It
sits at the table like anyone and moves through move_submit, from the Celery task
games.tasks.play_bot_turn. Every position saved with a bot to move announces a BotToMove event
(core.save_position), on which games.tasks queues that task after commit, so a bot answers within
seconds; the bot sweep queues it again if it got lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from accounts.selectors import bot_of
from engine import bots
from engine.interface import GameInfo
from games import events
from games.models import Commitment, Game, Seat

# A bot's turn still unplayed this long after its position was saved lost its task: the bot sweep
# (games.bot_turns) queues it again, every minute from then until the bot has moved.
REQUEUE_AFTER = timedelta(minutes=2)


def checked_bots(info: GameInfo, names: Sequence[str], seats: int) -> tuple[str, ...]:
    """The bots asked for at a new table of `seats`, each one that plays this game; a ValidationError
    names the first that does not, or says they do not fit beside the creator."""
    if isinstance(names, str):  # a lone name would be read letter by letter
        raise ValidationError(f"Give the bots as a list of names, e.g. [{names!r}].")
    if len(names) > seats - 1:
        others = f"{seats - 1} other seat" + ("s" if seats > 2 else "")
        raise ValidationError(f"A game of {seats} players has {others}: {len(names)} bots do not fit.")
    for name in names:
        check_bot(info, name)
    return tuple(names)


def check_bot(info: GameInfo, name: str) -> None:
    """A ValidationError unless `name` is a bot that plays this game."""
    offered = bots.bots_for(info.id)
    if any(bot.name == name for bot in offered):
        return
    if not offered:
        raise ValidationError(f"{info.name} has no bots: only people play it here.")
    names = ", ".join(bot.name for bot in offered)
    raise ValidationError(f"There is no bot {name!r} for {info.name}: its bots are {names}.")


def bot_seats(game: Game) -> QuerySet[Seat]:
    """The game's seats held by bots still at the table, in seat order."""
    seats = game.seats.filter(resigned=False, user__profile__bot__gt="")  # a person's bot is "" (or no profile)
    return seats.select_related("user__profile").order_by("order")


def bot_movers(game: Game) -> QuerySet[Seat]:
    """The bot seats among the movers of the saved position (Game.to_move), in seat order, less those
    whose sealed choice is in (a game may keep them in Game.to_move: who has chosen is unseen)."""
    return bot_seats(game).filter(colour__in=game.to_move.split(","), commitments__isnull=True)


def queue_bot_turn(game: Game, seats: list[Seat] | None, now: datetime) -> None:
    """When a bot is to move in the position being saved, its turn goes to a worker once this
    transaction commits (a BotToMove event, heard after commit: a rolled-back move queues nothing). One
    task plays one bot move; the position it saves queues the next, so several bots choosing at once
    each get their own ply. `seats` (the table with each player's profile, read under the game's lock)
    answers without a query.
    Game.bot_due_at (saved by the caller) is when the bot sweep queues the turn again if it got lost."""
    game.bot_due_at = None
    if game.status != Game.Status.ACTIVE:
        return
    if not (_bot_to_move(game, seats) if seats is not None else bot_movers(game).exists()):
        return
    game.bot_due_at = now + REQUEUE_AFTER
    events.publish(events.BotToMove(game_id=game.pk, ply=game.ply))  # games.tasks.send_bot_turn hears it


def _bot_to_move(game: Game, seats: list[Seat]) -> bool:
    """bot_movers(game).exists(), from seats read with their profiles (a person's bot is "" or no profile)."""
    movers = set(game.to_move.split(","))
    bots = [seat for seat in seats if not seat.resigned and seat.colour in movers and bot_of(seat.user)]
    return bool(bots) and Commitment.objects.filter(game=game, seat__in=bots).count() < len(bots)
