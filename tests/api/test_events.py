"""The event feed: turns waiting on me, then moves (as my seat may read them), chat and ends of the
games I sit at, after a cursor that only moves forward; nothing still being written is passed over."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api import feed
from games import services
from tests.service.gameplay import pick, play_plies, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_settling(settings):
    settings.API_EVENTS_SETTLE_SECONDS = 0


def poll(client, after: str = "") -> dict:
    response = client.get("/events", **({"after": after} if after else {}))
    assert response.status_code == 200, response.content
    return response.json()


def kinds(answer: dict) -> list[tuple]:
    return [(e["type"], e["game"], e.get("colour")) for e in answer["events"]]


def test_the_first_poll_lists_the_turns_waiting_on_me(api_as, alice, bob, charlie):
    mine = start_game(alice, bob)  # both choose a starter at once
    theirs = play_plies(start_game(bob, charlie), 2)
    answer = poll(api_as(bob))  # oldest turn first
    assert kinds(answer) == [("turn", mine.pk, "yellow"), ("turn", theirs.pk, "red")]
    assert [e["ply"] for e in answer["events"]] == [0, 2] and not answer["more"] and answer["cursor"]
    assert kinds(poll(api_as(charlie))) == []  # bob (red) is to place in `theirs`
    assert kinds(poll(api_as(alice))) == [("turn", mine.pk, "red")]


def test_moves_chat_turns_and_the_end_after_the_cursor(api_as, alice, bob):
    game = start_game(alice, bob)
    client = api_as(alice)
    cursor = poll(client)["cursor"]
    red = pick(services.state_of(game), "red")
    services.move_submit(game=game, user=alice, text=red, seen_ply=0)
    yellow = pick(services.state_of(game), "yellow")
    services.move_submit(game=game, user=bob, text=yellow, seen_ply=0)  # sealed choices: the ply waits for both
    services.chat_post(game=game, user=bob, text="have fun")
    answer = poll(client, cursor)
    events = answer["events"]
    assert [e["type"] for e in events] == ["move", "move", "turn", "chat"]  # both choices, resolved at once
    assert [e["text"] for e in events if e["type"] == "move"] == [red, yellow]  # everyone has chosen: public now
    assert events[2]["colour"] == "red" and events[2]["ply"] == 2  # red places first
    assert events[3] | {"at": None} == {
        "type": "chat", "game": game.pk, "at": None, "ply": 2, "colour": "yellow", "name": "bob",
        "text": "have fun", "words": None, "dice": None, "winners": None, "reason": None,
    }  # fmt: skip
    assert poll(client, answer["cursor"])["events"] == []  # nothing twice
    services.player_resign(game=game, user=bob)
    end = {e["type"]: e for e in poll(client, answer["cursor"])["events"]}
    assert set(end) == {"move", "end"}  # one transaction: the end's time is taken just before the move row's
    assert (end["move"]["text"], end["move"]["colour"]) == ("resign", "yellow")
    assert (end["end"]["winners"], end["end"]["reason"], end["end"]["ply"]) == (["red"], "resignation", 3)


def test_a_sealed_starter_is_no_event_until_every_seat_has_chosen(api_as, alice, bob):
    game = start_game(alice, bob)
    alice_client, bob_client = api_as(alice), api_as(bob)
    cursors = poll(alice_client)["cursor"], poll(bob_client)["cursor"]
    services.move_submit(game=game, user=alice, text=pick(services.state_of(game), "red"), seen_ply=0)
    assert poll(bob_client, cursors[1])["events"] == [] and poll(alice_client, cursors[0])["events"] == []


def test_my_own_draw_is_in_my_words_only(api_as, alice, bob):
    game = play_plies(start_game(alice, bob), 4)
    while game.phase != "act" or game.to_move != "red":
        game = play_plies(game, 1)
    alice_client, bob_client = api_as(alice), api_as(bob)
    cursors = poll(alice_client)["cursor"], poll(bob_client)["cursor"]
    services.move_submit(game=game, user=alice, text="draw", seen_ply=game.ply)
    (mine,) = [e for e in poll(alice_client, cursors[0])["events"] if e["type"] == "move"]
    (theirs,) = [e for e in poll(bob_client, cursors[1])["events"] if e["type"] == "move"]
    row = game.moves.get(ply=game.ply)
    assert mine["words"] == row.descriptions["red"] and theirs["words"] == row.descriptions["yellow"]
    assert mine["text"] == theirs["text"] == "draw"


def test_only_games_i_sit_at(api_as, alice, bob, charlie):
    game = start_game(alice, bob)
    outsider = api_as(charlie)
    cursor = poll(outsider)["cursor"]
    play_plies(game, 3)
    services.chat_post(game=game, user=alice, text="hello")
    assert poll(outsider, cursor)["events"] == []


def test_nothing_is_served_before_it_has_settled(settings, api_as, alice, bob):
    settings.API_EVENTS_SETTLE_SECONDS = 2
    game = start_game(alice, bob)
    client = api_as(alice)
    services.move_submit(game=game, user=alice, text=pick(services.state_of(game), "red"), seen_ply=0)
    with time_machine.travel(timezone.now() + timedelta(seconds=10), tick=False) as clock:
        cursor = poll(client)["cursor"]
        services.move_submit(game=game, user=bob, text=pick(services.state_of(game), "yellow"), seen_ply=0)
        answer = poll(client, cursor)
        assert answer["events"] == [] and answer["cursor"] == cursor  # the moves may still be committing
        clock.shift(timedelta(seconds=3))
        moved = [e["colour"] for e in poll(client, cursor)["events"] if e["type"] == "move"]
        assert moved == ["red", "yellow"]


def test_a_long_answer_is_cut_and_resumes_exactly(monkeypatch, api_as, alice, bob):
    game = start_game(alice, bob)
    client = api_as(alice)
    cursor = poll(client)["cursor"]
    with time_machine.travel(timezone.now(), tick=False):  # every event at one instant: only the keys order them
        play_plies(game, 9)
        for n in range(3):
            services.chat_post(game=game, user=bob, text=f"line {n}")
    monkeypatch.setattr(feed, "LIMIT", 4)
    seen, more = [], True
    while more:
        answer = poll(client, cursor)
        cursor, more = answer["cursor"], answer["more"]
        seen += [(e["type"], e["ply"], e.get("text")) for e in answer["events"]]
    monkeypatch.setattr(feed, "LIMIT", 200)
    moves = [ply for kind, ply, _ in seen if kind == "move"]
    assert moves == list(range(9)) and [t for kind, _, t in seen if kind == "chat"] == ["line 0", "line 1", "line 2"]
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("cursor", ["yesterday", "12-3", "1-2-3-4", "-1-0-0", "9999999999999999999-0-0"])
def test_a_bad_cursor_is_400(api_as, alice, cursor):
    response = api_as(alice).get("/events", after=cursor)
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"


def test_the_cursor_round_trips_to_the_microsecond():
    at = timezone.now().replace(microsecond=123456)
    cursor = feed.Cursor(at, 2, 77)
    assert feed.Cursor.parse(str(cursor)) == cursor


def test_a_poll_costs_the_same_queries_for_one_game_or_many(api_as, alice, bob):
    """The feed is one cheap URL: its queries do not grow with the games or the moves in them."""
    client = api_as(alice)

    def queries_of_a_poll(games: int) -> int:
        cursor = poll(client)["cursor"]
        for _ in range(games):
            play_plies(start_game(alice, bob), 3)
        with CaptureQueriesContext(connection) as queries:
            answer = poll(client, cursor)
        assert len([e for e in answer["events"] if e["type"] == "move"]) == 3 * games
        return len(queries)

    assert queries_of_a_poll(1) == queries_of_a_poll(5)
