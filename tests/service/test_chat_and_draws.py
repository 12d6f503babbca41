"""Table talk (players only, 1..500 characters, escaped, placed after the current move) and agreed draws."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from engine.zarkcity.game import GAME
from games import selectors, services
from games.models import ChatMessage, DrawProposal, Game
from games.services import NotAPlayer, PlayError
from tests.service.gameplay import play_plies, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


# ----------------------------------------------------------------------------- chat


def test_chat_is_stored_stripped_after_the_current_move(game, alice):
    game = play_plies(game, 3)
    message = services.chat_post(game=game, user=alice, text="  well played  ")
    assert (message.text, message.after_ply, message.seat.colour) == ("well played", 3, "red")


@pytest.mark.parametrize(
    ("text", "error"), [("", "Write something"), ("   \n ", "Write something"), ("x" * 501, "at most 500")]
)
def test_chat_refuses_empty_and_long_lines(game, alice, text, error):
    with pytest.raises(ValidationError, match=error):
        services.chat_post(game=game, user=alice, text=text)
    assert not ChatMessage.objects.exists()


def test_chat_takes_exactly_500_characters(game, alice):
    assert len(services.chat_post(game=game, user=alice, text="y" * 500).text) == 500


def test_spectators_cannot_chat(game, charlie):
    with pytest.raises(NotAPlayer):
        services.chat_post(game=game, user=charlie, text="hi all")


def test_a_resigned_player_can_no_longer_talk(client, alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    services.player_resign(game=game, user=charlie)
    with pytest.raises(NotAPlayer, match="You resigned from this game"):
        services.chat_post(game=game, user=charlie, text="gg")
    client.force_login(charlie)
    response = client.post(reverse("game_chat", args=[game.pk]), {"text": "gg"})
    assert response.status_code == 403 and "no longer chat at its table" in response.content.decode()
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "zc-chat-form" not in html and "no longer post" in html
    assert not ChatMessage.objects.exists()


def test_chat_through_the_page_is_escaped(client, game, bob):
    client.force_login(bob)
    response = client.post(reverse("game_chat", args=[game.pk]), {"text": '<img src=x onerror="alert(1)">'})
    assert response.status_code == 302 and response["Location"].endswith("#chat")
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "<img src=x" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_chat_through_the_page_reports_a_long_line(client, game, bob):
    client.force_login(bob)
    response = client.post(reverse("game_chat", args=[game.pk]), {"text": "z" * 501}, follow=True)
    assert "at most 500 characters" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_chat_sits_between_the_moves_in_the_history(game, alice, bob):
    services.chat_post(game=game, user=alice, text="first")
    game = play_plies(game, 2)
    services.chat_post(game=game, user=bob, text="second")
    history = selectors.game_for_viewer(game, alice).history
    assert [(h.kind, h.text if h.kind == "chat" else h.ply) for h in history] == [
        ("chat", "first"),
        ("move", 0),
        ("move", 1),
        ("chat", "second"),
    ]


# ----------------------------------------------------------------------------- draws


def test_two_players_agree_a_draw(game, alice, bob):
    game = play_plies(game, 4)
    proposal = services.draw_propose(game=game, user=alice)
    assert list(proposal.accepted_by.values_list("colour", flat=True)) == ["red"]
    services.draw_accept(game=game, user=bob)
    game.refresh_from_db()
    proposal.refresh_from_db()
    assert proposal.status == DrawProposal.Status.ACCEPTED
    assert (proposal.decided_by.colour, proposal.decided_at) == ("yellow", game.finished_at)  # the last to accept
    assert (game.status, game.winner, game.result_reason, game.phase) == (Game.Status.FINISHED, "", "draw", "over")
    assert game.ply == 4 == game.moves.count()  # an agreed draw is not a move
    record = selectors.game_record(game)
    assert record["result"] == {"winner": None, "reason": "draw"}
    assert GAME.replay(record).reason == "draw"


def test_every_remaining_player_must_accept(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    services.draw_propose(game=game, user=bob)
    services.draw_accept(game=game, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    offer = selectors.game_for_viewer(game, charlie).draw_offer
    assert (offer.proposed_by, offer.waiting_for, offer.viewer_may_answer) == ("yellow", ["green"], True)
    services.draw_accept(game=game, user=charlie)
    game.refresh_from_db()
    assert game.result_reason == "draw"
    assert DrawProposal.objects.get().decided_by.colour == "green"  # the last to accept, not the proposer


def test_a_resigned_player_is_not_waited_for(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    services.player_resign(game=game, user=charlie)
    services.draw_propose(game=game, user=alice)
    services.draw_accept(game=game, user=bob)
    game.refresh_from_db()
    assert game.result_reason == "draw"


def test_a_decline_ends_the_proposal(game, alice, bob):
    services.draw_propose(game=game, user=alice)
    services.draw_decline(game=game, user=bob)
    proposal = DrawProposal.objects.get()
    assert (proposal.status, proposal.decided_by.colour) == (DrawProposal.Status.DECLINED, "yellow")
    with pytest.raises(PlayError, match="no draw proposal"):
        services.draw_accept(game=game, user=bob)
    services.draw_propose(game=game, user=bob)  # a new one may follow


def test_one_open_proposal_at_a_time(game, alice, bob):
    services.draw_propose(game=game, user=alice)
    with pytest.raises(PlayError, match="already been proposed"):
        services.draw_propose(game=game, user=bob)


def test_a_resignation_lapses_the_proposal(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    services.draw_propose(game=game, user=alice)
    before = timezone.now()
    services.player_resign(game=game, user=charlie)
    proposal = DrawProposal.objects.get()
    assert proposal.status == DrawProposal.Status.LAPSED
    assert proposal.decided_by is None and before <= proposal.decided_at <= timezone.now()


def test_outsiders_and_finished_games_take_no_draws(game, alice, bob, charlie):
    with pytest.raises(NotAPlayer):
        services.draw_propose(game=game, user=charlie)
    services.player_resign(game=game, user=bob)
    with pytest.raises(PlayError, match="over"):
        services.draw_propose(game=game, user=alice)


def test_draw_buttons_on_the_page(client, game, alice, bob):
    client.force_login(alice)
    page = reverse("game_detail", args=[game.pk])
    assert 'value="propose"' in client.get(page).content.decode()
    response = client.post(reverse("game_draw", args=[game.pk]), {"action": "propose"}, follow=True)
    html = response.content.decode()
    assert "You proposed a draw." in html and "Red proposed a draw." in html and 'value="accept"' not in html
    client.force_login(bob)
    html = client.get(page).content.decode()
    assert 'value="accept"' in html and 'value="decline"' in html
    html = client.post(reverse("game_draw", args=[game.pk]), {"action": "accept"}, follow=True).content.decode()
    assert "The game ended in a draw" in html


# ----------------------------------------------------------------------------- draws in the history


def draw_lines(game, user):
    return [(h.kind, h.text) for h in selectors.game_for_viewer(game, user).history if h.kind != "move"]


def test_a_declined_offer_shows_in_the_history_between_the_moves(game, alice, bob):
    game = play_plies(game, 2)
    services.draw_propose(game=game, user=alice)
    services.chat_post(game=game, user=bob, text="no thanks")
    services.draw_decline(game=game, user=bob)
    game = play_plies(game, 1)
    history = selectors.game_for_viewer(game, bob).history
    assert [(h.kind, h.ply if h.kind == "move" else h.text) for h in history] == [
        ("move", 0),
        ("move", 1),
        ("draw", "proposed a draw"),
        ("chat", "no thanks"),
        ("draw", "declined the draw offer"),  # when it was declined: after the talk that came first
        ("move", 2),
    ]
    assert (history[2].colour, history[2].name) == ("red", "alice")
    assert (history[4].colour, history[4].name) == ("yellow", "bob")
    assert history[4].at == DrawProposal.objects.get().decided_at


def test_who_declined_and_when_in_a_three_player_game(client, alice, bob, charlie):
    Profile.objects.update_or_create(user=charlie, defaults={"display_name": "Chuck"})
    game = play_plies(start_game(alice, bob, charlie), 2)
    services.chat_post(game=game, user=alice, text="before")
    services.draw_propose(game=game, user=bob)
    services.draw_accept(game=game, user=alice)
    services.chat_post(game=game, user=bob, text="come on")
    before = timezone.now()
    services.draw_decline(game=game, user=charlie)
    services.chat_post(game=game, user=alice, text="after")
    proposal = DrawProposal.objects.get()
    assert (proposal.decided_by.colour, proposal.decided_by.user) == ("green", charlie)
    assert before <= proposal.decided_at <= timezone.now()
    history = [h for h in selectors.game_for_viewer(game, alice).history if h.kind != "move"]
    assert [(h.kind, h.colour, h.name, h.text) for h in history] == [
        ("chat", "red", "alice", "before"),
        ("draw", "yellow", "bob", "proposed a draw"),
        ("chat", "yellow", "bob", "come on"),
        ("draw", "green", "Chuck (@charlie)", "declined the draw offer"),
        ("chat", "red", "alice", "after"),
    ]
    assert history[3].at == proposal.decided_at
    client.force_login(bob)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    log = html[html.index('class="zc-log"') :]
    stamp = timezone.localtime(proposal.decided_at).isoformat()
    assert (
        '<li class="zc-log__draw zc-log--green"><span class="zc-by">Chuck (@charlie)</span>, green, '
        f'declined the draw offer <time class="muted" datetime="{stamp}">'
    ) in log
    assert log.index("come on") < log.index("declined the draw offer") < log.index("after")


def test_a_decline_stored_without_who_and_when_keeps_the_old_line(game, alice, bob):
    services.draw_propose(game=game, user=alice)
    services.chat_post(game=game, user=bob, text="no thanks")
    services.draw_decline(game=game, user=bob)
    DrawProposal.objects.update(decided_by=None, decided_at=None)  # as rows settled before 0002 are
    assert draw_lines(game, alice) == [
        ("draw", "proposed a draw"),
        ("draw", "The draw offer was declined."),  # right after the offer: its time is unknown
        ("chat", "no thanks"),
    ]


def test_a_lapsed_offer_shows_after_the_move_that_ended_it(game, alice, bob):
    game = play_plies(game, 2)
    services.draw_propose(game=game, user=alice)
    game = play_plies(game, 1)
    history = selectors.game_for_viewer(game, alice).history
    assert [h.kind for h in history] == ["move", "move", "draw", "move", "draw"]
    assert history[-1].text.startswith("The draw offer lapsed")
    assert history[-1].at == DrawProposal.objects.get().decided_at is not None


def test_an_agreed_draw_is_the_last_event_before_talk_after_the_end(client, game, alice, bob):
    game = play_plies(game, 2)
    services.draw_propose(game=game, user=bob)
    services.chat_post(game=game, user=alice, text="fair enough")
    services.draw_accept(game=game, user=alice)
    game.refresh_from_db()
    services.chat_post(game=game, user=bob, text="gg")
    assert draw_lines(game, alice) == [
        ("draw", "proposed a draw"),
        ("chat", "fair enough"),
        ("draw", "Draw agreed by red and yellow: the game ends with no winner."),
        ("chat", "gg"),
    ]
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    log = html[html.index('class="zc-log"') :]
    assert log.index("proposed a draw") < log.index("fair enough") < log.index("Draw agreed by red and yellow")
    assert 'class="zc-log__draw zc-log--yellow"><span class="zc-by">bob</span>, yellow, proposed a draw' in log
    assert log.index("Draw agreed") < log.index("gg")


def test_draw_lines_escape_names(client, game, alice, bob):
    Profile.objects.update_or_create(user=bob, defaults={"display_name": "<b>bob</b>"})
    services.draw_propose(game=game, user=bob)
    services.draw_decline(game=game, user=alice)
    services.draw_propose(game=game, user=alice)
    services.draw_decline(game=game, user=bob)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    log = html[html.index('class="zc-log"') :]
    assert "<b>bob</b>" not in log
    assert '<span class="zc-by">&lt;b&gt;bob&lt;/b&gt; (@bob)</span>, yellow, declined the draw offer' in log
