"""Reply addresses: play+TOKEN@REPLIES_DOMAIN. The token is 120 random bits in lower-case base32, so
mail systems that fold the local part to lower case do not break it."""

from __future__ import annotations

import base64
import re
import secrets
from collections.abc import Iterable

from django.conf import settings

TOKEN_BYTES = 15  # 120 bits: 24 base32 characters, no padding


def new_token() -> str:
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode().lower()


def address(token: str) -> str:
    return f"{settings.REPLIES_LOCAL_PART}+{token}@{settings.REPLIES_DOMAIN}"


def _pattern() -> re.Pattern[str]:
    local, domain = re.escape(settings.REPLIES_LOCAL_PART), re.escape(settings.REPLIES_DOMAIN)
    return re.compile(rf"^{local}(?:\+([a-z2-7]{{1,40}}))?@{domain}$", re.IGNORECASE)


def is_ours(recipient: str) -> bool:
    """Whether a recipient is one of our reply addresses (with or without a token)."""
    return bool(_pattern().match(recipient.strip().strip("<>")))


def token_in(recipients: Iterable[str]) -> str | None:
    """The token of the first reply address among `recipients`; "" for our address without one; None if none is ours."""
    pattern = _pattern()
    for recipient in recipients:
        found = pattern.match(recipient.strip().strip("<>"))
        if found:
            return (found.group(1) or "").lower()
    return None
