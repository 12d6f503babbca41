"""The games app's pages: the lobby side (urls_lobby), the playing side (urls_play) and the
next game (urls_turns)."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.urls_lobby")),
    path("", include("games.urls_play")),
    path("", include("games.urls_turns")),
]
