"""Replies through the service (inbound_accept -> the Celery task -> move_submit), for every outcome:
each refusal leaves the game unchanged and sends exactly one explanation; robots get nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from replies import addresses, inbox, services, sweep, tasks
from replies.models import InboundMessage, ReplyToken
from tests.replies import mails
from tests.replies.helpers import answers_to, legal, mover, play_until, reply_address, snapshot, start


@pytest.fixture
def zark(alice, bob):
    return start("zarkcity", alice, bob)


def _seat_user(game, colour):
    return game.seats.get(colour=colour).user


def _at_act(game):
    """Setup played on the web; the game now waits for a player's first real turn."""
    return play_until(game, "act")


@pytest.mark.parametrize("client", sorted(mails.CLIENTS))
def test_a_reply_from_each_mail_program_makes_the_move(zark, deliver, client):
    game = _at_act(zark)
    colour = mover(game)
    user = _seat_user(game, colour)
    to = reply_address(game, user)
    raw = mails.CLIENTS[client]("DRAW", sender=user.email, to=to)
    before = game.ply
    deliver(raw, to=to)
    game.refresh_from_db()
    assert game.ply == before + 1
    assert game.moves.get(ply=before).notation == "draw"
    (answer,) = answers_to(raw)
    assert answer.to == [user.email]
    assert "Played: DRAW." in answer.body
    assert answer.extra_headers["Auto-Submitted"] == "auto-replied"
    assert InboundMessage.objects.get().outcome == "moved"


def test_the_starter_choice_by_reply_while_the_other_player_also_chooses(zark, deliver, alice, bob):
    to = reply_address(zark, bob)
    choice = legal(zark, "yellow")[0]
    raw = mails.gmail(choice.lower(), sender="Bob@Example.com", to=to)
    deliver(raw, to=to)
    assert zark.commitments.get().notation == choice and not zark.moves.exists()  # sealed until red's is in
    assert "Played" in answers_to(raw)[0].body


def test_the_second_line_discards_when_the_move_leaves_the_hand_over_the_limit(zark, deliver):
    game = play_until(zark, "act")
    # Draw until a draw would leave the mover over the limit (Zark City asks for a discard then).
    while True:
        colour = mover(game)
        rules = game.rules
        after = rules.apply(rules.from_position(game.snapshot), rules.parse("draw"), colour)
        if rules.phase(after) == "discard" and colour in rules.movers(after):
            break
        _web_move(game, colour, "draw")
    user = _seat_user(game, colour)
    hand = game.rules.table(game.rules.view(game.rules.from_position(game.snapshot), colour)).hand
    over = len(hand) + 3 - 6  # draw takes three; the limit is six
    discard = "discard " + " ".join(hand[:over])
    to = reply_address(game, user)
    raw = mails.outlook("draw", second=discard.lower(), sender=user.email, to=to)
    ply = game.ply
    deliver(raw, to=to)
    notations = list(game.moves.filter(ply__gte=ply).values_list("notation", flat=True))
    assert notations[0] == "draw" and notations[1].startswith("discard")
    (answer,) = answers_to(raw)
    assert "Played: draw." in answer.body and "Played: discard" in answer.body
    assert not answer.reply_to  # the turn passed to the other player


def _web_move(game, colour, text):
    from games import services as games

    game.refresh_from_db()
    games.move_submit(game=game, user=_seat_user(game, colour), text=text, seen_ply=game.ply)


def test_without_a_second_line_the_confirmation_asks_for_the_discard_with_a_new_address(zark, deliver):
    game = play_until(zark, "act")
    for _ in range(20):  # draw on the web until a draw by email leads to a discard
        colour = mover(game)
        rules = game.rules
        after = rules.apply(rules.from_position(game.snapshot), rules.parse("draw"), colour)
        if rules.phase(after) == "discard":
            break
        _web_move(game, colour, "draw")
    user = _seat_user(game, colour)
    to = reply_address(game, user)
    raw = mails.gmail("draw", sender=user.email, to=to)
    deliver(raw, to=to)
    (answer,) = answers_to(raw)
    assert answer.reply_to and answer.reply_to != [to]
    assert "It is still your move" in answer.body and "discard" in answer.body
    second = mails.gmail(legal(game, colour)[0], sender=user.email, to=answer.reply_to[0])
    deliver(second, to=answer.reply_to[0])
    game.refresh_from_db()
    assert game.moves.order_by("-ply").first().notation.startswith("discard")


