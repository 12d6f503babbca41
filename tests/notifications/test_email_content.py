"""What a turn email holds: the subject, both parts, the board as PNG and as text, the hand, the links,
the headers; and, above all, never another player's hand (rules.md 11)."""

from __future__ import annotations

import io
import re

import pytest
from django.core import mail
from PIL import Image

from accounts.services import profile_update
from engine.zarkcity.cards import CARDS
from engine.zarkcity.game import GAME as ZARK_CITY
from engine.zarkcity.position import from_position
from engine.zarkcity.textboard import board_text
from games import services
from games.services import state_of
from notifications.emails import build_message
from notifications.models import Notification
from tests.notifications.helpers import mail_to, play_setup, play_turn, start_game, state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


def html_of(message) -> str:
    [(html, mimetype)] = message.alternatives
    assert mimetype == "text/html"
    return html


def a_turn_email(players, capture):
    game = start_game(*players)
    play_setup(game)
    with capture(execute=True):
        play_turn(game)
    game.refresh_from_db()
    recipient = game.seats.get(colour=game.to_move).user
    [email] = [m for m in mail_to(recipient) if m.subject.endswith("your turn")]
    return game, recipient, email


def test_a_turn_email_has_both_parts_the_board_the_hand_the_deadline_and_the_link(
    alice, bob, django_capture_on_commit_callbacks
):
    game, recipient, email = a_turn_email((alice, bob), django_capture_on_commit_callbacks)
    assert re.fullmatch(rf"Zark City #{game.pk}: (red|yellow) drew 3 cards, your turn", email.subject)
    shown = state(game)
    hand = shown.hands[game.to_move]
    html = html_of(email)
    for part in (email.body, html):
        assert " ".join(hand) in part or all(card in part for card in hand)
        assert "/play/" in part and "Move by " in part
    assert board_text({"board": [], "players": []}) != ""
    assert "x across, y down" in email.body  # the plain-text board
    assert 'src="cid:board"' in html
    [image] = [part for part in email.attachments if getattr(part, "get_content_type", lambda: "")() == "image/png"]
    png = image.get_payload(decode=True)
    assert image["Content-ID"] == "<board>" and png.startswith(b"\x89PNG")
    width, height = Image.open(io.BytesIO(png)).size
    # Shown at the size it was drawn, the game page's size (at most the email's column), narrower on a phone.
    assert f'width="{width}" height="{height}" style="max-width:100%;height:auto;' in html
    assert email.message().get_content_type() == "multipart/related"


def submit_first(game, *, prefer: str = "") -> None:
    """One legal move through the game's rules (any game): the first starting with `prefer`, else the first."""
    game.refresh_from_db()
    rules = game.rules
    now = rules.from_position(game.snapshot)
    colour = game.to_move.split(",")[0]  # whom the game waits on (a seat whose sealed choice is in is not asked)
    moves = [str(m) for m in rules.legal_moves(now, colour) if not rules.is_resign(m)]
    text = next((m for m in moves if prefer and m.startswith(prefer)), moves[0])
    services.move_submit(game=game, user=game.seats.get(colour=colour).user, text=text, seen_ply=game.ply)


