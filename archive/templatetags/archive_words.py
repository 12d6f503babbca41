"""`{{ archived_game|outcome }}`: how a finished game ended, in the words the log, replay and feeds use."""

from django import template

from archive.models import ArchivedGame
from archive.records import outcome_words

register = template.Library()


@register.filter
def outcome(game: ArchivedGame) -> str:
    return outcome_words(game.winner_colour, game.reason)
