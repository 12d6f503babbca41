"""A game with several winners (a Deck Town tie): both win in the archive, the ratings, the emails and
the record, in the game's own words. The position is set up by hand one move before the tie."""

from __future__ import annotations

from django.core import mail

from archive.models import ArchivedGame, ArchivedPlayer, PlayerRating
from archive.records import outcome_words
from games import selectors, services
from games.models import Game
from tests.service.gameplay import start_game

# Yellow's three sixes and red's three sixes share the Market/Lunatic/Penitent: red's move leaves
# yellow alone on yellow's block and completes red's own. The highest cards are the same: a tie.
TIE_BOARD = [
    {"at": [0, 0], "card": "6MW", "pieces": {"yellow": "S"}},
    {"at": [1, 0], "card": "6SY", "pieces": {"yellow": "S"}},
    {"at": [2, 0], "card": "6LK", "pieces": {"red": "S", "yellow": "S"}},
    {"at": [2, 1], "card": "6MW", "pieces": {}},
    {"at": [3, 1], "card": "6LK", "pieces": {"red": "S"}},
    {"at": [3, 0], "card": "6SY", "pieces": {"red": "S"}},
]


def one_move_before_a_tie(alice, bob) -> Game:
    game = start_game(alice, bob, game="decktown")
    position = game.rules.to_position(services.state_of(game))
    position |= {"phase": "act", "to_move": "red", "turn": 5, "first_player": "red", "pending": []}
    position |= {"board": TIE_BOARD, "hands": {"red": [], "yellow": []}, "deck": [], "discard": [], "starters": []}
    game.snapshot = game.rules.to_position(game.rules.from_position(position))
    game.phase, game.to_move = "act", "red"
    game.save()
    return game


def test_a_tie_is_a_win_for_each_tied_player_everywhere(alice, bob, eager, django_capture_on_commit_callbacks):
    game = one_move_before_a_tie(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.move_submit(game=game, user=alice, text="move S 2,0 2,1", seen_ply=game.ply)
    game.refresh_from_db()
    assert (game.status, game.winners, game.result_reason) == (Game.Status.FINISHED, ("red", "yellow"), "tie")

    archived = ArchivedGame.objects.get(pk=game.pk)
    assert archived.winner_id is None and archived.winner_colour == "red,yellow"
    outcomes = dict(ArchivedPlayer.objects.filter(archived_game=archived).values_list("colour", "outcome"))
    assert outcomes == {"red": "won", "yellow": "won"}
    ratings = PlayerRating.objects.filter(game_type="decktown")
    assert sorted(ratings.values_list("wins", flat=True)) == [1, 1]
    assert outcome_words(archived.winner_colour, archived.reason) == "red and yellow share the win (tie)"

    record = selectors.game_record(game)
    assert record["result"] == {"winner": None, "reason": "tie", "tied": ["red", "yellow"]}
    over = [m for m in mail.outbox if "share the win" in m.body]
    assert len(over) == 2 and all(any(who.email in m.to[0] for m in over) for who in (alice, bob))
