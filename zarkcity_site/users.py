"""The signed-in user read through the shared cache, the database behind it: a page, a move and a seated
player's poll read no user row (docs/deployment.md, "Sessions").

`CachedUserMiddleware` takes the place of Django's AuthenticationMiddleware. A request's user is the
copy cached under its id when the session's backend is one of settings.AUTHENTICATION_BACKENDS and the
session's password hash matches the copy's, exactly as Django checks a user read from the database;
anything else (no copy, another hash, a cache that fails) goes to Django's own `auth.get_user`, which
reads the row and does the rest (the fallback secrets, the flush of a session that no longer verifies),
and a user it returns is cached. Every save or delete of a user drops the copy at once and again after
commit: a changed password or a deactivated account signs out the other sessions at their next request.
Were a drop to fail (Redis unreachable for a moment, its data kept) the stale copy lives at most
USER_CACHE_SECONDS; log-out needs no drop (it deletes the session itself).

A session's session and its user's copy come in one round trip (`SessionStore.load_with`) from its second
request to a process on: the process remembers which user id each session key signed in, only to know
which copy to ask for beside the session; the copy is then checked as above.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from zarkcity_site.sessions import ForgivingCache, SessionStore

DEFAULT_CACHE_SECONDS = 300


def _cache() -> ForgivingCache:
    most = getattr(settings, "USER_CACHE_SECONDS", DEFAULT_CACHE_SECONDS)
    return ForgivingCache(caches[settings.SESSION_CACHE_ALIAS], most)


def _key(user_id: Any) -> str:
    return f"zarkcity.user.{user_id}"


class CachedUserMiddleware(AuthenticationMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)  # its checks, and `auser` for async views
        # As Django's: a lazy object read as the user (the stubs type `request.user` as the user itself).
        request.user = SimpleLazyObject(lambda: session_user(request))  # type: ignore[assignment]


def session_user(request: HttpRequest) -> AbstractBaseUser | AnonymousUser:
    """The request's user, kept on the request as Django's middleware keeps it (login and logout replace it)."""
    if not hasattr(request, "_cached_user"):
        request._cached_user = _cached(request) or _from_database(request)  # type: ignore[attr-defined]
        _remember(request)
    return request._cached_user  # type: ignore[attr-defined,no-any-return]


# The user id each session key was last seen signed in as, in this process: the next request of that
# session then reads its session and the user's copy from the cache in one round trip. Only a guess of
# which copy to read with the session: the copy is used only where the session names that user, and
# checked as ever. A session key signs in one user for its life (log-in cycles the key, log-out ends it).
_SESSION_USERS: dict[str, str] = {}
REMEMBERED_SESSIONS = 10_000  # then forgotten all at once: a round trip more for each of them, once


def _cached(request: HttpRequest) -> AbstractBaseUser | None:
    """The cached copy of the session's user, only where Django's own checks would pass it as it is."""
    session = request.session
    guess = _SESSION_USERS.get(session.session_key or "")
    prefetched = session.load_with(_key(guess)) if guess and isinstance(session, SessionStore) else None
    user_id, backend = session.get(auth.SESSION_KEY), session.get(auth.BACKEND_SESSION_KEY)
    if user_id is None or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = prefetched if user_id == guess else _cache().get(_key(user_id))
    if not isinstance(user, AbstractBaseUser):
        return None
    held = session.get(auth.HASH_SESSION_KEY)
    if not held or not constant_time_compare(held, user.get_session_auth_hash()):
        return None  # Django decides: a fallback secret, or the flush of a session that no longer verifies
    return user


def _remember(request: HttpRequest) -> None:
    session = request.session
    user_id = session.get(auth.SESSION_KEY) if request._cached_user.is_authenticated else None  # type: ignore[attr-defined]
    if user_id is not None and session.session_key:
        if len(_SESSION_USERS) >= REMEMBERED_SESSIONS:
            _SESSION_USERS.clear()
        _SESSION_USERS[session.session_key] = user_id


def _from_database(request: HttpRequest) -> AbstractBaseUser | AnonymousUser:
    user = auth.get_user(request)
    if user.is_authenticated:  # read from the row this moment, nothing attached to it yet
        _cache().set(_key(user.pk), user)
    return user


def user_changed(sender: type, instance: AbstractBaseUser, **kwargs: Any) -> None:
    """post_save and post_delete of a user: drop the copy now, and after commit, where a request that read
    the row before the commit may have cached it again."""
    key = _key(instance.pk)
    _cache().delete(key)
    transaction.on_commit(lambda: _cache().delete(key))
