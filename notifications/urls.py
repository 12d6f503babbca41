"""Links in emails (play, unsubscribe), the notification settings page, and the dev mailbox."""

from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("play/<str:token>/", views.play_link, name="play"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/settings/", views.preferences, name="preferences"),
    path("dev/mail/", views.dev_mail, name="dev_mail"),
    path("dev/mail/<str:name>/", views.dev_mail_message, name="dev_mail_message"),
]
