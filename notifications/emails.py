"""Turn one outbox row into an email: subject, text and HTML parts, the board and the throws' die faces
as inline PNGs, headers.

Everything about a game comes through its rules (game.rules, engine/interface.py): its name, its view
for the recipient, its board picture and text board, its card labels, and the per-viewer move
descriptions stored with each move, so an email can show nothing the recipient's own board page
would not (rules.md 11). Built when the worker sends, not when the row is written: the email shows
the position as it is then.
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass, field
from email.generator import BytesGenerator
from email.mime.image import MIMEImage
from email.policy import Compat32
from email.utils import formataddr
from functools import lru_cache
from io import BytesIO
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.core.mail.message import SafeMIMEMultipart
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.selectors import chosen_name_of, display_name_of
from engine.interface import Faces, Table, Throw, View, faces_of, faces_svg, throw_words
from engine.kit.core import card_of
from games import clock, sharing
from games.emails import invitation_message
from games.models import DrawProposal, Game, Seat
from games.selectors import game_page_url, seat_view
from replies.services import turn_reply_address

from . import pictures, selectors, tokens, turn_email
from .models import Notification

Kind = Notification.Kind
BOARD_CID = "board"
DICE_SCALE = 2  # a throw's PNG has twice the pixels it is shown at: sharp on a phone's screen
DICE_HEIGHT = 22  # the height the HTML shows a throw at, in CSS pixels (as the game page's history)
# Distinct throws whose PNG a worker keeps: IceDice's 36 faces a seat, Pharaoh's 6, a few hundred of
# Launch Pad 23's and Black ICE's combinations; 1 to 3 KB each.
DICE_PICTURES_KEPT = 512
TRAILING_CELL = re.compile(r" at -?\d+,-?\d+$")
PLAIN_LINE = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")  # printable ASCII words, one space apart


@dataclass
class Email:
    subject: str
    template: str  # emails/<template>.txt and .html
    context: dict[str, Any] = field(default_factory=dict)
    board_png: bytes | None = None
    dice_pngs: dict[str, bytes] = field(default_factory=dict)  # Content-ID: PNG, one a distinct picture


# ----------------------------------------------------------------------------- the message


class Message(EmailMultiAlternatives):
    """An email whose MIME boundaries are drawn when it is built: 128 random bits, which no text of
    the email can contain by chance. Left unset, Python's generator draws a shorter one and, to be sure,
    compiles a regular expression and searches the whole message with it (the board's base64
    included) for each of the two multipart levels: a quarter of the time spent writing the email out.
    Its bytes are written by _OnePassWriter."""

    def message(self, *args: Any, **kwargs: Any) -> Any:  # Django 5.2's SafeMIME (django-stubs describes 6)
        mime: Any = super().message(*args, **kwargs)
        for part in mime.walk():
            if part.is_multipart():
                part.set_boundary(f"=_zc_{secrets.token_hex(16)}")
        if type(mime) is SafeMIMEMultipart:  # what Django builds for an email with alternatives: all of ours
            mime.__class__ = _WrittenInOnePass
        return mime


class _WrittenInOnePass(SafeMIMEMultipart):
    """The same MIME tree, whose bytes (what the SMTP backend sends) a _OnePassWriter writes."""

    def as_bytes(self, unixfrom: bool = False, linesep: str = "\n") -> bytes:  # type: ignore[override]  # Django's
        if type(self.policy) is not Compat32:  # Django's MIME objects use Python's compat32, which _QuickFold is
            return super().as_bytes(unixfrom, linesep)
        out = BytesIO()
        _OnePassWriter(out, mangle_from_=False, policy=QUICK_FOLD).flatten(self, unixfrom=unixfrom, linesep=linesep)
        return out.getvalue()


class _QuickFold(Compat32):
    """Python's compat32 headers, a header that fits on its line written as it is: compat32 hands every one
    to email.header.Header to fold, which for a plain short line gives it back unchanged, at some 10 µs a
    header (28 in a turn email)."""

    def fold_binary(self, name: str, value: Any) -> bytes:
        fits = self.max_line_length is not None and len(name) + 2 + len(value) <= self.max_line_length
        if isinstance(value, str) and fits and PLAIN_LINE.fullmatch(value) and PLAIN_LINE.fullmatch(name):
            return f"{name}: {value}{self.linesep}".encode("ascii")
        return super().fold_binary(name, value)


QUICK_FOLD = _QuickFold()


class _OnePassWriter(BytesGenerator):
    """Python's writer, with each part's line ends changed in one pass: its own writes the lines one at a
    time, some 1,700 writes for a board's base64 (a fifth of writing the email out); the bytes are the same.
    The ends it takes for a line's are CRLF, CR and LF (email.generator's NLCRE); str.replace finds them
    in one pass of C each, where that regular expression's sub took a call a match, some 1,300 for the
    base64: most of what writing the email out cost."""

    def _write_lines(self, lines: str) -> None:
        if lines:
            if "\r" in lines:  # a CRLF is one line end, then a lone CR is one too
                lines = lines.replace("\r\n", "\n").replace("\r", "\n")
            self.write(lines.replace("\n", self._NL))  # type: ignore[attr-defined]  # flatten sets it


def build_message(notification: Notification) -> EmailMultiAlternatives:
    if notification.kind == Kind.INVITATION:
        return _invitation(notification)
    user = notification.recipient
    assert user is not None  # every row but an invitation's names its user (notification_addressed)
    email = _content(notification)
    reply_to = _reply_to(notification)
    context = email.context | _common(notification) | {"reply_to": reply_to}
    text, html = _parts(email.template, context)
    message = Message(
        subject=email.subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[formataddr((chosen_name_of(user), user.email))],
        headers=_headers(notification, context["unsubscribe_url"]),
        reply_to=[reply_to] if reply_to else None,
    )
    message.attach_alternative(html, "text/html")
    if email.board_png:
        # multipart/related around the alternatives, so mail programs show the board inside the HTML.
        message.mixed_subtype = "related"  # type: ignore[attr-defined]  # Django 5.2's, gone from django-stubs 6
        message.attach(inline_png(email.board_png, BOARD_CID, "board.png"))
    _attach_dice(message, email.dice_pngs)
    return message


def _parts(template: str, context: dict[str, Any]) -> tuple[str, str]:
    """The text and the HTML: the turn email's written in Python (notifications.turn_email), the others'
    by their templates, emails/<template>.txt and .html."""
    if template == "your_turn":
        return turn_email.text(context), turn_email.html(context)
    return render_to_string(f"emails/{template}.txt", context), render_to_string(f"emails/{template}.html", context)


def _attach_dice(message: EmailMultiAlternatives, pngs: dict[str, bytes]) -> None:
    """The throws' pictures, inline like the board's (multipart/related): mail programs draw no SVG."""
    if pngs:
        message.mixed_subtype = "related"  # type: ignore[attr-defined]  # as for the board
    for cid, png in pngs.items():
        message.attach(inline_png(png, cid, f"{cid}.png"))


def inline_png(png: bytes, cid: str, filename: str) -> MIMEImage:
    """A PNG the HTML shows by its Content-ID: the part MIMEImage makes of it, its base64 written straight
    from the bytes. MIMEImage(png) keeps the bytes as text (surrogate escapes) and turns them back into
    bytes to encode them, which took three times as long as the base64 itself (0.56 ms for a 45 KB board)."""

    def encode(part: MIMEImage) -> None:  # what email.encoders.encode_base64 does, from `png` itself
        part.set_payload(base64.encodebytes(png).decode("ascii"))
        part["Content-Transfer-Encoding"] = "base64"

    image = MIMEImage(b"", "png", _encoder=encode)
    image.add_header("Content-ID", f"<{cid}>")
    image.add_header("Content-Disposition", "inline", filename=filename)
    return image


def _reply_to(notification: Notification) -> str | None:
    """play+TOKEN@domain when the email asks for a move: the reply is played (replies app, docs/email-moves.md)."""
    game, user = notification.game, notification.recipient
    if game is None or user is None:
        return None
    seat = selectors.seat_of(game, user)  # the table read with the row
    return turn_reply_address(game=game, user=user, kind=notification.kind, seat=seat)


def _invitation(notification: Notification) -> EmailMultiAlternatives:
    """The lobby's invitation email exactly as games.emails renders it, with our headers. An invitee
    who is a user can unsubscribe like any player; an address that is nobody's account gets a one-off
    and no List-Unsubscribe (there is nothing to unsubscribe from)."""
    user = notification.recipient
    unsubscribe = _unsubscribe_url(user) if user is not None else None
    invitation = notification.invitation
    assert invitation is not None  # an invitation row names its invitation (notification_addressed)
    return invitation_message(invitation, headers=_headers(notification, unsubscribe))


def _unsubscribe_url(user: User) -> str:
    return settings.SITE_URL + reverse("notifications:unsubscribe", args=[tokens.unsubscribe_token(user=user)])


def _headers(notification: Notification, unsubscribe_url: str | None) -> dict[str, str]:
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    headers = {
        # The same Message-ID on every attempt: if a crash makes us send twice, mail programs see one message.
        "Message-ID": f"<notification.{notification.pk}@{host}>",
        "Auto-Submitted": "auto-generated",  # RFC 3834: no vacation auto-replies, please
    }
    if unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
    if notification.game_id:
        headers["References"] = f"<game.{notification.game_id}@{host}>"  # one thread per game
    return headers


def _common(notification: Notification) -> dict[str, Any]:
    user = notification.recipient
    assert user is not None  # every row but an invitation's names its user (notification_addressed)
    return {
        "name": chosen_name_of(user),  # the greeting: a person's own mail needs no @username
        "site_url": settings.SITE_URL,
        "settings_url": settings.SITE_URL + reverse("notifications:preferences"),
        "unsubscribe_url": _unsubscribe_url(user),
        "kind": notification.kind,
        "mute_url": _mute_url(user, notification),
    }


def _mute_url(user: User, notification: Notification) -> str:
    """The footer's "Mute this game" link, in every email about a game still going on."""
    if notification.game_id is None or notification.kind == Kind.GAME_OVER:
        return ""
    token = tokens.mute_token(user=user, game_id=notification.game_id)
    return settings.SITE_URL + reverse("notifications:mute", args=[token])


