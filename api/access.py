"""Which game a request means, if the caller may see it: the same rule as the pages, and a 404
that says nothing about a private game's existence to anyone else."""

from __future__ import annotations

from django.contrib.auth.models import User

from api.errors import ApiError
from games import selectors
from games.models import Game, Invitation
from games.selectors import GameListEntry

NO_SUCH_GAME = "No such game."


def visible_game(game_id: int, user: User) -> GameListEntry:
    """The game with its seats, or not_found when it does not exist or is private to others.

    A waiting room is open to its players and invitees (lobby_visible_to), a started game to anyone
    unless it is private (game_visible_to); a private game's share link is for browsers, not tokens."""
    try:
        entry = selectors.lobby_game(game_id=game_id, user=user)
    except Game.DoesNotExist:
        raise ApiError("not_found", NO_SUCH_GAME) from None
    game = entry.game
    visible = (
        selectors.lobby_visible_to(entry, user)
        if game.status == Game.Status.OPEN
        else selectors.game_visible_to(game, user)
    )
    if not visible:
        raise ApiError("not_found", NO_SUCH_GAME)
    return entry


def invitation_to(invitation_id: int, user: User) -> Invitation:
    """An invitation addressed to this user (by name or verified address); not_found for anyone else's."""
    try:
        invitation = selectors.invitation_get(invitation_id=invitation_id)
    except Invitation.DoesNotExist:
        raise ApiError("not_found", "No such invitation.") from None
    if not selectors.invitation_addressed_to(invitation, user):
        raise ApiError("not_found", "No such invitation.")
    return invitation
