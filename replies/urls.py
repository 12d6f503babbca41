"""The reply-to-play switch, the dev mailbox's reply form and django-anymail's inbound webhooks."""

from django.urls import include, path

from . import views

app_name = "replies"

urlpatterns = [
    path("notifications/email-moves/", views.setting, name="setting"),
    path("dev/mail/<str:name>/reply/", views.dev_reply, name="dev_reply"),
    # Provider webhooks: /email/inbound/postmark/inbound/, /email/inbound/mailgun/inbound_mime/, ...
    path("email/inbound/", include("anymail.urls")),
]
