"""The next game one click away: the redirect behind the "Next game" button and key, and the favicon
that shows how many games wait for the player's move."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.models import Game
from games.selectors.turns import next_waiting

BADGE_MOST = 9  # "9+" beyond: a 16-pixel icon has room for one digit


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    """The game where it is your move with the least time left, other than `?after=` (the page you are on)."""
    after_id = _int(request.GET.get("after"))
    after = Game.objects.filter(pk=after_id).first() if after_id is not None else None
    waiting = next_waiting(request.user, after=after)
    if waiting is None:
        messages.info(request, "No other game waits for your move.")
        return redirect("dashboard")
    return redirect(waiting.url)


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


@require_GET
@cache_control(public=True, max_age=86400)
def turn_icon(request: HttpRequest, count: int) -> HttpResponse:
    """The site's pyramid with the number of games waiting for you (none: the plain pyramid)."""
    label = "" if count <= 0 else (str(count) if count <= BADGE_MOST else f"{BADGE_MOST}+")
    svg = render_to_string("games/play/turn_icon.svg", {"label": label})
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
