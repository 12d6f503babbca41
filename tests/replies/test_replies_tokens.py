"""A seat's reply address for a turn is one token however often it is asked for: in autocommit (the
notifications worker: one INSERT, a conflict read back) and inside a transaction (handling a reply:
looked for first, inserted under a savepoint)."""

from __future__ import annotations

import pytest
from django.db import transaction

from replies import services
from replies.models import ReplyToken
from tests.replies.helpers import start


def _seat(alice, bob):
    game = start("zarkcity", alice, bob)
    return game, game.seats.get(user=alice)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_one_insert_then_the_same_token(alice, bob, django_assert_num_queries):
    game, seat = _seat(alice, bob)
    ReplyToken.objects.filter(seat=seat).delete()
    with django_assert_num_queries(1):  # the INSERT
        first = services.token_for(seat=seat, ply=game.ply)
    with django_assert_num_queries(2):  # the INSERT meets the unique constraint; the row is read
        again = services.token_for(seat=seat, ply=game.ply)
    assert again.pk == first.pk and again.token == first.token
    assert ReplyToken.objects.filter(seat=seat, ply=game.ply).count() == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_a_conflict_leaves_the_callers_transaction_usable(alice, bob):
    game, seat = _seat(alice, bob)
    outside = services.token_for(seat=seat, ply=game.ply)
    with transaction.atomic():
        inside = services.token_for(seat=seat, ply=game.ply)
        other = services.token_for(seat=seat, ply=game.ply, purpose=ReplyToken.Purpose.RESIGN)
        assert ReplyToken.objects.filter(seat=seat).count() >= 2  # the transaction still answers
    assert inside.token == outside.token and other.token != outside.token


@pytest.mark.django_db(transaction=True)
def test_the_worker_reads_the_setting_and_the_seat_it_was_given(alice, bob, django_assert_num_queries):
    """With the seat passed and the reply setting read with the user, the address costs only its token."""
    from django.contrib.auth import get_user_model

    game = start("zarkcity", alice, bob)
    seat = game.seats.get(colour=game.to_move.split(",")[0])  # a player asked to move now
    user = get_user_model().objects.select_related("reply_setting").get(pk=seat.user_id)  # no row: reply is on
    ReplyToken.objects.filter(seat=seat).delete()
    with django_assert_num_queries(1):
        address = services.turn_reply_address(game=game, user=user, seat=seat)
    assert address and address == services.turn_reply_address(game=game, user=seat.user)
