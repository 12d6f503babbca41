"""The Celery app. Redis when REDIS_URL is set; otherwise kombu's filesystem transport (no server)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarkcity_site.settings")

app = Celery("zarkcity")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