def play_url(user: User, game: Game) -> str:
    return settings.SITE_URL + reverse("notifications:play", args=[tokens.play_token(user=user, game_id=game.pk)])


def _content(notification: Notification) -> Email:
    if notification.kind == Kind.DIGEST:
        return _digest(notification)
    game, user = notification.game, notification.recipient
    if game is None or user is None:
        raise ValueError(f"a {notification.kind} email needs its game and its player")
    seat = selectors.seat_of(game, user)
    if seat is None:
        raise Seat.DoesNotExist(f"{notification.recipient} has no seat in {game}")
    state = game.rules.from_position(game.snapshot)  # read once for the view, the step and the history
    if notification.kind == Kind.YOUR_TURN:
        return _your_turn(notification, game, seat, state)
    if notification.kind in (Kind.REMINDER_50, Kind.REMINDER_80):
        return _reminder(notification, game, seat, state)
    return _game_event(notification, game, seat, state)


# ----------------------------------------------------------------------------- a game, for one seat


def table(game: Game, seat: Seat, state: Any = None) -> dict[str, Any]:
    """What every game email shows: the recipient's view, their hand, the board, the deadline, the link.

    All of it through the game's rules (engine/interface.py): its name, its view for this seat, its
    table summary, its card labels and its text board. `state` is the game's position if already read."""
    rules = game.rules
    shown = seat_view(game, state if state is not None else rules.from_position(game.snapshot), seat.colour)
    summary = rules.table(shown)
    preference = selectors.preference_for(seat.user)
    moving = game.status == Game.Status.ACTIVE and seat.colour in game.to_move.split(",") and not seat.resigned
    seats = selectors.seated(game)  # read with the outbox row (delivery.claim), else one query
    clocks = clock.table_clocks(game, seats=seats)  # with their preferences: only the days away are read
    mine = next((c for c in clocks.clocks if c.colour == seat.colour), None) if moving else None
    return {
        "game": game,
        "game_name": rules.info.name,
        "options_text": game.options_text,
        "title": f"{rules.info.name} #{game.pk}",
        "number": game.pk,
        "colour": seat.colour,
        "view": shown,
        "status": summary.status,
        "hand": [card_of(rules, code) for code in summary.hand],
        "has_hands": rules.info.has_hands,  # no "Your hand: no cards" in a game without hands
        "board_text": rules.board_text(shown),
        "board_alt": f"The {rules.info.name} board after move {game.ply}",
        "players": _players(seats, summary, clocks.away),
        "deadline": mine.deadline.astimezone(selectors.zone_of(preference)) if mine else None,
        "play_url": play_url(seat.user, game),
        "game_url": settings.SITE_URL + game_page_url(game),
    }


