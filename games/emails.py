"""The lobby's invitation email and the signed link inside it (the notifications outbox sends it).

An invitation link carries the invitation's id signed with the site's secret key (django.core.signing):
nobody can forge one for another invitation, and it expires after INVITATION_LINK_MAX_AGE.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.selectors import display_name_of
from games.models import Game, Invitation

INVITATION_LINK_MAX_AGE = timedelta(days=30)
_INVITATION_SALT = "zarkcity.invitation"


def invitation_token(invitation_id: int) -> str:
    return signing.dumps(invitation_id, salt=_INVITATION_SALT, compress=False)


def invitation_id_from_token(token: str) -> int:
    """The invitation id a link names; raises signing.SignatureExpired or signing.BadSignature."""
    value = signing.loads(token, salt=_INVITATION_SALT, max_age=INVITATION_LINK_MAX_AGE)
    if not isinstance(value, int):
        raise signing.BadSignature("not an invitation link")
    return value


def invitation_url(invitation_id: int) -> str:
    return settings.SITE_URL + reverse("invitation", args=[invitation_token(invitation_id)])


def invitation_address(invitation: Invitation) -> str:
    return invitation.email or (invitation.user.email if invitation.user else "")


def invitation_unwanted(invitation: Invitation) -> str:
    """Why this invitation's email should no longer go out, or "" to send it. The notifications worker
    asks just before sending: the world may have moved on since the invitation was made."""
    if invitation.accepted_at or invitation.declined_at:
        return "the invitation was already answered"
    if invitation.game.status != Game.Status.OPEN:
        return "the game filled up or ended: nothing to join any more"
    if not invitation_address(invitation):
        return "the invitee has no email address (the invitation shows on their dashboard)"
    return ""


def invitation_message(invitation: Invitation, *, headers: dict[str, str] | None = None) -> EmailMultiAlternatives:
    """The invitation email, text and HTML, with the signed link. Built and sent by the notifications
    worker (an outbox row of kind "invitation"), never inside the request that made the invitation."""
    game = invitation.game
    context = {
        "inviter": display_name_of(invitation.invited_by),
        "game": game,
        "game_name": game.rules.info.name,
        "options_text": game.options_text,
        "seats_taken": game.seats.count(),
        "url": invitation_url(invitation.pk),
        "has_account": invitation.user_id is not None,
        "max_age_days": INVITATION_LINK_MAX_AGE.days,
        "site_url": settings.SITE_URL,
    }
    subject = f"{context['inviter']} invites you to a game of {context['game_name']}"
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("emails/invitation.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[invitation_address(invitation)],
        headers=headers,
    )
    message.attach_alternative(render_to_string("emails/invitation.html", context), "text/html")
    return message
