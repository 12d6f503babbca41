"""Bot seats: created with a game or added to a waiting one, moving through move_submit from the Celery
task (run eagerly), never emailed, declining draws at once, and shown with a "bot" badge."""

from __future__ import annotations

import random
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts.adapter import AccountAdapter
from accounts.selectors import bot_of
from accounts.services import profile_update
from archive.models import PlayerRating
from engine import bots
from games import bot_turns, services, tasks
from games.models import DrawProposal, Game
from games.tasks import play_bot_turn
from notifications.models import Notification, Preference
from notifications.services import preference_update
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
SEED = "bots-seed"


def state_at(game: Game, ply: int):
    """The position after the first `ply` moves: the deal from the seed, then each logged move applied."""
    rules = game.rules
    colours = list(game.seats.order_by("order").values_list("colour", flat=True))
    state = rules.new_game(colours, game.seed, game.options)
    for logged in game.moves.filter(ply__lt=ply).order_by("ply").select_related("seat"):
        state = rules.apply(state, rules.parse(logged.notation), logged.seat.colour)
    return state


def create(creator, game: str = "zarkcity", seats: int = 2, bots: tuple[str, ...] = ("random",)) -> Game:
    return services.game_create(
        creator=creator, game=game, seats=seats, options={}, time_limit_days=3, is_private=False, bots=bots
    )


def created_and_played(capture, creator, **kwargs) -> Game:
    """A new game, with whatever the bots play before someone else must move (the tasks run after commit)."""
    with mock.patch("games.services.secrets.token_hex", return_value=SEED), capture(execute=True):
        game = create(creator, **kwargs)
    game.refresh_from_db()
    return game


def bot_seat(game: Game, number: int = 0):
    return game.seats.filter(user__profile__bot__gt="").order_by("order")[number]


def human_move(game: Game, user, capture, chooser: random.Random) -> None:
    """A person's random legal move (never resigning) through the service; the bots answer after commit."""
    rules, colour = game.rules, game.seats.get(user=user).colour
    moves = [m for m in rules.legal_moves(services.state_of(game), colour) if not rules.is_resign(m)]
    with capture(execute=True):
        services.move_submit(game=game, user=user, text=str(chooser.choice(moves)), seen_ply=game.ply)


def human_to_move(game: Game, user) -> bool:
    return game.status == Game.Status.ACTIVE and game.seats.get(user=user).colour in game.to_move.split(",")


# ----------------------------------------------------------------------------- creating


def test_bots_that_fill_the_table_start_the_game_and_play_their_first_move(alice, django_capture_on_commit_callbacks):
    game = created_and_played(django_capture_on_commit_callbacks, alice, seats=3, bots=("random", "greedy"))
    assert game.status == Game.Status.ACTIVE and game.seed == SEED
    seats = list(game.seats.order_by("order").select_related("user__profile"))
    assert [(s.colour, s.user.username, bot_of(s.user)) for s in seats] == [
        ("red", "alice", ""),
        ("yellow", "random-bot", "random"),
        ("green", "greedy-bot", "greedy"),
    ]
    # Starters are chosen by everyone at once, sealed: each bot committed in its own task, and only alice is left to.
    assert [c.seat.colour for c in game.commitments.all()] == ["yellow", "green"] and game.to_move == "red"
    assert not game.moves.exists()
    assert game.to_move == "red"


def test_a_bots_move_is_legal_and_goes_through_move_submit(alice, django_capture_on_commit_callbacks):
    game = created_and_played(django_capture_on_commit_callbacks, alice, game="martianchess", bots=("alphabeta",))
    robot = bot_seat(game)
    assert human_to_move(game, alice)  # whoever opened, the bot has answered
    with mock.patch("games.bot_turns.services.move_submit", wraps=services.move_submit) as submit:
        human_move(game, alice, django_capture_on_commit_callbacks, random.Random(1))
    game.refresh_from_db()
    answer = game.moves.latest("ply")
    assert answer.seat == robot and human_to_move(game, alice)
    assert submit.call_count == 2  # alice's move, then the bot's
    assert submit.call_args == mock.call(game=mock.ANY, user=robot.user, text=answer.notation, seen_ply=answer.ply)
    before = state_at(game, answer.ply)
    assert answer.notation in {str(move) for move in game.rules.legal_moves(before, robot.colour)}


