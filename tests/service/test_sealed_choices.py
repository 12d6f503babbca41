"""Sealed choices (Zark City's and Deck Town's starters): each seat's commitment is held unseen, one
apply resolves them all when the last arrives, in the last one's transaction; no choice shows before,
in any order of arrival, however late; a clock that runs out times the seat out as before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from engine.zarkcity.movegen import legal_moves
from games import clock, selectors, services
from games.models import Commitment, Game, Move
from games.services import MoveRejected, StaleMove
from notifications.models import Notification
from tests.api.conftest import ApiClient, secret_for
from tests.service.gameplay import start_game, user_of
from tests.service.test_board_page import logged_in, play_data

pytestmark = pytest.mark.django_db


def starter(game: Game, colour: str) -> str:
    state = services.state_of(game)
    return str(next(m for m in legal_moves(state, colour) if str(m).startswith("choose")))


def commit(game: Game, colour: str, text: str | None = None, seen_ply: int = 0):
    return services.move_submit(
        game=game, user=user_of(game, colour), text=text or starter(game, colour), seen_ply=seen_ply
    )


@pytest.mark.parametrize("game_id", ["zarkcity", "decktown"])
@pytest.mark.parametrize("order", [("red", "yellow"), ("yellow", "red")])
def test_either_order_of_arrival_resolves_at_the_last(alice, bob, game_id, order):
    game = start_game(alice, bob, game=game_id)
    choices = {colour: starter(game, colour) for colour in order}
    first = commit(game, order[0], choices[order[0]])
    assert isinstance(first, Commitment) and not Move.objects.exists()
    last = commit(game, order[1], choices[order[1]])
    game.refresh_from_db()
    assert [(m.seat.colour, m.notation) for m in game.moves.all()] == [(c, choices[c]) for c in order]
    assert last == game.moves.last() and game.phase == "place" and not Commitment.objects.exists()


def test_a_late_choice_after_the_others_resolves_without_a_stale_ply(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    choices = {colour: starter(game, colour) for colour in ("red", "yellow", "green")}
    commit(game, "yellow", choices["yellow"])
    commit(game, "red", choices["red"])
    game.refresh_from_db()
    assert (game.ply, game.to_move) == (0, "green")  # the others' choices moved nothing: green's page is current
    commit(game, "green", choices["green"], seen_ply=0)
    game.refresh_from_db()
    assert [m.seat.colour for m in game.moves.all()] == ["yellow", "red", "green"] and game.phase == "place"


def test_a_stale_ply_is_refused_before_and_after_the_resolution(alice, bob):
    game = start_game(alice, bob)
    with pytest.raises(StaleMove):
        commit(game, "red", seen_ply=1)
    mine = starter(game, "red")
    commit(game, "yellow")
    commit(game, "red", mine)
    other = next(f"choose {c}" for c in services.state_of(Game.objects.get(pk=game.pk)).hands["red"])
    assert commit(game, "red", mine).ply == 1  # the same choice again (a retry) is the move it became
    with pytest.raises(StaleMove):
        commit(game, "red", other)


def test_an_illegal_choice_is_refused_on_arrival_and_nothing_is_held(alice, bob):
    game = start_game(alice, bob)
    with pytest.raises(MoveRejected, match="Place: not now"):
        commit(game, "red", "place 1,0")
    with pytest.raises(MoveRejected, match="one step"):
        commit(game, "red", f"{starter(game, 'red')}; place 1,0")
    assert not Commitment.objects.exists()


def test_a_commitment_stops_the_seats_clock_and_keeps_the_others(alice, bob):
    game = start_game(alice, bob)
    deadline, started = game.deadline, game.turn_started_at
    commit(game, "red")
    game.refresh_from_db()
    assert (game.to_move, game.deadline, game.turn_started_at) == ("yellow", deadline, started)
    assert [c.colour for c in clock.mover_clocks(game)] == ["yellow"]


def test_a_seat_that_never_commits_times_out_and_the_committed_one_wins(alice, bob):
    game = start_game(alice, bob)
    commit(game, "red")
    game.refresh_from_db()
    assert clock.time_out(game_id=game.pk, now=game.deadline + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (Game.Status.FINISHED, "red", "timeout")
    assert [m.notation for m in game.moves.all()] == ["resign"] and not Commitment.objects.exists()


def test_a_time_out_that_leaves_only_committed_seats_resolves_their_choices(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    choices = {colour: starter(game, colour) for colour in ("red", "yellow")}
    commit(game, "yellow", choices["yellow"])
    commit(game, "red", choices["red"])
    game.refresh_from_db()
    clock.time_out(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    played = [(m.seat.colour, m.notation) for m in game.moves.all()]
    assert played == [("green", "resign"), ("yellow", choices["yellow"]), ("red", choices["red"])]
    assert game.phase == "place" and game.status == Game.Status.ACTIVE and not Commitment.objects.exists()


def test_a_seat_that_resigns_takes_its_commitment_with_it(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    commit(game, "red")
    services.player_resign(game=game, user=alice)
    assert not Commitment.objects.exists()
    commit(game, "yellow", seen_ply=1)  # red's resign is ply 0
    commit(game, "green", seen_ply=1)
    game.refresh_from_db()
    assert [m.seat.colour for m in game.moves.all()] == ["red", "yellow", "green"] and game.phase == "place"


def test_no_page_api_or_email_shows_a_commitment_before_the_resolution(client, alice, bob, charlie, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = start_game(alice, bob, charlie)
    notifications = Notification.objects.count()
    text = starter(game, "red")
    card = text.split()[1]
    commit(game, "red", text)
    assert Notification.objects.count() == notifications and not mail.outbox  # nobody is told
    for user in (bob, None):  # another player, a spectator
        client.logout()
        if user is not None:
            client.force_login(user)
        page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        assert text not in page and f"chose {card}" not in page and "Your sealed choice" not in page
        assert "has chosen a starter" in page  # whether red has committed is public (rules.md): the game's note
    api = ApiClient(secret_for(bob, ("read", "play")))
    for path in (f"/games/{game.pk}", f"/games/{game.pk}/moves", "/events"):
        assert card not in api.get(path).content.decode()
    client.force_login(alice)
    own = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f"Your sealed choice: {text}." in own
    assert ApiClient(secret_for(alice, ("read", "play"))).get(f"/games/{game.pk}/moves").json()["your_turn"] is False


def test_a_game_that_ends_in_a_sealed_step_keeps_no_commitment(alice, bob):
    game = start_game(alice, bob)
    commit(game, "red")
    services.draw_propose(game=game, user=alice)
    services.draw_accept(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not Commitment.objects.exists()


# --- whether a seat has chosen: public where the game says so, and then the poll tells the open pages ---


def ply_news(client, game: Game) -> dict:
    return client.get(reverse("game_ply", args=[game.pk])).json()


def test_the_poll_tells_the_others_that_a_seat_has_chosen_not_what(client, alice, bob):
    """A sealed choice is no ply: the poll's `movers` losing the seat is what the others' open pages notice."""
    game = start_game(alice, bob)
    waited_on = play_data(logged_in(bob), game)["waited_on"]
    assert waited_on == ply_news(client, game)["movers"] == ["red", "yellow"]
    text = starter(game, "red")
    commit(game, "red", text)
    for user in (bob, None):  # the other player, a spectator
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(reverse("game_ply", args=[game.pk]), {"since": 0, "mine": "1"})
        assert (response.json()["ply"], response.json()["moved"], response.json()["movers"]) == (0, [], ["yellow"])
        assert text.split()[1] not in response.content.decode()
        context = selectors.game_for_viewer(Game.objects.get(pk=game.pk), user)
        assert [s.note for s in context.table.seats] == ["has chosen a starter", ""]
    assert play_data(logged_in(bob), game)["waited_on"] == ["yellow"]  # a page made now: nothing new to notice


def test_a_game_that_keeps_whether_a_choice_is_in_secret_keeps_waiting_on_it(client, alice, bob):
    """Launch Pad 23 has no OpenCommitments (issue 27): red's pick moves nothing the others read, while
    red's own page and API know it is in (Zark City's open starter choice is the test above)."""
    game = start_game(alice, bob, game="launchpad23")
    commit(game, "red", "start M")
    game.refresh_from_db()
    assert ply_news(client, game)["movers"] == ["red", "yellow"] and game.to_move == "red,yellow"
    others = selectors.game_for_viewer(game, bob)
    assert others.movers == ["red", "yellow"] and others.table.seats[0].note == ""
    own = selectors.game_for_viewer(game, alice)
    assert own.movers == ["yellow"] and not own.my_move and own.table.private_note == "Your sealed choice: start M."
    assert ApiClient(secret_for(alice, ("read", "play"))).get(f"/games/{game.pk}/moves").json()["your_turn"] is False
