"""The replay viewer: every ply of the golden game matches the engine, links work without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from engine.zarkcity.game import GAME
from engine.zarkcity.position import board_list
from engine.zarkcity.views import view
from games import services
from tests.service.gameplay import start_game

pytestmark = pytest.mark.django_db


def test_every_ply_of_the_golden_game_matches_the_engine(client, golden_game, golden_play):
    """The viewer's frame at ply k is the engine's state after k moves through the interface: the public
    board view, and every hand once the game is over."""
    assert golden_game.status == "finished"
    for ply, state in enumerate(golden_play.states):
        response = client.get(reverse("replay", args=[golden_game.pk, ply]), {"fragment": "1"})
        assert response.status_code == 200
        frame = response.context["frame"]
        shown = frame.view
        assert shown["board"] == board_list(state)
        assert {h.colour: [c.code for c in h.cards] for h in frame.hands} == {
            c: list(state.hands[c]) for c in state.players
        }
        assert shown["discard"] == list(state.discard)
        assert shown["phase"] == state.phase and shown["to_move"] == state.to_move
        if ply:
            by, move = golden_play.moves[ply - 1]
            frame = response.context["frame"]
            assert (frame.move.by, str(frame.move.move)) == (by, str(move))
            assert frame.words == GAME.describe(move, by, golden_play.states[ply - 1], state, None)


def test_full_page_has_a_permanent_link_per_ply_and_step_links(client, golden_game, golden_play):
    last = len(golden_play.moves)
    response = client.get(reverse("replay", args=[golden_game.pk, 5]))
    html = response.content.decode()
    for ply in range(last + 1):
        assert f'href="{reverse("replay", args=[golden_game.pk, ply])}"' in html
    assert f'rel="prev" href="{reverse("replay", args=[golden_game.pk, 4])}"' in html
    assert f'rel="next" href="{reverse("replay", args=[golden_game.pk, 6])}"' in html
    assert "js/replay.js" in html
    assert response.context["frame"].ply == 5


def test_final_frame_is_the_over_view(client, golden_game, golden_play):
    last = len(golden_play.moves)
    response = client.get(reverse("replay", args=[golden_game.pk, last]))
    shown = response.context["frame"].view
    assert shown == view(golden_play.final, None)
    assert shown["winner"] == golden_play.final.winner
    assert golden_play.seed in client.get(reverse("game_verify", args=[golden_game.pk])).content.decode()


def test_a_finished_game_shows_the_deck_order_discard_pile_and_reshuffles_at_every_ply(
    client, golden_game, golden_play
):
    """The whole truth of a finished game (rules.reveal), at the deal, just after the first reshuffle and
    at the end: the deck in drawing order, the discard pile, how often it was reshuffled, every hand."""
    rules = golden_game.rules
    first_reshuffle = next(ply for ply, state in enumerate(golden_play.states) if state.shuffles == 1)
    expected = {0: "has not been reshuffled", first_reshuffle: "reshuffled into the deck once"}
    expected[len(golden_play.moves)] = f"reshuffled into the deck {golden_play.final.shuffles} times"
    assert golden_play.final.shuffles > 2  # the golden game reshuffles: the count means something

    def labels(codes) -> str:
        return " ".join(rules.card(code).label for code in codes)

    for ply, reshuffles in expected.items():
        state = golden_play.states[ply]
        html = client.get(reverse("replay", args=[golden_game.pk, ply]), {"fragment": "1"}).content.decode()
        assert escape(f"Deck order, next first: {labels(state.deck)}.") in html
        if state.discard:
            assert escape(f"Discard pile ({len(state.discard)}, top last): {labels(state.discard)}.") in html
        else:
            assert "Discard pile: empty." in html
        assert reshuffles in html
        for colour in state.players:
            assert escape(f"{colour}'s hand: {labels(state.hands[colour]) or 'empty'}.") in html


def test_start_redirects_to_the_last_ply_and_jump_form_to_the_asked_ply(client, golden_game):
    response = client.get(reverse("replay_start", args=[golden_game.pk]))
    assert response.url == reverse("replay", args=[golden_game.pk, golden_game.ply])
    response = client.get(reverse("replay_start", args=[golden_game.pk]), {"ply": "7"})
    assert response.url == reverse("replay", args=[golden_game.pk, 7])
    response = client.get(reverse("replay", args=[golden_game.pk, golden_game.ply + 40]))
    assert response.url == reverse("replay", args=[golden_game.pk, golden_game.ply])


def test_autoplay_without_javascript_refreshes_to_the_next_ply(client, golden_game):
    html = client.get(reverse("replay", args=[golden_game.pk, 3]), {"auto": "1"}).content.decode()
    assert '<noscript><meta http-equiv="refresh"' in html
    assert f"url={reverse('replay', args=[golden_game.pk, 4])}?auto=1" in html
    last = client.get(reverse("replay", args=[golden_game.pk, golden_game.ply]), {"auto": "1"}).content.decode()
    assert 'http-equiv="refresh"' not in last


def test_unknown_game_is_404(client, db):
    assert client.get(reverse("replay", args=[999, 0])).status_code == 404


@pytest.mark.parametrize(
    "game_id,header", [("martianchess", None), ("zarkcity", "every hand is shown"), ("decktown", "every hand is shown")]
)
def test_the_replay_header_speaks_of_hands_only_in_a_game_with_hands(client, alice, bob, game_id, header):
    game = start_game(alice, bob, game=game_id)
    services.player_resign(game=game, user=bob)
    page = client.get(reverse("replay", args=[game.pk, 0])).content.decode()
    meta = re.sub(r"<[^>]+>", "", re.search(r'<p class="zc-meta muted">(.*?)</p>', page, re.S).group(1))
    if header:
        assert header in meta
    else:
        assert "hand" not in meta and "hidden" not in meta