@pytest.mark.parametrize(
    "line,reason",
    [("build 2H 9,9", ""), ("hello there", "Cannot read that move"), ("move S 5,5 6,6", "")],
    ids=["illegal", "unreadable", "illegal-move"],
)
def test_a_refused_move_changes_nothing_and_the_same_address_still_works(zark, deliver, line, reason):
    game = _at_act(zark)
    colour = mover(game)
    user = _seat_user(game, colour)
    to = reply_address(game, user)
    before = snapshot(game)
    raw = mails.apple(line, sender=user.email, to=to)
    deliver(raw, to=to)
    assert snapshot(game) == before
    (answer,) = answers_to(raw)
    assert "was not played" in answer.body and reason in answer.body
    assert "legal" in answer.body
    assert answer.reply_to == [to]
    retry = mails.apple("draw", sender=user.email, to=to)
    deliver(retry, to=to)
    assert snapshot(game)[0] == before[0] + 1


def test_a_refusal_lists_the_legal_moves_of_that_kind(zark, deliver):
    game = _at_act(zark)
    colour = mover(game)
    user = _seat_user(game, colour)
    to = reply_address(game, user)
    raw = mails.gmail("build 2H 9,9", sender=user.email, to=to)
    deliver(raw, to=to)
    builds = [m for m in legal(game, colour) if m.startswith("build")]
    body = answers_to(raw)[0].body
    assert 'Your legal "build" moves now:' in body if builds else "Your legal moves now:" in body
    assert all(f"  {m}\n" in body for m in builds[:40])


def test_a_turn_that_has_passed_changes_nothing(zark, deliver):
    game = _at_act(zark)
    colour = mover(game)
    user = _seat_user(game, colour)
    to = reply_address(game, user)
    _web_move(game, colour, "draw")  # they moved on the web meanwhile
    before = snapshot(game)
    raw = mails.gmail("draw", sender=user.email, to=to)
    deliver(raw, to=to)
    assert snapshot(game) == before
    (answer,) = answers_to(raw)
    assert "Nothing was played" in answer.body and "already moved" in answer.body


def test_a_used_address_changes_nothing(zark, deliver):
    game = _at_act(zark)
    colour = mover(game)
    user = _seat_user(game, colour)
    to = reply_address(game, user)
    deliver(mails.gmail("draw", sender=user.email, to=to), to=to)
    before = snapshot(game)
    again = mails.thunderbird("draw", sender=user.email, to=to)
    deliver(again, to=to)
    assert snapshot(game) == before
    (answer,) = answers_to(again)
    assert "already used" in answer.body


def test_a_reply_from_another_address_changes_nothing_and_shows_no_game(zark, deliver, charlie):
    game = _at_act(zark)
    colour = mover(game)
    to = reply_address(game, _seat_user(game, colour))
    before = snapshot(game)
    raw = mails.gmail("draw", sender=charlie.email, to=to)
    deliver(raw, to=to)
    assert snapshot(game) == before
    (answer,) = answers_to(raw)
    assert answer.to == [charlie.email]
    assert "Nothing was played" in answer.body
    assert not answer.alternatives[0][0].count("cid:board") and "Your hand" not in answer.body


def test_an_address_we_never_gave_out_gets_one_explanation(zark, deliver, bob):
    to = addresses.address("a" * 24)
    raw = mails.gmail("draw", sender=bob.email, to=to)
    deliver(raw, to=to)
    assert len(answers_to(raw)) == 1 and "not a reply address" in answers_to(raw)[0].body
    assert zark.moves.count() == 0


def test_mail_to_no_reply_address_of_ours_is_dropped(zark, deliver, bob):
    raw = mails.gmail("draw", sender=bob.email, to="someone@example.org")
    deliver(raw, to="someone@example.org")
    assert answers_to(raw) == [] and InboundMessage.objects.get().outcome == "not a reply address"


def test_reply_to_play_turned_off(zark, deliver, bob):
    to = reply_address(zark, bob)
    services.reply_setting_update(user=bob, enabled=False)
    assert services.turn_reply_address(game=zark, user=bob) is None
    raw = mails.gmail(legal(zark, "yellow")[0], sender=bob.email, to=to)
    deliver(raw, to=to)
    assert zark.moves.count() == 0
    (answer,) = answers_to(raw)
    assert "turned moves by email off" in answer.body and not answer.reply_to