def test_two_bots_of_one_kind_are_two_accounts_reused_by_later_games(alice, bob, django_capture_on_commit_callbacks):
    first = created_and_played(django_capture_on_commit_callbacks, alice, seats=3, bots=("random", "random"))
    second = created_and_played(django_capture_on_commit_callbacks, bob, seats=3, bots=("random", "random"))
    names = lambda game: [s.user.username for s in game.seats.order_by("order")]  # noqa: E731
    assert names(first) == ["alice", "random-bot", "random-bot-2"]
    assert names(second) == ["bob", "random-bot", "random-bot-2"]
    assert get_user_model().objects.filter(profile__bot="random").count() == 2


def test_a_person_who_already_had_a_bots_username_keeps_it(alice, django_capture_on_commit_callbacks):
    person = make_user("greedy-bot")  # signed up before the bots' names were kept
    game = created_and_played(django_capture_on_commit_callbacks, alice, bots=("greedy",))
    assert bot_seat(game).user.username == "greedy-bot-2" and bot_of(person) == ""


def test_a_bot_account_has_no_address_and_cannot_log_in(client, alice, django_capture_on_commit_callbacks):
    game = created_and_played(django_capture_on_commit_callbacks, alice)
    bot = bot_seat(game).user
    assert bot.email == "" and not bot.has_usable_password() and not bot.emailaddress_set.exists()
    assert not client.login(username=bot.username, password="")


@pytest.mark.parametrize(
    ("game", "seats", "asked", "message"),
    [
        ("zarkcity", 2, ("deep-blue",), "There is no bot 'deep-blue' for Zark City: its bots are random, greedy, mcts"),
        ("zarkcity", 2, ("alphabeta",), "There is no bot 'alphabeta' for Zark City"),
        (
            "martianchess",
            2,
            ("greedy",),
            "There is no bot 'greedy' for Martian Chess: its bots are random, mcts, alphabeta.",
        ),
        ("zarkcity", 2, ("random", "random"), "A game of 2 players has 1 other seat: 2 bots do not fit."),
        ("zarkcity", 2, "random", "Give the bots as a list of names"),
    ],
)
def test_a_bot_the_game_cannot_seat_is_refused_by_name(alice, game, seats, asked, message):
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(".", r"\.")):
        create(alice, game=game, seats=seats, bots=asked)
    assert not Game.objects.exists()


