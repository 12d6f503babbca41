"""Pages: the reply-to-play switch (shown on the notification settings page) and the dev mailbox's reply form."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from . import devreply, services


@login_required
@require_POST
def setting(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    enabled = request.POST.get("enabled") == "on"
    services.reply_setting_update(user=request.user, enabled=enabled)
    messages.success(request, "Moves by email are on." if enabled else "Moves by email are off.")
    return redirect("notifications:preferences")


@require_POST
def dev_reply(request: HttpRequest, name: str) -> HttpResponse:
    """The dev mailbox's reply form (DEBUG and staff only, like the mailbox itself)."""
    if not settings.DEBUG or not (request.user.is_authenticated and request.user.is_staff):
        raise Http404("The mailbox is only there in development (DEBUG), for staff.")
    messages.info(request, devreply.send_reply(name, request.POST.get("text", "")[:2000]))
    return redirect(reverse("notifications:dev_mail"))
