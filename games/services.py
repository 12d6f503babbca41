"""Every write to a game: the lobby (create, join, invite, start) and play (moves, resign, draws, chat).

Views, forms, the email handler and the admin call these; they hold the rules of the service, the
engine holds the rules of the game. Each function is one transaction; side effects (email) are
queued with transaction.on_commit so a rolled-back write never sends anything.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from archive.services import game_archive
from engine.errors import IllegalMoveError, NotationError
from engine.shuffle import commitment
from engine.zarkcity import rules
from engine.zarkcity.describe import describe
from engine.zarkcity.notation import COLOURS, Resign, parse
from engine.zarkcity.notation import Move as EngineMove
from engine.zarkcity.position import from_position, to_position
from engine.zarkcity.state import RULES_VERSION, State

from .models import ChatMessage, DrawProposal, Game, Invitation, Move, Seat

User = get_user_model()

MIN_SEATS, MAX_SEATS = 2, 5
MIN_DAYS, MAX_DAYS = 1, 30


# ----------------------------------------------------------------------------- errors


class PlayError(ValueError):
    """An action the service refuses; the message is shown to the player as it is."""

    @property
    def reason(self) -> str:
        return str(self)


class StaleMove(PlayError):
    """The player answered a position that is no longer the current one."""


class MoveRejected(PlayError):
    """A move that cannot be read, or that the rules (or the game's state) do not allow now."""


class NotAPlayer(PlayError):
    """Someone without a (remaining) seat tried to act in the game."""


# ----------------------------------------------------------------------------- lobby


def game_create(*, creator, seats: int, deck: str, time_limit_days: int, is_private: bool) -> Game:
    """A new open game with its creator in seat 0 (red)."""
    _check_game_settings(seats=seats, deck=deck, time_limit_days=time_limit_days)
    with transaction.atomic():
        game = Game.objects.create(
            created_by=creator,
            seats_wanted=seats,
            deck=deck,
            time_limit_days=time_limit_days,
            is_private=is_private,
        )
        Seat.objects.create(game=game, user=creator, order=0, colour=COLOURS[0])
    return game


def _check_game_settings(*, seats: int, deck: str, time_limit_days: int) -> None:
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValidationError(f"A game has {MIN_SEATS} to {MAX_SEATS} players, not {seats}.")
    if deck not in Game.Deck.values:
        raise ValidationError(f"The deck must be standard or arcade, not {deck!r}.")
    if not isinstance(time_limit_days, int) or not MIN_DAYS <= time_limit_days <= MAX_DAYS:
        raise ValidationError(f"The time limit per move is {MIN_DAYS} to {MAX_DAYS} days, not {time_limit_days}.")


def game_join(*, game: Game, user) -> Seat:
    """Take the next free seat; the last seat to fill starts the game in the same transaction."""
    with transaction.atomic():
        game = _lock(game)
        _check_can_sit(game, user)
        invitation = _usable_invitation(game, user)
        if game.is_private and invitation is None:
            raise ValidationError("This is a private game: you need an invitation to join it.")
        seat = _take_seat(game, user)
        if invitation is not None:
            invitation.accepted_at = timezone.now()
            invitation.save(update_fields=["accepted_at"])
        if game.seats.count() == game.seats_wanted:
            game_start(game=game)
    return seat


def _check_can_sit(game: Game, user) -> None:
    if game.seats.filter(user=user).exists():  # first: a started game is no news to its own players
        raise ValidationError("You are already seated in this game.")
    if game.status != Game.Status.OPEN:
        raise ValidationError(
            "This game has already started." if game.status == Game.Status.ACTIVE else "This game is over."
        )
    if game.seats.count() >= game.seats_wanted:
        raise ValidationError("This game is full.")


def _take_seat(game: Game, user) -> Seat:
    taken = set(game.seats.values_list("order", flat=True))
    order = min(set(range(game.seats_wanted)) - taken)
    return Seat.objects.create(game=game, user=user, order=order, colour=COLOURS[order])


def _usable_invitation(game: Game, user) -> Invitation | None:
    """An invitation not declined, to this user by name or to one of their verified addresses."""
    emails = _verified_emails(user)
    for invitation in game.invitations.filter(declined_at__isnull=True):
        if invitation.user_id == user.pk or (invitation.email and invitation.email.lower() in emails):
            return invitation
    return None


def _verified_emails(user) -> set[str]:
    return {e.lower() for e in EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)}