def test_the_creator_adds_a_bot_to_a_waiting_game_and_the_last_seat_starts_it(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    game = create(alice, game="decktown", seats=3, bots=())
    with pytest.raises(ValidationError, match="Only the player who created this game can add a bot"):
        services.game_add_bot(game=game, by=bob, bot="random")
    services.game_join(game=game, user=bob)
    with pytest.raises(ValidationError, match="There is no bot 'alphabeta' for Deck Town"):
        services.game_add_bot(game=game, by=alice, bot="alphabeta")
    with django_capture_on_commit_callbacks(execute=True):
        seat = services.game_add_bot(game=game, by=alice, bot="mcts")
    game.refresh_from_db()
    assert (seat.colour, seat.user.username, game.status) == ("green", "mcts-bot", Game.Status.ACTIVE)
    with pytest.raises(ValidationError, match="This game has already started"):
        services.game_add_bot(game=game, by=alice, bot="random")


def test_a_bot_cannot_be_invited(alice, django_capture_on_commit_callbacks):
    created_and_played(django_capture_on_commit_callbacks, alice)
    game = create(alice, seats=3, bots=())
    with pytest.raises(ValidationError, match="random-bot is a bot: the game's creator can add it"):
        services.invitation_create(game=game, invited_by=alice, username="random-bot")


def test_people_cannot_take_a_bots_name(alice):
    with pytest.raises(ValidationError, match="kept for the built-in bots"):
        AccountAdapter().clean_username("MCTS-bot-3")
    with pytest.raises(ValidationError, match="kept for the built-in bots"):
        profile_update(user=alice, display_name="greedy-bot")
    assert AccountAdapter().clean_username("robot-fan") == "robot-fan"


# ----------------------------------------------------------------------------- playing


def test_a_whole_game_against_a_bot_runs_to_the_end_and_the_bot_is_rated_but_never_emailed(
    alice, django_capture_on_commit_callbacks
):
    game, bot = "decktown", "mcts"
    # Game start and end, draw offers...: the events every player is emailed at once (not each turn, which
    # would draw the board for every one of alice's hundreds of moves).
    preference_update(user=alice, mode=Preference.Mode.DIGEST, time_zone="UTC")
    played = created_and_played(django_capture_on_commit_callbacks, alice, game=game, bots=(bot,))
    chooser = random.Random(game)
    for _ in range(3000):
        if played.status != Game.Status.ACTIVE:
            break
        assert human_to_move(played, alice), "the bot's turn was left unplayed"
        human_move(played, alice, django_capture_on_commit_callbacks, chooser)
        played.refresh_from_db()
    assert played.status == Game.Status.FINISHED, f"not over after {played.ply} plies"
    robot = bot_seat(played).user
    assert played.moves.filter(seat__user=robot).count() > 5
    assert PlayerRating.objects.filter(user=robot, game_type=game, games=1).exists()
    assert not Notification.objects.filter(recipient=robot).exists()
    assert mail.outbox and {tuple(message.recipients()) for message in mail.outbox} == {("alice <alice@example.com>",)}


def test_when_the_last_person_resigns_the_bots_play_the_game_out(alice, django_capture_on_commit_callbacks):
    four = {"game": "martianchess", "seats": 4, "bots": ("random",) * 3}
    game = created_and_played(django_capture_on_commit_callbacks, alice, **four)
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result_reason != "timeout"
    assert game.moves.filter(seat__user__profile__bot__gt="").count() > 3


def test_a_stale_or_repeated_task_does_nothing(alice, django_capture_on_commit_callbacks):
    game = create(alice, bots=("random",))  # started, but its first bot turn was never run
    game.refresh_from_db()
    assert play_bot_turn(game.pk, game.ply + 1) == "stale"
    with django_capture_on_commit_callbacks(execute=True):
        assert play_bot_turn(game.pk, 0) == "moved"
    assert play_bot_turn(game.pk, 0) == "no bot to move"  # delivered twice: the bot's sealed choice is in
    assert game.commitments.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    assert play_bot_turn(game.pk, 1) == "stale"  # the game is over
    assert game.moves.count() == 1


def test_the_same_turn_played_twice_at_once_is_one_move(alice):
    game = create(alice, bots=("random",))
    game.refresh_from_db()
    seat = bot_seat(game)
    seed = bot_turns.bot_seed(game, 0, seat)
    text = bots.choose_move(game.rules, "random", services.state_of(game), seat.colour, seed)
    first = services.move_submit(game=game, user=seat.user, text=text, seen_ply=0)  # another worker got there first
    assert play_bot_turn(game.pk, 0) == "no bot to move"  # its sealed choice is in
    assert list(game.commitments.all()) == [first]
    assert services.move_submit(game=game, user=seat.user, text=text, seen_ply=0) == first  # the same, again


def test_a_bot_that_fails_hands_its_turn_to_the_random_bot(alice, django_capture_on_commit_callbacks):
    game = create(alice, bots=("mcts",))
    real = bots.choose_move

    def broken(game_rules, bot, *args, **kwargs):
        if bot == "mcts":
            raise RuntimeError("search blew up")
        return real(game_rules, bot, *args, **kwargs)

    with mock.patch("games.bot_turns.bots.choose_move", broken):
        assert play_bot_turn(game.pk, 0) == "moved"
    assert game.commitments.get().seat.user.username == "mcts-bot"


def test_the_sweep_requeues_a_bot_turn_that_was_lost(alice, django_capture_on_commit_callbacks):
    game = create(alice, bots=("random",))  # the after-commit task never ran: lost with a broker down
    now = timezone.now()
    assert tasks.requeue_waiting(now) == 0  # saved just now: its task may still be on its way
    later = now + timedelta(minutes=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.requeue_waiting(later) == 1
    assert game.commitments.count() == 1
    assert tasks.requeue_waiting(later) == 0  # alice's turn now: nothing waits on a bot


def test_bot_turns_are_a_registered_task_and_swept_every_minute(settings):
    from zarkcity_site.celery import app

    app.loader.import_default_modules()  # what a worker does at start: autodiscovery finds games.tasks
    assert {"games.tasks.play_bot_turn", "games.tasks.bot_sweep"} <= set(app.tasks)
    assert {"task": "games.tasks.bot_sweep", "schedule": 60.0} in settings.CELERY_BEAT_SCHEDULE.values()


def test_a_bots_clock_never_runs_down_and_the_next_player_gets_a_whole_one(alice, django_capture_on_commit_callbacks):
    game = created_and_played(django_capture_on_commit_callbacks, alice, game="martianchess", bots=("alphabeta",))
    human_move(game, alice, django_capture_on_commit_callbacks, random.Random(3))  # the bot answers at once
    game.refresh_from_db()
    bot_move, alice_move = game.moves.get(ply=game.ply - 1), game.moves.get(ply=game.ply - 2)
    assert bot_of(bot_move.seat.user) == "alphabeta" and human_to_move(game, alice)
    assert game.turn_started_at > alice_move.created_at  # alice's clock started when the bot had moved
    assert game.deadline == game.turn_started_at + timedelta(days=game.time_limit_days)


def test_a_bot_declines_a_draw_at_once_and_nobody_is_emailed(alice, django_capture_on_commit_callbacks):
    game = created_and_played(django_capture_on_commit_callbacks, alice)
    sent = Notification.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        proposal = services.draw_propose(game=game, user=alice)
    assert proposal.status == DrawProposal.Status.DECLINED and proposal.decided_by == bot_seat(game)
    assert Notification.objects.count() == sent
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    services.draw_propose(game=game, user=alice)  # no offer is left open: another may be made


# ----------------------------------------------------------------------------- pages


def test_the_new_game_form_creates_a_game_with_a_bot_seat(client, alice, django_capture_on_commit_callbacks):
    client.force_login(alice)
    form = {"game": "decktown", "seats": "3", "time_limit_days": "2", "bot_1": "greedy"}
    page = client.get(reverse("game_new")).content.decode()
    assert 'name="bot_1"' in page and "Greedy bot" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("game_new"), form)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game_lobby", args=[game.pk])
    assert [s.user.username for s in game.seats.order_by("order")] == ["alice", "greedy-bot"]
    assert "badge--bot" in client.get(response["Location"]).content.decode()


def test_the_new_game_form_starts_a_game_the_bots_fill(client, alice, django_capture_on_commit_callbacks):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("game_new"), {"game": "zarkcity", "seats": "2", "time_limit_days": "3", "bot_1": "random"}
        )
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and response["Location"] == reverse("game_detail", args=[game.pk])
    page = client.get(response["Location"]).content.decode()
    assert "random-bot" in page and 'title="A built-in bot: Random"' in page


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"game": "zarkcity", "seats": "2", "bot_2": "random"}, "A game of 2 players has no other player 2."),
        ({"game": "martianchess", "seats": "2", "bot_1": "greedy"}, "no bot &#x27;greedy&#x27; for Martian Chess"),
    ],
)
def test_the_new_game_form_says_what_is_wrong_with_a_bot(client, alice, form, message):
    client.force_login(alice)
    response = client.post(reverse("game_new"), form | {"time_limit_days": "3"})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Game.objects.exists()


