"""Rate limits count in the shared cache, so they hold across processes and restarts: the admin
login (which had none), allauth's login, sign-up and password reset, and our helper itself."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache

from tests.conftest import make_user
from zarkcity_site import ratelimit
from zarkcity_site import settings as configured

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def limits(settings):
    """The limits as configured for the site (tests/conftest.py turns them off for everyone else)."""
    settings.RATE_LIMITS = dict(configured.RATE_LIMITS)


def an_address() -> str:
    """A client address of its own: counts from other tests (same window, same cache) do not mix in."""
    n = uuid.uuid4().int
    return f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250 + 1}"


def test_the_cache_is_shared_between_processes():
    assert not isinstance(caches["default"], LocMemCache)


@pytest.mark.parametrize(("rate", "parsed"), [("30/m", (30, 60)), ("10/5m", (10, 300)), ("5/30s", (5, 30))])
def test_rates_read_as_attempts_per_seconds(rate, parsed):
    assert ratelimit.parse(rate) == parsed


def test_a_rate_that_is_not_one_is_refused():
    with pytest.raises(ValueError):
        ratelimit.parse("thirty a minute")


def test_hit_refuses_past_the_limit_and_counts_per_key(settings):
    settings.RATE_LIMITS = {"chat": "3/m"}
    key, other = f"user:{uuid.uuid4()}", f"user:{uuid.uuid4()}"
    assert [ratelimit.hit("chat", key) for _ in range(5)] == [True, True, True, False, False]
    assert ratelimit.hit("chat", other)


def test_an_action_without_a_limit_is_never_refused(settings):
    settings.RATE_LIMITS = {}
    assert all(ratelimit.hit("chat", "user:1") for _ in range(100))


def test_the_count_holds_across_processes_and_restarts(tmp_path):
    """Two separate Python processes, one after the other (a restart), count against one limit."""
    key = f"user:{uuid.uuid4()}"
    script = (
        "import django, sys; django.setup()\n"
        "from django.conf import settings; from zarkcity_site import ratelimit\n"
        "settings.RATE_LIMITS = {'move': '4/h'}\n"
        "print(' '.join(str(ratelimit.hit('move', sys.argv[1])) for _ in range(int(sys.argv[2]))))"
    )
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "zarkcity_site.settings", "PYTHONPATH": str(ROOT)}
    # Windows are fixed hours of the clock: two runs straddling a full hour would count in two windows
    # (a CI run at 04:59:58 did). Start them early in an hour, waiting out the last two minutes of one.
    left = 3600 - time.time() % 3600
    if left < 120:
        time.sleep(left + 1)
    runs = [
        subprocess.run([sys.executable, "-c", script, key, n], env=env, capture_output=True, text=True, cwd=ROOT)
        for n in ("3", "2")
    ]
    assert [run.stdout.split() for run in runs] == [["True", "True", "True"], ["True", "False"]], runs[-1].stderr


@pytest.fixture
def operator(django_user_model):
    """A superuser of a name of its own (the per-username count must not carry over between tests)."""
    name = f"op{uuid.uuid4().hex[:10]}"
    django_user_model.objects.create_superuser(name, f"{name}@example.com", "the right one")
    return name


def test_thirty_wrong_admin_passwords_are_not_all_answered(client, limits, operator):
    address = an_address()
    codes = [
        client.post("/admin/login/", {"username": operator, "password": f"guess {n}"}, REMOTE_ADDR=address).status_code
        for n in range(30)
    ]
    assert codes[:5] == [200] * 5  # the form again, with "wrong password"
    assert codes[5:] == [429] * 25


def test_admin_guesses_spread_over_usernames_are_limited_per_address(client, limits, db):
    address = an_address()
    codes = [
        client.post("/admin/login/", {"username": f"who{n}", "password": "x"}, REMOTE_ADDR=address).status_code
        for n in range(12)
    ]
    assert codes.count(429) == 2


def test_the_admin_still_logs_in_under_the_limit(client, limits, operator):
    response = client.post(
        "/admin/login/", {"username": operator, "password": "the right one"}, REMOTE_ADDR=an_address()
    )
    assert response.status_code == 302


@pytest.fixture
def allauth_limits(settings):
    del settings.ACCOUNT_RATE_LIMITS  # allauth's own defaults, counted in the shared cache


def test_allauth_locks_an_account_after_five_wrong_passwords(client, allauth_limits, operator):
    """Then even the right password is refused until the window passes (allauth's login_failed)."""
    for n in range(5):
        client.post("/accounts/login/", {"login": operator, "password": f"guess {n}"}, REMOTE_ADDR=an_address())
    response = client.post(
        "/accounts/login/", {"login": operator, "password": "the right one"}, REMOTE_ADDR=an_address()
    )
    assert b"Too many failed login attempts" in response.content
    assert "_auth_user_id" not in client.session


def test_allauth_refuses_repeated_password_resets(client, allauth_limits, db):
    """allauth counts resets per address too, in the shared cache: an address of its own, so that a
    second run of the suite within the window (the same Redis) starts from no count."""
    user = make_user(f"reset{uuid.uuid4().hex[:10]}")
    address = an_address()
    codes = [
        client.post("/accounts/password/reset/", {"email": user.email}, REMOTE_ADDR=address).status_code
        for _ in range(7)
    ]
    assert codes[0] == 302 and codes[-1] == 429


def test_allauth_refuses_a_flood_of_sign_ups(client, allauth_limits, db):
    address = an_address()
    codes = [
        client.post("/accounts/signup/", {"email": "not an address"}, REMOTE_ADDR=address).status_code
        for _ in range(22)
    ]
    assert codes[0] == 200 and codes[-1] == 429


def cache_down(*args, **kwargs):
    raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_a_cache_that_is_down_counts_nothing_and_refuses_nothing(settings, monkeypatch, caplog):
    """Redis down must not turn every move into a server error: the limit is off until it is back."""
    settings.RATE_LIMITS = {"move": "1/m"}
    for name in ("incr", "add", "set"):
        monkeypatch.setattr(ratelimit.cache, name, cache_down)
    key = f"user:{uuid.uuid4()}"
    with caplog.at_level(logging.WARNING, logger="zarkcity_site.ratelimit"):
        assert all(ratelimit.hit("move", key) for _ in range(3))
    assert "move not rate limited for now" in caplog.text and key not in caplog.text


@pytest.mark.parametrize("action", sorted(ratelimit.GUARDS_A_PASSWORD))
def test_a_cache_that_is_down_shuts_the_admin_login_rather_than_let_passwords_be_guessed(
    action, settings, monkeypatch, caplog
):
    settings.RATE_LIMITS = {action: "100/m"}
    monkeypatch.setattr(ratelimit.cache, "incr", cache_down)
    with caplog.at_level(logging.WARNING, logger="zarkcity_site.ratelimit"):
        assert not ratelimit.hit(action, "admin:alice")
    assert f"{action} refused until it is back" in caplog.text and "alice" not in caplog.text


@pytest.mark.django_db
def test_a_move_is_played_while_the_cache_is_down(alice, bob, settings, django_capture_on_commit_callbacks):
    """The whole POST, with the shared cache a Redis nobody answers: the move lands, the page answers."""
    from django.core.cache import caches as all_caches
    from django.test import Client
    from django.urls import reverse

    from engine.zarkcity.movegen import legal_moves
    from games import services
    from tests.service.gameplay import mover, play_plies, start_game, user_of

    game = play_plies(start_game(alice, bob), 4)
    settings.RATE_LIMITS = dict(configured.RATE_LIMITS)
    settings.CACHES = {"default": {"BACKEND": "zarkcity_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}}
    assert "127.0.0.1:9" in str(all_caches["default"]._servers)  # noqa: SLF001 (Django's own reset on the setting)
    colour = mover(game)
    client = Client()
    client.force_login(user_of(game, colour))
    text = str(legal_moves(services.state_of(game), colour)[0])  # the rules' moves: resigning is the kit's step
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(reverse("game_move", args=[game.pk]), {"text": text, "seen_ply": game.ply})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.ply == 5
