"""The shared cache on Redis keeps its client (zarkcity_site/cache.py): one per connection pool, not one
per call, and it answers as Django's own backend does, down to failing when Redis is gone."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

from zarkcity_site.cache import RedisCache


def cache_at(location: str, **options: object) -> RedisCache:
    return RedisCache(location, {"KEY_PREFIX": f"test-cache-{uuid.uuid4().hex}", "OPTIONS": options})


@pytest.mark.redis
def test_every_call_goes_through_one_client_and_answers_as_djangos():
    cache = cache_at(os.environ["REDIS_URL"])
    client = cache._cache.get_client(write=True)  # noqa: SLF001 (the kept client is the point)
    assert cache._cache.get_client() is client  # noqa: SLF001
    assert cache.get("headline") is None
    cache.set("headline", {"ply": 3}, 60)
    assert cache.add("headline", {"ply": 4}, 60) is False
    assert cache.get("headline") == {"ply": 3}
    assert cache.add("moves", 0, 60) is True
    assert cache.incr("moves") == 1
    cache.delete("headline")
    assert cache.get("headline", "gone") == "gone"
    cache.delete_many(["moves"])


@pytest.mark.redis
def test_incr_is_one_round_trip_and_refuses_a_missing_key_as_djangos():
    cache = cache_at(os.environ["REDIS_URL"])
    client = cache._cache.get_client(write=True)  # noqa: SLF001
    with pytest.raises(ValueError, match="not found"):
        cache.incr("window")
    assert cache.get("window") is None  # nothing made by the refused incr (a window with no expiry)
    cache.set("window", 1, 60)
    assert cache.incr("window") == 2  # the script is loaded at its first use
    sent = []
    real = client.execute_command
    client.execute_command = lambda *args, **options: sent.append(args[0]) or real(*args, **options)
    try:
        assert cache.incr("window", 5) == 7
    finally:
        del client.execute_command
    assert sent == ["EVALSHA"]  # Django's own asks EXISTS, then INCRBY
    assert 0 < client.ttl(cache.make_and_validate_key("window")) <= 60  # the window's expiry stands
    cache.set("window", "seven", 60)
    with pytest.raises(redis.exceptions.ResponseError):  # as INCRBY on a value that is not a number
        cache.incr("window")
    cache.delete("window")


def test_a_redis_that_is_down_fails_each_call_as_before():
    cache = cache_at("redis://127.0.0.1:9/0", socket_connect_timeout=1, socket_timeout=1)
    for _ in range(2):  # the kept client, asked again, fails again: no state of the failure is kept
        with pytest.raises(redis.exceptions.ConnectionError):
            cache.get("headline")
