"""Pages: the play link from an email, one-click unsubscribe, notification settings, the dev mailbox."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games import sharing
from games.models import Game
from games.selectors import game_page_url

from . import devmail, selectors, services, tokens
from .forms import AwayForm, PreferenceForm
from .middleware import LINK_SESSION_KEY
from .models import PlayLinkUse, Preference
from .views_push import push_settings

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


@never_cache
@require_http_methods(["GET", "POST"])
def play_link(request: HttpRequest, token: str) -> HttpResponse:
    """The button in an email: show the game, signing its recipient in once.

    GET only asks (mail scanners open links, and the link works once); the form's POST signs in,
    recording the link's nonce so a second use, or a forwarded copy, signs nobody in. The session it
    makes is marked: account pages then want a password (middleware.LinkSessionGuard). A finished
    game's page is public (a private one opens by its share link: the recipient played in it), so
    its link just opens it and signs nobody in.
    """
    try:
        link = tokens.read_play_token(token)
    except tokens.BadToken as error:
        return render(request, "notifications/link_invalid.html", {"message": str(error)}, status=400)
    game = Game.objects.filter(pk=link.game_id).first()
    if game is None:
        return render(
            request, "notifications/link_invalid.html", {"message": "This game no longer exists."}, status=404
        )
    game_url = game_page_url(game)
    if game.status == Game.Status.FINISHED:  # signs nobody in; a private game opens by its share link
        return redirect(sharing.share_url(game) if game.is_private else game_url)
    if request.user.is_authenticated:
        if request.user.pk != link.user.pk:
            # Never swap accounts behind someone's back (a shared computer, a forwarded email).
            context = {"game": game, "game_url": game_url, "link_user": link.user}
            return render(request, "notifications/link_other_user.html", context, status=403)
        return redirect(game_url)
    context = {"game": game, "game_url": game_url, "link_user": link.user}
    if PlayLinkUse.objects.filter(nonce=link.nonce).exists():
        return _link_used(request, context)
    if request.method == "GET":
        return render(request, "notifications/play_confirm.html", context)
    if not services.play_link_use(nonce=link.nonce, user=link.user, game=game):
        return _link_used(request, context)  # another request with this link got there first
    login(request, link.user, backend=LOGIN_BACKEND)
    request.session[LINK_SESSION_KEY] = int(time.time())
    return redirect(game_url)


def _link_used(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    return render(request, "notifications/link_used.html", context, status=410)


@csrf_exempt  # mail providers POST the one-click unsubscribe (RFC 8058) without a CSRF token; the token is the key
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (mail scanners open links); POST, from our form or the List-Unsubscribe-Post header, acts."""
    try:
        user = tokens.read_unsubscribe_token(token)
    except tokens.BadToken as error:
        return render(request, "notifications/link_invalid.html", {"message": str(error)}, status=400)
    if request.method == "POST":
        services.unsubscribe(user=user)
        return render(request, "notifications/unsubscribed.html", {"email": user.email})
    return render(request, "notifications/unsubscribe_confirm.html", {"email": user.email})


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    preference = selectors.preference_for(request.user)
    today = selectors.local_now(preference).date()
    form, away_form = _preference_form(preference), AwayForm()
    done = False
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "save":
            form = PreferenceForm(request.POST)
            done = form.is_valid() and _attempt(
                request,
                form,
                "Your email settings are saved.",
                services.preference_update,
                user=request.user,
                **form.cleaned_data,
            )
        elif action == "away":
            away_form = AwayForm(request.POST)
            done = away_form.is_valid() and _attempt(
                request,
                away_form,
                "Your days away are saved: your clocks stop on those days.",
                services.away_add,
                user=request.user,
                today=today,
                **away_form.cleaned_data,
            )
        elif action == "back":
            away_id = int(request.POST.get("away_id") or 0) if (request.POST.get("away_id") or "0").isdigit() else 0
            done = _attempt(
                request,
                None,
                "Welcome back: your clocks run again.",
                services.away_end,
                user=request.user,
                away_id=away_id,
            )
    if done:
        return redirect("notifications:preferences")
    context = {
        "form": form,
        "away_form": away_form,
        "preference": preference,
        "periods": selectors.away_periods(request.user, from_day=today),
        "today": today,
        "digest_hour": settings.NOTIFICATIONS_DIGEST_HOUR,
    } | push_settings(request.user)
    return render(request, "notifications/preferences.html", context)


def _preference_form(preference: Preference) -> PreferenceForm:
    return PreferenceForm(
        initial={
            "mode": preference.mode,
            "time_zone": preference.time_zone,
            "quiet_from": preference.quiet_from,
            "quiet_until": preference.quiet_until,
        }
    )


def _attempt(
    request: HttpRequest, form: forms.Form | None, done: str, service: Callable[..., object], **kwargs: Any
) -> bool:
    """Call a service; its refusal becomes the form's error (or a message), its success a message."""
    try:
        service(**kwargs)
    except ValidationError as error:
        if form is not None:
            form.add_error(None, error)
        else:
            messages.error(request, " ".join(error.messages))
        return False
    messages.success(request, done)
    return True


def _debug_only(request: HttpRequest) -> None:
    """The mailbox holds everyone's email (hands, sign-in links, password resets): staff only, and only
    in development. Anyone else gets a 404, as if the page did not exist."""
    if not settings.DEBUG or not (request.user.is_authenticated and request.user.is_staff):
        raise Http404("The mailbox is only there in development (DEBUG), for staff.")


def dev_mail(request: HttpRequest) -> HttpResponse:
    _debug_only(request)
    return render(
        request, "notifications/dev_mail.html", {"letters": devmail.letters(), "backend": settings.EMAIL_BACKEND}
    )


def dev_mail_message(request: HttpRequest, name: str) -> HttpResponse:
    _debug_only(request)
    letter = devmail.letter(name)
    if letter is None:
        raise Http404("No such message.")
    return render(request, "notifications/dev_mail_message.html", {"letter": letter})
