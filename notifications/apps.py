from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "notifications"

    def ready(self) -> None:
        # Imported once the app registry is ready (the subscribers read models): game events write the outbox.
        from .subscribers import connect

        connect()
