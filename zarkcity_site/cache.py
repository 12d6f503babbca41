"""The shared cache on Redis, with one Redis client per connection pool.

Django's Redis backend makes a new `redis.Redis` for every cache call, around the same pool: about
65 µs of CPU each (its command callbacks built anew), more than a GET's own round trip. A move makes
five or six cache calls (its session, the rate limit, the poll's headline dropped, checked and stored)
and every page and poll at least one, so the client is made once per pool and kept. A client holds no
connection of its own: each command takes one from the pool and gives it back, as before.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class KeptClients(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own (not in its type stubs): the pool, kept for the life of the process, and redis.Redis.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClients
