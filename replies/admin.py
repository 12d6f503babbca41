"""Operators' view of the mail that came in and the reply addresses handed out (read-only: the mail decides)."""

from typing import TYPE_CHECKING

from django.contrib import admin

from .models import InboundMessage, ReplySetting, ReplyToken

if TYPE_CHECKING:
    InboundMessageAdminBase = admin.ModelAdmin[InboundMessage]
    ReplyTokenAdminBase = admin.ModelAdmin[ReplyToken]
    ReplySettingAdminBase = admin.ModelAdmin[ReplySetting]
else:  # ModelAdmin is generic only to the type checker (as in api/admin.py)
    InboundMessageAdminBase = ReplyTokenAdminBase = ReplySettingAdminBase = admin.ModelAdmin


@admin.register(InboundMessage)
class InboundMessageAdmin(InboundMessageAdminBase):
    list_display = ("received_at", "source", "sender", "subject", "outcome", "answer_status")
    list_filter = ("outcome", "answer_status", "source")
    search_fields = ("sender", "subject", "message_key")
    exclude = ("raw", "answer")  # the raw mail and our answer may show a hand: not on an admin page
    readonly_fields = [
        "message_key",
        "source",
        "sender",
        "recipients",
        "subject",
        "size",
        "received_at",
        "status",
        "outcome",
        "note",
        "token",
        "handled_at",
        "answer_status",
        "answer_attempts",
        "answered_at",
        "purged_at",
    ]


@admin.register(ReplyToken)
class ReplyTokenAdmin(ReplyTokenAdminBase):
    list_display = ("game", "seat", "ply", "purpose", "created_at", "used_at")
    list_filter = ("purpose",)
    exclude = ("token",)  # whoever holds it plays the seat's turn: not shown, even to operators
    readonly_fields = ("game", "seat", "ply", "purpose", "created_at", "used_at")


@admin.register(ReplySetting)
class ReplySettingAdmin(ReplySettingAdminBase):
    list_display = ("user", "enabled", "updated_at")
