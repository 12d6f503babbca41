"""The embedded default's mailbox: each message as one .eml file in EMAIL_FILE_PATH, listed at /dev/mail/.

Django's own file backend appends a whole connection's messages to one .log file, which a page
cannot split reliably; one standard .eml per message also opens in any mail program.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

log = logging.getLogger(__name__)


def mailbox_dir() -> Path:
    return Path(settings.EMAIL_FILE_PATH)


class DevMailboxBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        folder = mailbox_dir()
        folder.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            # Sortable by time; the uuid keeps two messages of the same microsecond apart.
            name = f"{timezone.now():%Y%m%d-%H%M%S-%f}-{uuid.uuid4().hex[:8]}.eml"
            (folder / name).write_bytes(message.message().as_bytes())  # lines end in "\n" (Django's default)
            log.info("mail to %s: %s (%s)", ", ".join(message.recipients()), message.subject, folder / name)
            sent += 1
        return sent
