"""Hidden information of a game in progress never appears on any archive page, replay, profile, feed or download.

The game is short enough that nothing was reshuffled, so a card that has never been public (on
the board, in the discard pile, in a re-deal reveal or a revealed starter) has only ever been in
a hand or the deck: such a card must not appear, as a whole token, anywhere a spectator (or the
other player) can look. The seed must not appear either.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from archive.services import feed_token_ensure
from engine.zarkcity.state import State
from games import sharing
from tests.archive.archive_helpers import card_pattern, play_random, store_game

pytestmark = pytest.mark.django_db


def _public_cards(states: list[State]) -> set[str]:
    public: set[str] = set()
    for state in states:
        public |= {square.card for square in state.board.values()}
        public |= set(state.discard)
        public |= {card for _, _, hand in state.revealed for card in hand}
        if state.starters_revealed():
            public |= {card for _, card in state.starters}
    return public


def _secret_cards(states: list[State], viewer: str | None) -> set[str]:
    """Cards this viewer never saw: in another player's hand or the deck at some ply, and never public."""
    seen: set[str] = set()
    for state in states:
        if viewer is not None:
            seen |= set(state.hands[viewer])
            seen |= {card for colour, card in state.starters if colour == viewer}
    held = {card for state in states for colour, hand in state.hands.items() for card in hand}
    held |= {card for state in states for card in state.deck}
    return held - _public_cards(states) - seen - {"JK"}  # two jokers: one may be public while the other is not


@pytest.fixture
def live(alice, bob, charlie):
    played = play_random(["red", "yellow", "green"], "hidden-seed-123", rng_seed=4, max_plies=30)
    assert played.final.phase != "over" and played.final.shuffles == 0
    game = store_game([alice, bob, charlie], played)
    # A finished game of the same players, so profiles and feeds have something to list.
    other = play_random(["red", "yellow"], "other-seed", rng_seed=2, max_plies=10, finish=True)
    store_game([alice, bob], other)
    return game, played


def _pages(client, game, user) -> dict[str, str]:
    urls = [reverse("replay", args=[game.pk, ply]) for ply in range(game.ply + 1)]
    urls += [reverse("replay", args=[game.pk, ply]) + "?fragment=1" for ply in range(game.ply + 1)]
    urls += [
        reverse("replay_start", args=[game.pk]) + "?ply=3",
        reverse("game_log", args=[game.pk]),
        reverse("game_verify", args=[game.pk]),
        reverse("game_record", args=[game.pk]),
        reverse("archive"),
        reverse("leaderboard"),
    ]
    for name in ("alice", "bob", "charlie"):
        urls += [reverse("player_profile", args=[name]), reverse("player_games_feed", args=[name])]
        urls.append(reverse("rating_chart", args=[name]))
    if user is not None:
        key = feed_token_ensure(user=user).key
        urls += [reverse("my_turn_feed", args=[key]), reverse("deadlines_ics", args=[key])]
    pages = {}
    for url in urls:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        pages[url] = response.content.decode()
    return pages


@pytest.mark.parametrize("who", [None, "alice", "bob"])
def test_no_page_shows_a_hidden_card_or_the_seed(client, live, who, alice, bob):
    game, played = live
    user = {"alice": alice, "bob": bob}.get(who)
    colour = {"alice": "red", "bob": "yellow"}.get(who)
    if user is not None:
        client.force_login(user)
    secret = _secret_cards(played.states, colour)
    assert len(secret) > 20  # the test means something: most of the deck is still hidden
    for url, text in _pages(client, game, user).items():
        assert played.seed not in text, url
        leaked = sorted(card for card in secret if card_pattern(card).search(text))
        assert not leaked, f"{url} shows {leaked}"


def test_a_player_sees_their_own_hand_at_every_ply(client, live, alice):
    game, played = live
    client.force_login(alice)
    for ply, state in enumerate(played.states):
        frame = client.get(reverse("replay", args=[game.pk, ply]), {"fragment": "1"}).context["frame"]
        assert frame.view["hand"] == list(state.hands["red"])
        assert "hands" not in frame.view and "deck" not in frame.view and "seed" not in frame.view


def test_spectators_get_the_public_view_only(client, live):
    game, played = live
    for ply in range(len(played.states)):
        shown = client.get(reverse("replay", args=[game.pk, ply]), {"fragment": "1"}).context["frame"].view
        assert not {"hand", "hands", "deck", "seed"} & set(shown)


def test_private_game_in_progress_is_only_for_its_players(client, alice, bob, charlie, dave_user):
    played = play_random(["red", "yellow"], "private-seed", rng_seed=3, max_plies=12)
    game = store_game([alice, bob], played, is_private=True)
    urls = [
        reverse("replay", args=[game.pk, 0]),
        reverse("game_log", args=[game.pk]),
        reverse("game_verify", args=[game.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(dave_user)
    assert all(client.get(url).status_code == 404 for url in urls)
    client.force_login(bob)
    assert all(client.get(url).status_code == 200 for url in urls)


def test_private_finished_game_is_open_by_its_share_link_but_not_listed(client, alice, bob):
    played = play_random(["red", "yellow"], "private-done", rng_seed=5, max_plies=8, finish=True)
    game = store_game([alice, bob], played, is_private=True)
    pages = [reverse(name, args=args) for name, args in (("replay", [game.pk, 0]), ("game_verify", [game.pk]))]
    assert [client.get(page).status_code for page in pages] == [404, 404]  # the id alone is not enough
    client.get(sharing.share_url(game))
    assert [client.get(page).status_code for page in pages] == [200, 200]
    assert f"#{game.pk}<" not in client.get(reverse("archive")).content.decode()
    assert (
        reverse("replay", args=[game.pk, game.ply])
        not in client.get(reverse("player_profile", args=["bob"])).content.decode()
    )
    client.force_login(bob)
    assert (
        reverse("replay", args=[game.pk, game.ply])
        in client.get(reverse("player_profile", args=["bob"])).content.decode()
    )


@pytest.fixture
def dave_user(db):
    from tests.conftest import make_user

    return make_user("dave")