ROBOTS = {
    "auto-submitted": {"Auto-Submitted": "auto-replied"},
    "precedence-bulk": {"Precedence": "bulk"},
    "precedence-junk": {"Precedence": "junk"},
    "precedence-list": {"Precedence": "list"},
    "x-autoreply": {"X-Autoreply": "yes"},
    "bounce": {"Return-Path": "<>"},
    "list-id": {"List-Id": "<games.lists.example.org>"},
}


@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_auto_replies_are_ignored_and_never_answered(zark, deliver, bob, name):
    to = reply_address(zark, bob)
    raw = mails.auto_reply(sender=bob.email, to=to, headers=ROBOTS[name], subject="Re: your turn")
    deliver(raw, to=to)
    row = InboundMessage.objects.get()
    assert row.outcome == "auto-reply" and row.answer_status == "none"
    assert answers_to(raw) == [] and zark.moves.count() == 0


@pytest.mark.parametrize(
    "sender,subject", [("MAILER-DAEMON@mail.example.com", "Undelivered Mail"), ("bob@example.com", "Out of Office: x")]
)
def test_bounces_and_vacation_responders_are_ignored(zark, deliver, bob, sender, subject):
    to = reply_address(zark, bob)
    raw = mails.auto_reply(sender=sender, to=to, headers={}, subject=subject)
    deliver(raw, to=to)
    assert answers_to(raw) == [] and InboundMessage.objects.get().outcome == "auto-reply"


def test_an_auto_reply_to_our_explanation_gets_nothing(zark, deliver, charlie):
    to = reply_address(zark, zark.seats.get(colour="yellow").user)
    raw = mails.gmail("draw", sender=charlie.email, to=to)
    deliver(raw, to=to)
    (explanation,) = answers_to(raw)
    # charlie's vacation responder answers our explanation, to its Reply-To or From
    back = mails.auto_reply(
        sender=charlie.email,
        to=(explanation.reply_to or [explanation.from_email])[0],
        headers={"Auto-Submitted": "auto-replied"},
    )
    sent = len(mail.outbox)
    deliver(back, to=to)
    assert len(mail.outbox) == sent


def test_the_same_message_delivered_twice_is_handled_once(zark, deliver, bob):
    to = reply_address(zark, bob)
    raw = mails.gmail(legal(zark, "yellow")[0], sender=bob.email, to=to)
    assert deliver(raw, to=to)[0] == inbox.Accepted.QUEUED
    assert deliver(raw, to=to)[0] == inbox.Accepted.DUPLICATE
    assert zark.commitments.count() == 1 and len(answers_to(raw)) == 1


def test_a_message_over_the_size_limit_is_refused(zark, deliver, bob, settings):
    settings.REPLIES_MAX_MESSAGE_BYTES = 2000
    to = reply_address(zark, bob)
    raw = mails.gmail("draw" + " " * 3000, sender=bob.email, to=to)
    assert deliver(raw, to=to) == (inbox.Accepted.TOO_BIG, None)
    assert not InboundMessage.objects.exists()


@pytest.mark.parametrize(
    "command,expect", [("help", "How to write a move"), ("Moves", "Your legal moves now"), ("BOARD", "Your hand")]
)
def test_commands_answer_and_change_nothing(zark, deliver, bob, command, expect):
    to = reply_address(zark, bob)
    before = snapshot(zark)
    raw = mails.gmail(command, sender=bob.email, to=to)
    deliver(raw, to=to)
    assert snapshot(zark) == before
    (answer,) = answers_to(raw)
    assert expect in answer.body and answer.reply_to == [to]
    assert ReplyToken.objects.get(token=to.split("+")[1].split("@")[0]).used_at is None


def test_the_board_answer_has_the_picture_and_only_the_players_own_hand(zark, deliver, bob):
    to = reply_address(zark, bob)
    raw = mails.gmail("board", sender=bob.email, to=to)
    deliver(raw, to=to)
    (answer,) = answers_to(raw)
    message = answer.message()
    assert (
        any(part.get_content_type() == "image/png" for part in message.walk())
        or "cid:board" in answer.alternatives[0][0]
    )
    rules = zark.rules
    state = rules.from_position(zark.snapshot)
    theirs = rules.table(rules.view(state, "red")).hand
    mine = set(rules.table(rules.view(state, "yellow")).hand)
    assert all(f"({code})" not in answer.body for code in theirs if code not in mine)


