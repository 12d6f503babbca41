"""Bearer-token authentication with scopes, and the per-token rate limit.

The API reads no session cookie: a request is whoever its token belongs to, or nobody. So a page
in another tab cannot make the browser call it on the player's behalf, and it needs no CSRF token.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from ninja.security import HttpBearer

from api.errors import ApiError
from api.models import AccessToken
from api.tokens import token_for_secret, token_used
from zarkcity_site import ratelimit

RATE_ACTION = "api"  # settings.RATE_LIMITS["api"]: requests per token


class TokenAuth(HttpBearer):
    """`Authorization: Bearer zc_...` with the scope an endpoint needs."""

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.scope = scope

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken:
        found = token_for_secret(token.strip())
        if found is None:
            raise ApiError("invalid_token", "This token is not valid: it is unknown or has been revoked.")
        if not ratelimit.hit(RATE_ACTION, f"token:{found.digest}"):
            wait = retry_after()
            raise ApiError("rate_limited", f"Too many requests with this token: wait {wait} s.", retry_after=wait)
        if self.scope not in found.scope_list:
            raise ApiError("forbidden_scope", f"This token lacks the {self.scope!r} scope this request needs.")
        token_used(found)
        return found


def retry_after() -> int:
    """Seconds until the current window of the per-token limit ends (ratelimit.py counts in fixed windows)."""
    _, seconds = ratelimit.parse(settings.RATE_LIMITS[RATE_ACTION])
    return max(1, math.ceil(seconds - time.time() % seconds))


def caller(request: HttpRequest) -> User:
    """The token's owner. Never request.user: that is the browser session, which the API ignores."""
    token: AccessToken = request.auth  # type: ignore[attr-defined]
    return token.user


READ = TokenAuth(AccessToken.Scope.READ)
PLAY = TokenAuth(AccessToken.Scope.PLAY)
