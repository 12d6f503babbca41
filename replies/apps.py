from django.apps import AppConfig


class RepliesConfig(AppConfig):
    name = "replies"
    verbose_name = "Email moves"

    def ready(self) -> None:
        # django-anymail's inbound webhooks announce each message with a signal: one receiver, our service.
        from . import webhooks  # noqa: F401
