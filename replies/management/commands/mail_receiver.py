"""Run the SMTP receiver for reply addresses until stopped (scripts/serve.sh runs it on 127.0.0.1:2525)."""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand, CommandParser

from replies.receiver import controller


class Command(BaseCommand):
    help = "Receive replies to turn emails over SMTP (aiosmtpd)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=2525)

    def handle(self, *args: object, host: str, port: int, **options: object) -> None:
        receiver = controller(host, port)
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        receiver.start()
        self.stdout.write(f"receiving replies by SMTP on {host}:{port}")
        try:
            stop.wait()
        finally:
            receiver.stop()
