"""The poll's "nothing new" from the cached headline (games/news.py): no query, the same answer as the
database's in every state (sealed choices open or secret included), and the database whenever the cache
is empty, down, or the game private."""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import news, services
from games.models import Game
from tests.ops.test_sessions import RAISING
from tests.service.gameplay import play_plies, start_game, user_of
from tests.service.test_sealed_choices import commit

pytestmark = pytest.mark.django_db


def poll(client: Client, game: Game, **params: object) -> tuple[dict, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("game_ply", args=[game.pk]), params)
    assert response.status_code == 200
    return response.json(), len(captured.captured_queries)


def from_the_database(client: Client, game: Game, **params: object) -> dict:
    with mock.patch.object(news, "cached", return_value=None):
        return poll(client, game, **params)[0]


def committed(call):
    """Run a write as production does: its after-commit callbacks (the headline's `set`) run."""
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        return call()


def test_nothing_new_is_answered_without_the_database(alice, bob):
    game = start_game(alice, bob)
    committed(lambda: play_plies(game, 3))
    game.refresh_from_db()
    answer, queries = poll(Client(), game, since=game.ply)
    assert queries == 0
    assert answer == from_the_database(Client(), game, since=game.ply)
    assert answer["ply"] == 3 and answer["moved"] == []


def test_a_move_is_seen_at_once_and_who_made_it_from_the_database(alice, bob):
    game = start_game(alice, bob)
    committed(lambda: play_plies(game, 3))
    game.refresh_from_db()
    seen = game.ply
    assert poll(Client(), game, since=seen)[1] == 0
    colour = game.to_move.split(",")[0]
    committed(lambda: play_plies(game, 1))
    answer, queries = poll(Client(), game, since=seen)
    assert (answer["ply"], answer["moved"]) == (seen + 1, [colour]) and queries == 1  # the moves, not the game
    assert answer == from_the_database(Client(), game, since=seen)


def test_a_headline_stored_late_never_hides_a_later_ply(alice, bob):
    """After-commit callbacks need not run in the order of the saves: a move's commit may play the bot's
    reply (and store its headline) before the move's own headline is stored. The older one must not win:
    every poll would miss the bot's move until the entry expired (the browser games against bots did)."""
    game = start_game(alice, bob)
    committed(lambda: play_plies(game, 2))
    game.refresh_from_db()
    moved, replied = news.Headline.of(game), news.Headline(game.ply + 1, str(game.status), game.to_move, True)
    news._store(game.pk, replied, overwrite=True)  # the reply's headline, stored first
    news._store(game.pk, moved, overwrite=True)  # the move's, stored after it
    assert news.cached(game.pk) == replied


def test_a_write_whose_commit_is_not_seen_still_clears_the_old_headline(alice, bob):
    game = start_game(alice, bob)
    poll(Client(), game)  # the headline of the start, filled by the poll
    play_plies(game, 3)  # in the test's transaction: no after-commit callback runs
    game.refresh_from_db()
    assert poll(Client(), game, since=0)[0] == from_the_database(Client(), game, since=0)
    assert poll(Client(), game, since=0)[0]["ply"] == game.ply == 3


@pytest.mark.parametrize("game_id", ["zarkcity", "launchpad23"])  # whether a choice is in: public / secret
def test_a_sealed_choice_reads_the_same_from_the_cache_as_from_the_database(client, alice, bob, game_id):
    game = start_game(alice, bob, game=game_id)
    committed(lambda: commit(game, "red", None if game_id == "zarkcity" else "start M"))
    game.refresh_from_db()
    for user in (bob, alice, None):
        client.logout()
        if user is not None:
            client.force_login(user)
        cached, queries = poll(client, game, since=0)
        assert cached == from_the_database(client, game, since=0)
        assert queries == 0
    assert cached["movers"] == (["yellow"] if game_id == "zarkcity" else ["red", "yellow"])


def test_the_end_of_a_game_is_in_the_headline(alice, bob):
    game = start_game(alice, bob)
    committed(lambda: services.player_resign(game=game, user=user_of(game, "yellow")))
    game.refresh_from_db()
    answer, queries = poll(Client(), game, since=game.ply)
    assert (answer["status"], answer["movers"], queries) == ("finished", [], 0)


def test_a_cache_that_is_down_answers_from_the_database(alice, bob, settings):
    game = start_game(alice, bob)
    play_plies(game, 2)
    settings.CACHES = RAISING
    answer, queries = poll(Client(), game, since=2)
    assert answer == {"ply": 2, "status": "active", "movers": answer["movers"], "moved": []} and queries > 0
    assert poll(Client(), game, since=0)[0]["moved"] == ["red", "yellow"]


def test_a_private_game_is_never_answered_from_the_cache(alice, bob, charlie):
    game = services.game_create(
        creator=alice, game="zarkcity", seats=2, options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    committed(lambda: services.game_join(game=game, user=bob))
    player = Client()
    player.force_login(bob)
    assert poll(player, game)[0]["status"] == "active"
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.get(reverse("game_ply", args=[game.pk])).status_code == 404
    assert Client().get(reverse("game_ply", args=[game.pk])).status_code == 404


def test_no_code_writes_a_headline_column_past_the_save_hook():
    """games/news.py follows every save of a Game; a QuerySet.update() of the poll's columns would leave
    the headline stale (up to HEADLINE_SECONDS). The apps' updates of Game touch only the sweep's columns."""
    root = Path(__file__).resolve().parents[2]
    apps = ("games", "notifications", "api", "replies", "accounts", "archive", "zarkcity_site")
    for path in (file for app in apps for file in (root / app).rglob("*.py") if "migrations" not in file.parts):
        for update in re.finditer(r"Game\.objects[^;]{0,300}?\.update\(([^)]*)\)", path.read_text()):
            assert not re.search(r"\b(ply|status|to_move|is_private)\s*=", update.group(1)), (path, update.group(0))