def _players(seats: list[Seat], summary: Table, away: dict[str, Any]) -> list[dict[str, Any]]:
    facts = {s.colour: ", ".join(s.facts) for s in summary.seats}
    return [
        {
            "colour": s.colour,
            "name": display_name_of(s.user),
            "facts": facts.get(s.colour, ""),
            "resigned": s.resigned,
            "away_until": away.get(s.colour),
        }
        for s in seats
    ]


def step(game: Game, seat: Seat, otherwise: str = "your turn", state: Any = None) -> str:
    """What the player is asked to do, in the game's words: the label of the one kind of move they may
    make ("place your starter"), or `otherwise` when they have a choice of moves."""
    rules = game.rules
    if game.status != Game.Status.ACTIVE or seat.colour not in game.to_move.split(","):
        return otherwise
    state = state if state is not None else rules.from_position(game.snapshot)
    verb = rules.only_kind(state, seat.colour)
    kind = next((k for k in rules.move_kinds() if k.verb == verb), None)
    return kind.label[0].lower() + kind.label[1:] if kind else otherwise


def board_png(notification: Notification, shown: View) -> bytes | None:
    """The board picture the recipient's view shows, as a PNG (mail programs do not show SVG), drawn
    once for all the emails of this move that show it (notifications/pictures.py)."""
    game = notification.game
    assert game is not None  # drawn for a turn or the end of a game (_content has the game)
    return pictures.board_png(game.rules.board_svg(shown), shared=pictures.shown_to_others(notification))