def test_a_deck_town_turn_email_names_the_game_shows_its_board_and_no_other_hand(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, game_id="decktown", options={})
    rules = game.rules
    while game.turn_started_at is None or rules.from_position(game.snapshot).turn == 0:
        submit_first(game)
        game.refresh_from_db()
    mover = rules.movers(rules.from_position(game.snapshot))[0]
    with django_capture_on_commit_callbacks(execute=True):
        submit_first(game, prefer="draw")
        while mover in rules.movers(rules.from_position(game.snapshot)):
            submit_first(game, prefer="discard")
            game.refresh_from_db()
    game.refresh_from_db()
    recipient = game.seats.get(colour=game.to_move).user
    [email] = [m for m in mail_to(recipient) if m.subject.endswith("your turn")]
    assert re.fullmatch(rf"Deck Town #{game.pk}: {mover} drew 3 cards, your turn", email.subject)
    html = html_of(email)
    assert f'alt="The Deck Town board after move {game.ply}"' in html and 'src="cid:board"' in html
    [image] = [part for part in email.attachments if getattr(part, "get_content_type", lambda: "")() == "image/png"]
    assert image["Content-ID"] == "<board>" and image.get_payload(decode=True).startswith(b"\x89PNG")

    truth = rules.reveal(rules.from_position(game.snapshot))
    mine = truth["hands"][game.to_move]
    for card in mine:
        assert rules.card(card).label in email.body and rules.card(card).label in html
    public = set(mine) | set(truth["discard"]) | {entry["card"] for entry in truth["board"]}
    public |= {word for move in game.moves.all() for word in move.notation.split()}
    secret = set(truth["hands"][mover]) - public
    assert secret  # the test means something: the other player holds cards never shown
    for part in (_without_links(email.body), _without_links(html)):
        for card in secret:
            shown = rules.card(card)
            assert not _mention(card, part) and shown.name not in part and shown.label not in part, card


def test_a_game_without_options_starts_without_empty_brackets(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, game_id="decktown", options={})
    [email] = mail_to(alice)
    assert email.subject == f"Deck Town #{game.pk} has started: choose your starter"
    assert f"Deck Town #{game.pk} has started." in email.body and "()" not in email.body
    assert "Move by " in email.body and "Move by " in html_of(email)


