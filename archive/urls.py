"""The archive's URLs: the search, a game's replay/log/verify pages, players, the leaderboard and feeds."""

from django.urls import path

from archive import feeds, views

urlpatterns = [
    path("archive/", views.archive_index, name="archive"),
    path("games/<int:game_id>/replay/", views.replay_start, name="replay_start"),
    path("games/<int:game_id>/replay/<int:ply>/", views.replay, name="replay"),
    path("games/<int:game_id>/log.txt", views.game_log, name="game_log"),
    path("games/<int:game_id>/verify/", views.verify, name="game_verify"),
    path("verifiers/<str:game_id>.py", views.verifier, name="game_verifier"),
    path("players/<str:username>/", views.player_profile, name="player_profile"),
    path("players/<str:username>/rating.svg", views.rating_chart, name="rating_chart"),
    path("players/<str:username>/games.atom", feeds.PlayerGamesFeed(), name="player_games_feed"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("feeds/rotate/", views.feed_key_rotate, name="feed_key_rotate"),
    path("feeds/<str:key>/my-turn.atom", feeds.MyTurnFeed(), name="my_turn_feed"),
    path("feeds/<str:key>/deadlines.ics", feeds.deadlines_ics, name="deadlines_ics"),
]
