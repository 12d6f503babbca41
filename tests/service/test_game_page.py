"""The game page and its forms through the Django test client, and a whole game played in the browser's way."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import profile_update
from games import selectors, services
from games.models import ChatMessage, Game, Move
from tests.service.gameplay import mover, pick, play_plies, start_game, user_of

pytestmark = pytest.mark.django_db


def page(game):
    return reverse("game_detail", args=[game.pk])


def move_url(game):
    return reverse("game_move", args=[game.pk])


def test_the_player_sees_board_hand_and_the_starter_buttons(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.get(page(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="zc-board"' in html
    assert "Your hand" in html and 'class="zc-hand"' in html
    assert "Waiting for you and yellow to choose a starter card." in html
    for card in game.snapshot["hands"]["red"]:
        if card[:-1].isdigit():
            assert f'value="choose {card}"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert f'name="seen_ply" value="{game.ply}"' in html


def test_a_spectator_sees_the_public_page_without_forms(client, alice, bob, charlie):
    game = start_game(alice, bob)
    for who in (None, charlie):
        if who:
            client.force_login(who)
        html = client.get(page(game)).content.decode()
        assert "Your hand" not in html and "Your move" not in html
        assert "Propose a draw" not in html and "Say something" not in html
        assert "alice" in html and "bob" in html


def test_an_open_game_sends_visitors_to_its_waiting_room(client, alice):
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=False
    )
    response = client.get(page(game))
    assert response.status_code == 302 and response["Location"] == reverse("game_lobby", args=[game.pk])
    assert client.get(reverse("game_record", args=[game.pk])).status_code == 404
    assert client.get(reverse("game_board_svg", args=[game.pk])).status_code == 404


def test_a_missing_game_is_404(client, alice):
    assert client.get("/games/999999/").status_code == 404


def test_private_game_is_hidden_from_outsiders_until_it_ends(client, alice, bob, charlie):
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.game_join(game=game, user=bob)
    urls = [page(game), reverse("game_record", args=[game.pk]), reverse("game_board_svg", args=[game.pk])]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(charlie)
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(bob)
    for url in urls:
        assert client.get(url).status_code == 200
    services.player_resign(game=game, user=bob)
    client.force_login(charlie)
    for url in urls:
        assert client.get(url).status_code == 404  # over, and still its players' business


def finished_private_game(alice, bob):
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    services.invitation_create(game=game, invited_by=alice, username="bob")
    services.game_join(game=game, user=bob)
    services.player_resign(game=game, user=bob)
    game.refresh_from_db()
    return game


def test_a_finished_private_game_opens_to_others_only_by_its_share_link(client, alice, bob, charlie):
    game = finished_private_game(alice, bob)
    client.force_login(bob)
    html = client.get(page(game)).content.decode()
    link = re.search(r'<code class="zc-share__link">http://testserver(/games/\d+/shared/[^/]+/)</code>', html)
    assert link, "the players are shown the share link"
    urls = [page(game), reverse("game_record", args=[game.pk]), reverse("game_board_svg", args=[game.pk])]
    outsider = Client()
    assert outsider.get(link.group(1).replace("/shared/", "/shared/x")).status_code == 404  # a guessed key
    assert all(outsider.get(url).status_code == 404 for url in urls)
    response = outsider.get(link.group(1))
    assert response.status_code == 302 and response["Location"] == page(game)
    assert all(outsider.get(url).status_code == 200 for url in urls)
    assert "zc-share__link" not in outsider.get(page(game)).content.decode()  # only players pass it on
    client.force_login(charlie)
    assert client.get(page(game)).status_code == 404


def test_a_share_link_opens_nothing_while_the_game_is_on_or_public(client, alice, bob, charlie):
    from games import sharing

    game = finished_private_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)
    client.force_login(charlie)
    assert client.get(sharing.share_url(game)).status_code == 404
    public = start_game(alice, bob)
    assert client.get(sharing.share_url(public)).status_code == 404
    assert "zc-share__link" not in client.get(page(public)).content.decode()


def test_posting_a_move_redirects_back_to_the_page(client, alice, bob):
    game = start_game(alice, bob)
    text = pick(services.state_of(game), "red")
    client.force_login(alice)
    response = client.post(move_url(game), {"text": text, "seen_ply": 0})
    assert response.status_code == 302 and response["Location"] == page(game) + "#status"
    assert game.commitments.get().notation == text  # sealed until yellow has chosen too
    html = client.get(page(game)).content.decode()
    assert f"Your sealed choice: {text}." in html


def test_an_illegal_move_shows_the_reason_and_keeps_the_text(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.post(move_url(game), {"text": "place 5,5", "seen_ply": 0})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Place: not now; every player is choosing a starter card" in html
    assert 'value="place 5,5"' in html
    assert not Move.objects.exists()


def test_malformed_notation_shows_what_is_wrong(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    html = client.post(move_url(game), {"text": "build <b>7X</b> 1,0", "seen_ply": 0}).content.decode()
    assert "Cannot read that move" in html and "is not a card" in html
    assert "<b>7X</b>" not in html and "&lt;b&gt;7X&lt;/b&gt;" in html


def test_an_empty_move_form_is_refused(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.post(move_url(game), {"text": "  ", "seen_ply": 0})
    assert response.status_code == 400 and "Type a move" in response.content.decode()


def test_a_too_long_move_is_told_it_is_too_long(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.post(move_url(game), {"text": "x" * 201, "seen_ply": 0})
    html = response.content.decode()
    assert response.status_code == 400
    assert "A move is at most 200 characters (this one has 201)." in html and "Type a move" not in html
    assert not Move.objects.exists()


def test_a_stale_page_is_told_the_game_moved_on(client, alice, bob):
    game = play_plies(start_game(alice, bob), 3)  # both chose, the first starter is placed
    colour = mover(game)
    seen = game.ply
    game = play_plies(game, 1)
    assert colour not in game.to_move  # the turn passed: a page from before answers a position gone
    client.force_login(user_of(game, game.to_move))
    response = client.post(move_url(game), {"text": pick(services.state_of(game), game.to_move), "seen_ply": seen})
    assert response.status_code == 409
    html = response.content.decode()
    assert "moved on since you loaded this page" in html
    assert f'name="seen_ply" value="{seen + 1}"' in html  # the re-rendered form answers the new position


def test_two_players_choosing_on_a_fresh_page_both_succeed(client, alice, bob):
    game = start_game(alice, bob)
    state = services.state_of(game)
    for user, colour in ((bob, "yellow"), (alice, "red")):
        client.force_login(user)
        response = client.post(move_url(game), {"text": pick(state, colour), "seen_ply": 0})
        assert response.status_code == 302 and response["Location"] == page(game) + "#status"
    assert Move.objects.filter(game=game).count() == 2


def test_a_double_click_on_confirm_shows_the_move_as_played(client, alice, bob):
    game = start_game(alice, bob)
    text = pick(services.state_of(game), "red")
    client.force_login(alice)
    for _ in range(2):
        response = client.post(move_url(game), {"text": text, "seen_ply": 0})
        assert response.status_code == 302
    html = client.get(page(game)).content.decode()
    assert f"Your sealed choice: {text}." in html and "moved on since" not in html
    assert game.commitments.count() == 1 and not Move.objects.filter(game=game).exists()


def test_the_discard_step_offers_checkboxes_of_the_hand(client, alice, bob):
    game = start_game(alice, bob)
    for _ in range(400):
        if game.phase == "discard" or game.status != Game.Status.ACTIVE:
            break
        game = play_plies(game, 1)
    assert game.phase == "discard", "the policy game should reach a hand-limit discard"
    colour = mover(game)
    hand = game.snapshot["hands"][colour]
    client.force_login(user_of(game, colour))
    html = client.get(page(game)).content.decode()
    excess = len(hand) - 6
    assert f"tick {excess} card" in html
    for card in hand:
        assert f'name="pick_cards" value="{card}"' in html
    assert 'name="pick_verb" value="discard"' in html and "over the limit of 6" in html
    assert 'id="id_pick"' not in html and "<option" not in html  # no list of every combination
    assert 'class="zc-type"' in html  # the notation field stays
    response = client.post(move_url(game), {"pick_cards": hand[:excess], "pick_verb": "discard", "seen_ply": game.ply})
    assert response.status_code == 302
    assert Move.objects.filter(game=game).last().notation.startswith("discard")


def test_legal_moves_list_matches_the_engine(client, alice, bob):
    game = play_plies(start_game(alice, bob), 12)
    colour = mover(game)
    client.force_login(user_of(game, colour))
    html = client.get(page(game)).content.decode()
    options = re.findall(r'<option value="([^"]+)">', html)
    context = selectors.game_for_viewer(game, user_of(game, colour))
    assert options == [m for group in context.legal for m in group.moves]
    assert "resign" not in options and len(options) == context.legal_count > 0


def test_resign_has_a_confirm_step(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    url = reverse("game_resign", args=[game.pk])
    confirm = client.get(url)
    assert confirm.status_code == 200 and "Yes, resign" in confirm.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    response = client.post(url)
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == (Game.Status.FINISHED, "yellow", "resignation")
    html = client.get(page(game)).content.decode()
    assert "won" in html and "every other player resigned" in html and game.seed in html


def test_record_json_has_the_moves_and_no_seed_until_the_end(client, alice, bob):
    game = play_plies(start_game(alice, bob), 6)
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["format"] == "zarkcity-game/1" and record["players"] == ["red", "yellow"]
    assert "seed" not in record and record["seed_commitment"] == game.seed_commitment
    assert [m["move"] for m in record["moves"]] == list(game.moves.values_list("notation", flat=True))
    assert record["result"] is None
    services.player_resign(game=game, user=alice)
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["seed"] == game.seed and record["result"] == {"winner": "yellow", "reason": "resignation"}


def test_the_record_downloads_as_a_file(client, alice, bob):
    game = start_game(alice, bob)
    response = client.get(reverse("game_record", args=[game.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="zarkcity-{game.pk}.json"'
    assert response["Content-Type"] == "application/json"
    html = client.get(page(game)).content.decode()
    assert f'<a href="{reverse("game_record", args=[game.pk])}" download>' in html


def test_record_of_a_finished_game_replays_in_the_engine(client, alice, bob):
    from engine.zarkcity.game import GAME

    game = play_plies(start_game(alice, bob), 30)
    services.player_resign(game=game, user=bob)
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    final = GAME.replay(record)
    assert (final.winner, final.reason) == ("red", "resignation")


def test_board_svg_is_served_as_svg(client, alice, bob):
    game = play_plies(start_game(alice, bob), 8)
    response = client.get(reverse("game_board_svg", args=[game.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    body = response.content.decode()
    assert body.startswith("<svg") and body.count('class="zc-square"') == len(game.snapshot["board"])


def test_history_shows_moves_with_chat_between_them(client, alice, bob):
    game = start_game(alice, bob)
    services.chat_post(game=game, user=alice, text="good luck!")
    game = play_plies(game, 2)
    services.chat_post(game=game, user=bob, text="<script>alert(1)</script>")
    client.force_login(alice)
    html = client.get(page(game)).content.decode()
    log = html[html.index('class="zc-log"') :]
    assert log.index("good luck!") < log.index("choose") < log.index("&lt;script&gt;alert(1)&lt;/script&gt;")
    assert "<script>alert(1)" not in html


def test_history_is_cut_to_the_latest_moves_unless_asked(client, alice, bob):
    game = start_game(alice, bob)
    game.moves.all().delete()
    seat = game.seats.get(colour="red")
    Move.objects.bulk_create(
        Move(game=game, ply=i, seat=seat, notation="draw", descriptions={"*": "red drew 3 cards"}) for i in range(200)
    )
    Game.objects.filter(pk=game.pk).update(ply=200, phase="act")
    html = client.get(page(game)).content.decode()
    assert "140 earlier moves not shown" in html and html.count('class="zc-log__move') == 60
    assert client.get(page(game) + "?history=all").content.decode().count('class="zc-log__move') == 200


def test_a_whole_game_played_through_the_web(client, alice, bob):
    """Both players move only by posting a move the page offers, until someone wins."""
    game = start_game(alice, bob)
    users = {"red": alice, "yellow": bob}
    for _ in range(600):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        colour = mover(game)
        client.force_login(users[colour])
        offered = [m for group in selectors.game_for_viewer(game, users[colour]).legal for m in group.moves]
        text = pick(services.state_of(game), colour, offered)
        response = client.post(move_url(game), {"text": text, "seen_ply": game.ply})
        assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result_reason == "power block"
    assert game.winner in ("red", "yellow") and game.ply == game.moves.count()
    html = client.get(page(game)).content.decode()
    assert "with a power block" in html and game.seed in html
    assert not ChatMessage.objects.exists()


# ----------------------------------------------------------------------------- board_svg


def svg_view(**changes):
    view = {
        "deck_type": "standard",
        "board": [
            {"at": [0, 0], "card": "7H", "pieces": {"red": "S", "blue": "M"}},
            {"at": [1, 0], "card": "10S", "pieces": {}},
            {"at": [-1, 2], "card": "2C", "pieces": {"red": "SML", "yellow": "L", "green": "S", "black": "M"}},
        ],
    }
    return view | changes


def test_board_svg_titles_every_card_for_hover():
    from engine.zarkcity.picture import render_board_svg

    svg = render_board_svg(svg_view())
    assert "<title>7H at 0,0: red S, blue M</title>" in svg
    assert "<title>10S at 1,0: empty</title>" in svg
    assert "<title>2C at -1,2: red S, red M, red L, yellow L, green S, black M</title>" in svg
    assert svg.count('class="zc-piece"') == 8
    for letter in ("R", "B", "Y", "G", "K"):  # colour-blind marks
        assert f">{letter}</text>" in svg


def test_board_svg_fits_the_viewbox_to_the_cards():
    from engine.zarkcity.picture import GUTTER, MARGIN, PITCH, render_board_svg

    svg = render_board_svg(svg_view())
    left, top = -1 * PITCH - GUTTER - MARGIN, 0 * PITCH - GUTTER - MARGIN
    width, height = 3 * PITCH + GUTTER + 2 * MARGIN, 3 * PITCH + GUTTER + 2 * MARGIN
    assert f'viewBox="{left} {top} {width} {height}"' in svg


def test_standard_cards_turn_on_alternate_cells_and_arcade_cards_are_square():
    from engine.zarkcity.picture import LONG, SHORT, SQUARE, render_board_svg

    standard = render_board_svg(svg_view())
    assert f'width="{SHORT}" height="{LONG}"' in standard and f'width="{LONG}" height="{SHORT}"' in standard
    arcade = render_board_svg(svg_view(deck_type="arcade", board=[{"at": [0, 0], "card": "7T", "pieces": {}}]))
    assert f'width="{SQUARE}" height="{SQUARE}"' in arcade and "\u2605" in arcade


def test_board_svg_escapes_everything():
    from engine.zarkcity.picture import render_board_svg, render_hand_svg

    evil = '<script>"x"&'
    svg = render_board_svg(svg_view(board=[{"at": [0, 0], "card": evil, "pieces": {evil: "S"}}]))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "<script>" not in render_hand_svg([evil])


def test_an_empty_board_says_so():
    from engine.zarkcity.picture import render_board_svg

    assert "No cards on the board yet" in render_board_svg({"deck_type": "standard", "board": []})


def test_a_post_without_the_ply_asks_for_a_reload(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.post(move_url(game), {"text": "draw"})
    assert response.status_code == 400 and "Reload the page and try again." in response.content.decode()


def test_the_page_shows_who_is_away_and_their_stopped_clock(client, alice, bob):
    """Days away stop a mover's clock: the table sees it, and the deadline shown moves with it."""
    from datetime import timedelta

    from notifications import services as notify

    game = start_game(alice, bob)
    today = game.started_at.date()
    notify.away_add(user=bob, first_day=today, last_day=today + timedelta(days=2), today=today)
    client.force_login(alice)
    html = client.get(page(game)).content.decode()
    assert "is away until" in html and "their clock is stopped" in html
    assert "yellow's deadline" in html and "away, clock stopped" in html  # both choose a starter now


