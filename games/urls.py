"""The games app's pages: the lobby side (urls_lobby) and the playing side (urls_play)."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.urls_lobby")),
    path("", include("games.urls_play")),
]
