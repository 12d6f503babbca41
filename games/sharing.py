"""The share link of a finished private game: its only way in for anyone who did not play in it.

A private game is its players' business (docs/archive.md, "Private games"): no public list shows it and
its result moves no rating. Once it is over its players may show it to others with this link: the
game's id signed with the site's secret (unguessable, unlike the id alone), stable so it can be
pasted anywhere. Opening it lets that browser's session into the game's pages (page, replay, log,
record, verify).
"""

from __future__ import annotations

from django.contrib.sessions.backends.base import SessionBase
from django.core.signing import Signer
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from games.models import Game

SALT = "zarkcity.games.share"
SESSION_KEY = "zarkcity_shared_games"  # the ids of the private games this session was let into


def share_key(game: Game) -> str:
    return Signer(salt=SALT).signature(str(game.pk))


def share_url(game: Game) -> str:
    """The path of the game's share link (no host: emails and pages put their own in front)."""
    return reverse("game_shared", args=[game.pk, share_key(game)])


def key_fits(game: Game, key: str) -> bool:
    return constant_time_compare(key, share_key(game))


def let_in(session: SessionBase, game: Game) -> None:
    shared = set(session.get(SESSION_KEY, []))
    if game.pk not in shared:
        session[SESSION_KEY] = sorted(shared | {game.pk})


def shared_with(session: SessionBase | None) -> frozenset[int]:
    """The private games a session opened by their share link."""
    return frozenset(session.get(SESSION_KEY, [])) if session is not None else frozenset()
