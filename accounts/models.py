"""A player's profile: the display name shown at the table (accounts keep Django's User)."""

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True)

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()
