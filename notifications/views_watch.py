"""Quiet while you watch: the game page's word that its tab went hidden or away (a beacon)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from games.models import Game

from . import watching


@require_POST
def game_unwatched(request: HttpRequest, game_id: int) -> HttpResponse:
    """navigator.sendBeacon from the game page when its tab is hidden or closed: no longer watching, so
    the next turn email goes at once. (Watching is told by the page's poll: games.views_play.game_ply_json.)"""
    game = get_object_or_404(Game, pk=game_id)
    if request.user.is_authenticated:
        watching.watch_left(user=request.user, game=game)
    return HttpResponse(status=204)
