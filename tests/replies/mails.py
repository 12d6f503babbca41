"""Replies as real mail programs write them, built with the email package: Gmail (top-posted, the
attribution wrapped, HTML with gmail_quote), Outlook (windows-1252, quoted-printable, the original
under a rule), Apple Mail (base64, "Sent from my iPhone", blockquote type=cite), Thunderbird (bottom-
posted under "On ... wrote:", format=flowed) and an HTML-only webmail."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid

ORIGINAL = [
    "Zark City #1: it is your move, bob (yellow): your turn.",
    "",
    "Since your last turn:",
    "  - red built 7H at -1,0",
    "Reply to this email with your move on the first line.",
]
WHEN = datetime(2026, 11, 23, 13, 0, tzinfo=UTC)


def _headers(message: EmailMessage, *, sender: str, to: str, subject: str, mailer: str) -> EmailMessage:
    message["From"] = sender
    message["To"] = to
    message["Subject"] = f"Re: {subject}"
    message["Date"] = format_datetime(WHEN)
    message["Message-ID"] = make_msgid(domain="mail.example.com")
    message["In-Reply-To"] = "<notification.1@127.0.0.1>"
    message["X-Mailer"] = mailer
    return message


def quoted(prefix: str = "> ") -> str:
    return "\n".join(f"{prefix}{line}".rstrip() for line in ORIGINAL)


def gmail(move: str, *, sender: str, to: str, subject: str = "Zark City #1: your turn", second: str = "") -> bytes:
    lines = move + (f"\n{second}" if second else "")
    text = f"{lines}\n\nOn Mon, 23 Nov 2026 at 13:00, Zark City <\n{to}> wrote:\n\n{quoted()}\n"
    html_lines = "".join(f"<div>{line}</div>" for line in lines.split("\n"))
    html = (
        f'<div dir="ltr">{html_lines}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, '
        f'23 Nov 2026 at 13:00, Zark City &lt;{to}&gt; wrote:<br></div><blockquote class="gmail_quote">'
        f"{'<br>'.join(ORIGINAL)}</blockquote></div>"
    )
    message = _headers(EmailMessage(), sender=sender, to=to, subject=subject, mailer="Gmail")
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


def outlook(move: str, *, sender: str, to: str, subject: str = "Zark City #1: your turn", second: str = "") -> bytes:
    lines = move + (f"\r\n{second}" if second else "")
    original = "\r\n".join(ORIGINAL).replace("your move", "your move \u2019now\u2019")  # a curly quote: cp1252 0x92
    text = (
        f"{lines}\r\n\r\n________________________________\r\nFrom: Zark City <{to}>\r\n"
        f"Sent: Monday, November 23, 2026 1:00 PM\r\nTo: Bob <{sender}>\r\nSubject: {subject}\r\n\r\n{original}\r\n"
    )
    html = (
        f'<html><head><style>p{{margin:0}}</style></head><body><div style="font-family:Calibri">{lines}</div>'
        f'<div id="appendonsend"></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg">'
        f"<b>From:</b> Zark City<br><b>Sent:</b> Monday</div><div>{original}</div></body></html>"
    )
    message = _headers(EmailMessage(), sender=sender, to=to, subject=subject, mailer="Microsoft Outlook 16.0")
    message.set_content(text, charset="windows-1252", cte="quoted-printable")
    message.add_alternative(html, subtype="html", charset="windows-1252", cte="quoted-printable")
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


def apple(move: str, *, sender: str, to: str, subject: str = "Zark City #1: your turn", second: str = "") -> bytes:
    lines = move + (f"\n{second}" if second else "")
    text = f"{lines}\n\nSent from my iPhone\n\n> On 23 Nov 2026, at 13:00, Zark City <{to}> wrote:\n>\n{quoted()}\n"
    html = (
        f'<html><body dir="auto"><div dir="ltr">{lines.replace(chr(10), "<br>")}</div><div dir="ltr"><br>'
        f'Sent from my iPhone</div><div dir="ltr"><br><blockquote type="cite">On 23 Nov 2026, at 13:00, '
        f"Zark City wrote:<br>{'<br>'.join(ORIGINAL)}</blockquote></div></body></html>"
    )
    message = _headers(EmailMessage(), sender=sender, to=to, subject=subject, mailer="iPhone Mail (22A3354)")
    message.set_content(text, cte="base64")
    message.add_alternative(html, subtype="html", cte="base64")
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


def thunderbird(
    move: str, *, sender: str, to: str, subject: str = "Zark City #1: your turn", second: str = ""
) -> bytes:
    """Bottom-posted: the attribution and the quote come first, the move under them; a signature last."""
    lines = move + (f"\n{second}" if second else "")
    text = f"On 23/11/2026 13:00, Zark City wrote:\n{quoted()}\n\n{lines}\n\n-- \nBob, from the attic\n"
    message = _headers(EmailMessage(), sender=sender, to=to, subject=subject, mailer="Mozilla Thunderbird")
    message.set_content(text, params={"format": "flowed"})
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


def html_only(move: str, *, sender: str, to: str, subject: str = "Zark City #1: your turn", second: str = "") -> bytes:
    lines = move + (f"<br>{second}" if second else "")
    html = f"<html><body><p>{lines}</p><blockquote>{'<br>'.join(ORIGINAL)}</blockquote></body></html>"
    message = _headers(EmailMessage(), sender=sender, to=to, subject=subject, mailer="Webmail")
    message.set_content(html, subtype="html")
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


def auto_reply(*, sender: str, to: str, headers: dict[str, str], subject: str = "Out of Office") -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = make_msgid(domain="mail.example.com")
    for name, value in headers.items():
        message[name] = value
    message.set_content("I am away until Monday and will answer your message then.\n")
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


CLIENTS = {"gmail": gmail, "outlook": outlook, "apple": apple, "thunderbird": thunderbird, "html-only": html_only}
