"""Reading a reply: which lines are the player's (not quoted text, signatures or "On ... wrote:"), whether
it is an auto-reply or a bounce, and who sent it. Pure functions of the message; nothing here raises
on a malformed message (a bad charset, a broken MIME tree, bytes that are not text)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

MAX_LINE = 300  # longer lines are kept but cut: no move is this long
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)

# "On Mon, 23 Nov 2026 at 13:00, Zark City <play+...> wrote:" and its cousins in a few languages.
ATTRIBUTION = re.compile(
    r"^(on|le|am|el|il|op|em|den|w dniu)\b.*\b(wrote|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|skrev"
    r"|napisał)\s*:?\s*$",
    re.IGNORECASE | re.DOTALL,
)
# Where the quoted original starts in mail programs that do not quote with ">".
QUOTE_STARTS = re.compile(
    r"^(-{2,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{2,}|_{8,}|-{8,}"
    r"|(from|de|von|van|da):\s.+|begin forwarded message:?)$",
    re.IGNORECASE,
)
# Lines a phone or a mail program adds under the text: never a move, never a second line.
CLIENT_LINES = re.compile(
    r"^(sent from my .+|get outlook for .+|sent from (mail|outlook) for .+|envoyé de mon .+)$", re.I
)


@dataclass(frozen=True)
class ReplyText:
    """The player's own lines, in order, at most the first few."""

    lines: tuple[str, ...]

    @property
    def first(self) -> str:
        return self.lines[0] if self.lines else ""

    @property
    def second(self) -> str:
        return self.lines[1] if len(self.lines) > 1 else ""


# Why a message that reached a reply address cannot be read as a reply: the sender is told so.
TOO_DEEP = "your email's parts are nested too deep to be read (no mail program writes that)"
NUL_HEADER = "a header of your email holds a NUL character (a zero byte), which no mail program writes"
NUL_TEXT = "your reply's text holds a NUL character (a zero byte), which no move has"


def parse_message(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def read_reply(raw: bytes) -> tuple[EmailMessage, ReplyText, str]:
    """The message, the player's lines and, when it cannot be read as a reply, why (then only its
    headers are read, to know whom to tell). The parser and the walk over the parts recurse: a
    message nested thousands of levels deep would raise RecursionError."""
    try:
        message = parse_message(raw)
        bodies = _bodies(message)
        text = _text_of(bodies)
    except RecursionError:
        headers = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        return headers, ReplyText(()), TOO_DEEP
    if any("\x00" in _header_text(value) for value in message.values()):
        return message, ReplyText(()), NUL_HEADER
    # Anywhere in its text, also under the signature or in the quoted original: the web refuses a
    # request with a NUL anywhere in it (zarkcity_site.badinput.RefuseNul), whatever the field.
    if any("\x00" in body for body in bodies.values()):
        return message, ReplyText(()), NUL_TEXT
    return message, text, ""


def _header_text(value: object) -> str:
    try:
        return str(value)
    except Exception:  # a header the parser could not decode: not a NUL we could read either
        return ""


# ----------------------------------------------------------------------------- the lines


BODY_KINDS = ("plain", "html")  # the text part first: the player's lines come from it when it has any


def reply_text(message: Message) -> ReplyText:
    """The first lines the player wrote: from the text part if it has any, else from the HTML part."""
    return _text_of(_bodies(message))


def _bodies(message: Message) -> dict[str, str]:
    """The text and the HTML body, each found and decoded once (read_reply also looks for a NUL in both)."""
    return {kind: _body(message, kind) for kind in BODY_KINDS}


def _text_of(bodies: dict[str, str]) -> ReplyText:
    for kind, body in bodies.items():
        if body:
            text = html_to_text(body) if kind == "html" else body
            lines = own_lines(text)
            if lines:
                return ReplyText(lines)
    return ReplyText(())


def own_lines(text: str, keep: int = 3) -> tuple[str, ...]:
    """The player's first `keep` non-empty lines: stop at a signature ("-- ") or where the quoted
    original starts; skip quoted lines ("> ..."), "On ... wrote:" (even wrapped over three lines) and
    "Sent from my phone"."""
    lines = [_clean(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    found: list[str] = []
    index = 0
    while index < len(lines) and len(found) < keep:
        line = lines[index]
        if line == "--" or QUOTE_STARTS.match(line):
            break
        skip = _attribution_length(lines, index)
        if skip:
            index += skip
            continue
        if line and not line.startswith(">") and not CLIENT_LINES.match(line):
            found.append(line[:MAX_LINE])
        index += 1
    return tuple(found)


def _clean(line: str) -> str:
    return " ".join(line.translate(INVISIBLE).replace("\xa0", " ").split())


def _attribution_length(lines: list[str], index: int) -> int:
    """How many lines an attribution starting here takes (Gmail wraps it), or 0."""
    for length in (1, 2, 3):
        joined = " ".join(lines[index : index + length])
        if len(joined) < 400 and ATTRIBUTION.match(joined):
            return length
    return 0


def _body(message: Message, kind: str) -> str:
    try:
        part = message.get_body(preferencelist=(kind,)) if isinstance(message, EmailMessage) else None
    except Exception:  # a broken MIME tree: no body of that kind
        part = None
    if part is None:
        return ""
    try:
        return str(part.get_content())
    except Exception:  # an unknown or lying charset: read it as well as we can
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload)


class _HtmlText(HTMLParser):
    """HTML to lines: block elements end lines; quoted originals (blockquote, Gmail's gmail_quote,
    Thunderbird's moz-cite-prefix, Outlook's divRplyFwdMsg and the <hr> above it) and style/script are dropped."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    SKIPPED = {"blockquote", "style", "script", "head", "title"}
    QUOTE_MARKS = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "divrplyfwdmsg", "appendonsend", "reply-intro")
    VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []  # the open tags whose content we drop
        self.stopped = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        marks = " ".join(value or "" for name, value in attrs if name in ("class", "id")).lower()
        if tag == "hr" and not self.skipping:
            self.stopped = True  # Outlook: everything under the rule is the original
        elif tag not in self.VOID and (
            self.skipping or tag in self.SKIPPED or any(m in marks for m in self.QUOTE_MARKS)
        ):
            self.skipping.append(tag)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()
        elif self.skipping and tag in self.skipping:  # sloppy HTML: close up to the matching tag
            while self.skipping and self.skipping.pop() != tag:
                pass
        elif tag in self.BLOCKS and not self.skipping:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping and not self.stopped:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # html.parser is lenient, but an answer must never depend on it
        pass
    return "".join(parser.parts)


# ----------------------------------------------------------------------------- who and what


def sender_of(message: Message) -> str:
    """The From address, lower case ("" if there is none we can read)."""
    try:
        return parseaddr(str(message.get("From", "")).replace("\x00", ""))[1].strip().lower()
    except Exception:
        return ""


def header_recipients(message: Message) -> list[str]:
    """Addresses the message was delivered to, as its headers say (envelope headers first)."""
    found: list[str] = []
    for name in ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc"):
        try:
            values = [str(v) for v in message.get_all(name, [])]
            found += [address for _, address in getaddresses(values) if address]
        except Exception:
            continue
    return found


def subject_of(message: Message) -> str:
    try:
        return str(message.get("Subject", "")).replace("\x00", "")[:200]  # a text column takes no NUL
    except Exception:
        return ""
