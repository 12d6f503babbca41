"""The lobby's URLs: home, my games, new and open games, a waiting room (and adding a bot), invitation links."""

from django.urls import path

from games import views_lobby

urlpatterns = [
    path("", views_lobby.home, name="home"),
    path("games/", views_lobby.dashboard, name="dashboard"),
    path("games/new/", views_lobby.game_new, name="game_new"),
    path("games/open/", views_lobby.open_games, name="open_games"),
    path("games/<int:game_id>/lobby/", views_lobby.game_lobby, name="game_lobby"),
    path("games/<int:game_id>/join/", views_lobby.game_join, name="game_join"),
    path("games/<int:game_id>/invite/", views_lobby.game_invite, name="game_invite"),
    path("games/<int:game_id>/add-bot/", views_lobby.game_add_bot, name="game_add_bot"),
    path("invitations/<str:token>/", views_lobby.invitation, name="invitation"),
]
