"""End to end through the games services: a game that ends is archived and rated in the same transaction."""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse

from archive.models import ArchivedGame, ArchivedPlayer, PlayerRating
from engine.zarkcity.movegen import legal_moves
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def start(*users, seed="hook-seed", game_id="zarkcity", options=None) -> Game:
    game = services.game_create(
        creator=users[0],
        seats=len(users),
        game=game_id,
        options={"deck": "standard"} if options is None else options,
        time_limit_days=3,
        is_private=False,
    )
    with mock.patch("games.services.secrets.token_hex", return_value=seed):
        for user in users[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def play(game: Game, plies: int) -> Game:
    for _ in range(plies):
        game.refresh_from_db()
        colour = game.to_move.split(",")[0]
        state = services.state_of(game)
        move = legal_moves(state, colour)[0]  # the rules' moves: resigning is the kit's step
        services.move_submit(game=game, user=game.seats.get(colour=colour).user, text=str(move), seen_ply=game.ply)
    game.refresh_from_db()
    return game


def test_resignation_archives_and_rates(client, alice, bob):
    game = play(start(alice, bob), 12)
    assert not ArchivedGame.objects.filter(pk=game.pk).exists()
    services.player_resign(game=game, user=alice)
    game.refresh_from_db()
    summary = ArchivedGame.objects.get(pk=game.pk)
    assert (summary.reason, summary.winner_id, summary.plies, summary.player_count) == (
        "resignation",
        bob.pk,
        game.ply,
        2,
    )
    assert {p.user_id: p.outcome for p in ArchivedPlayer.objects.filter(archived_game=summary)} == {
        alice.pk: "lost",
        bob.pk: "won",
    }
    assert PlayerRating.objects.get(user=bob).rating > PlayerRating.objects.get(user=alice).rating
    check = client.get(reverse("game_verify", args=[game.pk])).context["check"]
    assert check.ok, check
    last = client.get(reverse("replay", args=[game.pk, game.ply]), {"fragment": "1"}).context["frame"]
    assert last.view["winner"] == "yellow" and last.view["reason"] == "resignation"
    assert [g.game_id for g in client.get(reverse("archive")).context["page"].object_list] == [game.pk]


def test_a_deck_town_game_finishing_leaves_the_zark_city_rating_alone(client, alice, bob):
    """Ratings are kept per game: bob beats alice at Zark City, then loses to her at Deck Town, and
    each result moves only that game's ratings, leaderboard and profile line."""
    zark = play(start(alice, bob, seed="zark-rated"), 6)
    services.player_resign(game=zark, user=alice)

    def ratings(game_type: str) -> dict[int, tuple[float, int, int]]:
        rows = PlayerRating.objects.filter(game_type=game_type)
        return {r.user_id: (r.rating, r.games, r.wins) for r in rows}

    zark_ratings = ratings("zarkcity")
    town = start(alice, bob, seed="town-rated", game_id="decktown", options={})
    services.player_resign(game=town, user=bob)  # during the starter choice: alice wins
    town.refresh_from_db()

    assert ratings("zarkcity") == zark_ratings  # untouched by the Deck Town game
    town_ratings = ratings("decktown")
    assert town_ratings[alice.pk][0] > town_ratings[bob.pk][0]
    assert (town_ratings[alice.pk][1:], town_ratings[bob.pk][1:]) == ((1, 1), (1, 0))
    assert zark_ratings[bob.pk][0] > zark_ratings[alice.pk][0]
    summary = ArchivedGame.objects.get(pk=town.pk)
    assert (summary.game_type, summary.options, summary.winner_id) == ("decktown", {}, alice.pk)
    assert set(ArchivedPlayer.objects.filter(archived_game=summary).values_list("game_type", flat=True)) == {"decktown"}

    def leaders(game_type: str) -> list[int]:
        page = client.get(reverse("leaderboard"), {"game": game_type}).context["page"]
        return [row.user_id for row in page.object_list]

    assert leaders("decktown") == [alice.pk, bob.pk] and leaders("zarkcity") == [bob.pk, alice.pk]
    profile = client.get(reverse("player_profile", args=["alice"])).context["profile"]
    assert {standing.game_type for standing in profile.per_game} == {"zarkcity", "decktown"}
    frame = client.get(reverse("replay", args=[town.pk, town.ply]), {"fragment": "1"}).context["frame"]
    assert frame.full and any(note.startswith("Deck order, next first:") for note in frame.table.notes)
    assert client.get(reverse("game_verify", args=[town.pk])).context["check"].ok


def test_timeout_is_archived_as_timeout(client, alice, bob):
    game = play(start(alice, bob, seed="timeout-seed"), 6)
    services.player_resign(game=game, user=bob, reason="timeout")
    summary = ArchivedGame.objects.get(pk=game.pk)
    assert (summary.reason, summary.winner_colour) == ("timeout", "red")
    game.refresh_from_db()
    frame = client.get(reverse("replay", args=[game.pk, game.ply]), {"fragment": "1"}).context["frame"]
    assert frame.view["reason"] == "timeout" and "ran out of time" in frame.words
    assert client.get(reverse("game_verify", args=[game.pk])).context["check"].ok


def test_agreed_draw_is_archived_as_a_draw(client, alice, bob):
    game = play(start(alice, bob, seed="draw-seed"), 8)
    services.draw_propose(game=game, user=alice)
    services.draw_accept(game=game, user=bob)
    summary = ArchivedGame.objects.get(pk=game.pk)
    assert (summary.reason, summary.winner_id) == ("draw", None)
    assert set(ArchivedPlayer.objects.filter(archived_game=summary).values_list("outcome", flat=True)) == {"draw"}
    game.refresh_from_db()
    frame = client.get(reverse("replay", args=[game.pk, game.ply]), {"fragment": "1"}).context["frame"]
    assert frame.view["reason"] == "draw" and frame.view["phase"] == "over"
    assert client.get(reverse("game_verify", args=[game.pk])).context["check"].ok


def test_a_draw_after_a_resignation_is_its_own_event_and_a_loss_for_who_left(client, alice, bob, charlie):
    game = play(start(alice, bob, charlie, seed="draw-after-resign"), 9)
    services.player_resign(game=game, user=charlie)  # green leaves: the last move before the draw
    game.refresh_from_db()
    services.draw_propose(game=game, user=alice)
    services.draw_accept(game=game, user=bob)
    game.refresh_from_db()
    rows = {p.user_id: p for p in ArchivedPlayer.objects.filter(archived_game_id=game.pk)}
    assert (rows[charlie.pk].outcome, rows[charlie.pk].resigned) == ("lost", True)
    assert rows[alice.pk].outcome == rows[bob.pk].outcome == "draw"
    assert rows[charlie.pk].rating_after < rows[alice.pk].rating_after
    assert PlayerRating.objects.get(user=charlie).mu < PlayerRating.objects.get(user=alice).mu

    log = client.get(reverse("game_log", args=[game.pk])).content.decode().splitlines()
    last_move = next(line for line in reversed(log) if line.lstrip().startswith(f"{game.ply}."))
    assert "green resign" in last_move and "draw" not in last_move
    assert log[-1].strip() == "The game ends in a draw, agreed by red and yellow."

    frame = client.get(reverse("replay", args=[game.pk, game.ply]), {"fragment": "1"}).context["frame"]
    assert "draw" not in frame.words and frame.ending == "The game ends in a draw, agreed by red and yellow."
    assert frame.view["reason"] == "draw" and frame.view["phase"] == "over"
    page = client.get(reverse("replay", args=[game.pk, 1])).content.decode()
    assert "ar-move--ending" in page and "agreed by red and yellow" in page  # in the move list on every ply
    assert client.get(reverse("game_verify", args=[game.pk])).context["check"].ok


def test_a_resignation_that_ends_the_game_is_still_told_with_its_move(client, alice, bob):
    game = play(start(alice, bob, seed="resign-words"), 6)
    services.player_resign(game=game, user=alice)
    game.refresh_from_db()
    frame = client.get(reverse("replay", args=[game.pk, game.ply]), {"fragment": "1"}).context["frame"]
    assert "every other player resigned" in frame.words and frame.ending == ""


NO_WINNER = "no winner: every remaining player ran out of time"


def test_a_game_everyone_timed_out_of_says_no_winner_wherever_its_result_is_shown(client, alice, bob):
    game = play(start(alice, bob, seed="abandon-words"), 6)
    services.game_abandon(game=game)
    game.refresh_from_db()
    pages = {
        "log": client.get(reverse("game_log", args=[game.pk])),
        "replay": client.get(reverse("replay", args=[game.pk, game.ply])),
        "verify": client.get(reverse("game_verify", args=[game.pk])),
        "archive": client.get(reverse("archive")),
        "profile": client.get(reverse("player_profile", args=["alice"])),
        "feed": client.get(reverse("player_games_feed", args=["alice"])),
    }
    for name, response in pages.items():
        text = response.content.decode()
        assert NO_WINNER in text, name
        assert " won by" not in text and "won · " not in text, name
    assert f"Result: {NO_WINNER}" in pages["log"].content.decode()
    assert pages["verify"].context["check"].ok
    # The end is its own event after the last move, not something that move did.
    closing = "Every remaining player ran out of time: the game ends with no winner."
    log = pages["log"].content.decode().splitlines()
    last_move = next(line for line in reversed(log) if line.lstrip().startswith(f"{game.ply}."))
    assert "game is over" not in last_move and log[-1].strip() == closing
    frame = client.get(reverse("replay", args=[game.pk, game.ply]), {"fragment": "1"}).context["frame"]
    assert "game is over" not in frame.words and frame.ending == closing
    assert "ar-move--ending" in client.get(reverse("replay", args=[game.pk, 1])).content.decode()
