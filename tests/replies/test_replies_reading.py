"""The reply parser and the robot detector as pure functions: tables of real-looking bodies, and
Hypothesis: no input crashes them, and every line they return is one the player wrote."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replies.loops import why_robot
from replies.reading import html_to_text, own_lines, parse_message, reply_text, sender_of
from tests.replies import mails

TO = "play+abcdefghijklmnopqrstuvwx@localhost"


@pytest.mark.parametrize(
    "body,expected",
    [
        ("draw\n\nOn Mon, 23 Nov 2026 at 13:00, Zark City <play@x> wrote:\n> stuff\n", ("draw",)),
        ("On Mon, 23 Nov 2026 at 13:00, Zark City <\nplay@x> wrote:\n\n> stuff\n\ndraw\n", ("draw",)),
        ("> quoted\n> more\n\n  Draw  \n", ("Draw",)),
        ("draw\ndiscard 3C 4D\n-- \nBob\n", ("draw", "discard 3C 4D")),
        ("draw\r\n\r\n________________________________\r\nFrom: Zark City\r\nSent: today\r\n", ("draw",)),
        ("draw\n-----Original Message-----\nFrom: x\n", ("draw",)),
        ("\u200bdraw\xa0\n", ("draw",)),
        ("draw\n\nSent from my iPhone\n\ndiscard 2H", ("draw", "discard 2H")),
        ("Le lun. 23 nov. 2026 à 13:00, Zark City a écrit :\n> x\nbuild 7H 1,0\n", ("build 7H 1,0",)),
        ("", ()),
        ("-- \ndraw\n", ()),
    ],
    ids=[
        "top-posted",
        "bottom-posted-wrapped-attribution",
        "quoted-then-move",
        "second-line-and-signature",
        "outlook-rule",
        "original-message",
        "invisible-characters",
        "phone-signature-between",
        "french-attribution",
        "empty",
        "only-a-signature",
    ],
)
def test_own_lines(body, expected):
    assert own_lines(body) == expected


@pytest.mark.parametrize(
    "html,first",
    [
        ('<div dir="ltr">draw</div><div class="gmail_quote">On x wrote:<blockquote>build</blockquote></div>', "draw"),
        ("<p>Draw</p><hr><div id=divRplyFwdMsg>From: x</div><div>move S 0,0 1,0</div>", "Draw"),
        ('<blockquote type="cite">old</blockquote><div>place 1,0</div>', "place 1,0"),
        ("<style>p{x:y}</style><p>spawn&nbsp;1,0</p>", "spawn 1,0"),
        ('<div class="moz-cite-prefix">On x wrote:</div><blockquote type=cite>y</blockquote>draw', "draw"),
    ],
    ids=["gmail", "outlook", "apple", "entities", "thunderbird"],
)
def test_html_bodies(html, first):
    assert own_lines(html_to_text(html))[0] == first


@pytest.mark.parametrize("client", sorted(mails.CLIENTS))
def test_each_mail_program_s_reply_reads_as_the_move_and_the_second_line(client):
    raw = mails.CLIENTS[client]("build 7h -1,0", second="discard 3c 4d", sender="bob@example.com", to=TO)
    text = reply_text(parse_message(raw))
    assert (text.first, text.second) == ("build 7h -1,0", "discard 3c 4d")
    assert why_robot(parse_message(raw)) == ""
    assert sender_of(parse_message(raw)) == "bob@example.com"


def test_a_windows_1252_body_with_a_bad_charset_label_still_reads():
    raw = (
        b"From: bob@example.com\r\nTo: " + TO.encode() + b"\r\nSubject: Re: x\r\nContent-Type: text/plain; "
        b"charset=x-unknown-thing\r\nContent-Transfer-Encoding: 8bit\r\n\r\ndraw\r\n\r\n> caf\xe9 \x92quoted\x92\r\n"
    )
    assert reply_text(parse_message(raw)).first == "draw"


@pytest.mark.parametrize(
    "headers,why",
    [
        ({"Auto-Submitted": "auto-generated"}, "Auto-Submitted: auto-generated"),
        ({"Precedence": "junk"}, "Precedence: junk"),
        ({"X-Autorespond": "yes"}, "X-Autorespond header"),
        ({"Return-Path": "<>"}, "a bounce (empty Return-Path)"),
        ({"From": "MAILER-DAEMON@example.org"}, "sent by mailer-daemon@example.org"),
        ({"Subject": "Automatic reply: Zark City #4"}, "an auto-reply subject"),
        ({"Subject": "Re: Out of Office"}, "an auto-reply subject"),
        ({"Subject": "Delivery Status Notification (Failure)"}, "an auto-reply subject"),
        (
            {"Content-Type": "multipart/report; report-type=delivery-status; boundary=x"},
            "a delivery or read report (multipart/report)",
        ),
    ],
)
def test_robots_are_recognised(headers, why):
    message = EmailMessage()
    message["From"] = headers.pop("From", "bob@example.com")
    message["Subject"] = headers.pop("Subject", "Re: Zark City #4: your turn")
    for name, value in headers.items():
        message[name] = value
    assert why_robot(message) == why


def test_a_person_saying_auto_submitted_no_is_a_person():
    message = EmailMessage()
    message["From"], message["Subject"], message["Auto-Submitted"] = "bob@example.com", "Re: x", "no"
    assert why_robot(message) == ""


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_reads_without_crashing_and_gives_only_unquoted_lines_of_it(body):
    assert_own_lines(own_lines(body))


def assert_own_lines(lines: tuple[str, ...]) -> None:
    """At most three lines, none empty, quoted, padded or with doubled spaces."""
    assert len(lines) <= 3
    for line in lines:
        assert line and not line.startswith(">") and line == line.strip()
        assert " ".join(line.split()) == line


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_any_html_reads_without_crashing_and_gives_only_unquoted_lines(html):
    assert_own_lines(own_lines(html_to_text(html)))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_read_without_crashing(raw):
    message = parse_message(raw)
    assert_own_lines(reply_text(message).lines)
    assert isinstance(why_robot(message), str)
    sender = sender_of(message)
    assert sender == sender.strip().lower()


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_as_a_body_read_without_crashing(body):
    raw = b"From: bob@example.com\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
    assert_own_lines(reply_text(parse_message(raw)).lines)
