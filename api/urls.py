"""/api/ (the ninja API), with JSON for unknown addresses and wrong methods; /settings/tokens/; the guide."""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, path, re_path
from django.views.decorators.csrf import csrf_exempt

from api import views
from api.errors import error_response
from api.main import api


def _json_errors(view: Any) -> Any:
    """ninja answers a wrong method in plain text, and its root /api/ with Django's 404 page; the API's
    errors are all JSON."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response: HttpResponse = view(request, *args, **kwargs)
        except Http404:
            return error_response("not_found", "There is nothing here: the endpoints are listed at /api/docs.")
        if response.status_code == 405:
            allowed = response.get("Allow", "")
            error = error_response("method_not_allowed", f"{request.method} is not allowed here (allowed: {allowed}).")
            error["Allow"] = allowed
            return error
        return response

    return wrapped


def _with_json_errors(patterns: list[URLPattern | URLResolver]) -> list[URLPattern | URLResolver]:
    return [
        URLPattern(p.pattern, _json_errors(p.callback), p.default_args, p.name) if isinstance(p, URLPattern) else p
        for p in patterns
    ]


@csrf_exempt
def not_found(request: HttpRequest, rest: str) -> HttpResponse:
    return error_response("not_found", f"There is no /api/{rest} (the endpoints are listed at /api/docs).")


# Not module-level `app_name`: include("api.urls") would read it as this module's namespace.
_patterns, _app, _namespace = api.urls
urlpatterns = [
    path("api/", (_with_json_errors(_patterns), _app, _namespace)),
    re_path(r"^api/(?P<rest>.*)$", not_found, name="api_not_found"),
    path("docs/api.md", views.api_guide, name="api_guide"),
    path("settings/tokens/", views.tokens_page, name="api_tokens"),
    path("settings/tokens/<int:token_id>/revoke/", views.token_revoke, name="api_token_revoke"),
]
