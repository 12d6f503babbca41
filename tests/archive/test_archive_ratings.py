"""Ratings move when a game is archived, once; profiles and the leaderboard show them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from archive.models import ArchivedGame, ArchivedPlayer, PlayerRating
from archive.ratings import START, Skill, rate_game
from archive.services import archive_backfill, game_archive
from tests.archive.archive_helpers import finished_rows

pytestmark = pytest.mark.django_db


def rating(user) -> PlayerRating:
    return PlayerRating.objects.get(user=user)


def test_rate_game_winner_first_others_tied():
    after = rate_game({1: START, 2: START, 3: START}, winners=[1])
    assert after[1].mu > START.mu > after[2].mu
    assert after[2] == after[3]
    drawn = rate_game({1: START, 2: Skill(30.0, 5.0)}, winners=[])
    assert drawn[1].mu > START.mu and drawn[2].mu < 30.0  # a draw with a stronger player helps the weaker
    assert drawn[1].sigma < START.sigma


def test_a_win_raises_the_winner_and_lowers_the_others(alice, bob, charlie):
    game = finished_rows([alice, bob, charlie], winner=1)
    assert rating(bob).rating > rating(alice).rating == rating(charlie).rating
    assert (rating(bob).games, rating(bob).wins, rating(alice).wins) == (1, 1, 0)
    rows = {p.user_id: p for p in ArchivedPlayer.objects.filter(archived_game_id=game.pk)}
    assert rows[bob.pk].outcome == "won" and rows[alice.pk].outcome == "lost"
    assert rows[bob.pk].mu_before == START.mu and rows[bob.pk].rating_after == pytest.approx(rating(bob).rating)
    summary = ArchivedGame.objects.get(pk=game.pk)
    assert (summary.winner_id, summary.winner_colour, summary.player_count) == (bob.pk, "yellow", 3)


def test_a_draw_ties_everyone(alice, bob):
    finished_rows([alice, bob], winner=None, reason="draw")
    assert rating(alice).mu == pytest.approx(rating(bob).mu)
    assert set(ArchivedPlayer.objects.values_list("outcome", flat=True)) == {"draw"}


def test_archiving_twice_changes_nothing(alice, bob):
    game = finished_rows([alice, bob])
    before = (rating(alice).mu, rating(bob).mu)
    game_archive(game=game)
    assert (rating(alice).mu, rating(bob).mu) == before
    assert ArchivedPlayer.objects.count() == 2 and rating(alice).games == 1


def test_ratings_follow_the_order_games_ended(alice, bob):
    for n in range(3):
        finished_rows([alice, bob], winner=0, finished_at=timezone.now() + timedelta(minutes=n))
    history = list(
        ArchivedPlayer.objects.filter(user=alice).order_by("finished_at").values_list("rating_after", flat=True)
    )
    assert history == sorted(history) and len(history) == 3
    assert rating(alice).games == 3 and rating(alice).wins == 3


def test_backfill_archives_what_is_missing_oldest_first(alice, bob):
    late = finished_rows([alice, bob], winner=1, archive=False, finished_at=timezone.now())
    early = finished_rows([alice, bob], winner=0, archive=False, finished_at=timezone.now() - timedelta(days=1))
    assert archive_backfill() == 2 and archive_backfill() == 0
    first = ArchivedPlayer.objects.get(user=alice, archived_game_id=early.pk)
    second = ArchivedPlayer.objects.get(user=alice, archived_game_id=late.pk)
    assert second.mu_before == pytest.approx(first.mu_after)


def test_unfinished_game_is_not_archived(alice, bob):
    game = finished_rows([alice, bob], archive=False)
    game.status = "active"
    with pytest.raises(ValueError):
        game_archive(game=game)


def test_profile_page(client, alice, bob, charlie):
    finished_rows([alice, bob], winner=0)
    finished_rows([alice, bob, charlie], winner=2)
    finished_rows([alice, charlie], winner=0, is_private=True)
    response = client.get(reverse("player_profile", args=["alice"]))
    profile = response.context["profile"]
    assert (profile.played, profile.won) == (3, 2)
    assert [(t.players, t.played, t.won) for t in profile.by_table_size] == [(2, 2, 2), (3, 1, 0)]
    assert len(profile.recent) == 2  # the private game is counted but not listed to others
    html = response.content.decode()
    assert "<svg" in html and "Zark City rating history of alice" in html and "polyline" in html
    assert "Your private feeds" not in html
    client.force_login(alice)
    own = client.get(reverse("player_profile", args=["alice"]))
    assert len(own.context["profile"].recent) == 3 and "Your private feeds" in own.content.decode()
    assert client.get(reverse("player_profile", args=["nobody"])).status_code == 404


def test_rating_chart_is_svg(client, alice, bob):
    empty = client.get(reverse("rating_chart", args=["alice"]))
    assert empty["Content-Type"].startswith("image/svg+xml") and b"No rated games yet" in empty.content
    finished_rows([alice, bob], winner=0)
    finished_rows([alice, bob], winner=1)
    chart = client.get(reverse("rating_chart", args=["alice"])).content.decode()
    assert chart.startswith("<svg") and chart.count(",") >= 2 and "2 games" in chart


def test_leaderboard_orders_by_rating(client, alice, bob, charlie):
    finished_rows([alice, bob, charlie], winner=2)
    finished_rows([alice, charlie], winner=1)
    response = client.get(reverse("leaderboard"))
    order = [r.user.username for r in response.context["page"].object_list]
    assert order[0] == "charlie" and set(order) == {"alice", "bob", "charlie"}
    assert "charlie" in response.content.decode()


def test_in_a_draw_a_player_who_resigned_before_ranks_last():
    after = rate_game({1: START, 2: START, 3: START}, winners=[], resigned=[3])
    assert after[1] == after[2] and after[1].mu > START.mu > after[3].mu


def test_a_profile_with_only_private_games_says_they_are_hidden(client, alice):
    from tests.conftest import make_user

    carol = make_user("carol")
    finished_rows([carol, alice], winner=0, is_private=True)
    html = client.get(reverse("player_profile", args=["carol"])).content.decode()
    assert "1 private game not shown." in html and "No finished game yet" not in html
    client.force_login(carol)
    own = client.get(reverse("player_profile", args=["carol"])).content.decode()
    assert "not shown" not in own and "#" in own


def test_the_rating_chart_names_the_days_of_the_first_and_last_games(client, users):
    """The chart reads each game's day (UTC) from the database: the first and last are named, to the edge of a day."""
    alice, bob, *_ = users
    finished_rows([alice, bob], finished_at=datetime(2025, 3, 1, 0, 0, 0, tzinfo=UTC))
    finished_rows([alice, bob], winner=1, finished_at=datetime(2025, 3, 9, 23, 59, 59, 999999, tzinfo=UTC))
    for url in (reverse("rating_chart", args=["alice"]), reverse("player_profile", args=["alice"])):
        svg = client.get(url).content.decode()
        assert ">2025-03-01</text>" in svg and ">2025-03-09 · 2 games</text>" in svg
