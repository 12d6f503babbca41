"""Reply addresses (a random token per seat and turn), the raw messages that came in, and who turned
reply-to-play off."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class ReplyToken(models.Model):
    """The secret in play+TOKEN@domain: whoever replies to it answers for this seat at this ply.

    It expires when the turn has passed (a move by the seat since `ply`, or the seat no longer moving)
    and is used up by the move it carried. Unique per seat, ply and purpose, so an email built twice
    (a retried send) carries the same address.
    """

    class Purpose(models.TextChoices):
        MOVE = "move", "a move"
        RESIGN = "resign", "confirm resigning"

    token = models.CharField(max_length=40, unique=True)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="reply_tokens")
    ply = models.PositiveIntegerField()  # the game's ply when the address was handed out
    purpose = models.CharField(max_length=10, choices=Purpose.choices, default=Purpose.MOVE)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "ply", "purpose"], name="reply_token_one_per_seat_ply_purpose")
        ]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} for {self.seat} at ply {self.ply}"


class InboundMessage(models.Model):
    """One message that reached us (pipe, SMTP or webhook). `message_key` (the Message-ID, else a hash of
    the bytes) is unique: the same message delivered twice is handled once."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"  # stored, waiting for a worker
        DONE = "done", "done"  # handled: `outcome` says how

    class Answer(models.TextChoices):
        NONE = "none", "no answer"  # auto-replies, rate limits, mail that is not a reply to us
        PENDING = "pending", "to send"
        SENDING = "sending", "sending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"

    message_key = models.CharField(max_length=255, unique=True)
    source = models.CharField(max_length=20)  # pipe, smtp, webhook:<provider>, devmail
    sender = models.CharField(max_length=254, blank=True)  # the From address, lower case
    recipients = models.TextField(blank=True)  # envelope recipients, one a line, when the transport said
    subject = models.CharField(max_length=200, blank=True)
    size = models.PositiveIntegerField(default=0)
    raw = models.BinaryField(blank=True)  # emptied after REPLIES_KEEP_DAYS
    received_at = models.DateTimeField(default=timezone.now, db_index=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    outcome = models.CharField(max_length=30, blank=True)  # services.Outcome
    note = models.TextField(blank=True)  # why, for operators
    token = models.ForeignKey(ReplyToken, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)
    answer = models.JSONField(null=True, blank=True)  # the email we owe: answers.Answer as a dict
    answer_status = models.CharField(max_length=10, choices=Answer.choices, default=Answer.NONE)
    answer_attempts = models.PositiveSmallIntegerField(default=0)
    answer_claimed_at = models.DateTimeField(null=True, blank=True)  # a worker started sending it
    answered_at = models.DateTimeField(null=True, blank=True)
    purged_at = models.DateTimeField(null=True, blank=True)  # raw bytes and answer deleted

    class Meta:
        ordering = ["-received_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "received_at"], name="inbound_queue"),
            # The replies sweep's answers still owed and messages not yet purged: as many as are in flight
            # or younger than REPLIES_KEEP_DAYS, where every message ever received stays a row.
            models.Index(
                fields=["answer_status"],
                condition=Q(answer_status__in=["pending", "sending"]),
                name="inbound_answer_owed",
            ),
            models.Index(fields=["received_at"], condition=Q(purged_at__isnull=True), name="inbound_unpurged"),
        ]

    def __str__(self) -> str:
        return f"{self.source} from {self.sender or '?'}: {self.outcome or self.status}"


class ReplySetting(models.Model):
    """A player's choice about reply-to-play; a user without a row has it on."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reply_setting")
    enabled = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user}: reply to play {'on' if self.enabled else 'off'}"
