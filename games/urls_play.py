"""The playing side's URLs: the game page, its forms, the board picture and the game record."""

from django.urls import path

from games import views_play

urlpatterns = [
    path("games/<int:game_id>/", views_play.game_detail, name="game_detail"),
    path("games/<int:game_id>/move/", views_play.game_move, name="game_move"),
    path("games/<int:game_id>/resign/", views_play.game_resign, name="game_resign"),
    path("games/<int:game_id>/draw/", views_play.game_draw, name="game_draw"),
    path("games/<int:game_id>/chat/", views_play.game_chat, name="game_chat"),
    path("games/<int:game_id>/board.svg", views_play.game_board_svg, name="game_board_svg"),
    path("games/<int:game_id>/ply.json", views_play.game_ply_json, name="game_ply"),
    path("games/<int:game_id>/record.json", views_play.game_record_json, name="game_record"),
    path("games/<int:game_id>/shared/<str:key>/", views_play.game_shared, name="game_shared"),
]
