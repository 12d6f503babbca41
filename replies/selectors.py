"""Reads: a player's reply-to-play setting and addresses, and whether a reply address still answers for its turn."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User

from games.models import Game, Seat
from zarkcity_site.related import read_with_or

from .models import ReplySetting, ReplyToken


def reply_enabled(user: User) -> bool:
    """Reply-to-play is on unless the player turned it off (no row: on); the setting read with the user
    when it was (the notifications worker's claim reads it with the outbox row)."""
    setting = read_with_or(user, "reply_setting", lambda: ReplySetting.objects.filter(user=user).first())
    return setting is None or setting.enabled


def addresses_of(user: User) -> set[str]:
    """The addresses a player may reply from: their account's and any verified one they added."""
    verified = EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)
    return {address.lower() for address in [user.email, *verified] if address}


def token_get(token: str) -> ReplyToken | None:
    return ReplyToken.objects.select_related("game", "seat__user").filter(token=token.lower()).first()


def is_mover(game: Game, seat: Seat) -> bool:
    return game.status == Game.Status.ACTIVE and not seat.resigned and seat.colour in game.to_move.split(",")


def turn_passed(token: ReplyToken) -> str:
    """Why this move address no longer answers for a turn, or "" while it does."""
    game, seat = token.game, token.seat
    if game.status == Game.Status.FINISHED:
        return "This game is over."
    if seat.resigned:
        return "You have left this game."
    if game.moves.filter(seat=seat, ply__gte=token.ply).exists():
        return "You already moved since that email: the turn it was for has passed."
    if not is_mover(game, seat):
        return "It is not your move any more: the turn that email was for has passed."
    return ""
