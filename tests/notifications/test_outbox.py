"""Who gets which email when: the outbox rows games.services writes, and what the worker then sends."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from engine.zarkcity.rules import apply, movers
from games import services
from games.services import MoveRejected
from notifications import services as notify
from notifications.models import Notification, Preference
from tests.notifications.helpers import mail_to, pick, play, play_setup, play_turn, start_game, state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
Kind, Status = Notification.Kind, Notification.Status


def rows(**filters) -> list[tuple[str, str]]:
    return sorted(Notification.objects.filter(**filters).values_list("recipient__username", "kind"))


def test_the_deal_tells_every_player_to_choose_a_starter(alice, bob, charlie, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game = start_game(alice, bob, charlie)
    assert rows() == [("alice", Kind.GAME_STARTED), ("bob", Kind.GAME_STARTED), ("charlie", Kind.GAME_STARTED)]
    # each row goes to the broker only after the deal commits (beside them: the poll's cached headline)
    sent = [c for c in callbacks if getattr(c, "func", None) is notify.enqueue]
    assert len(sent) == 3
    assert sorted(m.subject for m in mail.outbox) == [f"Zark City #{game.pk} has started: choose your starter"] * 3


def test_choosing_starters_sends_nothing_until_someone_must_place(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    with django_capture_on_commit_callbacks(execute=True):
        play(game, "red")
        play(game, "yellow")
    assert mail.outbox == [] and not Notification.objects.filter(kind=Kind.YOUR_TURN).exists()

    with django_capture_on_commit_callbacks(execute=True):
        play(game, "green")  # the last starter: they are revealed, the next player places
    placer = state(game).to_move
    assert state(game).phase == "place"
    user = game.seats.get(colour=placer).user
    assert rows(kind=Kind.YOUR_TURN) == [(user.username, Kind.YOUR_TURN)]
    [email] = mail.outbox
    assert email.subject.startswith(f"Zark City #{game.pk}: ") and email.subject.endswith(", place your starter")


def test_whoever_chose_last_is_still_asked_to_place_when_they_go_first(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    """The end of a simultaneous step (rules.simultaneous) is a new step for everyone: the first
    player is told to place their starter even when they were the one whose choice ended it."""
    game = start_game(alice, bob, charlie)
    choices = {colour: pick(game, colour) for colour in movers(state(game))}
    revealed = state(game)
    for colour, move in choices.items():
        revealed = apply(revealed, move, colour)
    first = revealed.to_move
    for colour in choices:
        if colour != first:
            play(game, colour)
    with django_capture_on_commit_callbacks(execute=True):
        play(game, first)  # the same choice as simulated: `pick` is deterministic
    assert (state(game).phase, state(game).to_move) == ("place", first)
    user = game.seats.get(colour=first).user
    assert rows(kind=Kind.YOUR_TURN) == [(user.username, Kind.YOUR_TURN)]
    [email] = mail.outbox
    assert email.subject.endswith(", place your starter")


def test_a_turn_ends_with_one_email_to_the_next_player_and_none_for_the_discard_step(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    play_setup(game)
    mover = state(game).to_move
    other = next(c for c in state(game).players if c != mover)
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game)  # a Draw and, when over the hand limit, the discard
    assert state(game).to_move == other
    next_user = game.seats.get(colour=other).user
    assert rows(kind=Kind.YOUR_TURN, ply=game.ply) == [(next_user.username, Kind.YOUR_TURN)]
    # Nothing to the mover: neither for the draw nor for their own discard prompt.
    assert mail_to(game.seats.get(colour=mover).user) == []
    [email] = mail_to(next_user)
    assert email.subject == f"Zark City #{game.pk}: {mover} drew 3 cards, your turn"


def test_the_email_lists_every_move_since_the_recipients_last_turn(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    play_setup(game)
    first = play_turn(game)
    with django_capture_on_commit_callbacks(execute=True):
        second = play_turn(game)
    third = state(game).to_move
    recipient = game.seats.get(colour=third).user
    [email] = mail_to(recipient)
    listed = email.body.split("Since your last turn:")[1].split("The board:")[0]
    own_last = game.moves.filter(seat__colour=third).order_by("-ply").first().ply
    expected = list(game.moves.filter(ply__gt=own_last).order_by("ply"))
    assert len([line for line in listed.splitlines() if line.strip().startswith("- ")]) == len(expected)
    assert f"{first} drew 3 cards" in listed and f"{second} drew 3 cards" in listed
    assert f"[{second}: draw]" in listed  # words and notation


def test_a_rolled_back_move_writes_and_sends_nothing(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(MoveRejected):
        services.move_submit(game=game, user=alice, text="build 99C 1,0", seen_ply=0)
    assert mail.outbox == [] and not Notification.objects.exclude(kind=Kind.GAME_STARTED).exists()


def test_the_same_email_is_written_once_however_often_it_is_asked_for(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        again = notify.notify_game_started(game=game)
    assert again == [] and Notification.objects.filter(kind=Kind.GAME_STARTED).count() == 2
    assert len(mail.outbox) == 0  # the first two were captured by nobody: they wait in the outbox


def test_resigning_tells_the_others_and_the_next_player_hears_it_once(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    play_setup(game)
    mover = state(game).to_move
    user = game.seats.get(colour=mover).user
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=user)
    after = state(game)
    next_user = game.seats.get(colour=after.to_move).user
    third = next(s.user for s in game.seats.all() if s.colour not in (mover, after.to_move))
    assert rows(ply=game.ply) == sorted([(next_user.username, Kind.YOUR_TURN), (third.username, Kind.PLAYER_RESIGNED)])
    assert mail_to(user) == []
    [told] = mail_to(third)
    assert told.subject == f"Zark City #{game.pk}: {mover} resigned"


def test_the_end_of_the_game_goes_to_everyone_who_sat_down(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    game.refresh_from_db()
    assert game.status == "finished" and game.winner == "yellow"
    assert rows(kind=Kind.GAME_OVER) == [("alice", Kind.GAME_OVER), ("bob", Kind.GAME_OVER)]
    assert not Notification.objects.filter(kind=Kind.PLAYER_RESIGNED).exists()
    subjects = {m.to[0]: m.subject for m in mail.outbox if "is over" in m.subject}
    assert subjects["bob <bob@example.com>"] == f"Zark City #{game.pk} is over: you win as every other player resigned"
    assert (
        subjects["alice <alice@example.com>"]
        == f"Zark City #{game.pk} is over: yellow wins as every other player resigned"
    )
    assert f"/games/{game.pk}/" in mail_to(alice)[-1].body  # the archive page


def test_a_draw_offer_goes_to_the_others_and_an_agreed_draw_ends_the_game(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_propose(game=game, user=alice)
    assert rows(kind=Kind.DRAW_PROPOSED) == [("bob", Kind.DRAW_PROPOSED), ("charlie", Kind.DRAW_PROPOSED)]
    assert mail_to(bob)[-1].subject == f"Zark City #{game.pk}: red proposes a draw"
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_accept(game=game, user=bob)
        services.draw_accept(game=game, user=charlie)
    assert len(rows(kind=Kind.GAME_OVER)) == 3
    assert mail_to(charlie)[-1].subject == f"Zark City #{game.pk} is over: a draw, agreed by every remaining player"


def test_a_declined_draw_offer_tells_the_proposer_and_the_others(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_propose(game=game, user=alice)
        services.draw_accept(game=game, user=bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_decline(game=game, user=charlie)
    assert rows(kind=Kind.DRAW_DECLINED) == [("alice", Kind.DRAW_DECLINED), ("bob", Kind.DRAW_DECLINED)]
    assert mail_to(alice)[-1].subject == f"Zark City #{game.pk}: green declined your draw offer, play goes on"
    assert mail_to(bob)[-1].subject == f"Zark City #{game.pk}: green declined the draw, play goes on"
    assert "declined red's draw offer" in mail_to(bob)[-1].body
    assert mail_to(charlie) == []


def test_a_resigned_player_is_not_told_they_drew(alice, bob, charlie, django_capture_on_commit_callbacks):
    game = start_game(alice, bob, charlie)
    services.player_resign(game=game, user=charlie)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_propose(game=game, user=alice)
        services.draw_accept(game=game, user=bob)
    assert mail_to(charlie)[-1].subject == f"Zark City #{game.pk} is over: the others agreed a draw after you resigned"
    assert mail_to(bob)[-1].subject == f"Zark City #{game.pk} is over: a draw, agreed by every remaining player"


def test_a_declined_draw_offer_is_not_sent_late(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.draw_propose(game=game, user=alice)
    services.draw_decline(game=game, user=bob)
    mail.outbox.clear()
    for callback in callbacks:
        callback()
    assert mail.outbox == []
    assert Notification.objects.get(kind=Kind.DRAW_PROPOSED).skip_reason == "the draw offer is no longer open"


def test_a_your_turn_email_is_dropped_when_the_player_moved_before_the_worker_came(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    play_setup(game)
    with django_capture_on_commit_callbacks(execute=False) as late:
        play_turn(game)
    play_turn(game)  # the recipient moved already (the web page was quicker than the worker)
    mail.outbox.clear()
    for callback in late:
        callback()
    assert mail.outbox == []
    (queued,) = [c.args[0] for c in late if getattr(c, "func", None) is notify.enqueue]
    # The move answered it (their turn email still unsent): the worker's task found nothing to claim.
    row = Notification.objects.get(pk=queued)
    assert (row.kind, row.status, row.skip_reason, row.attempts) == (
        Kind.YOUR_TURN,
        Status.SKIPPED,
        "they already moved",
        0,
    )


# ----------------------------------------------------------------------------- preferences


def test_no_email_means_no_rows(alice, bob, django_capture_on_commit_callbacks):
    notify.preference_update(user=bob, mode=Preference.Mode.NONE, time_zone="UTC")
    with django_capture_on_commit_callbacks(execute=True):
        start_game(alice, bob)
    assert rows() == [("alice", Kind.GAME_STARTED)]


def test_digest_readers_get_game_news_at_once_but_no_turn_emails(alice, bob, django_capture_on_commit_callbacks):
    notify.preference_update(user=alice, mode=Preference.Mode.DIGEST, time_zone="UTC")
    notify.preference_update(user=bob, mode=Preference.Mode.DIGEST, time_zone="UTC")
    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_setup(game)
        play_turn(game)
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN).exists()
    assert rows(kind=Kind.GAME_STARTED) == [("alice", Kind.GAME_STARTED), ("bob", Kind.GAME_STARTED)]


def test_turning_email_off_after_the_row_was_written_stops_it(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        start_game(alice, bob)
    notify.unsubscribe(user=bob)
    for callback in callbacks:
        callback()
    assert [m.to for m in mail.outbox] == [["alice <alice@example.com>"]]
    assert Notification.objects.get(recipient=bob).skip_reason == "the recipient turned email off"


def test_a_player_without_an_address_gets_no_row(alice, bob, django_capture_on_commit_callbacks):
    bob.email = ""
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        start_game(alice, bob)
    assert rows() == [("alice", Kind.GAME_STARTED)]


def test_movers_helper_agrees_with_the_engine(alice, bob):
    game = start_game(alice, bob)
    assert game.to_move.split(",") == list(movers(state(game)))


@pytest.mark.django_db(transaction=True)
def test_a_your_turn_row_written_again_for_the_same_ply_is_written_once(alice, bob):
    """The move's "your turn" row is inserted without looking first (fresh=True): a second write for the
    same game, ply and recipient is stopped by the unique row, inside its savepoint, so the transaction
    around it goes on and nothing else is lost."""
    game = start_game(alice, bob)
    with transaction.atomic():
        first = notify.write_row(game=game, recipient=alice, kind=Kind.YOUR_TURN, actor="yellow", fresh=True)
        again = notify.write_row(game=game, recipient=alice, kind=Kind.YOUR_TURN, actor="yellow", fresh=True)
        also = notify.write_row(game=game, recipient=bob, kind=Kind.YOUR_TURN, actor="red", fresh=True)
    assert first is not None and again is None and also is not None
    assert rows(kind=Kind.YOUR_TURN) == [("alice", Kind.YOUR_TURN), ("bob", Kind.YOUR_TURN)]
