"""The next game's redirect and the favicon with the count of games waiting for your move."""

from django.urls import path

from games import views_turns

urlpatterns = [
    path("games/next/", views_turns.next_game, name="next_game"),
    path("icon/<int:count>.svg", views_turns.turn_icon, name="turn_icon"),
]