def test_the_page_links_the_replay_log_and_after_the_end_the_verify_page(client, alice, bob):
    game = start_game(alice, bob)
    html = client.get(page(game)).content.decode()
    assert reverse("replay_start", args=[game.pk]) in html and reverse("game_log", args=[game.pk]) in html
    assert reverse("game_verify", args=[game.pk]) not in html
    services.player_resign(game=game, user=bob)
    html = client.get(page(game)).content.decode()
    assert reverse("game_verify", args=[game.pk]) in html


def test_the_result_banner_reads_without_a_stray_space(client, alice, bob):
    game = start_game(alice, bob)
    services.player_resign(game=game, user=bob)
    html = client.get(page(game)).content.decode()
    assert "alice won as red</strong>: every other player resigned." in html


def test_the_result_banner_names_the_winner_then_their_colour(client, alice, bob):
    profile_update(user=alice, display_name="Alice Liddell")
    game = start_game(alice, bob)
    services.player_resign(game=game, user=bob)
    html = client.get(page(game)).content.decode()
    assert "Alice Liddell (@alice) won as red</strong>" in html and "(@alice) (red)" not in html


def test_a_turn_that_just_started_says_just_now(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    html = client.get(page(game)).content.decode()
    assert "Turn started just now;" in html and "0 minutes" not in html


def test_a_game_ended_without_a_winner_says_so(client, alice, bob):
    game = start_game(alice, bob)
    services.game_abandon(game=game)
    html = client.get(page(game)).content.decode()
    assert "<strong>The game ended without a winner</strong>: every remaining player ran out of time." in html
    assert "Every remaining player ran out of time: the game ends with no winner." in html  # the history's last line
