"""Links in emails (play, unsubscribe, mute), the notification settings page, a game's mute button, and the
dev mailbox."""

from django.urls import path

from . import views, views_mute, views_push, views_watch

app_name = "notifications"

urlpatterns = [
    path("play/<str:token>/", views.play_link, name="play"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/settings/", views.preferences, name="preferences"),
    path("notifications/mute/<str:token>/", views_mute.mute_link, name="mute"),
    path("games/<int:game_id>/mute/", views_mute.game_mute, name="game_mute"),
    path("games/<int:game_id>/unwatched/", views_watch.game_unwatched, name="game_unwatched"),
    path("sw.js", views_push.service_worker, name="service_worker"),
    path("notifications/push/subscribe/", views_push.push_subscribe, name="push_subscribe"),
    path("notifications/push/remove/", views_push.push_remove, name="push_remove"),
    path("dev/mail/", views.dev_mail, name="dev_mail"),
    path("dev/mail/<str:name>/", views.dev_mail_message, name="dev_mail_message"),
]
