"""Feeds: a player's finished games (public Atom), their turns (private Atom), their deadlines (iCalendar).

The private feeds sit behind a per-user key in the URL because feed readers and calendar apps
cannot log in. Items say which game and whose move, never a card.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape

from accounts.selectors import chosen_name_of, display_name_of
from archive import selectors
from archive.models import ArchivedGame
from archive.records import outcome_words
from games.clock import seat_clock
from games.models import Game, Seat

log = logging.getLogger(__name__)


def _absolute(path: str) -> str:
    """Feed links point at the configured site, not at whatever the sites framework's default is."""
    return f"{settings.SITE_URL}{path}"


def _players_line(game: ArchivedGame) -> str:
    return ", ".join(f"{p.colour} {display_name_of(p.user)}" for p in game.players.all())


def move_deadline(game: Game, seat: Seat) -> datetime | None:
    """When this seat's move is really due: the game's clock with the player's days away added.

    `seat_clock` ignores days away it cannot compute with; should anything else go wrong, the feed shows
    the nominal deadline rather than failing for every game of this player."""
    if game.turn_started_at is None:
        return None
    try:
        return seat_clock(game, seat).deadline
    except Exception:
        log.exception("game %s: the deadline of %s cannot be computed; the feed shows the nominal one", game.pk, seat)
        return game.deadline


if TYPE_CHECKING:
    FeedBase = Feed[Any, Any]  # each feed's own items and object
else:  # Feed is generic only to the type checker (as ModelAdmin in api/admin.py)
    FeedBase = Feed


class SiteFeed(FeedBase):
    """rel="self" names the configured site, not the sites framework's domain or the request's host."""

    def get_feed(self, obj: Any, request: HttpRequest) -> Any:
        feed = super().get_feed(obj, request)
        feed.feed["feed_url"] = _absolute(request.path)  # one Feed instance serves every request: no state on self
        return feed


class PlayerGamesFeed(SiteFeed):
    """/players/<username>/games.atom: the player's public finished games, newest first."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, username: str) -> Any:
        return get_object_or_404(get_user_model(), username=username)

    def title(self, user: Any) -> str:
        return f"Finished games of {display_name_of(user)}"

    def link(self, user: Any) -> str:
        return _absolute(reverse("player_profile", args=[user.get_username()]))

    def subtitle(self, user: Any) -> str:
        return f"Finished games of {display_name_of(user)} on zarkcity"

    def items(self, user: Any) -> list[ArchivedGame]:
        return selectors.finished_games_of(user=user)

    def item_title(self, game: ArchivedGame) -> str:
        # The archived copy of the result: the same words as result_words(game.game), without a query per item.
        return f"{game.game_name} #{game.game_id}: {outcome_words(game.winner_colour, game.reason)}"

    def item_description(self, game: ArchivedGame) -> str:
        # Atom sends the description as type="html": names are the players' own text, so escape them
        # here; the feed writer's XML escaping only undoes itself in the reader.
        moves = f"{game.plies} move" + ("" if game.plies == 1 else "s")
        options = f" ({game.options_text})" if game.options_text else ""
        return escape(f"{game.game_name}{options}: {_players_line(game)}. {moves}.")

    def item_link(self, game: ArchivedGame) -> str:
        return _absolute(reverse("replay", args=[game.game_id, game.plies]))

    def item_guid(self, game: ArchivedGame) -> str:
        return f"{settings.SITE_URL}/games/{game.game_id}/"

    def item_pubdate(self, game: ArchivedGame) -> datetime:
        return game.finished_at

    def item_updateddate(self, game: ArchivedGame) -> datetime:
        return game.finished_at


class MyTurnFeed(SiteFeed):
    """/feeds/<key>/my-turn.atom: one item per game waiting for this player; a new move is a new item."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, key: str) -> Any:
        user = selectors.user_for_feed_key(key)
        if user is None:
            raise Http404("Unknown feed key (it may have been replaced).")
        return user

    def title(self, user: Any) -> str:
        return f"Your turn on zarkcity ({chosen_name_of(user)})"

    def link(self, user: Any) -> str:
        return _absolute(reverse("player_profile", args=[user.get_username()]))

    def items(self, user: Any) -> list[tuple[Game, Seat]]:
        return selectors.games_awaiting(user=user)

    def item_title(self, item: tuple[Game, Seat]) -> str:
        game, seat = item
        return f"Your move in {game.rules.info.name} #{game.pk} (you are {seat.colour})"

    def item_description(self, item: tuple[Game, Seat]) -> str:
        game, seat = item
        deadline = move_deadline(game, seat)
        due = f" Due by {deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC." if deadline else ""
        return f"Move {game.ply + 1} is yours to play.{due}"

    def item_link(self, item: tuple[Game, Seat]) -> str:
        return _absolute(reverse("game_detail", args=[item[0].pk]))

    def item_guid(self, item: tuple[Game, Seat]) -> str:
        game, seat = item
        return f"{settings.SITE_URL}/games/{game.pk}/ply/{game.ply}/{seat.colour}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: tuple[Game, Seat]) -> datetime:
        game = item[0]
        return game.turn_started_at or game.started_at or game.created_at

    def item_updateddate(self, item: tuple[Game, Seat]) -> datetime:
        return self.item_pubdate(item)


