"""URL map: accounts (django-allauth), the games app, the archive, and the operators' admin."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("archive.urls")),
]
