"""One reply, decided: ignore it, answer it, or make the move it carries through games.services (the
same move_submit / player_resign as a web move). Runs in one transaction with the claim on the row, so a
message is handled exactly once even if two workers get it; the answer is sent after commit (its task
is queued by replies.tasks.handle, which calls this module: so this module queues no task).

What each outcome does (docs/email-moves.md):
- robots (auto-replies, bounces, lists), mail to no reply address of ours, anything past a rate
  limit: nothing, no answer;
- a reply address we never gave, a sender who is not the seat's player: one explanation, no game detail;
- a used address, a turn that has passed, reply-to-play turned off, a refused move: one explanation,
  the game unchanged;
- help, moves, board: the answer; resign: asks for a confirming reply to a resign address;
- a move: made; then the second line if the same seat must decide again at once; a confirmation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.selectors import display_name_of
from engine.errors import shown
from games import services as games
from games.models import Game, Seat
from zarkcity_site.ratelimit import hit

from . import addresses, selectors
from .answers import Answer, legal_moves, with_board, with_help, with_moves
from .loops import why_robot
from .models import InboundMessage, ReplyToken
from .reading import ReplyText, header_recipients, read_reply, sender_of, subject_of
from .services import token_for

log = logging.getLogger(__name__)
COMMANDS = ("help", "moves", "board")
CONFIRM_WORDS = {"yes", "confirm", "y"}
QUOTED = 60  # characters of a refused line quoted back: enough for any move, not a whole paragraph


class Outcome(StrEnum):
    MOVED = "moved"
    REFUSED = "refused"
    COMMAND = "command"
    NO_MOVE = "no move found"
    RESIGN_ASKED = "resign asked"
    RESIGNED = "resigned"
    NOT_RESIGNED = "not resigned"
    STALE = "turn passed"
    USED = "address used"
    WRONG_SENDER = "wrong sender"
    UNKNOWN_ADDRESS = "unknown address"
    TURNED_OFF = "turned off"
    ROBOT = "auto-reply"  # never answered
    NOT_FOR_US = "not a reply address"  # never answered
    RATE_LIMITED = "rate limited"  # never answered
    UNREADABLE = "unreadable"  # nested too deep, a NUL in a header: the player is told
    ERROR = "error"  # a bug: logged, never answered


@dataclass
class Decision:
    outcome: Outcome
    note: str = ""
    answer: Answer | None = None
    token: ReplyToken | None = None


@dataclass
class Reply:
    """What one handler call works with: the message's sender, subject, Message-ID and the player's lines."""

    sender: str
    subject: str
    message_id: str
    text: ReplyText

    def answer(self, paragraphs: list[str], *, subject: str = "") -> Answer:
        subject = subject or self.subject or "your reply"
        subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        return Answer(to=self.sender, subject=subject[:200], paragraphs=paragraphs, in_reply_to=self.message_id)


def handle(inbound_id: int) -> Decision | None:
    """Decide one stored message, once; None if another worker has it or it was already handled. An
    answer the decision holds is stored with the row (pending); replies.tasks.handle queues it."""
    with transaction.atomic():
        claimed = InboundMessage.objects.filter(pk=inbound_id, status=InboundMessage.Status.QUEUED).update(
            status=InboundMessage.Status.DONE, handled_at=timezone.now()
        )
        if not claimed:
            return None
        row = InboundMessage.objects.get(pk=inbound_id)
        try:
            with transaction.atomic():  # a savepoint: a failure inside leaves the claim to record it
                decision = decide(row)
        except Exception as error:  # a bug must not bring the message back for ever: record it, answer nothing
            log.exception("inbound message %s could not be handled", inbound_id)
            decision = Decision(Outcome.ERROR, repr(error))
        answer = decision.answer.stored() if decision.answer else None
        InboundMessage.objects.filter(pk=row.pk).update(
            outcome=decision.outcome.value,
            note=decision.note[:2000],
            token=decision.token,
            answer=answer,
            answer_status=InboundMessage.Answer.PENDING if answer else InboundMessage.Answer.NONE,
        )
    log.info("inbound message %s from %s: %s (%s)", row.pk, row.sender, decision.outcome, decision.note)
    return decision


def decide(row: InboundMessage) -> Decision:
    message, text, flaw = read_reply(bytes(row.raw))
    robot = why_robot(message)
    if robot:
        return Decision(Outcome.ROBOT, robot)
    # One line without NUL: it goes in a header of the answer, and in a text column.
    message_id = " ".join(str(message.get("Message-ID", "")).replace("\x00", "").split())[:250]
    reply = Reply(sender_of(message), " ".join(subject_of(message).split()), message_id, text)
    recipients = row.recipients.split() or header_recipients(message)
    token_text = addresses.token_in(recipients)
    if token_text is None or "@" not in reply.sender or addresses.is_ours(reply.sender):
        return Decision(Outcome.NOT_FOR_US, f"to {', '.join(recipients)[:200]}")
    if not hit("reply_sender", reply.sender) or (token_text and not hit("reply_token", token_text)):
        return Decision(Outcome.RATE_LIMITED, f"{reply.sender} / {token_text}")
    token = selectors.token_get(token_text) if token_text else None
    if token is None:
        return Decision(Outcome.UNKNOWN_ADDRESS, token_text, reply.answer([UNKNOWN]))
    if reply.sender not in selectors.addresses_of(token.seat.user):
        return Decision(Outcome.WRONG_SENDER, reply.sender, reply.answer([WRONG_SENDER]), token)
    if flaw:
        answer = reply.answer([f"Nothing was played: {flaw}. Reply to your turn email again, in plain text."])
        return Decision(Outcome.UNREADABLE, flaw, answer, token)
    return _for_seat(reply, token)


UNKNOWN = (
    "This address does not take your reply: it is not a reply address zarkcity gave out. Reply to the "
    "latest turn email of your game instead, or play on the site."
)
WRONG_SENDER = (
    "Nothing was played: this reply address belongs to another player's turn email, or you wrote from "
    "an address that is not your zarkcity account's. Reply from the address your turn emails go to."
)


def _for_seat(reply: Reply, token: ReplyToken) -> Decision:
    game, seat = token.game, token.seat
    if not selectors.reply_enabled(seat.user):
        answer = reply.answer(["Nothing was played: you turned moves by email off in your notification settings."])
        return Decision(Outcome.TURNED_OFF, "", _at_table(answer, game, seat), token)
    if token.used_at is not None:
        answer = reply.answer(["Nothing was played: that reply address was already used for a move."])
        return Decision(Outcome.USED, "", _at_table(answer, game, seat), token)
    if token.purpose == ReplyToken.Purpose.RESIGN:
        return _confirm_resign(reply, token)
    passed = selectors.turn_passed(token)
    if passed:
        answer = reply.answer([f"Nothing was played. {passed}"])
        return Decision(Outcome.STALE, passed, _at_table(answer, game, seat), token)
    first = reply.text.first
    if not first:
        answer = reply.answer(["We found no move in your reply: write it on the first line."])
        answer.reply_to = addresses.address(token.token)
        return Decision(Outcome.NO_MOVE, "", with_moves(with_help(answer, game), game, seat), token)
    command = first.lower().strip(" .!?")
    if command in COMMANDS:
        return _command(reply, token, command)
    if _is_resign(game, first):
        return _ask_resign(reply, token)
    return _move(reply, token)


def _is_resign(game: Game, line: str) -> bool:
    try:
        return game.rules.is_resign(game.rules.parse(line))
    except ValueError:  # NotationError, or any other complaint of the game's parser: not a resignation
        return False


def _command(reply: Reply, token: ReplyToken, command: str) -> Decision:
    game, seat = token.game, token.seat
    answer = reply.answer([])
    answer.reply_to = addresses.address(token.token)  # a command does not use the address up
    if command == "help":
        with_help(answer, game)
    elif command == "moves":
        with_moves(answer, game, seat)
    else:
        with_board(answer, game, seat)
    return Decision(Outcome.COMMAND, command, answer, token)


def _move(reply: Reply, token: ReplyToken) -> Decision:
    game, seat = token.game, token.seat
    first = reply.text.first
    try:
        games.move_submit(game=game, user=seat.user, text=first, seen_ply=token.ply)
    except games.PlayError as error:
        answer = reply.answer([f"Your move {shown(first, QUOTED)} was not played: {error.reason}"])
        answer.reply_to = addresses.address(token.token)  # the same address still takes the next try
        return Decision(Outcome.REFUSED, error.reason, with_moves(answer, game, seat, like=first), token)
    ReplyToken.objects.filter(pk=token.pk).update(used_at=timezone.now())
    game.refresh_from_db()
    played = [f"Played: {first}."]
    second = reply.text.second
    if second and selectors.is_mover(game, seat):  # the game asks the same player again at once (a discard)
        played += _second(game, seat, second)
    game.refresh_from_db()
    answer = _at_table(reply.answer(played), game, seat)
    if not answer.reply_to and game.status == Game.Status.ACTIVE:
        answer.paragraphs.append(f"Next to move: {_names(game, game.to_move.split(','))}.")
    if answer.reply_to:
        answer.paragraphs.append("It is still your move: reply to this email with it.")
        with_moves(answer, game, seat)
    return Decision(Outcome.MOVED, first, answer, token)


def _second(game: Game, seat: Seat, line: str) -> list[str]:
    try:
        games.move_submit(game=game, user=seat.user, text=line, seen_ply=game.ply)
    except games.PlayError as error:
        return [f"Your second line {shown(line, QUOTED)} was not played: {error.reason}"]
    return [f"Played: {line}."]


def _ask_resign(reply: Reply, token: ReplyToken) -> Decision:
    game, seat = token.game, token.seat
    confirm = token_for(seat=seat, ply=game.ply, purpose=ReplyToken.Purpose.RESIGN)
    hours = settings.REPLIES_RESIGN_CONFIRM_HOURS
    answer = reply.answer(
        [
            f"Do you really want to leave {game.rules.info.name} #{game.pk}? Resigning cannot be undone.",
            f"To resign, reply to this email with the word resign (within {hours} hours). "
            "Anything else, or no reply, keeps you in the game.",
        ]
    )
    answer.reply_to = addresses.address(confirm.token)
    return Decision(Outcome.RESIGN_ASKED, "", answer, token)


def _confirm_resign(reply: Reply, token: ReplyToken) -> Decision:
    game, seat = token.game, token.seat
    first = reply.text.first.lower().strip(" .!")
    too_old = timezone.now() - token.created_at > timedelta(hours=settings.REPLIES_RESIGN_CONFIRM_HOURS)
    if game.status != Game.Status.ACTIVE or seat.resigned or too_old:
        why = "That confirmation has expired." if too_old else "This game is over or you already left it."
        answer = reply.answer([f"Nothing was done. {why}"])
        return Decision(Outcome.STALE, why, _at_table(answer, game, seat), token)
    if first not in CONFIRM_WORDS and not _is_resign(game, first):
        answer = reply.answer(["You did not resign: you are still in the game."])
        return Decision(Outcome.NOT_RESIGNED, first[:100], _at_table(answer, game, seat), token)
    try:
        games.player_resign(game=game, user=seat.user)
    except games.PlayError as error:
        return Decision(Outcome.STALE, error.reason, reply.answer([f"Nothing was done: {error.reason}"]), token)
    ReplyToken.objects.filter(pk=token.pk).update(used_at=timezone.now())
    game.refresh_from_db()
    answer = _at_table(reply.answer(["You resigned: you have left the game."]), game, seat)
    return Decision(Outcome.RESIGNED, "", answer, token)


def _at_table(answer: Answer, game: Game, seat: Seat) -> Answer:
    """The position as the seat sees it now, and a fresh reply address if it is their move."""
    game.refresh_from_db()
    seat.refresh_from_db()
    with_board(answer, game, seat)
    if selectors.is_mover(game, seat) and selectors.reply_enabled(seat.user) and legal_moves(game, seat):
        answer.reply_to = addresses.address(token_for(seat=seat, ply=game.ply).token)
    return answer


def _names(game: Game, colours: list[str]) -> str:
    seats = game.seats.select_related("user").filter(colour__in=colours).order_by("order")
    return ", ".join(f"{s.colour} ({display_name_of(s.user)})" for s in seats)
