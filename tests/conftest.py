"""What the whole suite needs: settings for tests that go through the middleware and allauth's views."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_account_rate_limits(settings):
    """allauth counts failed logins and emails per address; tests send many on purpose."""
    settings.ACCOUNT_RATE_LIMITS = False


@pytest.fixture(autouse=True)
def _static_files_without_collectstatic(settings):
    """Tests run with DEBUG off but never run collectstatic: let WhiteNoise look files up per request
    instead of indexing an empty STATIC_ROOT (and warning about it) when the middleware starts."""
    settings.WHITENOISE_AUTOREFRESH = True
    settings.WHITENOISE_USE_FINDERS = True
