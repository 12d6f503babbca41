"""The lobby's writes: create a game of any registered game (with bots in some seats, if asked), join it
(through an invitation too), add a bot to it, and start it when the last seat fills. Sending and
declining invitations are in games.services.invitations."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.services import bot_user_for
from engine import registry
from engine.interface import COLOURS, GameInfo, thrown
from engine.shuffle import commitment
from games import events
from games.models import Game, Invitation, Seat

from .bots import check_bot, checked_bots
from .core import lock, save_position
from .invitations import check_invitee, usable_invitation

MIN_DAYS, MAX_DAYS = 1, 30
# The widest table any game seats (the model's check constraint); each game narrows it (GameInfo.player_counts).
MIN_SEATS, MAX_SEATS = 2, len(COLOURS)


def game_create(
    *,
    creator: User,
    game: str,
    seats: int,
    options: Mapping[str, str],
    time_limit_days: int,
    is_private: bool,
    bots: Sequence[str] = (),
) -> Game:
    """A new open game of `game` (a registry id) with its creator in seat 0 (red) and the named engine
    bots (engine.bots.bots_for) in seats 1, 2...; when they fill the table the game starts at once.

    The player count, the options and the bots are checked against the game's GameInfo; a
    ValidationError says what is wrong.
    """
    info = _game_info(game)
    _check_seats(info, seats)
    checked = _checked_options(info, options)
    _check_time_limit(time_limit_days)
    bot_names = checked_bots(info, bots, seats)
    with transaction.atomic():
        created = Game.objects.create(
            created_by=creator,
            game=info.id,
            options=checked,
            seats_wanted=seats,
            time_limit_days=time_limit_days,
            is_private=is_private,
        )
        Seat.objects.create(game=created, user=creator, order=0, colour=COLOURS[0])
        for bot in bot_names:
            _take_seat(created, _bot_user(created, bot))
        if len(bot_names) + 1 == seats:
            game_start(game=created)
    return created


def _game_info(game_id: str) -> GameInfo:
    try:
        return registry.get(game_id or None).info
    except ValueError:
        known = ", ".join(info.name for info in registry.infos())
        raise ValidationError(f"There is no game {game_id!r} here (the games are {known}).") from None


def _check_seats(info: GameInfo, seats: int) -> None:
    if not isinstance(seats, int) or seats not in info.player_counts:
        counts = ", ".join(str(n) for n in info.player_counts)
        raise ValidationError(f"{info.name} is played by {counts} players, not {seats}.")


def _checked_options(info: GameInfo, options: Mapping[str, str]) -> dict[str, str]:
    try:
        return info.check_options(options)
    except ValueError as error:
        raise ValidationError(f"{error}.") from None


def _check_time_limit(days: int) -> None:
    if not isinstance(days, int) or not MIN_DAYS <= days <= MAX_DAYS:
        raise ValidationError(f"The time limit per move is {MIN_DAYS} to {MAX_DAYS} days, not {days}.")


def game_join(*, game: Game, user: User) -> Seat:
    """Take the next free seat; the last seat to fill starts the game in the same transaction."""
    with transaction.atomic():
        game = lock(game)
        _check_can_sit(game, user)
        invitation = usable_invitation(game, user)
        if game.is_private and invitation is None:
            raise ValidationError("This is a private game: you need an invitation to join it.")
        seat = _take_seat(game, user)
        if invitation is not None:
            _accepted(invitation)
        if game.seats.count() == game.seats_wanted:
            game_start(game=game)
    return seat


def invitation_accept(*, invitation: Invitation, user: User) -> Seat:
    """Take a seat through an invitation addressed to this user."""
    check_invitee(invitation, user)
    if invitation.declined_at is not None:
        raise ValidationError("You declined this invitation.")
    return game_join(game=invitation.game, user=user)


def game_add_bot(*, game: Game, by: User, bot: str) -> Seat:
    """The game's creator seats an engine bot in the next free seat of their waiting game (one slow to
    fill); the last seat to fill starts the game in the same transaction."""
    with transaction.atomic():
        game = lock(game)
        if game.created_by_id != by.pk:
            raise ValidationError("Only the player who created this game can add a bot to it.")
        _check_open_seat(game)
        check_bot(game.rules.info, bot)
        seat = _take_seat(game, _bot_user(game, bot))
        if game.seats.count() == game.seats_wanted:
            game_start(game=game)
    return seat


def _bot_user(game: Game, bot: str) -> User:
    """An account of this bot not yet at this table (a second MCTS bot is "mcts-bot-2")."""
    return bot_user_for(bot=bot, taken=set(game.seats.values_list("user_id", flat=True)))


def _accepted(invitation: Invitation) -> None:
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])


def _check_can_sit(game: Game, user: User) -> None:
    if game.seats.filter(user=user).exists():  # first: a started game is no news to its own players
        raise ValidationError("You are already seated in this game.")
    _check_open_seat(game)


def _check_open_seat(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise ValidationError(
            "This game has already started." if game.status == Game.Status.ACTIVE else "This game is over."
        )
    if game.seats.count() >= game.seats_wanted:
        raise ValidationError("This game is full.")


def _take_seat(game: Game, user: User) -> Seat:
    taken = set(game.seats.values_list("order", flat=True))
    order = min(set(range(game.seats_wanted)) - taken)
    return Seat.objects.create(game=game, user=user, order=order, colour=COLOURS[order])


def game_start(*, game: Game) -> None:
    """Deal: colours in seat order, a fresh secret seed, its public commitment, the first snapshot.

    Called by game_join inside its transaction, with the game row locked.
    """
    seats = _close_gaps(game)
    seed = secrets.token_hex(32)
    rules = game.rules
    opening = rules.begin([seat.colour for seat in seats], seed, game.options)
    state, game.opening_dice = opening.state, thrown(opening.events)
    now = timezone.now()
    game.seed, game.seed_commitment, game.rules_version = seed, commitment(seed), rules.info.rules_version
    game.status, game.started_at = Game.Status.ACTIVE, now
    save_position(game, state, now, new_movers=True)
    game.save()
    events.publish(events.GameStarted(game=game))


def _close_gaps(game: Game) -> list[Seat]:
    """The seats in order, renumbered so seat i is colour i (someone may have left the lobby)."""
    seats = list(game.seats.order_by("order"))
    for index, seat in enumerate(seats):
        if (seat.order, seat.colour) != (index, COLOURS[index]):
            seat.order, seat.colour = index, COLOURS[index]
            seat.save(update_fields=["order", "colour"])
    return seats
