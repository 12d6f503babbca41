from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Imported once the app registry is ready (the tasks read models): a bot's turn goes to a worker after commit.
        from games import events, tasks

        events.subscribe(events.BotToMove, tasks.bot_to_move)
