"""My games: my turn first (longest waiting first), then waiting on others, waiting for players,
finished; whose turn it is and for how long; pending invitations with accept and decline."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.notation import Choose
from games import services
from games.models import Game
from games.selectors import dashboard_for

pytestmark = pytest.mark.django_db


def started(*players) -> Game:
    game = services.game_create(
        creator=players[0],
        seats=len(players),
        game="zarkcity",
        options={"deck": "standard"},
        time_limit_days=3,
        is_private=False,
    )
    for user in players[1:]:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def choose_starter(game: Game, user) -> None:
    colour = game.seats.get(user=user).colour
    move = next(m for m in legal_moves(services.state_of(game), colour) if isinstance(m, Choose))
    services.move_submit(game=game, user=user, text=str(move), seen_ply=game.ply)
    game.refresh_from_db()


def section_order(html: str, *names: str) -> list[int]:
    return [html.index(name) for name in names]


def test_sections_come_in_order_with_the_right_games(client, alice, bob, charlie):
    now = timezone.now()
    with time_machine.travel(now - timedelta(days=3), tick=False):
        old_turn = started(alice, bob)  # choose phase: alice may move, for 3 days now
    with time_machine.travel(now - timedelta(days=1), tick=False):
        new_turn = started(alice, charlie)
    theirs = started(alice, bob)
    choose_starter(theirs, alice)  # now only bob has to choose
    waiting = services.game_create(
        creator=alice, seats=3, game="zarkcity", options={"deck": "arcade"}, time_limit_days=2, is_private=True
    )
    over = started(alice, charlie)
    services.player_resign(game=over, user=charlie)

    board = dashboard_for(user=alice)
    assert [e.game for e in board.my_turn] == [old_turn, new_turn]
    assert [e.game for e in board.waiting_on_others] == [theirs]
    assert [e.game for e in board.waiting_for_players] == [waiting]
    assert [e.game for e in board.finished] == [over]

    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    positions = section_order(
        html,
        f"Zark City #{old_turn.pk}<",
        f"Zark City #{new_turn.pk}<",
        "Waiting on others",
        f"Zark City #{theirs.pk}<",
        "Waiting for players",
        f"Zark City #{waiting.pk}<",
        "Finished",
        f"Zark City #{over.pk}<",
    )
    assert positions == sorted(positions)
    assert "for 3\xa0days" in html  # how long the oldest turn has waited
    assert "Won by" in html


def test_a_choose_phase_shows_every_player_still_choosing(client, alice, bob, charlie):
    game = started(alice, bob, charlie)
    choose_starter(game, bob)
    entry = dashboard_for(user=alice).my_turn[0]
    assert [seat.user for seat in entry.movers] == [alice, charlie]
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "Choosing starters:" in html and "charlie" in html


def test_a_resigned_player_does_not_wait_on_themselves(alice, bob, charlie):
    game = started(alice, bob, charlie)
    services.player_resign(game=game, user=charlie)
    board = dashboard_for(user=charlie)
    assert not board.my_turn
    assert [e.game for e in board.waiting_on_others] == [game]


def test_pending_invitations_with_accept_and_decline(client, alice, bob, charlie):
    game = services.game_create(
        creator=alice, seats=3, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    other = services.game_create(
        creator=charlie, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.invitation_create(game=other, invited_by=charlie, email="bob@example.com")
    client.force_login(bob)
    html = client.get(reverse("dashboard")).content.decode()
    assert "Invitations" in html and html.count('value="accept"') == 2

    board = dashboard_for(user=bob)
    assert [i.game for i in board.invitations] == [other, game]  # newest first


def test_the_dashboard_is_for_players_only(client):
    assert client.get(reverse("dashboard"))["Location"].startswith(reverse("account_login"))


def test_an_empty_dashboard_says_what_to_do(client, alice):
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "Nothing waits on you." in html and reverse("open_games") in html


def test_a_finished_game_says_how_it_ended_once(client, alice, bob):
    won, drawn = started(alice, bob), started(alice, bob)
    services.player_resign(game=won, user=bob)
    services.draw_propose(game=drawn, user=alice)
    services.draw_accept(game=drawn, user=bob)
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "Drawn by agreement" in html and "(draw)" not in html
    assert "</span> · resignation" in html  # not "Alice (@alice) (resignation)"


def test_a_game_everyone_timed_out_of_says_no_winner(client, alice, bob):
    services.game_abandon(game=started(alice, bob))
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "No winner: every remaining player ran out of time · just now" in html
    assert "(timeout)" not in html and "Won by" not in html


def test_times_under_a_minute_say_just_now(client, alice, bob, charlie):
    started(alice, bob)  # alice's turn to choose a starter, since this moment
    game = services.game_create(
        creator=charlie, seats=3, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=charlie, username="alice")
    services.invitation_create(game=game, invited_by=charlie, username="bob")
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "· just now" in html and "0\xa0minutes" not in html and "0 minutes" not in html
    client.force_login(charlie)
    html = client.get(reverse("game_lobby", args=[game.pk])).content.decode()
    assert "invited just now" in html and "0\xa0minutes" not in html and "0 minutes" not in html
