"""Querysets compiled once (zarkcity_site/prepared.py): each call gives the rows, the objects and the SQL
that building the queryset anew gives, with its own values, on either database."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games.models import DrawProposal, Game, Move, Seat
from games.selectors.page import SEAT_RELATED
from tests.service.gameplay import play_plies, start_game
from zarkcity_site.prepared import Prepared

pytestmark = pytest.mark.django_db


def seats_with_game(*, game_id):
    return Seat.objects.filter(game_id=game_id).select_related("game", *SEAT_RELATED).order_by("order")


def logged(colour, *, game_id, since):
    rows = Move.objects.filter(game_id=game_id, ply__gte=since, seat__colour=colour).order_by("ply")
    return rows.values_list("ply", "notation", "dice")


def sql_of(call):
    with CaptureQueriesContext(connection) as captured:
        result = call()
    return result, [query["sql"] for query in captured.captured_queries]


def test_each_call_reads_its_own_values_as_the_queryset_would(alice, bob, charlie):
    first, second = start_game(alice, bob), start_game(bob, charlie)
    play_plies(first, 4)
    prepared = Prepared(seats_with_game)
    for game in (first, second, first):
        mine, sql = sql_of(lambda game=game: prepared(game_id=game.pk))
        theirs, built_sql = sql_of(lambda game=game: list(seats_with_game(game_id=game.pk)))
        assert sql == built_sql
        assert [(s.pk, s.colour, s.user.username, s.game.ply, s.game.snapshot) for s in mine] == [
            (s.pk, s.colour, s.user.username, s.game.ply, s.game.snapshot) for s in theirs
        ]
        # select_related filled as the queryset does: reading the profiles (none here) asks nothing more
        profiles, more = sql_of(lambda mine=mine: [getattr(s.user, "profile", None) for s in mine])
        assert more == [] and profiles == [getattr(s.user, "profile", None) for s in theirs]


def test_each_shape_is_compiled_apart_and_values_lists_are_converted(alice, bob):
    game = start_game(alice, bob)
    play_plies(game, 6)
    prepared = Prepared(logged)
    for colour in ("yellow", "red", "yellow"):
        for since in (0, 3, 99):
            assert prepared(colour, game_id=game.pk, since=since) == list(logged(colour, game_id=game.pk, since=since))


def test_prefetching_runs_on_the_rows(alice, bob):
    game = start_game(alice, bob)
    proposal = DrawProposal.objects.create(game=game, proposed_by=game.seats.get(colour="yellow"), at_ply=0)
    proposal.accepted_by.add(game.seats.get(colour="yellow"))
    prepared = Prepared(
        lambda *, game_id, ply: (
            DrawProposal.objects.filter(Q(at_ply__gte=ply) | Q(status="open"), game_id=game_id)
            .order_by("pk")
            .prefetch_related("accepted_by")
        )
    )
    (read,) = prepared(game_id=game.pk, ply=5)
    assert read.pk == proposal.pk and [seat.colour for seat in read.accepted_by.all()] == ["yellow"]
    assert prepared(game_id=game.pk + 1000, ply=0) == []


def test_a_number_out_of_a_columns_range_is_left_to_django(alice, bob):
    game = start_game(alice, bob)
    prepared = Prepared(lambda *, game_id: Game.objects.filter(pk=game_id)[:1])
    assert prepared(game_id=game.pk) == [game]
    assert prepared(game_id=10**30) == []  # Django folds it away; the database never sees it


def test_a_shape_whose_value_is_not_a_parameter_is_refused():
    prepared = Prepared(lambda *, ply: Game.objects.filter(status="active")[:1])
    with pytest.raises(ValueError, match="ply"):
        prepared(ply=3)


@pytest.mark.django_db(transaction=True)  # a test's own transaction would hold every read
def test_a_locking_read_locks_in_a_transaction_and_is_refused_outside_as_djangos(alice, bob):
    game = start_game(alice, bob)
    prepared = Prepared(lambda *, game_id: Game.objects.select_for_update().filter(pk=game_id))
    with transaction.atomic():
        locked, sql = sql_of(lambda: prepared(game_id=game.pk))
    assert locked == [game]
    assert ("FOR UPDATE" in sql[0]) == connection.features.has_select_for_update
    # Outside a transaction: refused where the database locks rows (PostgreSQL), read where it has no
    # such lock to take (SQLite), by Django's queryset and the prepared one alike.
    for read in (prepared, lambda *, game_id: list(Game.objects.select_for_update().filter(pk=game_id))):
        if connection.features.has_select_for_update:
            with pytest.raises(TransactionManagementError, match="outside of a transaction"):
                read(game_id=game.pk)
        else:
            assert read(game_id=game.pk) == [game]


@pytest.mark.django_db(transaction=True)
def test_another_thread_reads_through_its_own_connection(alice, bob):
    """A live test server answers in its own thread, with its own connection to the database."""
    game = start_game(alice, bob)
    prepared = Prepared(lambda *, game_id: Game.objects.filter(pk=game_id)[:1])
    assert prepared(game_id=game.pk) == [game]  # compiled on this thread's connection
    seen: list[object] = []

    def read() -> None:
        from django.db import connections

        own = connections["default"]  # this thread's
        with CaptureQueriesContext(own) as captured:
            seen.append(prepared(game_id=game.pk))
        seen.append(len(captured.captured_queries))
        own.close()

    worker = threading.Thread(target=read)
    worker.start()
    worker.join()
    assert seen == [[game], 1]


def test_numbers_for_in_are_compiled_for_each_length(alice, bob, charlie):
    def seats_of(*, user_ids):
        return Seat.objects.filter(user_id__in=user_ids).order_by("pk").values_list("pk", "user_id")

    start_game(alice, bob)
    start_game(bob, charlie)
    prepared = Prepared(seats_of)
    everyone = tuple(user.pk for user in (alice, bob, charlie))
    for user_ids in ((alice.pk,), (charlie.pk, alice.pk), everyone, (bob.pk, bob.pk), everyone * 3, ()):
        assert prepared(user_ids=user_ids) == list(seats_of(user_ids=user_ids)), user_ids
