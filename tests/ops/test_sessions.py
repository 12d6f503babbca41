"""Sessions are read from the shared cache and kept in the database (zarkcity_site/sessions.py): a page reads
no session row, and a cache that is down (Redis stopped, or a backend that raises) signs nobody out."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache.backends.base import BaseCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import PASSWORD
from zarkcity_site.sessions import ForgivingCache

# Production's Redis backend on a port where nothing listens: every call fails as with Redis stopped.
REDIS_DOWN = {
    "default": {
        "BACKEND": "zarkcity_site.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}
RAISING = {"default": {"BACKEND": "tests.ops.test_sessions.RaisingCache"}}


class RaisingCache(BaseCache):
    """A cache whose every call fails, as a client library raises when its server is gone."""

    def __init__(self, location: str, params: dict) -> None:
        super().__init__(params)

    def _fail(self, *args: object, **kwargs: object) -> None:
        raise ConnectionError("the cache is down")

    get = set = add = delete = has_key = incr = touch = clear = _fail  # type: ignore[assignment]


def session_reads(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return sum("django_session" in q["sql"] for q in captured.captured_queries), response.content.decode()


def test_a_signed_in_page_reads_its_session_from_the_cache(client, alice):
    client.force_login(alice)
    client.get(reverse("dashboard"))
    reads, page = session_reads(client, reverse("dashboard"))
    assert reads == 0
    assert "alice" in page


@pytest.mark.parametrize("caches", [REDIS_DOWN, RAISING], ids=["redis-stopped", "raising-backend"])
def test_a_cache_that_goes_down_signs_nobody_out(client, alice, settings, caches):
    client.force_login(alice)
    client.get(reverse("dashboard"))  # the session now cached
    settings.CACHES = caches
    reads, page = session_reads(client, reverse("dashboard"))
    assert reads == 1  # from the database
    assert "alice" in page


@pytest.mark.parametrize("caches", [REDIS_DOWN, RAISING], ids=["redis-stopped", "raising-backend"])
def test_with_the_cache_down_one_logs_in_plays_and_logs_out(client, alice, settings, caches):
    settings.CACHES = caches
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert "alice" in session_reads(client, reverse("dashboard"))[1]
    assert client.post(reverse("account_logout")).status_code == 302
    assert client.get(reverse("dashboard")).status_code == 302  # to the login page: signed out


def test_a_logout_deletes_the_cached_copy(client, alice):
    client.force_login(alice)
    key = client.session.session_key
    client.get(reverse("dashboard"))
    client.post(reverse("account_logout"))
    client.cookies["sessionid"] = key  # the old cookie, kept by someone
    assert client.get(reverse("dashboard")).status_code == 302


def test_the_cached_copy_lives_at_most_the_configured_seconds():
    cache = mock.Mock()
    ForgivingCache(cache, 300).set("k", {"a": 1}, 14 * 24 * 3600)
    cache.set.assert_called_once_with("k", {"a": 1}, 300)
