"""Table talk: a line from a player still at the table, shown in the history after the current move."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from games.models import ChatMessage, Game

from .core import seat_of
from .errors import NotAPlayer


def chat_post(*, game: Game, user: User, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise ValidationError("Write something before sending.")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ValidationError(f"A chat message is at most {ChatMessage.MAX_LENGTH} characters ({len(text)} given).")
    seat = seat_of(game, user)
    if seat is None:
        raise NotAPlayer("Only the players of this game can chat at its table.")
    if seat.resigned:
        raise NotAPlayer("You resigned from this game, so you can no longer chat at its table.")
    ply = Game.objects.values_list("ply", flat=True).get(pk=game.pk)  # now, not when the page was loaded
    return ChatMessage.objects.create(game=game, seat=seat, after_ply=ply, text=text)
