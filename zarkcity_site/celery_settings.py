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

CELERY: dict[str, Any] = {name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")}
