from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    """Finished games as permanent public pages: archive, replay, verify, profiles, ratings and feeds."""

    name = "archive"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported once the app registry is ready: a finished game's summary row and ratings, in its transaction.
        from games import events

        from .services import game_finished

        events.subscribe(events.GameFinished, game_finished)
