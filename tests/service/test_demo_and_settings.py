"""`manage.py demo` and the settings read from the environment."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "zarkcity_site" / "settings.py"
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k3y-" + "x7Qp" * 16,
    "DJANGO_ALLOWED_HOSTS": "example.org",
}


# ----------------------------------------------------------------------------- demo


@pytest.mark.django_db
def test_demo_is_idempotent_and_opens_past_the_starter_choice(client):
    first, second = StringIO(), StringIO()
    call_command("demo", stdout=first)
    call_command("demo", stdout=second)

    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.phase not in ("choose", "place")
    assert sorted(game.seats.values_list("user__username", flat=True)) == ["alice", "bob"]
    for output in (first.getvalue(), second.getvalue()):
        assert f"/games/{game.pk}/" in output
        assert "log in as alice / zarkcity-demo" in output and "log in as bob / zarkcity-demo" in output
    assert client.login(username="alice", password="zarkcity-demo")
    assert client.login(username="bob@example.com", password="zarkcity-demo")  # verified: email login works too


@pytest.mark.django_db
def test_demo_makes_an_operator_only_under_debug(client, settings):
    settings.DEBUG = True
    out = StringIO()
    call_command("demo", stdout=out)
    assert "operator  admin / zarkcity-demo" in out.getvalue()
    client.login(username="admin", password="zarkcity-demo")
    assert client.get("/dev/mail/").status_code == 200  # the sent-mail list is the operator's
    assert client.get("/admin/").status_code == 200

    settings.DEBUG = False
    get_user_model().objects.filter(username="admin").delete()
    call_command("demo", stdout=StringIO())
    assert not get_user_model().objects.filter(username="admin").exists()


# ----------------------------------------------------------------------------- settings


def load_settings(monkeypatch, **env: str) -> dict:
    """settings.py executed afresh with this environment (the running settings stay untouched)."""
    for name in ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


def test_no_database_url_means_sqlite_under_var(monkeypatch, tmp_path):
    settings = load_settings(monkeypatch, ZARKCITY_VAR_DIR=str(tmp_path))
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(tmp_path / "db.sqlite3")


def test_database_url_selects_postgresql(monkeypatch):
    settings = load_settings(monkeypatch, DATABASE_URL="postgres://zc:secret@db.internal:5433/zarkcity")
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"], database["USER"]) == (
        "db.internal",
        5433,
        "zarkcity",
        "zc",
    )


def test_redis_url_selects_the_redis_broker(monkeypatch):
    settings = load_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0")
    assert settings["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize("secret", ["", "   "])
def test_production_refuses_an_empty_secret_key(monkeypatch, secret):
    env = PRODUCTION | {"DJANGO_SECRET_KEY": secret}
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY must be set"):
        load_settings(monkeypatch, **env)
    monkeypatch.delenv("DJANGO_SECRET_KEY")
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY must be set"):
        runpy.run_path(str(SETTINGS))


def test_production_settings_are_hardened(monkeypatch):
    settings = load_settings(monkeypatch, **PRODUCTION)
    assert settings["DEBUG"] is False and settings["ALLOWED_HOSTS"] == ["example.org"]
    assert settings["SESSION_COOKIE_SECURE"] and settings["CSRF_COOKIE_SECURE"] and settings["SECURE_SSL_REDIRECT"]


def test_a_local_check_without_tls_can_relax_the_secure_cookies(monkeypatch):
    settings = load_settings(monkeypatch, **PRODUCTION, DJANGO_SECURE_COOKIES="0", DJANGO_SECURE_SSL_REDIRECT="0")
    assert not settings["SESSION_COOKIE_SECURE"] and not settings["CSRF_COOKIE_SECURE"]
    assert not settings["SECURE_SSL_REDIRECT"] and settings["ACCOUNT_DEFAULT_HTTP_PROTOCOL"] == "http"
    monkeypatch.delenv("DJANGO_SECURE_COOKIES")
    assert load_settings(monkeypatch, **PRODUCTION)["ACCOUNT_DEFAULT_HTTP_PROTOCOL"] == "https"


def test_a_malformed_debug_flag_is_a_clear_error(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG='maybe'"):
        load_settings(monkeypatch, DJANGO_DEBUG="maybe")


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= PRODUCTION | {"ZARKCITY_VAR_DIR": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "WARNING" not in output.upper(), output