def _your_turn(notification: Notification, game: Game, seat: Seat, state: Any) -> Email:
    context = table(game, seat, state)
    since = selectors.moves_since_last_turn(game, seat, now=state)
    asked = step(game, seat, state=state)
    dice = DicePictures()
    rows = [(line, dice.of(line.dice)) for line in since]  # the HTML's rows; the text part reads `moves`
    context |= {"moves": since, "move_rows": rows, "step": asked, "opening": _opening(game, since, dice)}
    subject = f"{context['title']}: {_headline(since, seat.colour)}, {asked}"
    png = board_png(notification, context["view"])
    return Email(subject, "your_turn", context | _board(png), png, dice.pngs)


@dataclass(frozen=True)
class DiceImage:
    """One throw as the HTML shows it: the attached picture of its faces, and its words as alt text."""

    cid: str
    alt: str  # "red threw S + green": what a reader that shows no images reads instead
    width: int
    height: int


@dataclass
class DicePictures:
    """The throws' pictures of one email: each distinct picture attached once, however often thrown."""

    pngs: dict[str, bytes] = field(default_factory=dict)
    cids: dict[Faces, str] = field(default_factory=dict)

    def of(self, throws: list[Throw]) -> list[DiceImage]:
        """The images of a move's throws; none for a throw that cannot be drawn (its words stay)."""
        images = []
        for throw in throws:
            faces = faces_of(throw)
            png = dice_png(faces)
            if png is None:
                continue
            cid = self.cids.setdefault(faces, f"dice{len(self.cids) + 1}")
            self.pngs[cid] = png
            width, height = pictures.size(png)
            images.append(DiceImage(cid, throw_words(throw), width // DICE_SCALE, height // DICE_SCALE))
        return images


def dice_png(faces: Faces) -> bytes | None:
    """A throw's faces (face, title, colour) drawn as a PNG; None (logged) if it cannot be drawn."""
    try:
        return _dice_png(faces)
    except _Undrawn:
        return None


class _Undrawn(Exception):
    """A throw's picture could not be drawn (pictures.draw logged why): raised so it is not cached."""


@lru_cache(maxsize=DICE_PICTURES_KEPT)
def _dice_png(faces: Faces) -> bytes:
    # A picture depends on the faces alone (whose throw it was is in the words), so it is drawn once a
    # worker for every email and every game that shows the same faces.
    svg = faces_svg(faces, DICE_HEIGHT * DICE_SCALE)
    png = pictures.draw(svg)
    if png is None:
        raise _Undrawn
    return png


@dataclass(frozen=True)
class Opening:
    """The setup's throw as a turn email lists it: in words, and the pictures of its die faces."""

    words: str
    pictures: list[DiceImage]


def _opening(game: Game, since: list[selectors.MoveLine], dice: DicePictures) -> list[Opening]:
    """The setup's throw, for a player whose "since your last turn" starts at the game's start."""
    if len(since) != game.ply:
        return []
    return [Opening(throw_words(throw), dice.of([throw])) for throw in game.opening_dice]


def _board(png: bytes | None) -> dict[str, Any]:
    """What the HTML needs to show the attached board: its Content-ID, and its size in pixels, at which
    mail programs show it (narrower on a narrow screen)."""
    if png is None:
        return {"board_cid": None}
    width, height = pictures.size(png)
    return {"board_cid": BOARD_CID, "board_width": width, "board_height": height}


def _headline(since: list[selectors.MoveLine], colour: str) -> str:
    """The move that made it their turn, in words, first clause only: the first step of the last turn
    another player took (the steps after it in that turn, a discard or a pile picked, follow from it)."""
    others = [line for line in since if line.colour != colour] or since
    if not others:
        return "the game goes on"
    line = _turn_opening(others)
    words = TRAILING_CELL.sub("", line.words.split("; ")[0])  # "blue built 7H", the cell is in the body
    return words if len(words) <= 70 else words[:67] + "..."


def _turn_opening(lines: list[selectors.MoveLine]) -> selectors.MoveLine:
    """The first of the last run of moves one player made one after another."""
    first = len(lines) - 1
    while first > 0 and lines[first - 1].colour == lines[first].colour and lines[first - 1].ply == lines[first].ply - 1:
        first -= 1
    return lines[first]


def _reminder(notification: Notification, game: Game, seat: Seat, state: Any) -> Email:
    context = table(game, seat, state)
    share = "half" if notification.kind == Kind.REMINDER_50 else "80%"
    context |= {"share": share, "step": step(game, seat, "make your move", state)}
    when = context["deadline"].strftime("%a %d %b %H:%M %Z") if context["deadline"] else "soon"
    return Email(f"{context['title']}: {share} of your time used, move by {when}", "reminder", context)


def _game_event(notification: Notification, game: Game, seat: Seat, state: Any) -> Email:
    context = table(game, seat, state)
    kind, actor, title = notification.kind, notification.actor, context["title"]
    context["actor"] = next((p for p in context["players"] if p["colour"] == actor), None)
    png = None
    if kind == Kind.GAME_STARTED:
        context |= _first_moves(game, seat, state) | {"rules_summary": game.rules.rules_summary()}
        subject = f"{title} has started: {context['step'] or context['first']}"
        png = board_png(notification, context["view"])  # the first mover gets no turn email before moving
    elif kind == Kind.GAME_OVER:
        context["result"] = _result_text(game, seat)
        # A private game stays its players' business: its page opens to others only by its share link.
        context["share_url"] = settings.SITE_URL + sharing.share_url(game) if game.is_private else ""
        subject = f"{title} is over: {context['result']}"
        png = board_png(notification, context["view"])
    elif kind == Kind.DRAW_PROPOSED:
        proposal = DrawProposal.objects.filter(game=game).order_by("-created_at").first()
        context["proposal"] = proposal
        subject = f"{title}: {actor} proposes a draw"
    elif kind == Kind.DRAW_DECLINED:
        declined = game.draw_proposals.select_related("proposed_by").filter(status=DrawProposal.Status.DECLINED)
        proposal = declined.order_by("-created_at", "-pk").first()
        context["proposer"] = proposal.proposed_by.colour if proposal else ""
        offer = "your draw offer" if context["proposer"] == seat.colour else "the draw"
        subject = f"{title}: {actor} declined {offer}, play goes on"
    elif kind == Kind.TIMED_OUT:
        subject = f"{title}: {actor} ran out of time and leaves the game"
    else:
        subject = f"{title}: {actor} resigned"
    return Email(subject, "event", context | _board(png), png)


def _first_moves(game: Game, seat: Seat, state: Any) -> dict[str, str]:
    """The start email asks a first mover for their move ("step"); the others are told who moves first
    ("first"): their own turn email comes when it is their move."""
    movers = [colour for colour in game.to_move.split(",") if colour]
    if seat.colour in movers:
        return {"step": step(game, seat, "make your move", state), "first": ""}  # after "First:"
    return {"step": "", "first": f"{' and '.join(movers)} move{'s' if len(movers) == 1 else ''} first"}


def _result_text(game: Game, seat: Seat) -> str:
    if not game.winner:
        return _no_winner_text(game, seat)
    winners = game.winners
    if len(winners) > 1:
        shared = " and ".join("you" if colour == seat.colour else colour for colour in winners)
        return f"{shared} share the win ({game.result_reason})"
    who = "you win" if winners[0] == seat.colour else f"{winners[0]} wins"
    how = {
        "power block": "with a power block",
        Game.Reason.RESIGNATION: "as every other player resigned",
        Game.Reason.TIMEOUT: "as the last opponent ran out of time",
    }.get(game.result_reason, f"by {game.result_reason}" if game.result_reason else "")
    return f"{who} {how}".strip()


def _no_winner_text(game: Game, seat: Seat) -> str:
    """A draw or everyone out of time; whoever resigned before it lost and is told so, not "a draw"."""
    if game.result_reason == Game.Reason.DRAW:
        return (
            "the others agreed a draw after you resigned"
            if seat.resigned
            else "a draw, agreed by every remaining player"
        )
    if game.result_reason == Game.Reason.TIMEOUT:
        if seat.resigned:
            return "no winner: the others all ran out of time after you resigned"
        return "no winner: every remaining player ran out of time"
    return "no winner"


# ----------------------------------------------------------------------------- the daily digest


def _digest(notification: Notification) -> Email:
    user = notification.recipient
    assert user is not None  # every row but an invitation's names its user (notification_addressed)
    entries = []
    for game, seat in selectors.waiting_games(user):
        state = game.rules.from_position(game.snapshot)
        context = table(game, seat, state)
        since = selectors.moves_since_last_turn(game, seat, now=state)
        context |= {"last": since[-1] if since else None, "step": step(game, seat, state=state)}
        entries.append(context)
    count = len(entries)
    names = sorted({entry["game_name"] for entry in entries})
    subject = f"{' and '.join(names)}: {count} game{'s are' if count != 1 else ' is'} waiting for your move"
    return Email(subject, "digest", {"entries": entries, "day": notification.digest_date})
