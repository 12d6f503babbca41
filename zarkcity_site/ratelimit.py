"""Rate limits that hold across processes and restarts: counts live in the shared cache (Redis in
production, files under the var dir on the embedded default), never in one worker's memory.

One fixed window per action and key: RATE_LIMITS maps an action to "N/period" (period "30s", "m",
"5m", "h"). allauth limits login, sign-up and password reset itself through the same cache; these
are the limits it does not cover: the admin login, invitations, chat and moves.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeAlias

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)
P = ParamSpec("P")
View: TypeAlias = Callable[Concatenate[HttpRequest, P], HttpResponse]  # a view taking the request, then P
# Limits that stand between a guesser and a password: while the cache is down these refuse, where the
# others (a move, a chat line, an API call) let the attempt through uncounted.
GUARDS_A_PASSWORD = frozenset({"admin_login", "admin_login_user"})
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE = re.compile(r"^(\d+)/(\d*)([smhd])$")
PREFIX = "ratelimit"  # the counts' keys begin so (tests give each test its own: tests/conftest.py)


def parse(rate: str) -> tuple[int, int]:
    """ "30/5m" -> (30 attempts, 300 seconds)."""
    found = RATE.match(rate)
    if not found:
        raise ValueError(f"not a rate: {rate!r} (e.g. 30/m, 10/5m)")
    amount, many, unit = found.groups()
    return int(amount), int(many or 1) * UNITS[unit]


def hit(action: str, key: str) -> bool:
    """Count one attempt at `action` by `key`; False once the window's limit is passed."""
    rate = settings.RATE_LIMITS.get(action)
    if not rate:
        return True
    amount, seconds = parse(rate)
    window = int(time.time() // seconds)
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]  # an address or username never lands in the cache
    cache_key = f"{PREFIX}:{action}:{digest}:{window}"
    try:
        return _count(cache_key, amount, seconds)
    except Exception:  # the cache is down: a move or a chat line is not refused for it, only not counted
        if action in GUARDS_A_PASSWORD:
            log.warning("the shared cache cannot be reached: %s refused until it is back", action, exc_info=True)
            return False
        log.warning("the shared cache cannot be reached: %s not rate limited for now", action, exc_info=True)
        return True


def _count(cache_key: str, amount: int, seconds: int) -> bool:
    # incr(), and add() only for a window's first attempt: Redis counts atomically across processes.
    # The file cache's incr() is a read then a write, so two requests in the same instant may count
    # once: a limit a little loose. Asking incr() first saves the add() on every later attempt.
    try:
        return cache.incr(cache_key) <= amount
    except ValueError:  # the window's first attempt (or it expired just now)
        pass
    if cache.add(cache_key, 1, timeout=seconds):
        return amount >= 1  # the first attempt counts as 1
    try:  # another request opened the window in between
        return cache.incr(cache_key) <= amount
    except ValueError:  # ...and it expired already
        cache.set(cache_key, 1, timeout=seconds)
        return True


def client_key(request: HttpRequest) -> str:
    """The signed-in user, else the client's address as allauth sees it (ALLAUTH_TRUSTED_PROXY_COUNT)."""
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return f"ip:{get_adapter(request).get_client_ip(request)}"


def too_many() -> HttpResponse:
    return HttpResponse("Too many requests: wait a minute and try again.\n", status=429, content_type="text/plain")


def limit(action: str, key: Callable[[HttpRequest], str] = client_key) -> Callable[[View[P]], View[P]]:
    """View decorator: POSTs to the view count against `action`; past the limit, 429 and the view
    does not run. GETs are not counted (reading a page changes nothing)."""

    def decorate(view: View[P]) -> View[P]:
        @wraps(view)
        def limited(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            if request.method == "POST" and not hit(action, key(request)):
                return too_many()
            return view(request, *args, **kwargs)

        return limited

    return decorate
