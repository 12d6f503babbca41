"""What the service stores. The move log plus the seed is the truth; `Game.snapshot` caches the
engine position after the last move so validating a new move costs the same at ply 10 or 1,000.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from engine import registry
from engine.interface import Game as GameRules

# The shares of a move's time at which its mover is reminded (notifications.sweep); with the deadline
# they are the instants the sweep looks at a game's clocks (Game.clock_due_at).
REMINDER_SHARES = (0.5, 0.8)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "waiting for players"
        ACTIVE = "active", "in progress"
        FINISHED = "finished", "finished"

    class Reason(models.TextChoices):
        """The reasons the service itself ends games with; a game's own (its `Result.reason`, e.g. "score")
        are its `GameInfo.reasons`, so `result_reason` takes any of them (no fixed choices)."""

        RESIGNATION = "resignation", "resignation"
        TIMEOUT = "timeout", "timeout"
        DRAW = "draw", "draw"

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    # Which game (an engine.registry id) and its options as chosen at creation, e.g. {"deck": "arcade"}.
    game = models.CharField(max_length=20, default=registry.DEFAULT, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    seats_wanted = models.PositiveSmallIntegerField(default=2)
    time_limit_days = models.PositiveSmallIntegerField(default=3)
    is_private = models.BooleanField(default=False)
    # The seed stays server-side until the game ends; its SHA-256 is public from the start.
    seed = models.CharField(max_length=64)
    seed_commitment = models.CharField(max_length=64)
    rules_version = models.CharField(max_length=20)
    ply = models.PositiveIntegerField(default=0)  # number of moves in the log
    snapshot = models.JSONField(null=True, blank=True)  # engine position after `ply` moves (secret)
    # The setup's throws (a first mover's dice), as Move.dice keeps a move's: public once thrown.
    opening_dice = models.JSONField(default=list, blank=True)
    phase = models.CharField(max_length=10, blank=True)  # engine phase, for lists and dashboards
    to_move = models.CharField(max_length=40, blank=True)  # colours who may move now, comma-separated (all 5 fit)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the sweep must next look at this game (docs/notifications.md, "The sweep"): its clocks at the
    # next reminder share or deadline (days away only push that later), a bot's lost turn to queue
    # again. Null when there is nothing to look at; the sweep reads only rows whose time has come.
    clock_due_at = models.DateTimeField(null=True, blank=True)
    bot_due_at = models.DateTimeField(null=True, blank=True)
    winner = models.CharField(max_length=40, blank=True)  # the winners' colours, comma-separated (usually one)
    result_reason = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["clock_due_at", "id"], condition=Q(clock_due_at__isnull=False), name="game_clock_due"),
            models.Index(fields=["bot_due_at", "id"], condition=Q(bot_due_at__isnull=False), name="game_bot_due"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(seats_wanted__gte=2, seats_wanted__lte=5), name="game_seats_2_to_5"),
            models.CheckConstraint(
                condition=Q(time_limit_days__gte=1, time_limit_days__lte=30), name="game_time_limit_1_to_30"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rules.info.name} #{self.pk}"

    @property
    def rules(self) -> GameRules:
        """This game's rules through the one game interface (engine/interface.py)."""
        return registry.get(self.game)

    @property
    def winners(self) -> tuple[str, ...]:
        """The colours that won (the game's Result.winners): none for a draw or a game everyone lost."""
        return tuple(colour for colour in self.winner.split(",") if colour)

    @property
    def options_text(self) -> str:
        """The chosen options in words, e.g. "Pyramid Arcade deck (5 suits)"."""
        return self.rules.info.options_text(self.options)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    colour = models.CharField(max_length=10)
    order = models.PositiveSmallIntegerField()
    resigned = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="seat_unique_order"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
            models.UniqueConstraint(fields=["game", "colour"], name="seat_unique_colour"),
        ]

    def __str__(self) -> str:
        return f"{self.colour} in {self.game}"


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()  # 0-based index in the game record
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="moves")
    notation = models.CharField(max_length=200)  # canonical engine notation
    # describe() words fixed when the move was made, so the history needs no replay: "*" is what
    # spectators and most players read; a colour key holds that player's fuller version (their own
    # draws). Secret like the snapshot: never put this in a record or an export.
    descriptions = models.JSONField(default=dict, blank=True)
    # The dice the step threw, each throw `{"seat", "dice": [{"face", "title", "colour"}]}` (engine.interface
    # `thrown`): public, since a die is seen once thrown; a throw still to come is in no step's events.
    dice = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply")]

    def __str__(self) -> str:
        return f"{self.game} ply {self.ply}: {self.notation}"


class Commitment(models.Model):
    """A seat's secret choice in a sealed step (engine/kit/core.py `Sealed`: Zark City's starter), held
    unseen until every seat in the step has committed one; then one apply resolves them all and each
    becomes a Move, in the order they arrived. Secret like the snapshot: no page, email, export or API
    shows `notation` to anyone but its seat; that a seat has committed is public (rules.md, "Starter
    commitment"). One per seat: a commitment is final."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="commitments")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="commitments")
    ply = models.PositiveIntegerField()  # the game's ply the step answered: its moves are recorded from there
    notation = models.CharField(max_length=200)  # canonical engine notation
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "pk"]  # arrival order (under the game's lock): the order the moves are recorded in
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="commitment_one_per_seat")]

    def __str__(self) -> str:
        return f"{self.seat.colour}'s sealed choice in {self.game}"


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    email = models.EmailField(blank=True)  # set when inviting someone by address
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        constraints = [
            # One invitation per person per game, however many times someone clicks "invite".
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="invitation_one_per_user"
            ),
            models.UniqueConstraint(fields=["game", "email"], condition=~Q(email=""), name="invitation_one_per_email"),
        ]

    def __str__(self) -> str:
        return f"invitation to {self.game} for {self.user or self.email}"


class ChatMessage(models.Model):
    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    after_ply = models.PositiveIntegerField()  # shown in the history after this many moves
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]


class DrawProposal(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        LAPSED = "lapsed"  # a move was made or a player left before everyone agreed

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="draw_proposals")
    proposed_by = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    accepted_by = models.ManyToManyField(Seat, related_name="+", blank=True)
    at_ply = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who settled it (the decliner, or the last to accept; none for a lapse) and when; null while open
    # and on rows settled before these were stored.
    decided_by = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game"], condition=Q(status="open"), name="one_open_draw_proposal")
        ]
