"""Celery's configuration: the CELERY_ names of Django's settings, copied into a plain dict.

Celery asks its configuration six times for each task it sends (`apply_async`: the routes, the
serializer, the retry policy...), each option under two names, and most are not set here, so each falls
through to Celery's defaults. Asked of Django's lazy settings object, every miss raised and caught an
AttributeError per name: 20 to 60 µs of a send's 250 to 320 (docs/performance.md, "Game page and move submit").
A dict answers a miss with a KeyError. Celery reads this module when it first needs its configuration;
a CELERY_ setting changed after that (`override_settings`) is not seen: tests set `app.conf`, which wins
over both (tests/conftest.py).
"""

from typing import Any

from django.conf import settings

# Two settings go in under their own names: spelt with the namespace (CELERY_TIMEZONE, CELERY_IMPORTS) they
# are also Celery 3's names for the same settings, and Celery 5 then warned at every worker's and beat's
# start that they are deprecated ("CDeprecationWarning: The 'CELERY_IMPORTS' setting..."), though they
# were read as the new ones. Celery finds a setting under its plain name as under the namespace's.
PLAIN_NAMES = {"CELERY_TIMEZONE": "timezone", "CELERY_IMPORTS": "imports"}

CELERY: dict[str, Any] = {
    PLAIN_NAMES.get(name, name): getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")
}