def test_the_waiting_room_lets_its_creator_add_a_bot(client, alice, bob):
    game = create(alice, seats=3, bots=())
    client.force_login(bob)
    assert "Add a bot" not in client.get(reverse("game_lobby", args=[game.pk])).content.decode()
    response = client.post(reverse("game_add_bot", args=[game.pk]), {"bot": "random"})
    assert game.seats.count() == 1 and response.status_code == 302
    client.force_login(alice)
    assert "Add a bot" in client.get(reverse("game_lobby", args=[game.pk])).content.decode()
    response = client.post(reverse("game_add_bot", args=[game.pk]), {"bot": "mcts"}, follow=True)
    assert "mcts-bot takes the yellow seat." in response.content.decode()
    assert 'title="A built-in bot: MCTS"' in response.content.decode()


def test_the_leaderboard_and_profile_mark_a_bot(client, alice, django_capture_on_commit_callbacks):
    game = created_and_played(django_capture_on_commit_callbacks, alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.player_resign(game=game, user=alice)
    board = client.get(reverse("leaderboard") + "?game=zarkcity").content.decode()
    assert "random-bot" in board and board.count("badge--bot") == 1
    profile = client.get(reverse("player_profile", args=["random-bot"])).content.decode()
    assert "badge--bot" in profile
    archive = client.get(reverse("archive")).content.decode()
    assert archive.count("badge--bot") == 1
    replay = client.get(reverse("replay", args=[game.pk, 0])).content.decode()
    assert replay.count("badge--bot") == 1  # the bot's name in the replay's list of players
