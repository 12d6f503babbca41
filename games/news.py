"""What an open game page's poll (ply.json) asks most: has anything happened? The game's public headline
(ply, status, whom it waits on, public or private) kept in the shared cache, so that "nothing new" is
answered without the database (docs/service.md, "The poll").

Every save of a Game row deletes it at once and sets it anew once the transaction commits
(`GamesConfig.ready` connects `game_saved`): the move, a sealed choice, a resignation, a timeout, a
draw, the last seat joining. A poll that reads the row fills an empty entry (`remember`, never
overwriting: a writer's newer headline wins). Entries live HEADLINE_SECONDS, so a headline left stale
(a write whose cache calls failed while Redis was unreachable) answers for at most that long. A cache
that is empty or down is a miss: the poll reads the database as before. The headline holds only what
the poll has always shown everyone: `to_move` already leaves out every sealed choice the game keeps
secret (games.selectors.sealed).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from games.models import Game

log = logging.getLogger(__name__)

HEADLINE_SECONDS = 120


@dataclass(frozen=True)
class Headline:
    ply: int
    status: str
    to_move: str
    public: bool

    @classmethod
    def of(cls, game: Game) -> Headline:
        return cls(ply=game.ply, status=str(game.status), to_move=game.to_move, public=not game.is_private)

    @property
    def waited_on(self) -> list[str]:
        """The seats the game waits on (its public `to_move` column); none once it is over."""
        return [c for c in self.to_move.split(",") if c] if self.status == Game.Status.ACTIVE else []


def _key(game_id: int) -> str:
    # The prefix is a setting so that tests, whose databases number games from 1 again each time while
    # the cache stays, give each test its own (tests/conftest.py).
    return f"{getattr(settings, 'ZARKCITY_HEADLINE_KEY', 'game-headline')}:{game_id}"


def cached(game_id: int) -> Headline | None:
    """The game's headline from the cache, or None (not there, or the cache unreachable)."""
    try:
        value = cache.get(_key(game_id))
    except Exception:
        log.warning("cache unreachable: the poll reads the database", exc_info=True)
        return None
    try:
        return Headline(**value) if isinstance(value, dict) else None
    except TypeError:  # an entry of another shape (an older release's): read the database
        return None


def remember(game: Game) -> None:
    """After a poll read the game: its headline, unless a writer's (newer or equal) is there already."""
    _store(game.pk, Headline.of(game), overwrite=False)


def game_saved(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    """post_save of a Game: the old headline goes now, the new one once the transaction commits. Forgetting
    it at once matters where the commit is never seen (a test's transaction, a callback lost): a poll then
    reads the database; one that reads it before the commit stores the old headline, which the commit's
    `set` replaces."""
    headline = Headline.of(instance)  # the columns as saved now: a later save in the transaction queues its own
    game_id = instance.pk
    _forget(game_id)
    transaction.on_commit(lambda: _store(game_id, headline, overwrite=True), robust=True)


def game_deleted(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    game_id = instance.pk
    transaction.on_commit(lambda: _forget(game_id), robust=True)


def _store(game_id: int, headline: Headline, *, overwrite: bool) -> None:
    try:
        if overwrite:
            if _newer_there(game_id, headline):
                return
            cache.set(_key(game_id), asdict(headline), HEADLINE_SECONDS)
        else:
            cache.add(_key(game_id), asdict(headline), HEADLINE_SECONDS)
    except Exception:
        log.warning("cache unreachable: game %s's headline not stored", game_id, exc_info=True)


def _newer_there(game_id: int, headline: Headline) -> bool:
    """Whether the cache already holds a later ply than this writer's. After-commit callbacks need not run
    in the order of the saves: a human's move commits, and a callback queued before its headline's plays
    the bot's reply and stores that headline first; the human's, stored after it, would hide the bot's
    move from every poll for HEADLINE_SECONDS."""
    there = cached(game_id)
    return there is not None and there.ply > headline.ply


def _forget(game_id: int) -> None:
    try:
        cache.delete(_key(game_id))
    except Exception:
        log.warning("cache unreachable: game %s's headline not deleted", game_id, exc_info=True)
