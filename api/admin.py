from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from api.models import AccessToken

if TYPE_CHECKING:
    TokenAdminBase = admin.ModelAdmin[AccessToken]
else:  # ModelAdmin is generic only to the type checker
    TokenAdminBase = admin.ModelAdmin


@admin.register(AccessToken)
class AccessTokenAdmin(TokenAdminBase):
    """Operators see who holds which token and may revoke one; the secret itself is nowhere to see."""

    list_display = ("name", "user", "prefix", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__username", "prefix")
    readonly_fields = ("user", "name", "prefix", "digest", "scopes", "created_at", "last_used_at")
