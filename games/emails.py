"""Emails the lobby sends, and the signed links inside them.

An invitation link carries the invitation's id signed with the site's secret key (django.core.signing):
nobody can forge one for another invitation, and it expires after INVITATION_LINK_MAX_AGE.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.selectors import display_name_of
from games.models import Game, Invitation

logger = logging.getLogger(__name__)

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


def send_invitation(invitation_id: int) -> None:
    """Email one invitation. Runs after commit; re-reads the row because the world may have moved on."""
    invitation = Invitation.objects.select_related("game", "invited_by", "user").filter(pk=invitation_id).first()
    if invitation is None or invitation.accepted_at or invitation.declined_at:
        return
    if invitation.game.status != Game.Status.OPEN:
        return  # the game filled up (or ended) before we got here: nothing to join any more
    recipient = invitation.email or (invitation.user.email if invitation.user else "")
    if not recipient:
        logger.info("invitation %s: the invitee has no email address; it shows on their dashboard", invitation_id)
        return
    _send(invitation, recipient)


def _send(invitation: Invitation, recipient: str) -> None:
    game = invitation.game
    context = {
        "inviter": display_name_of(invitation.invited_by),
        "game": game,
        "seats_taken": game.seats.count(),
        "url": invitation_url(invitation.pk),
        "has_account": invitation.user_id is not None,
        "max_age_days": INVITATION_LINK_MAX_AGE.days,
        "site_url": settings.SITE_URL,
    }
    subject = f"{context['inviter']} invites you to a game of Zark City"
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("emails/invitation.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[recipient],
    )
    message.attach_alternative(render_to_string("emails/invitation.html", context), "text/html")
    message.send()
