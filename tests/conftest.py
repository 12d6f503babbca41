"""What the whole suite needs: the named users alice, bob, charlie, dave and erin, settings for tests
that go through the middleware and allauth's views, Celery run eagerly on request (`eager`), and the
skips for tests that need PostgreSQL or Redis.

Each named user has a verified primary address <name>@example.com (allauth's EmailAddress) and the
password "correct horse battery staple", so tests can log in with the client or match invitations by email.
"""

from __future__ import annotations

import os
import uuid

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, the test database is a file, as the embedded default's is, not Django's in-memory one.

    An in-memory database lives in one connection, so a live server (the browser tests, the API's) answers
    on the test's own connection from its threads, and Django warns that queries run at once from two
    threads "may sometimes randomly cause the tests to fail": SQLite answered a page's write "database
    table is locked" while the test read the same table (CI, stop 39). With a file, each thread has its
    own connection, and a writer waits for another's lock (the settings' timeout) as in production."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _no_account_rate_limits(settings):
    """allauth counts failed logins and emails per address; tests send many on purpose. So do ours
    (zarkcity_site/ratelimit.py); tests/ops/test_rate_limits.py turns them on."""
    settings.ACCOUNT_RATE_LIMITS = False
    settings.RATE_LIMITS = {}


@pytest.fixture(autouse=True)
def _static_files_without_collectstatic(settings):
    """Tests run with DEBUG off but never run collectstatic: let WhiteNoise look files up per request
    instead of indexing an empty STATIC_ROOT (and warning about it) when the middleware starts."""
    settings.WHITENOISE_AUTOREFRESH = True
    settings.WHITENOISE_USE_FINDERS = True


@pytest.fixture(autouse=True)
def _own_rate_limit_counts(monkeypatch):
    """Rate limits count in the cache (Redis, or var/cache), which outlives a test run, and a new test
    database numbers its users from 1 again: a second run within the window would start over the
    limit. Each test counts under keys of its own."""
    from zarkcity_site import ratelimit

    monkeypatch.setattr(ratelimit, "PREFIX", f"test-ratelimit-{uuid.uuid4().hex}")


@pytest.fixture(autouse=True)
def _own_game_headlines(settings):
    """The poll's cached headlines (games/news.py) are keyed by game id, and every test database numbers
    its games from 1 again while the cache (Redis, or var/cache) stays: each test keys its own."""
    settings.ZARKCITY_HEADLINE_KEY = f"test-headline-{uuid.uuid4().hex}"
    settings.ZARKCITY_WATCH_KEY = f"test-watch-{uuid.uuid4().hex}"  # notifications/watching.py, as well


NAMES = ("alice", "bob", "charlie", "dave", "erin")
PASSWORD = "correct horse battery staple"


@pytest.fixture
def eager():
    """Celery tasks run at once in this process, as if a worker had taken them off the queue."""
    from zarkcity_site.celery import app as celery_app

    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _no_web_push(settings):
    """No VAPID key, none made: Web Push is off unless a test turns it on (tests/notifications/test_push.py)."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_MAKE_KEY = False


@pytest.fixture
def push_service(settings):
    """Web Push on, with a VAPID key of its own, and a local push service (tests/notifications/push_service.py)
    as the only one subscriptions may name."""
    from notifications import push
    from tests.notifications.push_service import serve

    service, server = serve()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = push.new_private_key()
    settings.WEBPUSH_PUSH_SERVICES = [service.url]
    yield service
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def quick_bots(settings):
    """Bots at the table search a hundredth of their full budget: a move in milliseconds, not a second."""
    settings.ZARKCITY_BOT_EFFORT = 0.01


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2 is slow by design; tests log in often and need no protection."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(name: str):
    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def charlie(db):
    return make_user("charlie")


@pytest.fixture
def dave(db):
    return make_user("dave")


@pytest.fixture
def erin(db):
    return make_user("erin")


@pytest.fixture
def users(alice, bob, charlie, dave, erin):
    """All five, in seat order."""
    return [alice, bob, charlie, dave, erin]


def pytest_collection_modifyitems(config, items):
    """Tests marked postgres run only on PostgreSQL (DATABASE_URL); tests marked redis only with REDIS_URL."""
    from django.conf import settings

    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    no_postgres = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    no_redis = pytest.mark.skip(reason="needs a real Redis: set REDIS_URL=redis://127.0.0.1:6379/0")
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(no_postgres)
        if "redis" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(no_redis)
