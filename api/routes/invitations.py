"""Invitations addressed to me: list, accept (take the seat), decline."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from ninja import Router

from api import present, schemas
from api.access import invitation_to
from api.auth import PLAY, READ, caller
from api.errors import ApiError, refusal_text
from api.schemas import FAILURES
from games import selectors, services

router = Router(tags=["invitations"])


@router.get("/invitations", response={200: list[schemas.InvitationOut], **FAILURES}, auth=READ)
def invitations(request: HttpRequest) -> list[schemas.InvitationOut]:
    """Invitations waiting for your answer, newest first (needs the read scope)."""
    user = caller(request)
    return [
        present.invitation_out(invitation, selectors.lobby_game(game_id=invitation.game_id, user=user))
        for invitation in selectors.pending_invitations_for(user=user)
    ]


@router.post("/invitations/{invitation_id}/accept", response={200: schemas.GameSummary, **FAILURES}, auth=PLAY)
def accept(request: HttpRequest, invitation_id: int) -> schemas.GameSummary:
    """Take a seat through the invitation; the last seat starts the game (needs the play scope)."""
    user = caller(request)
    invitation = invitation_to(invitation_id, user)
    try:
        services.invitation_accept(invitation=invitation, user=user)
    except ValidationError as error:
        raise ApiError("refused", refusal_text(error)) from None
    return present.game_summary(selectors.lobby_game(game_id=invitation.game_id, user=user))


@router.post("/invitations/{invitation_id}/decline", response={200: schemas.InvitationOut, **FAILURES}, auth=PLAY)
def decline(request: HttpRequest, invitation_id: int) -> schemas.InvitationOut:
    """Say no to the invitation (needs the play scope)."""
    user = caller(request)
    invitation = invitation_to(invitation_id, user)
    try:
        services.invitation_decline(invitation=invitation, user=user)
    except ValidationError as error:
        raise ApiError("refused", refusal_text(error)) from None
    return present.invitation_out(invitation, selectors.lobby_game(game_id=invitation.game_id, user=user))
