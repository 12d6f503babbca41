"""The shared cache on Redis, with one Redis client per connection pool.

Django's Redis backend makes a new `redis.Redis` for every cache call, around the same pool: about
65 µs of CPU each (its command callbacks built anew), more than a GET's own round trip. A move makes
five or six cache calls (its session, the rate limit, the poll's headline dropped, checked and stored)
and every page and poll at least one, so the client is made once per pool and kept. A client holds no
connection of its own: each command takes one from the pool and gives it back, as before.

`incr` is one round trip: Django's asks `EXISTS` and then `INCRBY` (every move's rate limit, in
zarkcity_site/ratelimit.py, counts with it), here one Lua script does both in Redis, atomically.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

# INCRBY a key that exists, else nil: Django's incr() raises ValueError for a key that is not there,
# where a plain INCRBY would create it with no expiry (a rate limit's window that never closes).
INCR_EXISTING = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return redis.call('INCRBY', KEYS[1], ARGV[1])
end
return false
"""


class KeptClients(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}
        self._incr_existing: Any = None  # redis-py's Script: its SHA1, run on whichever client is asked

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own (not in its type stubs): the pool, kept for the life of the process, and redis.Redis.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client

    def incr(self, key: Any, delta: int) -> int:
        """As Django's (ValueError for a missing key), in one round trip: EVALSHA, the script loaded
        by redis-py at its first use and again after a Redis restart forgot it."""
        client = self.get_client(key, write=True)
        if self._incr_existing is None:
            self._incr_existing = client.register_script(INCR_EXISTING)
        value = self._incr_existing(keys=[key], args=[delta], client=client)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(value)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClients
