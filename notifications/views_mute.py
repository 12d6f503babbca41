"""Per-game mute: the game page's button, and the signed link in each of the game's emails."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Game
from games.selectors import game_page_url

from . import mutes, tokens

INVALID = "notifications/link_invalid.html"


@require_POST
def game_mute(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page's Mute / Unmute button (a player of the game, signed in)."""
    game = get_object_or_404(Game, pk=game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(game_page_url(game))
    try:
        if request.POST.get("action") == "unmute":
            mutes.game_unmute(user=request.user, game=game)
            messages.success(request, f"{game}: emails about this game come again.")
        else:
            mutes.game_mute(user=request.user, game=game)
            messages.success(request, f"{game} is muted: no more emails about it but the one that tells how it ends.")
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    return redirect(game_page_url(game))


@never_cache
@require_http_methods(["GET", "POST"])
def mute_link(request: HttpRequest, token: str) -> HttpResponse:
    """The link in a game's emails. GET only asks (mail scanners open links); the form's POST mutes."""
    try:
        link = tokens.read_mute_token(token)
    except tokens.BadToken as error:
        return render(request, INVALID, {"message": str(error)}, status=400)
    game = Game.objects.filter(pk=link.game_id).first()
    if game is None:
        return render(request, INVALID, {"message": "This game no longer exists."}, status=404)
    if game.status == Game.Status.FINISHED:
        message = f"{game} is over: it sends no more emails, so there is nothing to mute."
        return render(request, INVALID, {"message": message}, status=410)
    context = {"game": game, "game_url": game_page_url(game), "email": link.user.email}
    if request.method == "GET":
        return render(request, "notifications/mute_confirm.html", context)
    mutes.game_mute(user=link.user, game=game)
    return render(request, "notifications/muted.html", context)
