"""Sessions read from the shared cache, kept in the database: a cache that is down signs nobody out.

Django's `cached_db` engine, with two changes (settings.SESSION_ENGINE names this module; docs/deployment.md,
"Sessions"). Every cache call is guarded: Django's guards the read and the write of a session but not
the copy it caches after reading the database, nor `exists` (a new session key, a log-in) or the delete
at log-out, so with Redis down those answered 500. Here a cache that fails is logged and passed over: the
session is read from and written to the database as if no cache were there. And the cached copy lives
at most SESSION_CACHE_SECONDS, not the session's whole life: were a log-out's delete to miss the cache
(Redis unreachable for a moment, its data kept), the signed-out session would come back from the cache
for at most that long; a live session costs the database one read that often.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.core.cache import BaseCache, caches

log = logging.getLogger(__name__)

DEFAULT_CACHE_SECONDS = 300


class ForgivingCache:
    """The session's cache calls, each answering as a cache miss (or doing nothing) when the cache fails."""

    def __init__(self, cache: BaseCache, most_seconds: int) -> None:
        self.cache, self.most_seconds = cache, most_seconds

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self.cache.get(key, default)
        except Exception:
            log.warning("session cache unreachable on get: reading the session from the database", exc_info=True)
            return default

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        try:
            return self.cache.get_many(keys)
        except Exception:
            log.warning("session cache unreachable on get_many: reading the session from the database", exc_info=True)
            return {}

    def set(self, key: str, value: Any, timeout: int | None = None) -> None:
        seconds = self.most_seconds if timeout is None else min(timeout, self.most_seconds)
        try:
            self.cache.set(key, value, seconds)
        except Exception:
            log.warning("session cache unreachable on set: the session is in the database only", exc_info=True)

    def delete(self, key: str) -> None:
        try:
            self.cache.delete(key)
        except Exception:
            # The session is gone from the database; its cached copy expires within most_seconds.
            log.error("session cache unreachable on delete: a cached copy may live %ss", self.most_seconds)

    def __contains__(self, key: str) -> bool:
        try:
            return key in self.cache
        except Exception:
            log.warning("session cache unreachable on exists: asking the database", exc_info=True)
            return False


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        most = getattr(settings, "SESSION_CACHE_SECONDS", DEFAULT_CACHE_SECONDS)
        self._cache = ForgivingCache(caches[settings.SESSION_CACHE_ALIAS], most)

    def load_with(self, key: str) -> Any:
        """Load the session, unless it is loaded, and read `key` of the same cache in the same round trip
        (the signed-in user's copy, zarkcity_site.users); `key`'s value, None where it is not cached.
        A session missing from the cache is read as `load` reads it: from the database."""
        if hasattr(self, "_session_cache") or self.session_key is None:
            return self._cache.get(key)
        values = self._cache.get_many([self.cache_key, key])
        data = values.get(self.cache_key)
        self._session_cache = data if data is not None else self.load()
        return values.get(key)
