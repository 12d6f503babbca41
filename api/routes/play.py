"""Playing one game: its legal moves, a move with the ply the client saw, resigning, draws, chat."""

from __future__ import annotations

from typing import cast

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from ninja import Router, Status

from api import schemas
from api.access import visible_game
from api.auth import PLAY, READ, caller
from api.errors import ApiError, play_refusal, refusal_text
from api.schemas import FAILURES
from games import selectors, services
from games.models import Commitment, Game, Move
from games.selectors.page import legal_groups
from games.services import NotAPlayer, PlayError

router = Router(tags=["play"])


@router.get("/games/{game_id}/moves", response={200: schemas.LegalMoves, **FAILURES}, auth=READ)
def legal_moves(request: HttpRequest, game_id: int) -> schemas.LegalMoves:
    """Every move you may make now, grouped as the game page lists them (needs the read scope).
    Empty when it is not your move."""
    entry = visible_game(game_id, caller(request))
    game, seat = entry.game, entry.my_seat
    groups: list[selectors.MoveGroup] = []
    mine = False
    if game.status == Game.Status.ACTIVE and seat is not None and not seat.resigned:
        state = selectors.state_of(game)
        # not once its own sealed choice is in, even where the game keeps that from the others
        mine = seat.colour in selectors.seat_view(game, state, seat.colour)["movers"]
        groups = legal_groups(game, state, seat.colour) if mine else []
    return schemas.LegalMoves(
        game=game.pk,
        ply=game.ply,
        your_turn=mine,
        moves=[move for group in groups for move in group.moves],
        groups=[schemas.MoveGroupOut(kind=g.kind, label=g.label, moves=g.moves) for g in groups],
    )


@router.post("/games/{game_id}/moves", response={200: schemas.PlayedMove, **FAILURES}, auth=PLAY)
def move_submit(request: HttpRequest, game_id: int, body: schemas.MoveIn) -> schemas.PlayedMove:
    """Make a move in answer to the position at `ply` (needs the play scope).

    409 stale_ply when the game moved on since; 400 illegal_move with the rules' reason. Sending the
    same move again for the same ply returns the move already made instead of an error."""
    user = caller(request)
    entry = visible_game(game_id, user)
    colour = entry.my_seat.colour if entry.my_seat else None
    try:
        row = services.move_submit(game=entry.game, user=user, text=body.move, seen_ply=body.ply)
    except PlayError as error:
        raise play_refusal(error, entry.game, colour, sent_ply=body.ply) from None
    return _played(row, game_id)


@router.post("/games/{game_id}/resign", response={200: schemas.PlayedMove, **FAILURES}, auth=PLAY)
def resign(request: HttpRequest, game_id: int) -> schemas.PlayedMove:
    """Leave the game, at any time (needs the play scope)."""
    user = caller(request)
    entry = visible_game(game_id, user)
    try:
        row = services.player_resign(game=entry.game, user=user)
    except PlayError as error:
        raise play_refusal(error, entry.game, None) from None
    return _played(row, game_id)


def _played(row: Move | Commitment, game_id: int) -> schemas.PlayedMove:
    game = Game.objects.get(pk=game_id)
    to_move = [colour for colour in game.to_move.split(",") if colour] if game.status == Game.Status.ACTIVE else []
    return schemas.PlayedMove(
        game=game.pk,
        ply=row.ply,
        colour=row.seat.colour,
        move=row.notation,
        game_ply=game.ply,
        status=game.status,
        to_move=to_move,
        your_turn=row.seat.colour in to_move and not row.seat.resigned,
    )


DRAW_ACTIONS = {"propose": services.draw_propose, "accept": services.draw_accept, "decline": services.draw_decline}


@router.post("/games/{game_id}/draw", response={200: schemas.DrawOut, **FAILURES}, auth=PLAY)
def draw(request: HttpRequest, game_id: int, body: schemas.DrawIn) -> schemas.DrawOut:
    """Propose a draw, or accept or decline the open offer (needs the play scope). The game ends drawn
    when every remaining player has accepted."""
    user = caller(request)
    entry = visible_game(game_id, user)
    try:
        proposal = DRAW_ACTIONS[body.action](game=entry.game, user=user)
    except PlayError as error:
        raise play_refusal(error, entry.game, None) from None
    status = Game.objects.values_list("status", flat=True).get(pk=game_id)
    return schemas.DrawOut(game=game_id, status=cast(schemas.DrawStatus, proposal.status), game_status=status)


@router.post("/games/{game_id}/chat", response={201: schemas.ChatOut, **FAILURES}, auth=PLAY)
def chat(request: HttpRequest, game_id: int, body: schemas.ChatIn) -> Status[schemas.ChatOut]:
    """Say something at the table; players and spectators read it in the history (needs the play scope)."""
    user = caller(request)
    entry = visible_game(game_id, user)
    try:
        line = services.chat_post(game=entry.game, user=user, text=body.text)
    except NotAPlayer as error:
        raise ApiError("not_a_player", error.reason) from None
    except ValidationError as error:
        raise ApiError("invalid_request", refusal_text(error)) from None
    return Status(
        201,
        schemas.ChatOut(
            game=game_id, colour=line.seat.colour, text=line.text, after_ply=line.after_ply, at=line.created_at
        ),
    )
