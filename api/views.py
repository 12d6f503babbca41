"""The settings page for personal access tokens: make one (its secret shown once), see them, revoke one;
and the API guide (docs/api.md) that page links to."""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from api.forms import TokenForm
from api.tokens import token_create, tokens_of
from api.tokens import token_revoke as revoke


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)  # behind login_required


@never_cache  # the answer to a POST shows a secret: no cache, no back button copy
@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    secret, made = "", None
    if request.method == "POST" and form.is_valid():
        try:
            made, secret = token_create(
                user=_user(request), name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            form = TokenForm()  # the next token starts from a blank form
    # The secret is rendered into this one answer and nowhere else: a redirect would have to keep it somewhere.
    context = {"form": form, "tokens": tokens_of(user=_user(request)), "secret": secret, "made": made}
    return render(request, "api/tokens.html", context)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = revoke(user=_user(request), token_id=token_id)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Token “{token.name}” revoked: requests with it now get 401.")
    return redirect("api_tokens")


@require_GET
@cache_control(public=True, max_age=3600)
def api_guide(request: HttpRequest) -> HttpResponse:
    """docs/api.md as it ships with this copy of the service, so the guide always matches the API it
    describes. Markdown reads as plain text; served as text, a browser shows it and runs nothing."""
    guide = (settings.BASE_DIR / "docs" / "api.md").read_text(encoding="utf-8")
    return HttpResponse(guide, content_type="text/plain; charset=utf-8")
