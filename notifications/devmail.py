"""Reading the embedded default's mailbox (var/mail/*.eml) for the /dev/mail/ pages (DEBUG only)."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from .backends import mailbox_dir

NAME = re.compile(r"^[\w.-]+\.eml$")


@dataclass(frozen=True)
class Letter:
    name: str
    to: str
    subject: str
    date: str
    text: str = ""
    html: str = ""


def _parse(path: Path) -> EmailMessage:
    with path.open("rb") as handle:
        return BytesParser(policy=policy.default).parse(handle)


def letters(limit: int = 200) -> list[Letter]:
    """The newest messages first."""
    folder = mailbox_dir()
    if not folder.is_dir():
        return []
    paths = sorted(folder.glob("*.eml"), reverse=True)[:limit]
    return [_summary(path, _parse(path)) for path in paths]


def _summary(path: Path, message: EmailMessage) -> Letter:
    return Letter(
        name=path.name,
        to=str(message["To"] or ""),
        subject=str(message["Subject"] or ""),
        date=str(message["Date"] or ""),
    )


def letter(name: str) -> Letter | None:
    """One message with its text part and its HTML part, inline images turned into data: URIs."""
    if not NAME.match(name):
        return None
    path = mailbox_dir() / name
    if not path.is_file():
        return None
    message = _parse(path)
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    return Letter(
        **vars(_summary(path, message))
        | {
            "text": text.get_content() if text else "",
            "html": _inline_images(message, html.get_content()) if html else "",
        }
    )


def _inline_images(message: EmailMessage, html: str) -> str:
    for part in message.walk():
        cid, payload = part.get("Content-ID"), part.get_payload(decode=True)
        if cid and part.get_content_maintype() == "image" and isinstance(payload, bytes):
            data = base64.b64encode(payload).decode()
            html = html.replace(f"cid:{cid.strip('<>')}", f"data:{part.get_content_type()};base64,{data}")
    return html
