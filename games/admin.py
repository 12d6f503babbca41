"""The operators' view of games: lists and inlines to answer "what happened in game 42?".

The position and the seed are secrets: list views never show them, and the detail page shows them
read-only (an operator may need them to debug a game, never to change one). Moves are written only
by games.services, so the admin cannot add, edit or delete them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import ChatMessage, DrawProposal, Game, Invitation, Move, Seat

if TYPE_CHECKING:
    SeatInlineBase = admin.TabularInline[Seat, Game]
    MoveInlineBase = admin.TabularInline[Move, Game]
    InvitationInlineBase = admin.TabularInline[Invitation, Game]
    GameAdminBase = admin.ModelAdmin[Game]
    SeatAdminBase = admin.ModelAdmin[Seat]
    MoveAdminBase = admin.ModelAdmin[Move]
    ChatMessageAdminBase = admin.ModelAdmin[ChatMessage]
    DrawProposalAdminBase = admin.ModelAdmin[DrawProposal]
else:  # ModelAdmin and the inlines are generic only to the type checker (as in api/admin.py)
    SeatInlineBase = MoveInlineBase = InvitationInlineBase = admin.TabularInline
    GameAdminBase = SeatAdminBase = MoveAdminBase = ChatMessageAdminBase = DrawProposalAdminBase = admin.ModelAdmin


class SeatInline(SeatInlineBase):
    model = Seat
    extra = 0
    fields = ("order", "colour", "user", "resigned", "joined_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


class MoveInline(MoveInlineBase):
    model = Move
    extra = 0
    fields = ("ply", "seat", "notation", "created_at")  # not `descriptions`: they hold players' own draws
    readonly_fields = fields
    can_delete = False
    ordering = ("-ply",)
    max_num = 0
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return super().get_queryset(request).select_related("seat")


class InvitationInline(InvitationInlineBase):
    model = Invitation
    extra = 0
    fields = ("user", "email", "invited_by", "created_at", "accepted_at", "declined_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(GameAdminBase):
    list_display = ("id", "status", "game", "seats_wanted", "ply", "phase", "is_private", "created_at", "deadline")
    list_filter = ("status", "game", "is_private", "phase")
    search_fields = ("id", "seats__user__username", "seats__user__email")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    readonly_fields = (
        "created_by",
        "seed",
        "seed_commitment",
        "rules_version",
        "ply",
        "phase",
        "to_move",
        "snapshot",
        "turn_started_at",
        "deadline",
        "winner",
        "result_reason",
        "created_at",
        "started_at",
        "finished_at",
    )
    fieldsets = (
        (None, {"fields": ("status", "game", "seats_wanted", "time_limit_days", "is_private", "created_by")}),
        ("Play", {"fields": ("ply", "phase", "to_move", "turn_started_at", "deadline")}),
        ("Result", {"fields": ("winner", "result_reason", "created_at", "started_at", "finished_at")}),
        (
            "Secrets (read-only)",
            {"classes": ("collapse",), "fields": ("rules_version", "seed_commitment", "seed", "snapshot")},
        ),
    )
    inlines = (SeatInline, InvitationInline, MoveInline)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are created by players through the lobby (games.services.game_create)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple[str, ...]:
        # Status and settings change only through the services once a game exists.
        return self.readonly_fields + ("status", "game", "seats_wanted", "time_limit_days", "is_private")


@admin.register(Seat)
class SeatAdmin(SeatAdminBase):
    list_display = ("game", "order", "colour", "user", "resigned", "joined_at")
    list_filter = ("resigned", "colour")
    search_fields = ("user__username", "game__id")
    readonly_fields = ("game", "user", "order", "colour", "resigned", "joined_at")
    list_select_related = ("game", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(MoveAdminBase):
    list_display = ("game", "ply", "seat", "notation", "created_at")
    search_fields = ("game__id", "notation")
    fields = ("game", "ply", "seat", "notation", "created_at")
    readonly_fields = fields
    list_select_related = ("game", "seat")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(ChatMessageAdminBase):
    list_display = ("game", "seat", "after_ply", "text", "created_at")
    search_fields = ("text", "game__id")
    readonly_fields = ("game", "seat", "after_ply", "created_at")
    list_select_related = ("game", "seat")


@admin.register(DrawProposal)
class DrawProposalAdmin(DrawProposalAdminBase):
    list_display = ("game", "proposed_by", "at_ply", "status", "created_at")
    list_filter = ("status",)
    readonly_fields = ("game", "proposed_by", "accepted_by", "at_ply", "status", "created_at")
