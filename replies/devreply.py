"""The dev mailbox's reply form: a developer answers any email in var/mail/ from the browser, as its
recipient, and the reply goes through the same service as real mail (DEBUG and staff only)."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

from notifications.backends import mailbox_dir

from . import inbox
from .reading import parse_message, reply_text

NAME_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def original(name: str) -> EmailMessage | None:
    if not name.endswith(".eml") or not set(name) <= NAME_CHARACTERS:
        return None
    path = mailbox_dir() / name
    return parse_message(path.read_bytes()) if path.is_file() else None


def reply_message(letter: EmailMessage, text: str) -> EmailMessage:
    """What a mail program would send: from the letter's recipient to its Reply-To, the original quoted."""
    reply = EmailMessage(policy=policy.SMTP)
    reply["From"] = str(letter.get("To", ""))
    reply["To"] = str(letter.get("Reply-To") or letter.get("From", ""))
    subject = str(letter.get("Subject", ""))
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Date"] = formatdate(localtime=False)
    reply["Message-ID"] = make_msgid(domain="devmail.localhost")
    if letter.get("Message-ID"):
        reply["In-Reply-To"] = reply["References"] = str(letter["Message-ID"])
    quoted = "\n".join(f"> {line}" for line in _text(letter).splitlines())
    sender = parseaddr(str(letter.get("From", "")))[0] or "zarkcity"
    reply.set_content(f"{text.strip()}\n\nOn {letter.get('Date', 'an earlier day')}, {sender} wrote:\n{quoted}\n")
    return reply


def _text(letter: EmailMessage) -> str:
    part = letter.get_body(preferencelist=("plain",))
    return str(part.get_content()) if part is not None else ""


def send_reply(name: str, text: str) -> str:
    """Send a reply to the letter `name`; what happened, in words, for the page."""
    letter = original(name)
    if letter is None:
        return "No such message."
    reply = reply_message(letter, text)
    recipient = parseaddr(str(reply["To"]))[1]
    accepted, _ = inbox.inbound_accept(raw=reply.as_bytes(), source="devmail", envelope_to=[recipient])
    first = reply_text(reply).first
    return f"Reply {first!r} sent to {recipient} ({accepted.value}); the answer lands in this mailbox."
