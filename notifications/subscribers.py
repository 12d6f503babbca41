"""What the notifications app hears from the game service (games.events): each event writes its outbox
rows through services.notify_*, inside the write's transaction, so the rows exist exactly when the
move does (docs/service.md, "Events"). Connected once, by NotificationsConfig.ready()."""

from __future__ import annotations

from games import events

from . import services


def connect() -> None:
    events.subscribe(events.GameStarted, game_started)
    events.subscribe(events.MoveMade, move_made)
    events.subscribe(events.PlayerResigned, player_resigned)
    events.subscribe(events.GameAbandoned, game_ended_without_move)
    events.subscribe(events.DrawAgreed, game_ended_without_move)
    events.subscribe(events.DrawProposed, draw_proposed)
    events.subscribe(events.DrawDeclined, draw_declined)
    events.subscribe(events.InvitationSent, invitation_sent)


def game_started(event: events.GameStarted) -> None:
    services.notify_game_started(game=event.game)


def move_made(event: events.MoveMade) -> None:
    """ "Your turn" to whoever must move now, or the result to everyone when the move ended the game."""
    services.notify_after_move(
        game=event.game, move=event.move, before=event.before, after=event.after, seats=event.seats
    )


def player_resigned(event: events.PlayerResigned) -> None:
    services.notify_player_resigned(game=event.game, move=event.move, reason=event.reason)


def game_ended_without_move(event: events.GameAbandoned | events.DrawAgreed) -> None:
    services.notify_game_over(game=event.game)


def draw_proposed(event: events.DrawProposed) -> None:
    services.notify_draw_proposed(game=event.game, proposal=event.proposal)


def draw_declined(event: events.DrawDeclined) -> None:
    services.notify_draw_declined(game=event.game, proposal=event.proposal, by=event.by)


def invitation_sent(event: events.InvitationSent) -> None:
    services.notify_invitation(invitation=event.invitation)
