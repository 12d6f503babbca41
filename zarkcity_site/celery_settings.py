"""Celery's configuration: the CELERY_ names of Django's settings, copied into a plain dict.

Celery asks its configuration about fifteen times for each task it sends (`apply_async`: the routes,
the serializer, the retry policy...), each option under two names, and most are not set here, so each
falls through to Celery's defaults. Asked of Django's settings object, every miss raised and caught an
AttributeError per name, through Django's lazy wrapper: some 60 µs of a send's 300 (docs/performance.md,
"Game page and move submit"). A dict answers a miss with a KeyError. Celery reads this module when it
first needs its configuration, as it read Django's settings object before (whose overrides in tests it
never saw either: it kept the settings object found at that moment); what a test sets on `app.conf`
still wins over both.
"""

from typing import Any

from django.conf import settings

CELERY: dict[str, Any] = {name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")}
