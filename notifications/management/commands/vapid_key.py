"""`python manage.py vapid_key`: a new VAPID private key for Web Push, as the line to put in the
environment (docs/deployment.md), and the public key browsers will be given."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications import push


class Command(BaseCommand):
    help = "Print a new VAPID private key for Web Push (WEBPUSH_VAPID_PRIVATE_KEY=...) and its public key."

    def handle(self, *args: Any, **options: Any) -> None:
        key = push.new_private_key()
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={key}")
        self.stdout.write(f"# public key (the settings page hands it to browsers): {push.public_key_of(key)}")
