"""Statements compiled once (zarkcity_site/prepared.py): each read gives the rows, the objects and the SQL
that building the queryset anew gives, each write the ORM's statement and parameters, with each call's
own values, on either database, on each thread's own connection."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import DrawProposal, Game, Move, Seat
from games.selectors.page import SEAT_RELATED
from replies.models import ReplyToken
from tests.service.gameplay import play_plies, start_game
from zarkcity_site.prepared import Prepared, PreparedInsert, PreparedUpdate

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


def sent(call):
    """What the call handed the database driver: each statement with its parameters, and their types
    (an int may go to PostgreSQL as psycopg's Int4, a datetime to SQLite as a string)."""
    statements = []

    def record(execute, sql, params, many, context):
        statements.append((sql, list(params), [type(param) for param in params]))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        result = call()
    return result, statements


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


def on_another_thread(call):
    """The call's result and its query count, run in a thread of its own, with its own connection to the
    database (a live test server answers in its own thread, the worker's pool runs threads)."""
    seen: list[object] = []

    def run() -> None:
        from django.db import connections

        own = connections["default"]  # this thread's
        with CaptureQueriesContext(own) as captured:
            seen.append(call())
        seen.append(len(captured.captured_queries))
        own.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return seen


@pytest.mark.django_db(transaction=True)
def test_another_thread_reads_through_its_own_connection(alice, bob):
    game = start_game(alice, bob)
    prepared = Prepared(lambda *, game_id: Game.objects.filter(pk=game_id)[:1])
    assert prepared(game_id=game.pk) == [game]  # compiled on this thread's connection
    assert on_another_thread(lambda: prepared(game_id=game.pk)) == [[game], 1]


def test_numbers_for_in_are_compiled_for_each_length(alice, bob, charlie):
    def seats_of(*, user_ids):
        return Seat.objects.filter(user_id__in=user_ids).order_by("pk").values_list("pk", "user_id")

    start_game(alice, bob)
    start_game(bob, charlie)
    prepared = Prepared(seats_of)
    everyone = tuple(user.pk for user in (alice, bob, charlie))
    for user_ids in ((alice.pk,), (charlie.pk, alice.pk), everyone, (bob.pk, bob.pk), everyone * 3, ()):
        assert prepared(user_ids=user_ids) == list(seats_of(user_ids=user_ids)), user_ids


def test_a_read_is_compiled_once_and_hands_the_driver_what_the_orm_does(alice, bob):
    """The same SQL and the same parameters of the same types, run after run: the int compared with an
    IntegerField (the ply) as psycopg's Int4 on PostgreSQL, as the ORM gives it."""
    game = start_game(alice, bob)
    play_plies(game, 4)

    def moves_from(*, game_id, ply):
        return Move.objects.filter(game_id=game_id, ply__gte=ply).order_by("ply")

    prepared = Prepared(moves_from)
    compiled = []
    real = prepared._compile
    prepared._compile = lambda *args: compiled.append(args) or real(*args)  # type: ignore[method-assign]
    for ply in (1, 3, 1):
        ours, statements = sent(lambda ply=ply: prepared(game_id=game.pk, ply=ply))
        orm, orm_statements = sent(lambda ply=ply: list(moves_from(game_id=game.pk, ply=ply)))
        assert ours == orm and statements == orm_statements
    assert len(compiled) == 1
    (_, _, types), *_ = statements
    assert ("Int4" in {kind.__name__ for kind in types}) == (connection.vendor == "postgresql")
    assert prepared(game_id=game.pk + 1000, ply=0) == []  # no such game


@pytest.fixture
def token(alice, bob):
    game = start_game(alice, bob)
    seat = game.seats.get(order=0)
    return ReplyToken.objects.create(token="a" * 20, game=game, seat=seat, ply=0, purpose=ReplyToken.Purpose.MOVE)


def test_an_update_is_the_orms_with_its_values_as_the_orm_adapts_them(token):
    """An int for an IntegerField (Int4 on PostgreSQL), a datetime as each database stores it, a string."""
    update = PreparedUpdate(
        lambda pk, ply, at, purpose: (
            ReplyToken.objects.filter(pk=pk),
            {"ply": ply, "used_at": at, "purpose": purpose},
        ),
        pk=int,
        ply=int,
        at=datetime,
        purpose=str,
    )
    for ply in (3, 7):
        at = timezone.now() - timedelta(minutes=ply)
        ours, statements = sent(lambda ply=ply, at=at: update(pk=token.pk, ply=ply, at=at, purpose="move"))
        orm, orm_statements = sent(
            lambda ply=ply, at=at: ReplyToken.objects.filter(pk=token.pk).update(ply=ply, used_at=at, purpose="move")
        )
        assert ours == orm == 1 and statements == orm_statements
        assert ("Int4" in {kind.__name__ for kind in statements[0][2]}) == (connection.vendor == "postgresql")
        token.refresh_from_db()
        assert (token.ply, token.used_at) == (ply, at)
    assert update(pk=token.pk + 1000, ply=1, at=timezone.now(), purpose="move") == 0  # no such row


def test_an_insert_writes_the_row_the_orm_reads_back(token):
    insert = PreparedInsert(ReplyToken, token=str, game_id=int, seat_id=int, ply=int, purpose=str, created_at=datetime)
    when = timezone.now() - timedelta(hours=1)
    seat = {"game_id": token.game_id, "seat_id": token.seat_id}
    for ply in (1, 2):
        assert insert(token=f"t{ply}", ply=ply, purpose="move", created_at=when, **seat) == 1
    rows = ReplyToken.objects.filter(seat_id=token.seat_id, ply__gt=0).order_by("ply")
    written = [(row.token, row.ply, row.created_at, row.used_at) for row in rows]
    assert written == [("t1", 1, when, None), ("t2", 2, when, None)]


def test_a_write_refuses_what_it_cannot_replay(token):
    seats = Seat.objects.filter(game_id=token.game_id)
    by_name = PreparedUpdate(lambda name: (seats.filter(user__username=name), {"resigned": True}), name=str)
    with pytest.raises(ValueError, match="one table"):
        by_name(name="alice")
    colour = PreparedUpdate(lambda pk, colour: (Seat.objects.filter(pk=pk), {"colour": colour}), pk=int, colour=str)
    with pytest.raises(TypeError, match="colour: a str"):
        colour(pk=1, colour=None)
    with pytest.raises(TypeError, match="takes pk, colour, not pk"):
        colour(pk=1)
    constant = PreparedUpdate(lambda pk: (Seat.objects.filter(game_id=token.game_id), {"resigned": True}), pk=int)
    with pytest.raises(ValueError, match="pk"):
        constant(pk=1)
    seat = seats.get(order=0)
    assert colour(pk=seat.pk, colour=seat.colour) == 1 and colour(pk=0, colour="red") == 0


@pytest.mark.django_db(transaction=True)
def test_a_write_that_fails_in_a_transaction_spoils_it_as_the_orms(alice, bob):
    game = start_game(alice, bob)
    seat = game.seats.get(order=0)
    insert = PreparedInsert(ReplyToken, token=str, game_id=int, seat_id=int, ply=int, purpose=str, created_at=datetime)
    values = {"game_id": game.pk, "seat_id": seat.pk, "ply": 0, "purpose": "move", "created_at": timezone.now()}
    insert(token="first", **values)
    with pytest.raises(TransactionManagementError), transaction.atomic():
        with pytest.raises(Exception, match="(?i)unique"):
            insert(token="again", **values)  # the same seat, ply and purpose
        ReplyToken.objects.count()  # refused: the transaction is to be rolled back
    assert list(ReplyToken.objects.values_list("token", flat=True)) == ["first"]


@pytest.mark.django_db(transaction=True)
def test_another_thread_writes_through_its_own_connection(alice, bob):
    game = start_game(alice, bob)
    seat = game.seats.get(order=0)
    resign = PreparedUpdate(lambda pk: (Seat.objects.filter(pk=pk), {"resigned": True}), pk=int)
    assert resign(pk=seat.pk + 1000) == 0  # compiled on this thread's connection
    assert on_another_thread(lambda: resign(pk=seat.pk)) == [1, 1]
    seat.refresh_from_db()
    assert seat.resigned
