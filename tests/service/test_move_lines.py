"""One line, several steps (games.md): `draw; discard ...` through move_submit and the web form is two
plies, all or nothing, announced once; a refused step refuses the line and its message names it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Move
from games.services import MoveRejected
from notifications.models import Notification
from tests.service.gameplay import before_a_full_hand, start_game, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_hand(alice, bob):
    return before_a_full_hand(start_game(alice, bob))


def unchanged(game: Game) -> tuple[int, dict, int, int]:
    game.refresh_from_db()
    return game.ply, game.snapshot, Move.objects.filter(game=game).count(), Notification.objects.count()


def test_a_line_of_two_steps_is_two_plies_of_the_same_seat(full_hand):
    game, colour, discard = full_hand
    ply = game.ply
    last = services.move_submit(game=game, user=user_of(game, colour), text=f"draw; {discard}", seen_ply=ply)
    game.refresh_from_db()
    rows = list(game.moves.filter(ply__gte=ply).select_related("seat"))
    assert [(r.ply, r.seat.colour, r.notation) for r in rows] == [(ply, colour, "draw"), (ply + 1, colour, discard)]
    assert last == rows[-1] and game.ply == ply + 2
    assert colour not in game.to_move.split(",")  # the turn passed on with the discard
    assert rows[0].descriptions[colour].startswith("you drew 3 cards: ")  # each step described as its own ply


def test_the_line_is_announced_once(full_hand, django_capture_on_commit_callbacks):
    game, colour, discard = full_hand
    ply = game.ply
    services.move_submit(game=game, user=user_of(game, colour), text=f"draw; {discard}", seen_ply=ply)
    turns = Notification.objects.filter(game=game, ply__gt=ply, kind=Notification.Kind.YOUR_TURN)
    game.refresh_from_db()
    assert [(n.ply, n.recipient) for n in turns] == [(ply + 2, user_of(game, game.to_move))]


def test_a_refused_second_step_refuses_the_line_and_writes_nothing(full_hand):
    game, colour, discard = full_hand
    before = unchanged(game)
    too_few = " ".join(discard.split()[:-1])  # one card short of the hand limit
    with pytest.raises(MoveRejected) as refused:
        services.move_submit(game=game, user=user_of(game, colour), text=f"draw; {too_few}", seen_ply=game.ply)
    assert refused.value.reason.startswith(f"step 2 ({too_few}): ")
    assert unchanged(game) == before


def test_an_unreadable_step_is_named_before_anything_is_tried(full_hand):
    game, colour, _ = full_hand
    before = unchanged(game)
    with pytest.raises(MoveRejected, match=r"Cannot read that move: step 2 \(discard ZZ\)"):
        services.move_submit(game=game, user=user_of(game, colour), text="draw; discard ZZ", seen_ply=game.ply)
    assert unchanged(game) == before


def test_a_step_after_the_turn_ended_refuses_the_line(full_hand):
    game, colour, discard = full_hand
    before = unchanged(game)
    with pytest.raises(MoveRejected, match=r"^step 3 \(draw\): comes after your turn"):
        services.move_submit(game=game, user=user_of(game, colour), text=f"draw; {discard}; draw", seen_ply=game.ply)
    assert unchanged(game) == before


def test_resign_stands_on_a_line_of_its_own(full_hand):
    game, colour, _ = full_hand
    with pytest.raises(MoveRejected, match="Resign on a line of its own"):
        services.move_submit(game=game, user=user_of(game, colour), text="draw; resign", seen_ply=game.ply)


def test_the_web_form_takes_a_line(client, full_hand):
    game, colour, discard = full_hand
    client.force_login(user_of(game, colour))
    ply = game.ply
    response = client.post(reverse("game_move", args=[game.pk]), {"text": f"draw; {discard}", "seen_ply": ply})
    assert response.status_code == 302
    assert list(game.moves.filter(ply__gte=ply).values_list("notation", flat=True)) == ["draw", discard]


def test_the_web_form_names_the_refused_step(client, full_hand):
    game, colour, discard = full_hand
    client.force_login(user_of(game, colour))
    before = unchanged(game)
    too_few = " ".join(discard.split()[:-1])
    response = client.post(reverse("game_move", args=[game.pk]), {"text": f"draw; {too_few}", "seen_ply": game.ply})
    assert response.status_code == 400
    assert f"step 2 ({too_few})" in response.content.decode()
    assert unchanged(game) == before
