"""The worker's statements compiled once (zarkcity_site.prepared, whose own tests are tests/service/test_prepared.py):
the same rows, related objects and answers as the ORM's querysets they are made from, the claim won once,
one reply token a turn."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.selectors import display_name_of
from games.models import Move, Seat
from notifications import delivery, selectors
from notifications.models import Mute, Notification
from replies.addresses import address
from replies.models import ReplyToken
from replies.services import turn_reply_address
from tests.notifications.helpers import play_setup, play_turn, start_game

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def fields(instance) -> dict:
    """A model instance's column values (what it was read with is compared apart)."""
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


@pytest.fixture
def table(alice, bob, charlie):
    """A three-player game a turn in, its turn emails written, one of them about a game its player muted."""
    game = start_game(alice, bob, charlie)
    play_setup(game)
    play_turn(game)
    play_turn(game)
    Mute.objects.create(user=bob, game=game)
    return game


def test_the_claimed_row_is_read_as_the_orm_reads_it(table):
    """Every row of the outbox, through the compiled read then the table kept: the same columns, the same
    recipient with their preferences, the same game, the same three answers, the same seats in order."""
    rows = list(Notification.objects.filter(game=table).values_list("pk", flat=True))
    assert len(rows) >= 3
    for pk in rows:
        orm = delivery.CLAIMED_READ.get(pk=pk)
        (compiled,) = delivery.CLAIMED_ROW(pk=pk)
        selectors.keep_table(compiled.game)
        assert fields(compiled) == fields(orm)
        assert (compiled.muted, compiled.watched_at, compiled.has_push) == (orm.muted, orm.watched_at, orm.has_push)
        assert fields(compiled.recipient) == fields(orm.recipient)
        assert fields(compiled.game) == fields(orm.game)
        with CaptureQueriesContext(connection) as asked:  # all of it came with the read
            preference = selectors.preference_for(compiled.recipient)
            seats = selectors.seated(compiled.game)
            assert [seat.game for seat in seats] == [compiled.game] * 3
            names = [display_name_of(seat.user) for seat in seats]
            preferences = [selectors.preference_for(seat.user).pk for seat in seats]
            assert list(compiled.game.seats.all()) == seats
        assert not asked.captured_queries
        assert [fields(seat) for seat in seats] == [fields(seat) for seat in selectors.seated(orm.game)]
        assert names == [display_name_of(seat.user) for seat in selectors.seated(orm.game)]
        assert preferences == [selectors.preference_for(seat.user).pk for seat in selectors.seated(orm.game)]
        assert preference.pk == selectors.preference_for(orm.recipient).pk
    answered = [delivery.CLAIMED_ROW(pk=pk)[0] for pk in rows]
    assert {row.recipient.username for row in answered if row.muted} == {"bob"}  # the answers are each row's


def test_the_moves_since_a_turn_are_the_orms(table):
    """Each seat's history since its own last move, compiled once, against the queryset it is made from."""
    for seat in Seat.objects.filter(game=table):
        orm = list(selectors._moves_since(game=table.pk, seat=seat.pk))
        compiled = selectors.MOVES_SINCE(game=table.pk, seat=seat.pk)
        assert [fields(move) for move in compiled] == [fields(move) for move in orm]
        assert [move.seat.colour for move in compiled] == [move.seat.colour for move in orm]
    assert Move.objects.filter(game=table).count() > 0


def test_the_claim_compiled_once_wins_once_and_takes_a_stale_claim_over(table):
    """The claim's UPDATE with its datetimes as each database stores them: the same instant read back,
    compared against the stale limit, and a claim no worker holds any more taken over (one more attempt)."""
    row = Notification.objects.filter(game=table, status=Notification.Status.PENDING).first()
    assert row is not None
    now = timezone.now()
    assert delivery.claim(row.pk, now=now) is not None
    assert delivery.claim(row.pk, now=now + timedelta(seconds=1)) is None  # another worker's, still fresh
    row.refresh_from_db()
    assert (row.status, row.claimed_at, row.attempts) == (Notification.Status.SENDING, now, 1)
    later = now + timedelta(seconds=settings.NOTIFICATIONS_STALE_CLAIM_SECONDS + 1)
    assert delivery.claim(row.pk, now=later) is not None
    row.refresh_from_db()
    assert (row.claimed_at, row.attempts) == (later, 2)


def test_the_record_of_a_send_compiled_once_marks_our_claim_alone(table):
    """The UPDATE to sent with its datetimes as each database stores them: it marks the row only while
    the claim it names holds (not another worker's, not a row already sent), and writes what the ORM wrote."""
    row = Notification.objects.filter(game=table, status=Notification.Status.PENDING).first()
    assert row is not None
    now = timezone.now()
    claimed = delivery.claim(row.pk, now=now)
    assert claimed is not None and claimed.claimed_at == now
    sent_at, message_id = now + timedelta(seconds=2), f"<notification.{row.pk}@example.com>"
    taken_over = now - timedelta(microseconds=1)  # a claim that is not ours any more
    assert not delivery.record_sent(row.pk, claimed_at=taken_over, message_id="<other>", sent_at=sent_at)
    assert delivery.record_sent(row.pk, claimed_at=now, message_id=message_id, sent_at=sent_at)
    assert not delivery.record_sent(row.pk, claimed_at=now, message_id="<again>", sent_at=sent_at)  # sent already
    row.refresh_from_db()
    assert (row.status, row.claimed_at, row.sent_at, row.message_id) == (
        Notification.Status.SENT,
        now,
        sent_at,
        message_id,
    )


@pytest.mark.django_db(transaction=True)
def test_the_workers_token_insert_gives_one_token_a_turn(alice, bob):
    """Outside a transaction, as the worker builds a turn email, the reply address's token is one INSERT
    compiled once; built again (a retried email) the INSERT fails on the unique constraint and the row
    is read: the same address, one row, as the ORM would have written it."""
    game = start_game(alice, bob)
    play_setup(game)
    seat = next(seat for seat in selectors.seated(game) if seat.colour in game.to_move.split(","))
    game.refresh_from_db()
    first = turn_reply_address(game=game, user=seat.user, seat=seat)
    again = turn_reply_address(game=game, user=seat.user, seat=seat)
    assert first is not None and first == again
    (token,) = ReplyToken.objects.filter(seat=seat, ply=game.ply)
    assert first == address(token.token)
    assert (token.game_id, token.purpose, token.used_at) == (game.pk, ReplyToken.Purpose.MOVE, None)
    assert abs(timezone.now() - token.created_at) < timedelta(minutes=1)
