"""What the archive stores: one summary row per finished game, one result row per seat, ratings, feed keys.

The summary rows are denormalised copies written once by `archive.services.game_archive` when a
game ends, so the archive page filters and sorts one narrow indexed table instead of joining the
game, its seats and its move log for 100,000 games.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.fields.json import KeyTransform

from engine import registry
from engine.interface import Game as GameRules
from games.models import Game

# The public lists (everything but a signed-in player's own private games) search and count through partial
# indexes of public games. Each leads with the column it filters or sorts by and carries every other filtered
# column after it, so that counting the matches of any combination reads the index alone.
PUBLIC = Q(is_private=False)
FILTERED = ("player_count", "reason", "game_type", "plies", "options")


def public_index(name: str, *lead: str) -> models.Index:
    return models.Index(fields=[*lead, *(f for f in FILTERED if f not in lead)], condition=PUBLIC, name=name)


def option_indexes() -> list[models.Index]:
    """One per option any registered game has (e.g. Zark City's deck): the archive filters by each. Not a
    partial index: PostgreSQL keeps statistics on an index's expression (how many games are arcade ones)
    only for a whole-table index, and without them it would guess and sort every match of "arcade and
    timeout" instead of walking the reason index newest first."""
    names = dict.fromkeys(option.name for info in registry.infos() for option in info.options)
    return [option_index(name) for name in names]


def option_index(name: str) -> models.Index:
    return models.Index(KeyTransform(name, "options"), F("finished_at"), F("game"), name=f"archive_opt_{name}"[:30])


class ArchivedGame(models.Model):
    """A finished game as the archive lists it (public facts only: no seed, hand or deck order)."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="archived")
    finished_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    # Which game (an engine.registry id; `game` is the finished Game itself) and its options, e.g. {"deck": "arcade"}.
    game_type = models.CharField(max_length=20, default=registry.DEFAULT)
    options = models.JSONField(default=dict, blank=True)
    player_count = models.PositiveSmallIntegerField()
    plies = models.PositiveIntegerField()
    reason = models.CharField(max_length=20)  # the game's Result.reason (any GameInfo.reasons)
    winner_colour = models.CharField(max_length=40, blank=True)  # comma-separated when several share the win
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Private games stay off the public lists; their pages are still open to anyone with the link once over.
    is_private = models.BooleanField(default=False)

    class Meta:
        ordering = ["-finished_at", "-game"]
        indexes = [
            # One index per filter, each ending in the default sort, so "filter + newest first + LIMIT"
            # is an index scan that stops after one page.
            models.Index(fields=["finished_at", "game"], name="archive_newest"),
            models.Index(fields=["player_count", "finished_at"], name="archive_by_players"),
            models.Index(fields=["game_type", "finished_at"], name="archive_by_game"),
            models.Index(fields=["reason", "finished_at"], name="archive_by_reason"),
            models.Index(fields=["plies", "finished_at", "game"], name="archive_by_length"),
            public_index("archive_public_newest", "finished_at", "game"),
            public_index("archive_public_by_players", "player_count", "finished_at", "game"),
            public_index("archive_public_by_game", "game_type", "finished_at", "game"),
            public_index("archive_public_by_reason", "reason", "finished_at", "game"),
            public_index("archive_public_by_length", "plies", "finished_at", "game"),
            *option_indexes(),
        ]

    def __str__(self) -> str:
        return f"archived {self.game_id}"

    @property
    def rules(self) -> GameRules:
        return registry.get(self.game_type)

    @property
    def game_name(self) -> str:
        return self.rules.info.name

    @property
    def options_text(self) -> str:
        return self.rules.info.options_text(self.options)


class ArchivedRow(models.Model):
    """A finished game's row in the archive list, rendered once (archive/rows.py) from its facts, which never
    change. Each player's link is a slot filled per request, as display names can change; `key` names what
    it was rendered with, and a row from an older template is rendered again when next listed. A table of
    its own keeps ArchivedGame narrow: the searches and counts scan it, only a page's rows are read here."""

    game = models.OneToOneField(ArchivedGame, primary_key=True, on_delete=models.CASCADE, related_name="row")
    html = models.TextField()
    key = models.CharField(max_length=16)

    def __str__(self) -> str:
        return f"archive row of {self.game_id}"


class ArchivedPlayer(models.Model):
    """One seat of a finished game: who played which colour, how it went, and the rating it moved."""

    class Outcome(models.TextChoices):
        WON = "won"
        LOST = "lost"
        DRAW = "draw"

    archived_game = models.ForeignKey(ArchivedGame, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="archived_results")
    colour = models.CharField(max_length=10)
    seat_order = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    resigned = models.BooleanField(default=False)
    # Copies of the game's columns, so a player's history and win rate by table size need no join, and the
    # archive's search by player runs on these rows alone: every column it filters or sorts by is here.
    finished_at = models.DateTimeField()
    game_type = models.CharField(max_length=20, default=registry.DEFAULT)  # ratings and results are per game
    options = models.JSONField(default=dict, blank=True)
    player_count = models.PositiveSmallIntegerField()
    plies = models.PositiveIntegerField(default=0)
    reason = models.CharField(max_length=20, blank=True, default="")
    is_private = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_after = models.FloatField()  # the displayed rating (openskill ordinal) after this game

    class Meta:
        ordering = ["archived_game", "seat_order"]
        constraints = [models.UniqueConstraint(fields=["archived_game", "user"], name="archived_player_once")]
        indexes = [
            models.Index(fields=["user", "finished_at"], name="archive_player_history"),
            models.Index(fields=["user", "game_type", "finished_at"], name="archive_player_game_history"),
            # A player's rating chart (their last 500 public games of one game): read from the index alone.
            models.Index(
                fields=["user", "game_type", "finished_at", "rating_after", "mu_after", "sigma_after"],
                condition=PUBLIC,
                name="archive_player_rating_chart",
            ),
            # The archive's search by player (ArchivedGame's public indexes, for one player's games).
            models.Index(fields=["user", "plies", "finished_at"], name="archive_player_by_length"),
            public_index("archive_player_public", "user", "finished_at", "archived_game"),
            public_index("archive_player_public_length", "user", "plies", "finished_at", "archived_game"),
            # A signed-in player's own private games, which the archive lists to them beside the public ones.
            models.Index(fields=["user"], condition=Q(is_private=True), name="archive_player_private"),
        ]

    def __str__(self) -> str:
        return f"{self.colour} in {self.archived_game_id}: {self.outcome}"


class PlayerTally(models.Model):
    """How many games a player finished in one game at one table size, won, drew, and how many of them
    were private: kept by game_archive as each game ends, so a profile adds up a few rows, not every result
    of a player with 10,000 games."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game_type = models.CharField(max_length=20)
    player_count = models.PositiveSmallIntegerField()
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    private = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_type", "player_count"], name="tally_one_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.player_count}-player {self.game_type}: {self.won}/{self.played}"


def options_key(options: dict[str, Any]) -> str:
    """A game's options as canonical JSON: ArchiveTally keeps one row per set of options."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


class ArchiveTally(models.Model):
    """How many public games the archive holds of one game, table size, result and set of options: kept by
    game_archive as each game ends, so the archive page counts a search by those filters alone (most of them)
    by adding up a few of these rows, not by reading up to 10,001 entries of an index, which costs more the
    more games there are. `options_key` is the options as canonical JSON (one row per set of options)."""

    game_type = models.CharField(max_length=20)
    player_count = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    options_key = models.CharField(max_length=200)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game_type", "player_count", "reason", "options_key"], name="archive_tally_one_per_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.games} public {self.player_count}-player {self.game_type} ({self.reason}, {self.options_key})"


class PlayerRating(models.Model):
    """A player's current openskill (Plackett-Luce) rating in one game; `rating` = mu - 3 sigma, what we rank by.

    One row per (player, game): a Deck Town result never moves a Zark City rating."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game_type = models.CharField(max_length=20, default=registry.DEFAULT)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-rating", "user"]
        constraints = [models.UniqueConstraint(fields=["user", "game_type"], name="rating_one_per_game")]
        indexes = [models.Index(fields=["game_type", "rating"], name="rating_by_game")]

    def __str__(self) -> str:
        return f"{self.game_type} rating of {self.user_id}: {self.rating:.1f}"


class FeedToken(models.Model):
    """The secret in a player's private feed URLs (my turn, deadlines); rotating it kills old links."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="feed_token"
    )
    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"feed token of {self.user_id}"
