"""Invitations to a waiting game: by username or by email address, and declined (accepting one is
taking a seat: games.services.lobby.invitation_accept)."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from accounts.selectors import bot_of
from games import events
from games.models import Game, Invitation

from .core import lock


def invitation_create(*, game: Game, invited_by: User, username: str = "", email: str = "") -> Invitation:
    """Invite a user by username, or anyone by email address. The email is an outbox row written in
    this transaction; a worker sends it after commit (retried, never inside this request)."""
    username, email = username.strip(), email.strip().lower()
    if bool(username) == bool(email):
        raise ValidationError("Invite either a username or an email address.")
    with transaction.atomic():
        game = lock(game)
        if game.status != Game.Status.OPEN:
            raise ValidationError("Only a game that is still waiting for players takes invitations.")
        if not game.seats.filter(user=invited_by).exists():
            raise ValidationError("Only a player seated in this game can invite others to it.")
        invitation = _new_invitation(game, invited_by, username, email)
    return invitation


def _new_invitation(game: Game, invited_by: User, username: str, email: str) -> Invitation:
    invitee = None
    if username:
        invitee = get_user_model().objects.filter(username__iexact=username).first()
        if invitee is None:
            raise ValidationError(f"There is no player called {username!r}.")
        if bot_of(invitee):  # a bot reads no invitation: the game's creator seats it
            raise ValidationError(f"{invitee.get_username()} is a bot: the game's creator can add it to a free seat.")
        if game.seats.filter(user=invitee).exists():
            raise ValidationError(f"{invitee.get_username()} already has a seat in this game.")
    else:
        _check_email(email)
    duplicate = game.invitations.filter(user=invitee) if invitee else game.invitations.filter(email=email)
    if duplicate.exists():
        raise ValidationError(f"{username or email} has already been invited to this game.")
    invitation = Invitation.objects.create(game=game, invited_by=invited_by, user=invitee, email=email)
    events.publish(events.InvitationSent(invitation=invitation))
    return invitation


def _check_email(email: str) -> None:
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError(f"{email!r} is not an email address.") from None


def invitation_decline(*, invitation: Invitation, user: User) -> None:
    check_invitee(invitation, user)
    if invitation.accepted_at is not None:
        raise ValidationError("You already accepted this invitation.")
    invitation.declined_at = timezone.now()
    invitation.save(update_fields=["declined_at"])


def check_invitee(invitation: Invitation, user: User) -> None:
    """A ValidationError unless the invitation names this user or one of their verified addresses."""
    if invitation.user_id == user.pk:
        return
    if invitation.email and invitation.email.lower() in verified_emails(user):
        return
    raise ValidationError("This invitation is addressed to someone else.")


def usable_invitation(game: Game, user: User) -> Invitation | None:
    """An invitation not declined, to this user by name or to one of their verified addresses."""
    emails = verified_emails(user)
    for invitation in game.invitations.filter(declined_at__isnull=True):
        if invitation.user_id == user.pk or (invitation.email and invitation.email.lower() in emails):
            return invitation
    return None


def verified_emails(user: User) -> set[str]:
    addresses = EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)
    return {address.lower() for address in addresses}
