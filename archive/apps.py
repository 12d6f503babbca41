from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    """Finished games as permanent public pages: archive, replay, verify, profiles, ratings and feeds."""

    name = "archive"
    default_auto_field = "django.db.models.BigAutoField"
