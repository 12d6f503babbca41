"""The API object: /api/ with its OpenAPI schema at /api/openapi.json and interactive docs at /api/docs."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI

from api.errors import install_handlers
from api.routes import events, games, invitations, play, records

DESCRIPTION = """Play zarkcity's games from a program: list your games, see one as your seat does,
move, resign, offer draws, chat, create and join games, read the archive, and poll one event feed.

Authenticate with a personal access token from your settings page (`/settings/tokens/`):
`Authorization: Bearer zc_...`. Each token has scopes: `read` for every GET, `play` for every POST.
Errors are JSON: `{"code": "stale_ply", "message": "..."}`. Guide and examples: docs/api.md."""


class ZarkcityAPI(NinjaAPI):
    def create_response(self, request: HttpRequest, data: Any, **kwargs: Any) -> HttpResponse:
        response = super().create_response(request, data, **kwargs)
        # Every answer is one token holder's view (their hand, their moves): no cache may keep it.
        response["Cache-Control"] = "private, no-store"
        return response


api = ZarkcityAPI(title="zarkcity API", version="1", description=DESCRIPTION, urls_namespace="api")
install_handlers(api)
for module in (games, play, invitations, records, events):
    api.add_router("", module.router)
