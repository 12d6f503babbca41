"""Draw offers: propose, accept (the last acceptance ends the game with no winner), decline. A bot at
the table declines every offer at once: it plays each game to its end."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import events
from games.models import DrawProposal, Game, Seat

from .bots import bot_seats
from .core import acting_seat, lock, save_position, state_of
from .errors import PlayError

ALREADY_PROPOSED = "A draw has already been proposed: accept or decline it."


def draw_propose(*, game: Game, user: User) -> DrawProposal:
    """Offer to end the game as a draw; the proposer counts as accepting."""
    with transaction.atomic():
        game = lock(game)
        seat = acting_seat(game, user)
        if game.draw_proposals.filter(status=DrawProposal.Status.OPEN).exists():
            raise PlayError(ALREADY_PROPOSED)
        try:
            with transaction.atomic():
                proposal = DrawProposal.objects.create(game=game, proposed_by=seat, at_ply=game.ply)
        except IntegrityError:  # another request proposed first (the one-open-offer constraint)
            raise PlayError(ALREADY_PROPOSED) from None
        proposal.accepted_by.add(seat)
        bot = bot_seats(game).exclude(pk=seat.pk).first()
        if bot is not None:
            # Settled before anyone heard of it, so nobody is told: the proposer sees it on the page.
            _decline(proposal, bot)
            return proposal
        events.publish(events.DrawProposed(game=game, proposal=proposal))
    return proposal


def draw_accept(*, game: Game, user: User) -> DrawProposal:
    """Agree to the open proposal; when every remaining player has agreed, the game ends drawn."""
    with transaction.atomic():
        game = lock(game)
        seat = acting_seat(game, user)
        proposal = _open_proposal(game)
        proposal.accepted_by.add(seat)
        remaining = set(game.seats.filter(resigned=False).values_list("pk", flat=True))
        if remaining <= set(proposal.accepted_by.values_list("pk", flat=True)):
            _agree_draw(game, proposal, seat)
    return proposal


def draw_decline(*, game: Game, user: User) -> DrawProposal:
    with transaction.atomic():
        game = lock(game)
        seat = acting_seat(game, user)
        proposal = _open_proposal(game)
        _decline(proposal, seat)
        events.publish(events.DrawDeclined(game=game, proposal=proposal, by=seat))
    return proposal


def _open_proposal(game: Game) -> DrawProposal:
    proposal = game.draw_proposals.filter(status=DrawProposal.Status.OPEN).first()
    if proposal is None:
        raise PlayError("There is no draw proposal to answer.")
    return proposal


def _decline(proposal: DrawProposal, seat: Seat) -> None:
    proposal.status = DrawProposal.Status.DECLINED
    proposal.decided_by, proposal.decided_at = seat, timezone.now()
    proposal.save(update_fields=["status", "decided_by", "decided_at"])


def _agree_draw(game: Game, proposal: DrawProposal, seat: Seat) -> None:
    """Not a move in the record: the record's result says {"winner": null, "reason": "draw"}."""
    now = timezone.now()
    save_position(game, game.rules.agree_draw(state_of(game)), now, new_movers=False)
    game.save()
    proposal.status = DrawProposal.Status.ACCEPTED
    proposal.decided_by, proposal.decided_at = seat, now  # the last to accept
    proposal.save(update_fields=["status", "decided_by", "decided_at"])
    events.publish(events.DrawAgreed(game=game))
