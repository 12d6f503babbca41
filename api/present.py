"""From the selectors' results to the API's schemas: the same facts the pages show, field by field."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django.conf import settings

from accounts.selectors import bot_of, display_name_of
from api import schemas
from archive.models import ArchivedGame
from engine.interface import Throw
from engine.kit.events import ThrownDie
from games import selectors
from games.clock import table_clocks
from games.models import Game, Invitation, Seat
from games.selectors import GameContext, GameListEntry


def seat_out(seat: Seat) -> schemas.SeatOut:
    return schemas.SeatOut(
        colour=seat.colour,
        name=display_name_of(seat.user),
        username=seat.user.get_username(),
        resigned=seat.resigned,
        bot=bot_of(seat.user),
    )


def game_summary(entry: GameListEntry) -> schemas.GameSummary:
    return schemas.GameSummary(**_summary_fields(entry))


def _summary_fields(entry: GameListEntry) -> dict[str, Any]:
    game = entry.game
    return {
        "id": game.pk,
        "game": game.game,
        "name": entry.name,
        "options": game.options,
        "options_text": game.options_text,
        "status": game.status,
        "seats_wanted": game.seats_wanted,
        "seats": [seat_out(seat) for seat in entry.seats],
        "to_move": [seat.colour for seat in entry.movers],
        "your_colour": entry.my_seat.colour if entry.my_seat else None,
        "your_turn": entry.is_my_turn,
        "ply": game.ply,
        "time_limit_days": game.time_limit_days,
        "is_private": game.is_private,
        "turn_started_at": game.turn_started_at if game.status == Game.Status.ACTIVE else None,
        "deadline": game.deadline,
        "winners": list(game.winners),
        "result_reason": game.result_reason,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "url": settings.SITE_URL + entry.url,
    }


def invitation_out(invitation: Invitation, entry: GameListEntry) -> schemas.InvitationOut:
    return schemas.InvitationOut(
        id=invitation.pk, game=game_summary(entry), invited_by=display_name_of(invitation.invited_by)
    )


def game_detail(entry: GameListEntry, page: GameContext | None) -> schemas.GameDetail:
    """The game page's facts for this seat; `page` is None while the game waits for players."""
    fields = _summary_fields(entry)
    game = entry.game
    finished = game.status == Game.Status.FINISHED
    fields |= {"seed_commitment": game.seed_commitment, "seed": game.seed if finished else None}
    if page is None:
        return schemas.GameDetail(**fields | _waiting_room(entry))
    rules = game.rules
    players = {seat.colour: seat_out(seat) for seat in entry.seats}
    fields |= {
        "your_turn": page.my_move,
        "status_line": page.status_line,
        "private_note": page.private_note,
        "hand": page.hand,
        "table_notes": list(page.table.notes),
        "seats": [_seat_view(info, players) for info in page.seats],
        "clocks": [_clock(clock) for clock in table_clocks(game).clocks] if not finished else [],
        "can_act": page.can_act,
        "legal_moves": [move for group in page.legal for move in group.moves],
        "draw_offer": _draw_offer(page.draw_offer),
        "result": _result(page.result),
        "history": [_history_item(entry) for entry in page.history],
        "history_hidden": page.history_hidden,
        "view": dict(page.view),
        "board_text": rules.board_text(page.view),
    }
    return schemas.GameDetail(**fields)


def _waiting_room(entry: GameListEntry) -> dict[str, Any]:
    seats = [
        schemas.SeatView(**seat_out(seat).dict(), facts=[], note="", you=seat == entry.my_seat, to_move=False)
        for seat in entry.seats
    ]
    free = entry.free_seats
    status = f"Waiting for {free} more player{'s' if free != 1 else ''}."
    return {
        "status_line": status,
        "private_note": "",
        "hand": [],
        "table_notes": [],
        "seats": seats,
        "clocks": [],
        "can_act": False,
        "legal_moves": [],
        "draw_offer": None,
        "result": None,
        "history": [],
        "history_hidden": 0,
        "view": None,
        "board_text": "",
    }


def _seat_view(info: selectors.SeatInfo, players: dict[str, schemas.SeatOut]) -> schemas.SeatView:
    player = players.get(info.colour)
    return schemas.SeatView(
        colour=info.colour,
        name=info.name,
        username=player.username if player else "",
        resigned=info.resigned,
        bot=player.bot if player else "",
        facts=list(info.facts),
        note=info.note,
        you=info.is_viewer,
        to_move=info.to_move,
    )


def _clock(clock: Any) -> schemas.Clock:
    return schemas.Clock(colour=clock.colour, deadline=clock.deadline, away_until=clock.away_until)


def _draw_offer(offer: selectors.DrawOffer | None) -> schemas.DrawOfferOut | None:
    if offer is None:
        return None
    return schemas.DrawOfferOut(
        proposed_by=offer.proposed_by,
        accepted_by=offer.accepted_by,
        waiting_for=offer.waiting_for,
        you_may_answer=offer.viewer_may_answer,
    )


def _result(outcome: selectors.Outcome | None) -> schemas.ResultOut | None:
    if outcome is None:
        return None
    winners = [schemas.Winner(colour=colour, name=name) for colour, name in outcome.winners]
    return schemas.ResultOut(winners=winners, reason=outcome.reason)


def _history_item(item: selectors.HistoryEntry) -> schemas.HistoryItem:
    return schemas.HistoryItem(
        kind=cast(schemas.HistoryKind, item.kind),
        colour=item.colour,
        name=item.name,
        text=item.text,
        words=item.words,
        ply=item.ply,
        at=item.at,
        dice=throws_out(item.dice),
    )


def throws_out(throws: list[Throw]) -> list[schemas.Throw]:
    """Stored throws (Move.dice, Game.opening_dice) as the API gives them: the same fields."""
    return [schemas.Throw(seat=throw["seat"], dice=dice_out(throw["dice"])) for throw in throws]


def dice_out(dice: Iterable[ThrownDie]) -> list[schemas.Die]:
    return [schemas.Die(face=die["face"], title=die["title"], colour=die["colour"]) for die in dice]


def archived_game(row: ArchivedGame) -> schemas.ArchivedGameOut:
    players = [
        schemas.ArchivedSeat(
            colour=player.colour,
            name=display_name_of(player.user),
            username=player.user.get_username(),
            outcome=cast(schemas.Outcome, player.outcome),
            resigned=player.resigned,
        )
        for player in row.players.all()
    ]
    return schemas.ArchivedGameOut(
        id=row.game_id,
        game=row.game_type,
        name=f"{row.game_name} #{row.game_id}",
        options=row.options,
        options_text=row.options_text,
        players=players,
        winners=[colour for colour in row.winner_colour.split(",") if colour],
        reason=row.reason,
        plies=row.plies,
        is_private=row.is_private,
        started_at=row.started_at,
        finished_at=row.finished_at,
    )


def game_events(game: Game, moves: list[selectors.PlyEvents]) -> schemas.GameEvents:
    """Each move's events as the selector read them for this caller: nothing here sees more."""
    return schemas.GameEvents(
        game=game.pk,
        next=game.ply,
        revealed=game.status == Game.Status.FINISHED,
        moves=[
            schemas.MoveEvents(
                ply=move.ply,
                colour=move.colour,
                events=[
                    schemas.GameEvent(kind=e.kind, text=e.text, seat=e.seat, data=e.data, dice=dice_out(e.dice))
                    for e in move.events
                ],
            )
            for move in moves
        ],
    )
