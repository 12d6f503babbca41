"""Personal access tokens for the JSON API (docs/api.md): made and revoked on the settings page,
shown once, stored only as a hash."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccessToken(models.Model):
    class Scope(models.TextChoices):
        READ = "read", "read: list your games, see them as your seat does, the event feed, the archive"
        PLAY = "play", "play: move, resign, draw, chat, create, join and accept invitations"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)  # the owner's label for it, e.g. "my bot"
    # The secret's first characters, so the settings page can tell tokens apart without keeping the secret.
    prefix = models.CharField(max_length=12)
    # SHA-256 of the secret: 256 random bits need no slow hash, and a fixed hash can be looked up.
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.CharField(max_length=20)  # comma-separated Scope values, e.g. "read,play"
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"

    @property
    def scope_list(self) -> list[str]:
        return [scope for scope in self.scopes.split(",") if scope]

    @property
    def active(self) -> bool:
        return self.revoked_at is None
