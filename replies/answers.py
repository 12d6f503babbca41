"""The emails we send back: what each says is decided by handling.py; this module fills in a game's
board, hand, legal moves and notation for one seat, always from that seat's own view (never another
player's hand), and renders the text and HTML parts. An answer is stored with the inbound message and
sent after the transaction that decided it commits."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from accounts.selectors import display_name_of
from engine.kit.core import card_of
from games.models import Game, Seat
from games.selectors import game_page_url, seat_view

MOVES_SHOWN = 40  # of one kind, after a refusal; "moves" lists up to MOVES_ALL
MOVES_ALL = 400


@dataclass
class Answer:
    to: str
    subject: str
    paragraphs: list[str]
    reply_to: str = ""  # a play+TOKEN address that takes the next reply, if any
    in_reply_to: str = ""  # the Message-ID we answer
    title: str = ""
    status: str = ""  # the seat's table status: "Waiting for blue ..."
    board_text: str = ""
    board_svg: str = ""  # drawn as an inline PNG when sent
    hand: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    moves_heading: str = ""
    moves: list[str] = field(default_factory=list)
    more: int = 0
    help_rows: list[tuple[str, str]] = field(default_factory=list)
    has_hands: bool = False  # the game's own (GameInfo.has_hands): the help mentions a hand only then
    game_url: str = ""

    def stored(self) -> dict[str, Any]:
        """What the inbound row keeps until the answer is sent: the rendered parts and the headers."""
        context = asdict(self) | {"site_url": settings.SITE_URL}
        return {
            "to": self.to,
            "subject": self.subject,
            "reply_to": self.reply_to,
            "in_reply_to": self.in_reply_to,
            "text": render_to_string("replies/answer.txt", context),
            "html": render_to_string("replies/answer.html", context),
            "board_svg": self.board_svg,
        }


def with_board(answer: Answer, game: Game, seat: Seat, *, picture: bool = True) -> Answer:
    """The position as this seat sees it: status, text board (and picture), their hand, the players."""
    rules = game.rules
    view = seat_view(game, rules.from_position(game.snapshot), seat.colour)
    table = rules.table(view)
    answer.title = f"{rules.info.name} #{game.pk}"
    answer.status = table.status
    answer.board_text = rules.board_text(view)
    answer.board_svg = rules.board_svg(view) if picture else ""
    answer.hand = [f"{card_of(rules, code).label} ({code})" for code in table.hand]
    facts = {s.colour: ", ".join(s.facts) for s in table.seats}
    answer.players = [_player_line(s, facts.get(s.colour, ""), game) for s in game.seats.select_related("user")]
    answer.game_url = settings.SITE_URL + game_page_url(game)
    return answer


def _player_line(seat: Seat, facts: str, game: Game) -> str:
    moving = game.status == Game.Status.ACTIVE and seat.colour in game.to_move.split(",") and not seat.resigned
    state = "left" if seat.resigned else ("to move" if moving else "")
    return ", ".join(part for part in (f"{seat.colour} ({display_name_of(seat.user)})", state, facts) if part)


def legal_moves(game: Game, seat: Seat) -> list[str]:
    """Every legal move of this seat now, as typed (resigning aside: it has its own command)."""
    rules = game.rules
    if game.status != Game.Status.ACTIVE or seat.resigned:
        return []
    state = rules.from_position(game.snapshot)
    return [str(m) for m in rules.legal_moves(state, seat.colour) if not rules.is_resign(m)]


def with_moves(answer: Answer, game: Game, seat: Seat, *, like: str = "") -> Answer:
    """The legal moves: those of the kind `like` starts with (its first word) if there are any, else all."""
    every = legal_moves(game, seat)
    verb = like.split()[0].lower() if like.split() else ""
    of_kind = [m for m in every if m.split()[0].lower() == verb] if verb else []
    shown, limit = (of_kind, MOVES_SHOWN) if of_kind else (every, MOVES_SHOWN if like else MOVES_ALL)
    label = f'Your legal "{verb}" moves now:' if of_kind else "Your legal moves now:"
    answer.moves_heading = label if every else "You have no move to make now."
    answer.moves, answer.more = shown[:limit], max(0, len(shown) - limit)
    return answer


def with_help(answer: Answer, game: Game) -> Answer:
    rules = game.rules
    answer.help_rows = list(rules.notation_help())
    answer.has_hands = rules.info.has_hands
    answer.paragraphs.append(rules.rules_summary())
    return answer