def test_resign_asks_first_and_a_confirming_reply_resigns(zark, deliver, bob):
    to = reply_address(zark, bob)
    ask = mails.gmail("resign", sender=bob.email, to=to)
    deliver(ask, to=to)
    assert zark.moves.count() == 0
    (question,) = answers_to(ask)
    assert "reply to this email with the word resign" in question.body
    confirm_to = question.reply_to[0]
    assert confirm_to != to
    yes = mails.gmail("resign", sender=bob.email, to=confirm_to)
    deliver(yes, to=confirm_to)
    zark.refresh_from_db()
    assert zark.seats.get(colour="yellow").resigned and zark.status == "finished"
    assert "You resigned" in answers_to(yes)[0].body


def test_anything_but_resign_to_the_confirmation_keeps_the_player_in(zark, deliver, bob):
    to = reply_address(zark, bob)
    ask = mails.gmail("resign", sender=bob.email, to=to)
    deliver(ask, to=to)
    confirm_to = answers_to(ask)[0].reply_to[0]
    no = mails.gmail("no, sorry, wrong button", sender=bob.email, to=confirm_to)
    deliver(no, to=confirm_to)
    assert not zark.seats.get(colour="yellow").resigned
    assert "did not resign" in answers_to(no)[0].body


def test_a_stale_resign_confirmation_does_nothing(zark, deliver, bob):
    to = reply_address(zark, bob)
    ask = mails.gmail("resign", sender=bob.email, to=to)
    deliver(ask, to=to)
    confirm_to = answers_to(ask)[0].reply_to[0]
    ReplyToken.objects.filter(purpose="resign").update(created_at=timezone.now() - timedelta(days=3))
    yes = mails.gmail("resign", sender=bob.email, to=confirm_to)
    deliver(yes, to=confirm_to)
    assert not zark.seats.get(colour="yellow").resigned and "expired" in answers_to(yes)[0].body


def test_rate_limits_per_sender_answer_nothing_past_the_limit(zark, deliver, bob, settings):
    settings.RATE_LIMITS = {"reply_sender": "2/h"}
    from django.core.cache import cache

    cache.clear()
    to = reply_address(zark, bob)
    raws = [mails.gmail("help", sender=bob.email, to=to) for _ in range(3)]
    for raw in raws:
        deliver(raw, to=to)
    assert [len(answers_to(raw)) for raw in raws] == [1, 1, 0]
    assert InboundMessage.objects.filter(outcome="rate limited").count() == 1


def test_rate_limits_per_reply_address(zark, deliver, bob, settings):
    settings.RATE_LIMITS = {"reply_token": "1/h"}
    from django.core.cache import cache

    cache.clear()
    to = reply_address(zark, bob)
    raws = [mails.gmail("help", sender=bob.email, to=to) for _ in range(2)]
    for raw in raws:
        deliver(raw, to=to)
    assert [len(answers_to(raw)) for raw in raws] == [1, 0]


def test_raw_messages_are_deleted_after_the_configured_days(zark, deliver, bob, settings):
    settings.REPLIES_KEEP_DAYS = 3
    to = reply_address(zark, bob)
    raw = mails.gmail("help", sender=bob.email, to=to)
    deliver(raw, to=to)
    row = InboundMessage.objects.get()
    assert bytes(row.raw) == raw
    assert services.purge_old(now=timezone.now() + timedelta(days=2)) == 0
    assert services.purge_old(now=timezone.now() + timedelta(days=4)) == 1
    row.refresh_from_db()
    assert bytes(row.raw) == b"" and row.answer is None and row.purged_at


