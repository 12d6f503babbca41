"""The outbox (one row per email that should go out) and each player's email preferences and days away."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class Notification(models.Model):
    """One email owed to one person. Written in the same transaction as the move (or invitation) that caused it.

    The unique constraint is what makes "never twice" hold: a second sweep, a retried request or a
    redelivered task finds the row already there instead of writing another email.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "your turn"
        GAME_STARTED = "game_started", "game started"
        GAME_OVER = "game_over", "game over"
        DRAW_PROPOSED = "draw_proposed", "draw proposed"
        DRAW_DECLINED = "draw_declined", "draw declined"
        PLAYER_RESIGNED = "player_resigned", "player resigned"
        TIMED_OUT = "timed_out", "player timed out"
        REMINDER_50 = "reminder_50", "reminder: half the time used"
        REMINDER_80 = "reminder_80", "reminder: 80% of the time used"
        DIGEST = "digest", "daily digest"
        INVITATION = "invitation", "invitation to a game"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"  # written, waiting for a worker (or for quiet hours / a retry to pass)
        SENDING = "sending", "sending"  # claimed by a worker
        SENT = "sent", "sent"
        FAILED = "failed", "failed"  # gave up after the last retry: operators look at last_error
        SKIPPED = "skipped", "skipped"  # no longer wanted when a worker looked (the turn passed, preferences)

    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    ply = models.PositiveIntegerField(default=0)  # the game's ply when the row was written
    # None only for an invitation to an address that is nobody's account: the email goes to invitation.email.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    invitation = models.ForeignKey(
        "games.Invitation", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    actor = models.CharField(max_length=10, blank=True)  # the colour who moved, resigned or proposed
    digest_date = models.DateField(null=True, blank=True)  # the recipient's local date, for digests
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    skip_reason = models.CharField(max_length=100, blank=True)
    send_after = models.DateTimeField(null=True, blank=True)  # quiet hours or SMTP backoff: not before this
    created_at = models.DateTimeField(default=timezone.now)
    queued_at = models.DateTimeField(null=True, blank=True)  # last handed to the broker
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    message_id = models.CharField(max_length=200, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)  # the Web Push went (once: notifications.push)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "ply", "recipient", "kind"],
                condition=Q(game__isnull=False),
                name="notification_once_per_game_ply_kind",
            ),
            models.UniqueConstraint(
                fields=["recipient", "digest_date"], condition=Q(kind="digest"), name="notification_one_digest_a_day"
            ),
            models.UniqueConstraint(
                fields=["invitation"], condition=Q(invitation__isnull=False), name="notification_once_per_invitation"
            ),
            # An invitation row names its invitation (and a recipient if the invitee is a user); every
            # other row names a user and no invitation.
            models.CheckConstraint(
                condition=Q(kind="invitation", invitation__isnull=False)
                | (~Q(kind="invitation") & Q(recipient__isnull=False, invitation__isnull=True)),
                name="notification_addressed",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "queued_at"], name="notification_outbox"),
            # The outbox sweep's pending rows, in two parts so that it never reads the ones held for later
            # (quiet hours, SMTP backoff: as many as the games in progress make them) before their time:
            # those not held (in flight to a worker) and those held, by when they may go. One index of all
            # pending rows is not enough: PostgreSQL reckons "pending and not held" as every pending row
            # (it takes the two for independent) and reads them all through notification_outbox.
            models.Index(
                fields=["queued_at"], condition=Q(status="pending", send_after__isnull=True), name="notification_unheld"
            ),
            models.Index(
                fields=["send_after"], condition=Q(status="pending", send_after__isnull=False), name="notification_held"
            ),
        ]

    def __str__(self) -> str:
        where = f"#{self.game_id} ply {self.ply}" if self.game_id else str(self.digest_date)
        whom = self.recipient or (self.invitation.email if self.invitation else "nobody")
        return f"{self.get_kind_display()} for {whom} ({where}): {self.status}"


# The turn's own emails: a player's move answers them (the worker skips them: "they already moved").
TURN_KINDS = frozenset({Notification.Kind.YOUR_TURN, Notification.Kind.REMINDER_50, Notification.Kind.REMINDER_80})
# The emails that ask for a move: held while their recipient watches the game (notifications.watching).
ASKING_KINDS = TURN_KINDS | {Notification.Kind.GAME_STARTED}


class Preference(models.Model):
    """How a player wants to hear from us. A user without a row gets the defaults below."""

    class Mode(models.TextChoices):
        EVERY_TURN = "every_turn", "an email every time it is my turn"
        DIGEST = "digest", "one email a day listing the games waiting for me"
        NONE = "none", "no email at all"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    mode = models.CharField(max_length=12, choices=Mode.choices, default=Mode.EVERY_TURN)
    quiet_from = models.TimeField(null=True, blank=True)  # local time; the window may wrap past midnight
    quiet_until = models.TimeField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    unsubscribed_at = models.DateTimeField(null=True, blank=True)  # set by an unsubscribe link, for operators
    updated_at = models.DateTimeField(auto_now=True)
    # A digest reader's next digest hour (their time), when the sweep looks at them; null for the others.
    next_digest_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["next_digest_at", "id"], condition=Q(next_digest_at__isnull=False), name="preference_digest_due"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_mode_display()}"


class Away(models.Model):
    """Days a player is away (their time zone, both days included): their clocks stop meanwhile."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="away_periods")
    first_day = models.DateField()
    last_day = models.DateField()
    # The clock stops from the later of the first day's midnight and the moment the days were added (no
    # winning back time already used), until the end of the last day or an earlier "I'm back".
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "first_day"]
        verbose_name_plural = "days away"
        constraints = [
            models.CheckConstraint(condition=Q(last_day__gte=F("first_day")), name="away_ends_after_it_starts")
        ]

    def __str__(self) -> str:
        return f"{self.user} away {self.first_day} to {self.last_day}"


class PlayLinkUse(models.Model):
    """A play link (notifications.tokens) that has signed someone in: each link does so once.

    The nonce is unique, so of two requests racing with the same link exactly one signs in.
    """

    nonce = models.CharField(max_length=32, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    used_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"play link {self.nonce} of {self.user} for #{self.game_id}, used {self.used_at:%Y-%m-%d %H:%M}"


class PlayerGame(models.Model):
    """One row per player and game, at most: what a player says about one game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")

    class Meta:
        abstract = True
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="%(class)s_once_per_player_and_game")]


class Mute(PlayerGame):
    """A player's "no more email about this game" (the game page's button, or the link in its emails).

    The worker skips every email of a muted game but the one that tells how it ended (delivery.why_not).
    """

    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user} muted #{self.game_id}"


class Watch(PlayerGame):
    """A player has this game open in a visible browser tab: the page's poll says so (seen_at), a tab
    that goes hidden or away says so too (the row goes). Their turn email waits a few minutes meanwhile
    (delivery.watched_hold)."""

    seen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user} watching #{self.game_id} at {self.seen_at:%H:%M:%S}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the settings page's opt-in): where to POST, and its keys.

    The endpoint is a capability URL of the browser's push service; a push service that answers 404 or
    410 has dropped it, and the row goes (notifications.push)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's public key (base64url), to encrypt for it
    auth = models.CharField(max_length=64)  # the browser's auth secret (base64url)
    browser = models.CharField(max_length=100, blank=True)  # "Chrome on Linux", for the settings list
    created_at = models.DateTimeField(default=timezone.now)
    last_pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user}'s {self.browser or 'browser'} ({self.created_at:%Y-%m-%d})"
