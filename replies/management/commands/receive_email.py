"""Read one RFC 5322 message on standard input and queue it, for a mail server's pipe (Postfix's
pipe(8), Exim's pipe transport): exit 0 when taken (or already taken), 69 (EX_UNAVAILABLE, a bounce
with our reason) when it is too big."""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from replies import inbox

EX_UNAVAILABLE = 69


class Command(BaseCommand):
    help = "Read one email message on standard input and queue it as a reply (play by email)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--recipient", action="append", default=[], help="envelope recipient (Postfix ${recipient})"
        )
        parser.add_argument("--sender", default="", help="envelope sender (Postfix ${sender})")

    def handle(self, *args: object, recipient: list[str], sender: str, **options: object) -> None:
        raw = sys.stdin.buffer.read(settings.REPLIES_MAX_MESSAGE_BYTES + 1)  # one byte over is enough to refuse
        accepted, row_id = inbox.inbound_accept(raw=raw, source="pipe", envelope_to=recipient, envelope_from=sender)
        if accepted == inbox.Accepted.TOO_BIG:
            self.stderr.write(f"message too big (over {settings.REPLIES_MAX_MESSAGE_BYTES} bytes)")
            raise CommandError("message too big", returncode=EX_UNAVAILABLE)
        self.stdout.write(f"{accepted.value}{f' as #{row_id}' if row_id else ''}")
