"""A session signed in by a play link (an email button) plays; it does not manage the account.

Whoever holds the email holds the link (a forwarded message, a mail scanner), so such a session may
open games and move, but the pages that could take the account over (email addresses, password,
settings, the private feed key, the admin, the dev mailbox) first ask for a real password login.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

LINK_SESSION_KEY = "zarkcity_signed_in_by_play_link"

# URL names (resolver_match.view_name) a link session may not reach; the admin is guarded as a namespace.
ACCOUNT_PAGES = frozenset(
    {
        "account_email",
        "account_change_password",
        "account_set_password",
        "account_settings",
        "feed_key_rotate",
        "api_tokens",  # a token outlives the session: making one is taking the account
        "api_token_revoke",
        "notifications:preferences",
        "notifications:push_subscribe",  # a forwarded email's session must not get the player's pushes
        "notifications:push_remove",
        "notifications:dev_mail",
        "notifications:dev_mail_message",
    }
)
GUARDED_NAMESPACES = frozenset({"admin"})
MESSAGE = (
    "You came in through a link from an email, which only opens games. "
    "To change your account or settings, log in with your password."
)


def signed_in_by_play_link(request: HttpRequest) -> bool:
    """Whether this session came in through a play link: pages hide what such a session may not see."""
    return request.user.is_authenticated and LINK_SESSION_KEY in request.session


class LinkSessionGuard:
    """After AuthenticationMiddleware and MessageMiddleware (settings.MIDDLEWARE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[object, ...],
        view_kwargs: dict[str, object],
    ) -> HttpResponse | None:
        # The page first: on every other page (the game, a move) the session and user are not read here.
        match = request.resolver_match
        if match is None or not (match.view_name in ACCOUNT_PAGES or GUARDED_NAMESPACES & set(match.namespaces)):
            return None
        if not signed_in_by_play_link(request):
            return None
        # Sign the link session out, so the login form is a real one: it asks for the password and makes
        # a fresh session without the mark. The message travels in a cookie (the session is flushed).
        next_url = request.get_full_path() if request.method == "GET" else reverse("dashboard")
        logout(request)
        messages.info(request, MESSAGE)
        return redirect(f"{reverse('account_login')}?{urlencode({'next': next_url})}")
