"""URL map: accounts (django-allauth), the games app, the archive, the API, the operators' admin and /health."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from zarkcity_site.health import health
from zarkcity_site.ratelimit import client_key, hit, too_many


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's login, limited per address and per username tried (allauth's limits do not
    cover it): a password guesser gets 429 after a few tries, in every process at once."""
    if request.method == "POST":
        username = request.POST.get("username", "").strip().lower()
        allowed = [hit("admin_login", client_key(request)), hit("admin_login_user", f"admin:{username}")]
        if not all(allowed):
            return too_many()
    return admin.site.login(request, extra_context)


urlpatterns = [
    path("health", health, name="health"),
    path("admin/login/", admin_login, name="admin_login_limited"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("replies.urls")),
    path("", include("archive.urls")),
    path("", include("api.urls")),
]
