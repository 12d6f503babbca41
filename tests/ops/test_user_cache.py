"""The signed-in user is read from the shared cache (zarkcity_site/users.py): a page reads no user row, yet
a changed password, a closed account and a log-out sign the other sessions out, and a cache that is down
signs nobody out. A session's next request reads it and its user's copy in one round trip."""

from __future__ import annotations

from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.cached_db import KEY_PREFIX
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.ops.test_sessions import RAISING, REDIS_DOWN
from zarkcity_site import users

USER_ROW = 'FROM "auth_user" WHERE "auth_user"."id" ='  # django.contrib.auth's read of the session's user


def page(client: Client) -> tuple[int, str]:
    """The dashboard as this client sees it, and how many times it read the signed-in user's row."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("dashboard"))
    reads = sum(USER_ROW in q["sql"] for q in captured.captured_queries)
    return reads, response.content.decode() if response.status_code == 200 else f"redirect {response.status_code}"


def signed_in(name: str) -> Client:
    client = Client()
    assert client.post(reverse("account_login"), {"login": name, "password": PASSWORD}).status_code == 302
    return client


def test_a_signed_in_page_reads_no_user_row(alice):
    client = signed_in("alice")
    page(client)  # the copy cached
    reads, shown = page(client)
    assert reads == 0
    assert "alice" in shown


def test_a_changed_password_signs_the_other_sessions_out_and_keeps_its_own(alice):
    mine, other = signed_in("alice"), signed_in("alice")
    page(mine), page(other)  # both sessions find the cached copy
    new = "a new and longer passphrase"
    response = mine.post(
        reverse("account_change_password"), {"oldpassword": PASSWORD, "password1": new, "password2": new}
    )
    assert response.status_code == 302
    assert page(other)[1] == "redirect 302"  # to the login page: signed out
    assert "alice" in page(mine)[1]


def test_a_closed_account_is_signed_out(alice):
    client = signed_in("alice")
    page(client)
    alice.is_active = False
    alice.save()
    assert page(client)[1] == "redirect 302"


def test_a_logged_out_session_stays_out(alice):
    client = signed_in("alice")
    page(client)
    key = client.session.session_key
    client.post(reverse("account_logout"))
    client.cookies["sessionid"] = key  # the old cookie, kept by someone
    assert page(client)[1] == "redirect 302"


def test_a_copy_cached_before_the_commit_is_dropped_after_it(alice, django_capture_on_commit_callbacks):
    """A request that read the row before the password change committed may cache the old user after the
    save's drop: the drop after commit removes it."""
    stale = get_user_model().objects.get(pk=alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        alice.set_password("a new and longer passphrase")
        alice.save()
        users._cache().set(users._key(alice.pk), stale)
    assert users._cache().get(users._key(alice.pk)) is None


@pytest.mark.parametrize("caches", [REDIS_DOWN, RAISING], ids=["redis-stopped", "raising-backend"])
def test_a_cache_that_goes_down_signs_nobody_out(alice, settings, caches):
    client = signed_in("alice")
    page(client)
    settings.CACHES = caches
    reads, shown = page(client)
    assert reads == 1  # from the database
    assert "alice" in shown


def cache_reads(client: Client) -> list[list[str]]:
    """The page's reads of the session's cache that asked for a session or a user: the keys of each."""
    cache = caches[settings.SESSION_CACHE_ALIAS]
    reads: list[list[str]] = []
    get, get_many = cache.get, cache.get_many
    inside = []  # a cache without its own get_many (files, memory) asks get() for each key: one read still

    def one(key, *args, **kwargs):
        if not inside:
            reads.append([key])
        return get(key, *args, **kwargs)

    def many(keys, *args, **kwargs):
        reads.append(list(keys))
        inside.append(1)
        try:
            return get_many(keys, *args, **kwargs)
        finally:
            inside.pop()

    with mock.patch.object(cache, "get", one), mock.patch.object(cache, "get_many", many):
        page(client)
    return [keys for keys in reads if any(k.startswith(("zarkcity.user.", KEY_PREFIX)) for k in keys)]


def test_the_session_and_its_user_come_in_one_cache_read(alice):
    client = signed_in("alice")
    page(client)  # the copy cached, and which user the session signs in remembered
    key = client.session.session_key
    assert cache_reads(client) == [[KEY_PREFIX + key, users._key(alice.pk)]]


def test_the_remembered_user_is_only_a_guess(alice, bob):
    client = signed_in("alice")
    page(client)
    users._SESSION_USERS[client.session.session_key] = str(bob.pk)  # wrong: the session is alice's
    page(signed_in("bob"))  # bob's copy in the cache, to be read by mistake were the guess believed
    reads, shown = page(client)
    assert "alice" in shown and ">bob<" not in shown
