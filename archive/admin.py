"""Read-only admin lists of the archive (the rows are written by archive.services only)."""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from archive.models import ArchivedGame, ArchivedPlayer, PlayerRating

if TYPE_CHECKING:
    ReadOnlyBase = admin.ModelAdmin[Model]
else:  # ModelAdmin is generic only to the type checker (as in api/admin.py)
    ReadOnlyBase = admin.ModelAdmin


class ReadOnly(ReadOnlyBase):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(ArchivedGame)
class ArchivedGameAdmin(ReadOnly):
    list_display = (
        "game",
        "finished_at",
        "game_type",
        "player_count",
        "reason",
        "winner_colour",
        "plies",
        "is_private",
    )
    list_filter = ("game_type", "player_count", "reason", "is_private")


@admin.register(ArchivedPlayer)
class ArchivedPlayerAdmin(ReadOnly):
    list_display = ("archived_game", "user", "colour", "outcome", "rating_after", "finished_at")
    list_select_related = ("user",)
    raw_id_fields = ("archived_game", "user")


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnly):
    list_display = ("user", "rating", "mu", "sigma", "games", "wins", "updated_at")
    list_select_related = ("user",)
    ordering = ("-rating",)
