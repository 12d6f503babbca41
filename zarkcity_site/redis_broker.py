"""Production's broker: kombu's Redis transport, its publishing client kept.

kombu 5.7 makes a new `redis.Redis` for every message it publishes (`Channel.conn_or_acquire`), around
the same connection pool: redis-py builds its command callbacks anew each time, and its `__del__` then
runs for it. That was a third of a move's Celery send (the "your turn" task queued after commit). Here
the channel keeps one client per pool, as the shared cache does (zarkcity_site/cache.py). A client holds
no connection of its own: each command takes one from the pool and gives it back, as before, so a
broker that went away is met as before (the pool reconnects; the send fails fast and the outbox row
waits for the sweep). A pool kombu replaces (after a fork, a closed channel) gets a client of its own.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _kept: Any = None

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:  # the worker's BRPOP and pub/sub clients: kombu keeps those itself
            return super()._create_client(asynchronous=True)  # type: ignore[no-untyped-call]  # kombu is untyped
        kept = self._kept
        if kept is None or kept.connection_pool is not self.pool:
            kept = self._kept = super()._create_client()  # type: ignore[no-untyped-call]  # kombu is untyped
        return kept


class Transport(redis.Transport):
    Channel = Channel