def invitation_create(*, game: Game, invited_by, username: str = "", email: str = "") -> Invitation:
    """Invite a user by username, or anyone by email address. The email is an outbox row written in
    this transaction; a worker sends it after commit (retried, never inside this request)."""
    username, email = username.strip(), email.strip().lower()
    if bool(username) == bool(email):
        raise ValidationError("Invite either a username or an email address.")
    with transaction.atomic():
        game = _lock(game)
        if game.status != Game.Status.OPEN:
            raise ValidationError("Only a game that is still waiting for players takes invitations.")
        if not game.seats.filter(user=invited_by).exists():
            raise ValidationError("Only a player seated in this game can invite others to it.")
        invitation = _new_invitation(game, invited_by, username, email)
    return invitation


def _new_invitation(game: Game, invited_by, username: str, email: str) -> Invitation:
    invitee = None
    if username:
        invitee = User.objects.filter(username__iexact=username).first()
        if invitee is None:
            raise ValidationError(f"There is no player called {username!r}.")
        if game.seats.filter(user=invitee).exists():
            raise ValidationError(f"{invitee.get_username()} already has a seat in this game.")
    else:
        _check_email(email)
    duplicate = game.invitations.filter(user=invitee) if invitee else game.invitations.filter(email=email)
    if duplicate.exists():
        raise ValidationError(f"{username or email} has already been invited to this game.")
    invitation = Invitation.objects.create(game=game, invited_by=invited_by, user=invitee, email=email)
    from notifications import services as notify  # late import: the outbox is written in this transaction

    notify.notify_invitation(invitation=invitation)
    return invitation


def _check_email(email: str) -> None:
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError(f"{email!r} is not an email address.") from None


def invitation_accept(*, invitation: Invitation, user) -> Seat:
    """Take a seat through an invitation addressed to this user."""
    _check_invitee(invitation, user)
    if invitation.declined_at is not None:
        raise ValidationError("You declined this invitation.")
    return game_join(game=invitation.game, user=user)


def invitation_decline(*, invitation: Invitation, user) -> None:
    _check_invitee(invitation, user)
    if invitation.accepted_at is not None:
        raise ValidationError("You already accepted this invitation.")
    invitation.declined_at = timezone.now()
    invitation.save(update_fields=["declined_at"])


def _check_invitee(invitation: Invitation, user) -> None:
    if invitation.user_id == user.pk:
        return
    if invitation.email and invitation.email.lower() in _verified_emails(user):
        return
    raise ValidationError("This invitation is addressed to someone else.")


def game_start(*, game: Game) -> None:
    """Deal: colours in seat order, a fresh secret seed, its public commitment, the first snapshot.

    Called by game_join inside its transaction, with the game row locked.
    """
    seats = list(game.seats.order_by("order"))
    for index, seat in enumerate(seats):
        if (seat.order, seat.colour) != (index, COLOURS[index]):
            # A seat left a gap (someone left the lobby): close it so seat i is colour i.
            seat.order, seat.colour = index, COLOURS[index]
            seat.save(update_fields=["order", "colour"])
    seed = secrets.token_hex(32)
    state = rules.new_game([seat.colour for seat in seats], seed, game.deck)
    now = timezone.now()
    game.seed, game.seed_commitment, game.rules_version = seed, commitment(seed), RULES_VERSION
    game.status, game.started_at = Game.Status.ACTIVE, now
    game.snapshot = to_position(state)
    _set_clock(game, state, now, new_movers=True)
    game.save()
    from notifications import services as notify  # late import: the outbox is written in this transaction

    notify.notify_game_started(game=game)


# ----------------------------------------------------------------------------- play


def move_submit(*, game: Game, user, text: str, seen_ply: int) -> Move:
    """Validate one move against the current position and append it to the log, or raise PlayError."""
    if _is_resign(text):
        return player_resign(game=game, user=user)
    with transaction.atomic():
        game = _lock(game)
        seat = _acting_seat(game, user)
        if seen_ply != game.ply:
            raise StaleMove("The game moved on since you loaded this page: look at the new position and move again.")
        move = _parse(text)
        before = state_of(game)
        try:
            after = rules.apply(before, move, seat.colour)
        except IllegalMoveError as error:
            raise MoveRejected(str(error)) from None
        return _record(game, seat, move, before, after)


def _is_resign(text: str) -> bool:
    return text.strip().lower() == "resign"


def _parse(text: str) -> EngineMove:
    try:
        return parse(text)
    except NotationError as error:
        raise MoveRejected(f"Cannot read that move: {error}") from None


def player_resign(*, game: Game, user, reason: str = "resignation") -> Move:
    """Leave the game (any time, any phase); recorded as that seat's `resign` so replay sees it."""
    with transaction.atomic():
        game = _lock(game)
        seat = _acting_seat(game, user)
        before = state_of(game)
        after = rules.resign(before, seat.colour, reason)
        seat.resigned = True
        seat.save(update_fields=["resigned"])
        row = _record(game, seat, Resign(), before, after)
        from notifications import services as notify  # late import: the outbox is written in this transaction

        notify.notify_player_resigned(game=game, move=row, reason=reason)
        return row


def game_abandon(*, game: Game, reason: str = "timeout") -> Game:
    """End the game with no winner (everyone loses): every remaining player ran out of time at once,
    so resigning them one by one would crown whichever of them was left last (rules.md 10).
    Not a move in the record: its result says {"winner": null, "reason": "timeout"}."""
    with transaction.atomic():
        game = _lock(game)
        if game.status != Game.Status.ACTIVE:
            raise MoveRejected("Only a game in progress can end without a winner.")
        after = rules.abandon(state_of(game), reason)
        now = timezone.now()
        game.snapshot = to_position(after)
        _set_clock(game, after, now, new_movers=False)
        _finish(game, after, now)
        game.save()
        _lapse_draw_offer(game, now)
        from notifications import services as notify  # late import: the outbox is written in this transaction

        notify.notify_game_over(game=game)
    return game


def _record(game: Game, seat: Seat, move: EngineMove, before: State, after: State) -> Move:
    """Append the move, move the snapshot on, reset the clock if someone new must move, end if over."""
    now = timezone.now()
    row = Move.objects.create(
        game=game, ply=game.ply, seat=seat, notation=str(move), descriptions=_descriptions(move, seat, before, after)
    )
    game.ply += 1
    game.snapshot = to_position(after)
    _set_clock(game, after, now, new_movers=_owes_new_move(before, after))
    if after.phase == "over":
        _finish(game, after, now)
    game.save()
    # A draw was offered for a position that no longer exists.
    _lapse_draw_offer(game, now)
    from notifications import services as notify  # late import: the outbox is written in this transaction

    notify.notify_after_move(game=game, move=row, before=before, after=after)
    return row


def _lapse_draw_offer(game: Game, now: datetime) -> None:
    """The open offer, if any, lapses: settled now, by nobody."""
    DrawProposal.objects.filter(game=game, status=DrawProposal.Status.OPEN).update(
        status=DrawProposal.Status.LAPSED, decided_at=now, decided_by=None
    )


def _descriptions(move: EngineMove, seat: Seat, before: State, after: State) -> dict[str, str]:
    """The public words under "*", plus each player's own version ("you drew 9D")."""
    texts = {"*": describe(move, seat.colour, before, after, None)}
    return texts | {colour: describe(move, seat.colour, before, after, colour) for colour in before.players}


def _owes_new_move(before: State, after: State) -> bool:
    """Whether a fresh clock starts: someone new must move, or the same player faces a new step
    (placing right after choosing). The discard inside one's own turn, and the starters the others
    still have to choose, keep the clock already running."""
    if not set(rules.movers(after)) <= set(rules.movers(before)):
        return True
    return before.phase != after.phase and (before.phase, after.phase) != ("act", "discard")


def _set_clock(game: Game, state: State, now: datetime, *, new_movers: bool) -> None:
    """Public columns for lists and the deadline sweep; the clock restarts only for a new mover."""
    game.phase = state.phase
    game.to_move = ",".join(rules.movers(state))
    if state.phase == "over":
        game.deadline = None
    elif new_movers or game.deadline is None:
        game.turn_started_at = now
        game.deadline = now + timedelta(days=game.time_limit_days)


def _finish(game: Game, state: State, now: datetime) -> None:
    game.status = Game.Status.FINISHED
    game.winner = state.winner or ""
    game.result_reason = state.reason or ""
    game.finished_at = now
    game.deadline = None
    game_archive(game=game)  # the archive's summary row and rating changes, in this same transaction


