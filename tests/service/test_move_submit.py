"""games.services.move_submit and player_resign: the happy path and every way a move is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction

from engine.zarkcity.game import GAME
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.position import from_position
from games import selectors, services
from games.models import Commitment, DrawProposal, Game, Move
from games.services import MoveRejected, NotAPlayer, StaleMove
from tests.service.gameplay import GOOD_SEED, mover, play_plies, start_game, user_of

pytestmark = pytest.mark.django_db


def started(*players):
    return start_game(*players)


def new_game(creator):
    return services.game_create(
        creator=creator, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=False
    )


def starter_of(game, colour):
    state = services.state_of(game)
    return str(next(m for m in legal_moves(state, colour) if str(m).startswith("choose")))


def test_a_starter_is_sealed_until_every_seat_has_chosen(alice, bob):
    game = started(alice, bob)
    snapshot = game.snapshot
    text = starter_of(game, "yellow")
    row = services.move_submit(game=game, user=bob, text=text.upper(), seen_ply=0)
    game.refresh_from_db()
    assert isinstance(row, Commitment) and (row.ply, row.seat.colour, row.notation) == (0, "yellow", text)
    assert (game.ply, game.snapshot, game.to_move) == (0, snapshot, "red")  # nothing applied, nothing recorded
    assert not Move.objects.exists()


def test_the_last_choice_resolves_them_all_into_moves_in_the_order_they_came(alice, bob):
    game = started(alice, bob)
    theirs, mine = starter_of(game, "yellow"), starter_of(game, "red")
    services.move_submit(game=game, user=bob, text=theirs, seen_ply=0)
    last = services.move_submit(game=game, user=alice, text=mine, seen_ply=0)
    game.refresh_from_db()
    rows = list(game.moves.select_related("seat"))
    assert [(r.ply, r.seat.colour, r.notation) for r in rows] == [(0, "yellow", theirs), (1, "red", mine)]
    assert last == rows[1] and game.ply == 2 and game.phase == "place"
    assert [c for c, _ in game.snapshot["starters"]] == ["yellow", "red"]
    assert not Commitment.objects.exists()
    assert rows[0].descriptions["*"] == "yellow chose a starter"
    assert rows[0].descriptions["yellow"] == f"you chose {theirs.split()[1]}"
    assert rows[1].descriptions["*"].startswith(f"red chose {mine.split()[1]}; starters revealed: ")


def test_choose_keeps_the_clock_of_who_is_still_choosing(alice, bob):
    game = started(alice, bob)
    deadline = game.deadline
    services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=0)
    game.refresh_from_db()
    assert game.deadline == deadline


def test_players_choosing_at_once_both_count_though_the_ply_moved(alice, bob, charlie):
    game = started(alice, bob, charlie)
    texts = {colour: starter_of(game, colour) for colour in ("red", "yellow", "green")}
    for user, colour in ((bob, "yellow"), (charlie, "green"), (alice, "red")):
        services.move_submit(game=game, user=user, text=texts[colour], seen_ply=0)  # all loaded the new game
    game.refresh_from_db()
    assert [(m.seat.colour, m.notation) for m in game.moves.all()] == [
        ("yellow", texts["yellow"]),
        ("green", texts["green"]),
        ("red", texts["red"]),
    ]
    assert game.phase == "place"


def test_a_double_click_on_confirm_answers_with_the_move_already_played(alice, bob):
    game = started(alice, bob)
    text = starter_of(game, "yellow")
    first = services.move_submit(game=game, user=bob, text=text, seen_ply=0)
    again = services.move_submit(game=game, user=bob, text=text.upper(), seen_ply=0)
    assert again == first and Commitment.objects.count() == 1


def test_a_double_click_while_choosing_at_once_with_another_player_is_no_error(alice, bob):
    game = started(alice, bob)
    mine, theirs = starter_of(game, "red"), starter_of(game, "yellow")
    services.move_submit(game=game, user=bob, text=theirs, seen_ply=0)
    first = services.move_submit(game=game, user=alice, text=mine, seen_ply=0)  # bob's choice came between
    again = services.move_submit(game=game, user=alice, text=mine, seen_ply=0)
    assert again.pk == first.pk and first.ply == 1 and Move.objects.count() == 2


def test_a_double_click_on_the_winning_move_is_no_error_though_the_game_is_over(alice, bob):
    game = play_plies(started(alice, bob), 400)
    last = game.moves.last()
    assert game.status == Game.Status.FINISHED and last.notation != "resign"
    again = services.move_submit(game=game, user=last.seat.user, text=last.notation, seen_ply=last.ply)
    assert again.pk == last.pk


def test_a_sealed_choice_cannot_be_changed(alice, bob):
    game = started(alice, bob)
    first = services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=0)
    hand = game.snapshot["hands"]["yellow"]
    other = next(f"choose {c}" for c in hand if f"choose {c}" != first.notation)
    with pytest.raises(MoveRejected, match="sealed: it cannot be changed"):
        services.move_submit(game=game, user=bob, text=other, seen_ply=0)
    assert list(Commitment.objects.values_list("notation", flat=True)) == [first.notation]


def test_a_second_different_move_on_the_same_page_is_stale(alice, bob):
    game = play_to_place(alice, bob)
    colour, seen = mover(game), game.ply
    services.move_submit(game=game, user=user_of(game, colour), text="place 1,0", seen_ply=seen)
    with pytest.raises(StaleMove, match="moved on since you loaded this page"):
        services.move_submit(game=game, user=user_of(game, colour), text="place -1,0", seen_ply=seen)
    assert game.moves.count() == seen + 1


def test_a_move_answering_someone_elses_turn_is_stale(alice, bob):
    game = play_to_place(alice, bob)
    colour = mover(game)
    seen = game.ply
    play_plies(game, 1)  # the mover plays; the other player's page still shows ply `seen`
    game.refresh_from_db()
    other = next(c for c in ("red", "yellow") if c != colour)
    assert other in game.to_move.split(",")
    text = str(legal_moves(services.state_of(game), other)[0])
    with pytest.raises(StaleMove, match="moved on since you loaded this page"):
        services.move_submit(game=game, user=user_of(game, other), text=text, seen_ply=seen)
    assert game.moves.count() == seen + 1


def test_a_ply_from_the_future_is_stale(alice, bob):
    game = started(alice, bob)
    with pytest.raises(StaleMove):
        services.move_submit(game=game, user=alice, text=starter_of(game, "red"), seen_ply=5)


def test_illegal_move_gives_the_engines_reason(alice, bob):
    game = started(alice, bob)
    with pytest.raises(MoveRejected) as caught:
        services.move_submit(game=game, user=alice, text="place 1,0", seen_ply=0)
    assert caught.value.reason == "Place: not now; every player is choosing a starter card"
    assert not Move.objects.exists()


def test_not_your_turn(alice, bob):
    game = play_to_place(alice, bob)
    mover = game.to_move
    other = bob if mover == "red" else alice
    with pytest.raises(MoveRejected, match="Not your turn"):
        services.move_submit(game=game, user=other, text="place 1,0", seen_ply=game.ply)


def play_to_place(alice, bob):
    game = started(alice, bob)
    services.move_submit(game=game, user=alice, text=starter_of(game, "red"), seen_ply=0)
    services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=0)
    game.refresh_from_db()
    assert game.phase == "place"
    return game


def test_a_card_not_in_hand_is_refused_with_the_rule(alice, bob):
    game = started(alice, bob)
    hand = game.snapshot["hands"]["red"]
    missing = next(c for c in ("2S", "3S", "4S", "5S") if c not in hand)
    with pytest.raises(MoveRejected, match=f"Choose: .*{missing}"):
        services.move_submit(game=game, user=alice, text=f"choose {missing}", seen_ply=0)


@pytest.mark.parametrize("text", ["", "dance", "build 7H", "build 7X 1,0", "grow Q 1,0"])
def test_malformed_notation(alice, bob, text):
    game = started(alice, bob)
    with pytest.raises(MoveRejected, match="Cannot read that move"):
        services.move_submit(game=game, user=alice, text=text, seen_ply=0)


def test_a_finished_game_takes_no_moves(alice, bob):
    game = started(alice, bob)
    services.player_resign(game=game, user=alice)
    with pytest.raises(MoveRejected, match="over"):
        services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=1)


def test_an_open_game_takes_no_moves(alice, bob):
    game = new_game(alice)
    with pytest.raises(MoveRejected, match="not started"):
        services.move_submit(game=game, user=alice, text="draw", seen_ply=0)


def test_a_non_player_cannot_move(alice, bob, charlie):
    game = started(alice, bob)
    with pytest.raises(NotAPlayer):
        services.move_submit(game=game, user=charlie, text="choose 7H", seen_ply=0)


def test_resign_through_move_submit_is_recorded_as_a_move(alice, bob):
    game = started(alice, bob)
    services.move_submit(game=game, user=bob, text=starter_of(game, "yellow"), seen_ply=0)
    row = services.move_submit(game=game, user=alice, text=" Resign ", seen_ply=0)  # any ply: resign is always allowed
    game.refresh_from_db()
    assert (row.ply, row.seat.colour, row.notation) == (0, "red", "resign")  # yellow's sealed choice went with the game
    assert game.status == Game.Status.FINISHED
    assert (game.winner, game.result_reason, game.phase, game.to_move) == ("yellow", "resignation", "over", "")
    assert game.finished_at is not None and game.deadline is None
    assert game.seats.get(user=alice).resigned and not Commitment.objects.exists()


def test_a_resigned_player_cannot_move(alice, bob, charlie):
    game = started(alice, bob, charlie)
    services.player_resign(game=game, user=charlie)
    with pytest.raises(NotAPlayer, match="left this game"):
        services.move_submit(game=game, user=charlie, text="draw", seen_ply=1)


def test_the_clock_restarts_for_a_new_mover_only(alice, bob):
    game = play_plies(start_game(alice, bob), 2)  # both starters chosen: now a placement
    assert game.phase == "place"
    placed_by = mover(game)
    started_at = game.turn_started_at
    game = play_plies(game, 1)
    assert mover(game) != placed_by and game.turn_started_at > started_at
    assert (game.deadline - game.turn_started_at).days == game.time_limit_days


def test_placing_right_after_choosing_gets_a_fresh_clock(alice, bob):
    """The last to choose a starter may be the one who must place: placing is a new move, a new clock."""
    game = start_game(alice, bob)
    choices = {colour: starter_of(game, colour) for colour in ("red", "yellow")}
    # The higher starter chooses first, so the last to choose is the one who must place.
    first, last = sorted(choices, key=lambda c: -int(choices[c].split()[1][:-1]))
    with time_machine.travel(game.started_at + timedelta(days=1)):
        services.move_submit(game=game, user=user_of(game, first), text=choices[first], seen_ply=0)
    with time_machine.travel(game.started_at + timedelta(days=2)):
        services.move_submit(game=game, user=user_of(game, last), text=choices[last], seen_ply=0)
    game.refresh_from_db()
    assert game.phase == "place" and mover(game) == last  # the higher starter (or the tie's first) went first
    assert game.turn_started_at.date() == (game.started_at + timedelta(days=2)).date()
    assert game.deadline - game.turn_started_at == timedelta(days=game.time_limit_days)


def test_a_discard_keeps_the_turns_clock(alice, bob):
    game = start_game(alice, bob)
    for _ in range(400):
        game = play_plies(game, 1)
        if game.phase == "discard" and game.turn_started_at is not None and game.snapshot["turn"] > 0:
            break
    assert game.phase == "discard"
    clock = game.turn_started_at
    game = play_plies(game, 1)  # the discard itself: the next player's turn starts now
    assert game.turn_started_at >= clock


def test_the_log_has_no_gap_and_the_snapshot_is_the_replay_of_the_log(alice, bob, charlie):
    game = play_plies(start_game(alice, bob, charlie), 60)
    plies = list(game.moves.values_list("ply", flat=True))
    assert plies == list(range(game.ply))
    record = selectors.game_record(game)
    record["seed"] = game.seed  # the server's own check may use the secret
    assert from_position(game.snapshot) == GAME.replay(record)


def test_a_winning_move_finishes_the_game(alice, bob):
    game = play_plies(start_game(alice, bob, seed=GOOD_SEED), 800)
    assert game.status == Game.Status.FINISHED
    assert (game.phase, game.to_move, game.result_reason) == ("over", "", "power block")
    assert game.winner in ("red", "yellow") and game.finished_at is not None and game.deadline is None
    last = game.moves.last()
    assert last.seat.colour == game.winner and "with a power block" in last.descriptions["*"]
    with pytest.raises(MoveRejected, match="over"):
        services.move_submit(game=game, user=alice, text="draw", seen_ply=game.ply)


def test_a_move_lapses_an_open_draw_proposal(alice, bob):
    game = play_plies(start_game(alice, bob), 1)
    proposal = services.draw_propose(game=game, user=alice)
    play_plies(game, 1)
    proposal.refresh_from_db()
    assert proposal.status == DrawProposal.Status.LAPSED


def test_refused_moves_change_nothing(alice, bob):
    game = play_plies(start_game(alice, bob), 5)
    before = (game.ply, game.snapshot, game.deadline, Move.objects.count())
    colour = mover(game)
    for text in ("fly 9,9 8,8 pay AS", "nonsense", "build 7H"):
        with pytest.raises(MoveRejected):
            services.move_submit(game=game, user=user_of(game, colour), text=text, seen_ply=game.ply)
    game.refresh_from_db()
    assert (game.ply, game.snapshot, game.deadline, Move.objects.count()) == before


def test_every_offered_legal_move_is_accepted(alice, bob):
    """What the page offers agrees with what move_submit accepts (one of each kind, at a few points)."""
    game = start_game(alice, bob)
    for _ in range(10):
        game = play_plies(game, 7)
        colour = mover(game)
        for move in legal_moves(services.state_of(game), colour)[:3]:
            if str(move) == "resign":
                continue
            with transaction.atomic():
                row = services.move_submit(game=game, user=user_of(game, colour), text=str(move), seen_ply=game.ply)
                assert (row.ply, row.notation) == (game.ply, str(move))
                transaction.set_rollback(True)
            game.refresh_from_db()


def test_a_move_writes_only_the_columns_it_changes_and_every_one_of_them(alice, bob):
    """The move's save names its columns (POSITION_COLUMNS): after each move the row holds every value the
    saved game had, so no column a move changes is left out."""
    from django.db.models.signals import post_save

    from games.services.core import POSITION_COLUMNS

    game = play_plies(started(alice, bob), 2)  # past the sealed starters: moves from here
    saves: list[tuple[Game, frozenset[str] | None]] = []

    def kept(sender, instance, update_fields, **kwargs):
        saves.append((instance, update_fields))

    post_save.connect(kept, sender=Game, dispatch_uid="test.kept")
    try:
        for _ in range(6):
            saves.clear()
            game = play_plies(game, 1)
            (saved, columns), row = saves[-1], Game.objects.get(pk=game.pk)
            assert columns == frozenset(POSITION_COLUMNS)
            assert {f.attname: getattr(saved, f.attname) for f in Game._meta.concrete_fields} == {
                f.attname: getattr(row, f.attname) for f in Game._meta.concrete_fields
            }
    finally:
        post_save.disconnect(dispatch_uid="test.kept", sender=Game)
