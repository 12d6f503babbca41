"""Browser tests: Debian's Chromium (/usr/bin/chromium) driven by Playwright for Python, against
pytest-django's live server. Playwright's own browser downloads are never used (`playwright install`
is not run anywhere): without /usr/bin/chromium or the playwright package these tests skip and say why.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import make_user

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


def pytest_collection_modifyitems(config, items):
    """Every test in this folder is a browser test; skip them all, with the reason, when one is missing."""
    here = Path(__file__).parent
    mine = [item for item in items if Path(str(item.fspath)).is_relative_to(here)]
    for item in mine:
        item.add_marker(pytest.mark.browser)
        # The session-wide live server starts its WhiteNoise before the per-test static settings apply
        # (tests/conftest.py); Django's static handler in front of it serves the files from the finders.
        item.add_marker(pytest.mark.filterwarnings("ignore:No directory at:UserWarning"))
    reason = _missing()
    if reason:
        for item in mine:
            item.add_marker(pytest.mark.skip(reason=reason))


def _missing() -> str:
    if not os.access(CHROMIUM, os.X_OK):
        return f"Debian's chromium is not installed at {CHROMIUM} (apt-get install -y chromium; scripts/test.sh does)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements-dev.txt)"
    return ""


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread while it is open; the tests'
    # own ORM calls (and the database flush after each test) are still plain synchronous code, so
    # Django is told to allow them, for this module only: the browser closes, and the setting goes,
    # before the next module's tests (some run subprocesses that must not inherit it). The live
    # server answers the browser from its own thread.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(autouse=True)
def _quick_polling(settings):
    settings.ZARKCITY_POLL_SECONDS = 1


@pytest.fixture
def players(transactional_db):
    return make_user("alice"), make_user("bob")


@pytest.fixture
def open_as(chromium, live_server):
    """open_as(user, **context_options) -> a Playwright page logged in as `user`, in a context of its
    own (a viewport of 1280x900 unless told otherwise); `user=None` is an anonymous visitor."""
    contexts = []

    def open_page(user, **options):
        context = chromium.new_context(**({"viewport": {"width": 1280, "height": 900}} | options))
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        return page

    yield open_page
    for context in contexts:
        context.close()
    # A closing game page tells the server its player stopped watching (static/js/watching.js): let
    # that last request finish before the test's database is flushed under it.
    time.sleep(0.5)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
