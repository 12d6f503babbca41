from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Imported once the app registry is ready (the tasks read models): a bot's turn goes to a worker after commit.
        from django.db.models.signals import post_delete, post_save

        from games import events, news, tasks
        from games.models import Game

        events.subscribe(events.BotToMove, tasks.bot_to_move)
        # Every write of a game's row, wherever it comes from, refreshes the poll's cached headline.
        post_save.connect(news.game_saved, sender=Game, dispatch_uid="games.news.game_saved")
        post_delete.connect(news.game_deleted, sender=Game, dispatch_uid="games.news.game_deleted")