def test_every_email_can_be_unsubscribed_in_one_click(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        start_game(alice, bob)
    email = mail_to(alice)[0]
    headers = email.extra_headers
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = re.fullmatch(r"<(http://[^>]+/notifications/unsubscribe/[^>]+/)>", headers["List-Unsubscribe"]).group(1)
    assert url in email.body and url in html_of(email)
    assert headers["Auto-Submitted"] == "auto-generated"
    assert re.fullmatch(r"<notification\.\d+@127\.0\.0\.1>", headers["Message-ID"])


def test_the_board_picture_is_drawn_from_the_recipients_own_view(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    seen = []
    real = ZARK_CITY.board_svg
    monkeypatch.setattr(ZARK_CITY, "board_svg", lambda view, **kw: seen.append(view) or real(view, **kw))
    game, recipient, email = a_turn_email((alice, bob), django_capture_on_commit_callbacks)
    [view] = seen
    assert view["viewer"] == game.to_move and "hands" not in view and "deck" not in view and "seed" not in view


def _secret_cards(game, colour: str) -> set[str]:
    """Cards only other players hold and that were never public: not in this player's hand, not
    revealed in a re-deal, not jokers, and not named by an earlier public move (a discarded card
    can be reshuffled into another hand, and the history rightly still names its discard)."""
    truth = from_position(game.snapshot)
    revealed = {card for _, _, hand in truth.revealed for card in hand}
    mine = set(truth.hands.get(colour, ()))
    others = {card for c, hand in truth.hands.items() if c != colour for card in hand}
    return others - mine - revealed - _once_public(game, colour) - {"JK"}


def _once_public(game, colour: str) -> set[str]:
    """Every card a move showed to this player: all moves but other players' starter choices."""
    shown = set()
    for move in game.moves.select_related("seat"):
        if move.notation.startswith("choose") and move.seat.colour != colour:
            continue  # face down until all have chosen; the placed starters are on the board anyway
        shown.update(word for word in move.notation.split() if word in CARDS)
    return shown


def _without_links(text: str) -> str:
    return re.sub(r"(https?://|cid:)\S+", " ", text)


def _mention(card: str, text: str) -> re.Match[str] | None:
    """The card named as a word of its own (not inside a longer token such as 10S or a hash)."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", text)


def _where(cards: set[str], text: str) -> list[str]:
    """The text around each leaked card, so a failure shows where in the email it stands."""
    found = (_mention(card, text) for card in cards)
    return [text[max(m.start() - 80, 0) : m.end() + 80] for m in found if m]


def _check_no_secret_shown(game, messages) -> int:
    """Each message against the hands as they are now (the worker built it just now, eagerly)."""
    for message in messages:
        seat = game.seats.get(user__email=message.to[0].split("<")[1].rstrip(">"))
        secret = _secret_cards(game, seat.colour)
        for part in (message.body, html_of(message)):
            text = _without_links(part)
            leaked = {card for card in secret if _mention(card, text)}
            assert not leaked, f"{message.subject} to {seat.colour} shows {leaked}: {_where(leaked, text)}"
    return len(messages)


def test_no_email_of_a_game_in_progress_shows_another_players_hand(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    """Three players, the deal, the starters, a few turns, a resignation: every email, both parts."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, charlie)
    checked = _check_no_secret_shown(game, mail.outbox)
    for _ in range(14):
        before = len(mail.outbox)
        with django_capture_on_commit_callbacks(execute=True):
            if state(game).turn == 0:
                play_setup(game)
            else:
                play_turn(game)
        game.refresh_from_db()
        if game.status != "active":
            break
        checked += _check_no_secret_shown(game, mail.outbox[before:])
    assert checked >= 8


def test_an_email_is_built_from_the_row_at_sending_time(alice, bob):
    game = start_game(alice, bob)
    row = Notification.objects.get(recipient=alice)
    message = build_message(row)
    assert message.subject == f"Zark City #{game.pk} has started: choose your starter"
    assert message.to == ["alice <alice@example.com>"]
    hand = state(game).hands["red"]
    assert all(card in message.body for card in hand)
    assert not any(
        _mention(card, _without_links(message.body))
        for card in state(game).hands["yellow"]
        if card not in hand and card != "JK"
    )


def test_the_text_board_is_a_grid_of_cards_and_pieces():
    view = {
        "players": ["red", "blue"],
        "board": [
            {"at": [0, 0], "card": "7H", "pieces": {"red": "S", "blue": "SM"}},
            {"at": [1, 0], "card": "10S", "pieces": {}},
            {"at": [0, 1], "card": "2C", "pieces": {"red": "L"}},
        ],
    }
    assert board_text(view).splitlines() == [
        "  |      0      |      1",
        "0 | 7H r:S b:SM | 10S",
        "1 | 2C r:L      | .",
        "(x across, y down; r = red, b = blue; S small, M medium, L large)",
    ]


def test_the_subject_names_the_move_that_made_it_their_turn_not_the_discard_after_it():
    from notifications.emails import _headline
    from notifications.selectors import MoveLine

    lines = [
        MoveLine(3, "blue", "blue built 7H at 2,0; the discard pile was shuffled", "build 7H 2,0"),
        MoveLine(4, "blue", "blue discarded 3C; your turn: you drew 1 card: 9D", "discard 3C"),
    ]
    assert _headline(lines, "red") == "blue built 7H"
    assert _headline([], "red") == "the game goes on"


def test_the_subject_names_the_first_step_of_the_last_turn_in_any_game():
    """No notation is read: a pile picked after a purchase (Buyer's Market) follows it like a discard."""
    from notifications.emails import _headline
    from notifications.selectors import MoveLine

    lines = [
        MoveLine(7, "green", "green placed a hearts Small on 5♥", "place S 5H"),
        MoveLine(8, "yellow", "yellow bought 6♦; the die showed the atom; yellow picks the pile", "buy 6D"),
        MoveLine(9, "yellow", "yellow picked the diamonds pile; 10♦ is a new pallet", "pile D"),
    ]
    assert _headline(lines, "red") == "yellow bought 6♦"
    assert _headline(lines[:1], "red") == "green placed a hearts Small on 5♥"


def test_an_email_greets_its_reader_by_their_bare_name_and_names_the_others_in_full(
    alice, bob, django_capture_on_commit_callbacks
):
    profile_update(user=alice, display_name="Alice Liddell")
    profile_update(user=bob, display_name="Bob Builder")
    with django_capture_on_commit_callbacks(execute=True):
        start_game(alice, bob)
    [email] = mail_to(alice)  # the game started: "Alice Liddell, you play red."
    assert email.to == ["Alice Liddell <alice@example.com>"]
    for part in (email.body, html_of(email)):
        assert "Alice Liddell, you play" in part and "Alice Liddell (@alice), you" not in part
        assert "Bob Builder (@bob)" in part  # a player named in the body keeps the username


def test_the_game_over_email_does_not_promise_a_sign_in(alice, bob, django_capture_on_commit_callbacks):
    from games import services

    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    [email] = [m for m in mail_to(bob) if "is over" in m.subject]
    assert "Open the finished game:" in email.body  # a link to a finished game signs nobody in
    assert "signs you in" not in email.body and "signs you in" not in html_of(email)


def test_a_turn_email_written_out_reads_back_whole_with_a_fresh_boundary_per_level(
    alice, bob, django_capture_on_commit_callbacks
):
    import email as mime

    _, _, sent = a_turn_email((alice, bob), django_capture_on_commit_callbacks)
    written = sent.message().as_bytes(linesep="\r\n")
    read = mime.message_from_bytes(written)
    assert [part.get_content_type() for part in read.walk()] == [
        "multipart/related",
        "multipart/alternative",
        "text/plain",
        "text/html",
        "image/png",
    ]
    boundaries = [part.get_boundary() for part in read.walk() if part.is_multipart()]
    assert all(re.fullmatch(r"=_zc_[0-9a-f]{32}", b) for b in boundaries) and len(set(boundaries)) == 2
    assert read.get_payload()[1].get_payload(decode=True) == sent.attachments[0].get_payload(decode=True)
    again = mime.message_from_bytes(sent.message().as_bytes())
    assert not set(boundaries) & {part.get_boundary() for part in again.walk() if part.is_multipart()}


def test_the_start_email_asks_only_the_first_mover_for_a_move_and_shows_everyone_the_board(
    alice, bob, django_capture_on_commit_callbacks, tmp_path
):
    """Martian Chess: red moves first. Red is asked for a move; yellow is told red moves first. Both see
    the board, as a picture and as text: the first mover gets no turn email before their move."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, game_id="martianchess", options={})
    first = game.to_move
    (to_first,) = mail_to(game.seats.get(colour=first).user)
    other = next(s for s in game.seats.all() if s.colour != first)
    (to_other,) = mail_to(other.user)
    assert to_first.subject == f"Martian Chess #{game.pk} has started: move a piece"
    assert "First: move a piece." in to_first.body
    assert to_other.subject == f"Martian Chess #{game.pk} has started: {first} moves first"
    assert f"{first.capitalize()} moves first: we email you when it is your turn." in to_other.body
    for email in (to_first, to_other):
        assert "your first move" not in email.body and "your first move" not in html_of(email)
        assert 'src="cid:board"' in html_of(email)
        [image] = [p for p in email.attachments if getattr(p, "get_content_type", lambda: "")() == "image/png"]
        assert image.get_payload(decode=True).startswith(b"\x89PNG")
        assert game.rules.board_text(game.rules.view(state_of(game), other.colour)) in email.body
    assert "Move by " in to_first.body and "Move by " not in to_other.body


@pytest.mark.parametrize("game_id", ["zarkcity", "decktown", "martianchess", "buyersmarket", "pharaoh"])
def test_no_start_email_says_first_twice(alice, bob, django_capture_on_commit_callbacks, game_id):
    with django_capture_on_commit_callbacks(execute=True):
        start_game(alice, bob, game_id=game_id, options=None if game_id == "zarkcity" else {})
    for email in mail.outbox:
        assert "first move" not in email.subject and "First: make your first move" not in email.body
        assert ("First: " in email.body) != (" first: we email you when it is your turn." in email.body)
