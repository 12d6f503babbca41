"""Web Push pages: the site's service worker, and the settings page's subscribe and remove."""

from __future__ import annotations

import json
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from . import push

BROWSERS: tuple[tuple[str, str], ...] = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
SYSTEMS: tuple[tuple[str, str], ...] = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS", "macOS"),
)
SYSTEMS += (("CrOS", "ChromeOS"), ("Linux", "Linux"))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """At the site's root, so its scope covers every page: shows a push, opens the game on a click."""
    response = render(request, "notifications/sw.js", content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # browsers look for a new worker on every registration
    return response


def push_settings(user: User) -> dict[str, object]:
    """What the settings page shows of Web Push: nothing at all when the site has no VAPID key."""
    if not push.enabled():
        return {"push_enabled": False}
    return {
        "push_enabled": True,
        "push_key": push.public_key(),
        "push_subscriptions": push.subscriptions_of(user),
        "push_worker": reverse("notifications:service_worker"),
    }


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """The settings page's script sends this browser's PushSubscription.toJSON() (with the CSRF header)."""
    assert request.user.is_authenticated  # login_required
    try:
        sent = json.loads(request.body or b"{}")
        keys = sent.get("keys") or {}
        subscription = push.subscribe(
            user=request.user,
            endpoint=str(sent.get("endpoint", "")),
            p256dh=str(keys.get("p256dh", "")),
            auth=str(keys.get("auth", "")),
            browser=browser_of(request.headers.get("User-Agent", "")),
        )
    except (ValueError, AttributeError):
        return JsonResponse({"error": "Send the browser's subscription as JSON."}, status=400)
    except ValidationError as refusal:
        return JsonResponse({"error": " ".join(refusal.messages)}, status=400)
    return JsonResponse({"id": subscription.pk, "browser": subscription.browser}, status=201)


@login_required
@require_POST
def push_remove(request: HttpRequest) -> HttpResponse:
    """Remove one browser: the settings list's button (its id) or the browser turning itself off (its endpoint)."""
    assert request.user.is_authenticated  # login_required
    chosen = request.POST.get("subscription", "")
    subscription_id = int(chosen) if chosen.isdigit() else None
    removed = push.remove(user=request.user, subscription_id=subscription_id, endpoint=request.POST.get("endpoint", ""))
    if removed:
        messages.success(request, "That browser gets no more notifications from us.")
    else:
        messages.info(request, "That browser was not subscribed (any more).")
    return redirect("notifications:preferences")


def browser_of(agent: str) -> str:
    """ "Chrome on Linux": enough to tell one's browsers apart in the list, nothing more kept."""
    name = next((label for mark, label in BROWSERS if mark in agent), "A browser")
    system = next((label for mark, label in SYSTEMS if re.search(re.escape(mark), agent)), "")
    return f"{name} on {system}" if system else name