def test_the_sweep_requeues_a_message_the_broker_lost(zark, eager, bob, settings, django_capture_on_commit_callbacks):
    from replies import sweep

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    to = reply_address(zark, bob)
    raw = mails.gmail("help", sender=bob.email, to=to)
    inbox.inbound_accept(raw=raw, source="pipe", envelope_to=[to])  # no commit callbacks: never queued
    InboundMessage.objects.update(received_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.sweep()["requeued"] == 1
    assert InboundMessage.objects.get().outcome == "command" and len(answers_to(raw)) == 1


def test_the_sweep_counts_only_what_the_broker_took(zark, bob, monkeypatch):
    to = reply_address(zark, bob)
    inbox.inbound_accept(raw=mails.gmail("help", sender=bob.email, to=to), source="pipe", envelope_to=[to])
    InboundMessage.objects.update(received_at=timezone.now() - timedelta(minutes=5))

    def broker_down(*args: object) -> None:
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(tasks.handle, "delay", broker_down)
    assert sweep.sweep()["requeued"] == 0  # still queued: the next sweep tries again
    assert InboundMessage.objects.get().status == InboundMessage.Status.QUEUED


def test_a_starter_chosen_by_reply_after_the_other_player_chose_on_the_web(zark, deliver, alice, bob):
    """Both choose at once: bob's address from the deal still answers after alice chose (the ply moved on)."""
    to = reply_address(zark, bob)
    _web_move(zark, "red", legal(zark, "red")[0])
    choice = legal(zark, "yellow")[0]
    raw = mails.apple(choice, sender=bob.email, to=to)
    deliver(raw, to=to)
    assert zark.moves.filter(seat__colour="yellow").get().notation == choice
    assert "Played" in answers_to(raw)[0].body


def test_a_sender_address_that_is_not_an_address_is_not_answered(zark, deliver, bob):
    to = reply_address(zark, bob)
    raw = mails.gmail("draw", sender="not an address", to=to)
    deliver(raw, to=to)
    assert answers_to(raw) == [] and InboundMessage.objects.get().outcome == "not a reply address"


def test_an_answer_left_sending_by_a_dead_worker_is_sent_again_by_the_sweep(zark, deliver, bob, settings):
    from django.test import TestCase

    from replies import sweep

    to = reply_address(zark, bob)
    raw = mails.gmail("help", sender=bob.email, to=to)
    deliver(raw, to=to)
    mail.outbox.clear()
    long_ago = timezone.now() - timedelta(hours=1)
    InboundMessage.objects.update(answer_status="sending", answer_claimed_at=long_ago, handled_at=long_ago)
    with TestCase.captureOnCommitCallbacks(execute=True):
        sweep.sweep()
    assert len(answers_to(raw)) == 1 and InboundMessage.objects.get().answer_status == "sent"


def test_a_reply_after_the_game_ended_changes_nothing(zark, deliver, alice, bob):
    from games import services as games

    to = reply_address(zark, bob)
    games.player_resign(game=zark, user=alice)
    before = snapshot(zark)
    raw = mails.gmail("draw", sender=bob.email, to=to)
    deliver(raw, to=to)
    assert snapshot(zark) == before
    (answer,) = answers_to(raw)
    assert "Nothing was played" in answer.body and "over" in answer.body and not answer.reply_to


def test_an_unreadable_reply_is_quoted_back_cut_at_a_word_with_an_ellipsis(alice, bob, deliver):
    game = start("martianchess", alice, bob)
    user = _seat_user(game, mover(game))
    to = reply_address(game, user)
    line = "sounds good, see you then, and thanks again for the game last week, it was a lot of fun"
    raw = mails.apple(line, sender=user.email, to=to)
    deliver(raw, to=to)
    (answer,) = answers_to(raw)
    assert "Your move 'sounds good, see you then, and thanks again for the game…' was not played" in answer.body
    assert "'sounds good, see you…' is not a move" in answer.body
    assert "the'" not in answer.body and "'..." not in answer.body


@pytest.mark.parametrize(
    "game_id,board_words", [("martianchess", "board (the board),"), ("zarkcity", "board (the board and your hand),")]
)
def test_the_help_answer_speaks_of_a_hand_only_in_a_game_with_hands(alice, bob, deliver, game_id, board_words):
    game = start(game_id, alice, bob)
    user = _seat_user(game, mover(game))
    to = reply_address(game, user)
    raw = mails.gmail("help", sender=user.email, to=to)
    deliver(raw, to=to)
    (answer,) = answers_to(raw)
    assert f"Commands: help (this), moves (every legal move now), {board_words} resign" in answer.body
    if game_id == "martianchess":
        assert "hand" not in answer.body.lower()