# ----------------------------------------------------------------------------- iCalendar (RFC 5545), by hand


def deadlines_ics(request: HttpRequest, key: str) -> HttpResponse:
    """/feeds/<key>/deadlines.ics: an event at each deadline for a move this player owes, with a reminder."""
    user = selectors.user_for_feed_key(key)
    if user is None:
        raise Http404("Unknown feed key (it may have been replaced).")
    host = request.get_host().split(":")[0]
    awaiting = [(game, seat, move_deadline(game, seat)) for game, seat in selectors.games_awaiting(user=user)]
    events = [_event(game, seat, deadline, host) for game, seat, deadline in awaiting if deadline]
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//zarkcity//move deadlines//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "X-WR-CALNAME:" + ics_escape(f"Game deadlines of {chosen_name_of(user)}"),
        *[line for event in events for line in event],
        "END:VCALENDAR",
    ]
    body = "".join(fold(line) + "\r\n" for line in lines)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="zarkcity-deadlines.ics"'
    return response


def _event(game: Game, seat: Seat, deadline: datetime, host: str) -> list[str]:
    url = f"{settings.SITE_URL}{reverse('game_detail', args=[game.pk])}"
    return [
        "BEGIN:VEVENT",
        f"UID:game-{game.pk}-ply-{game.ply}-{seat.colour}@{host}",
        f"DTSTAMP:{ics_time(timezone.now())}",
        f"DTSTART:{ics_time(deadline)}",
        "SUMMARY:" + ics_escape(f"{game.rules.info.name} #{game.pk}: your move is due"),
        "DESCRIPTION:"
        + ics_escape(f"Move {game.ply + 1} in {game.rules.info.name} #{game.pk} (you are {seat.colour}).\n{url}"),
        f"URL:{url}",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "DESCRIPTION:" + ics_escape(f"{game.rules.info.name} #{game.pk}: your move is due in an hour"),
        "TRIGGER:-PT1H",
        "END:VALARM",
        "END:VEVENT",
    ]


def ics_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def ics_escape(text: str) -> str:
    """TEXT values (RFC 5545 3.3.11): backslash, semicolon and comma escaped, newlines as \\n."""
    return (
        text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")
    )


def fold(line: str, limit: int = 75) -> str:
    """Lines longer than 75 octets continue on the next line after CRLF and a space (RFC 5545 3.1)."""
    data = line.encode()
    if len(data) <= limit:
        return line
    parts, start = [], 0
    while start < len(data):
        size = limit if start == 0 else limit - 1
        end = min(start + size, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:  # never split a UTF-8 character
            end -= 1
        parts.append(data[start:end].decode())
        start = end
    return "\r\n ".join(parts)
