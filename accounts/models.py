"""A player's profile: the display name shown at the table, and whether the player is a built-in bot
(accounts keep Django's User)."""

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40, blank=True)
    # accounts.selectors.name_key(display_name): how the name reads, so no two players look alike.
    name_key = models.CharField(max_length=255, blank=True, db_index=True)
    # The same for the username: a new name must not look like anyone's username either ("аlice" with a
    # Cyrillic а beside "alice"), and usernames are Unicode.
    username_key = models.CharField(max_length=255, blank=True, db_index=True)
    # The engine bot (engine.bots, e.g. "mcts") this user is; blank for people. A bot's account has no
    # email address and no usable password: games.services seats it and its Celery task moves for it.
    bot = models.CharField(max_length=20, blank=True, db_index=True)

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()
