"""The account settings page (allauth serves sign-up, login, logout and password pages)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import DisplayNameForm
from accounts.services import profile_ensure, profile_update


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    profile = profile_ensure(user=request.user)
    form = DisplayNameForm(request.POST or None, initial={"display_name": profile.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            profile_update(user=request.user, display_name=form.cleaned_data["display_name"])
        except ValidationError as error:
            form.add_error("display_name", error)
        else:
            messages.success(request, "Display name saved.")
            return redirect("account_settings")
    return render(request, "account/settings.html", {"form": form, "profile": profile})