def state_of(game: Game) -> State:
    """The engine state after the last move, from the cached snapshot (no replay)."""
    return from_position(game.snapshot)


def _lock(game: Game) -> Game:
    """The game row, locked until the transaction ends: another request waits here, then sees our write."""
    return Game.objects.select_for_update().get(pk=game.pk)


def _acting_seat(game: Game, user) -> Seat:
    if game.status == Game.Status.FINISHED:
        raise MoveRejected("This game is over.")
    if game.status != Game.Status.ACTIVE:
        raise MoveRejected("This game has not started yet: it is waiting for players.")
    seat = _seat_of(game, user)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if seat.resigned:
        raise NotAPlayer("You have left this game.")
    return seat


def _seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


# ----------------------------------------------------------------------------- draws


def draw_propose(*, game: Game, user) -> DrawProposal:
    """Offer to end the game as a draw; the proposer counts as accepting."""
    with transaction.atomic():
        game = _lock(game)
        seat = _acting_seat(game, user)
        if game.draw_proposals.filter(status=DrawProposal.Status.OPEN).exists():
            raise PlayError("A draw has already been proposed: accept or decline it.")
        try:
            with transaction.atomic():
                proposal = DrawProposal.objects.create(game=game, proposed_by=seat, at_ply=game.ply)
        except IntegrityError:
            raise PlayError("A draw has already been proposed: accept or decline it.") from None
        proposal.accepted_by.add(seat)
        from notifications import services as notify  # late import: the outbox is written in this transaction

        notify.notify_draw_proposed(game=game, proposal=proposal)
    return proposal


def draw_accept(*, game: Game, user) -> DrawProposal:
    """Agree to the open proposal; when every remaining player has agreed, the game ends drawn."""
    with transaction.atomic():
        game = _lock(game)
        seat = _acting_seat(game, user)
        proposal = _open_proposal(game)
        proposal.accepted_by.add(seat)
        remaining = set(game.seats.filter(resigned=False).values_list("pk", flat=True))
        if remaining <= set(proposal.accepted_by.values_list("pk", flat=True)):
            _agree_draw(game, proposal, seat)
    return proposal


def draw_decline(*, game: Game, user) -> DrawProposal:
    with transaction.atomic():
        game = _lock(game)
        seat = _acting_seat(game, user)
        proposal = _open_proposal(game)
        proposal.status = DrawProposal.Status.DECLINED
        proposal.decided_by, proposal.decided_at = seat, timezone.now()
        proposal.save(update_fields=["status", "decided_by", "decided_at"])
        from notifications import services as notify  # late import: the outbox is written in this transaction

        notify.notify_draw_declined(game=game, proposal=proposal, by=seat)
    return proposal


def _open_proposal(game: Game) -> DrawProposal:
    proposal = game.draw_proposals.filter(status=DrawProposal.Status.OPEN).first()
    if proposal is None:
        raise PlayError("There is no draw proposal to answer.")
    return proposal


def _agree_draw(game: Game, proposal: DrawProposal, seat: Seat) -> None:
    """Not a move in the record: the record's result says {"winner": null, "reason": "draw"}."""
    after = rules.agree_draw(state_of(game))
    now = timezone.now()
    game.snapshot = to_position(after)
    _set_clock(game, after, now, new_movers=False)
    _finish(game, after, now)
    game.save()
    proposal.status = DrawProposal.Status.ACCEPTED
    proposal.decided_by, proposal.decided_at = seat, now  # the last to accept
    proposal.save(update_fields=["status", "decided_by", "decided_at"])
    from notifications import services as notify  # late import: the outbox is written in this transaction

    notify.notify_game_over(game=game)


# ----------------------------------------------------------------------------- chat


def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    """A table-talk line from a player still at the table, placed in the history after the current move."""
    text = (text or "").strip()
    if not text:
        raise ValidationError("Write something before sending.")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ValidationError(f"A chat message is at most {ChatMessage.MAX_LENGTH} characters ({len(text)} given).")
    seat = _seat_of(game, user)
    if seat is None:
        raise NotAPlayer("Only the players of this game can chat at its table.")
    if seat.resigned:
        raise NotAPlayer("You resigned from this game, so you can no longer chat at its table.")
    return ChatMessage.objects.create(game=game, seat=seat, after_ply=Game.objects.get(pk=game.pk).ply, text=text)
