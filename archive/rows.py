"""A finished game's row in the archive list, rendered once: when the game is archived.

A finished game's facts never change, so its row (templates/archive/_row.html) is rendered when it is
archived and kept as an ArchivedRow; a page of the list joins 25 stored rows instead of rendering them
with their hundred players. Only the players' names can change (display names do), so each player's
link is a slot in the stored row, filled per request from one query for the page's users. The row's
`key` names what it was rendered with (the template's text, the URLs, the games' names): a row rendered
by an older template is rendered again when it is next listed, and stored again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape, escape
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import SafeString, mark_safe

from accounts.selectors import bot_label_of, display_name_of
from accounts.templatetags.accounts import badge_for_bot
from engine import registry

ROW_TEMPLATE = "archive/_row.html"
# A player's link in a stored row: private-use characters no template text, URL or escaped name contains.
SLOT = re.compile("\ue000([0-9]+)\ue001")


@dataclass(frozen=True)
class RowSeat:
    colour: str
    outcome: str
    user_id: int

    @property
    def link(self) -> SafeString:
        """The slot `listed` fills with the player's link and current name, on each page that shows the row."""
        return mark_safe(f"\ue000{self.user_id}\ue001")  # noqa: S308 (digits only)


@dataclass(frozen=True)
class RowFacts:
    """What a row shows: an archived game's public facts, never-changing once it is archived."""

    game_id: int
    game_type: str
    options: dict[str, str]
    is_private: bool
    plies: int
    winner_colour: str
    reason: str
    finished_at: datetime
    seats: tuple[RowSeat, ...]

    @property
    def game_name(self) -> str:
        return registry.get(self.game_type).info.name

    @property
    def options_text(self) -> str:
        return registry.get(self.game_type).info.options_text(self.options)


def facts_of(game: Any, seats: Iterable[RowSeat]) -> RowFacts:
    """The facts of an ArchivedGame (also a migration's historical one) and its seats in seat order."""
    return RowFacts(
        game_id=game.game_id,
        game_type=game.game_type,
        options=dict(game.options),
        is_private=game.is_private,
        plies=game.plies,
        winner_colour=game.winner_colour,
        reason=game.reason,
        finished_at=game.finished_at,
        seats=tuple(seats),
    )


def seats_of(results: Iterable[Any]) -> list[RowSeat]:
    """The seats of a game's ArchivedPlayer rows (also a migration's historical ones), in seat order."""
    ordered = sorted(results, key=lambda result: result.seat_order)
    return [RowSeat(result.colour, result.outcome, result.user_id) for result in ordered]


@cache
def row_key() -> str:
    """What the stored rows were rendered with: the row template's text, the URLs it links to, the time
    zone of its dates and the games' names and options. A change to any of them re-renders old rows."""
    parts = [
        get_template(ROW_TEMPLATE).template.source,  # type: ignore[attr-defined]
        reverse("replay", args=[1, 2]),
        reverse("player_profile", args=["x"]),
        settings.TIME_ZONE,
        repr([(info.id, info.name, info.options) for info in registry.infos()]),
    ]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def render(facts: RowFacts) -> str:
    return render_to_string(ROW_TEMPLATE, {"g": facts}).strip()


def render_stale(
    game_model: type[Model], player_model: type[Model], row_model: type[Model], *, batch: int = 500
) -> int:
    """Render and store every row missing or rendered with another template, `batch` games at a time; the
    models may be a migration's historical ones. Returns how many rows were rendered."""
    stale = game_model.objects.exclude(row__key=row_key()).order_by("pk")  # type: ignore[attr-defined]
    pending = list(stale.values_list("pk", flat=True))
    for first in range(0, len(pending), batch):
        store(game_model, player_model, row_model, pending[first : first + batch])
    return len(pending)


def store(
    game_model: type[Model], player_model: type[Model], row_model: type[Model], ids: Sequence[int]
) -> dict[int, str]:
    """Render these games' rows and store them (three queries): {game id: row}."""
    seats: dict[int, list[Any]] = {}
    for result in player_model.objects.filter(archived_game_id__in=ids):  # type: ignore[attr-defined]
        seats.setdefault(result.archived_game_id, []).append(result)
    key = row_key()
    made = [
        row_model(game_id=game.pk, html=render(facts_of(game, seats_of(seats.get(game.pk, ())))), key=key)
        for game in game_model.objects.filter(pk__in=ids)  # type: ignore[attr-defined]
    ]
    row_model.objects.bulk_create(  # type: ignore[attr-defined]
        made, update_conflicts=True, unique_fields=["game"], update_fields=["html", "key"]
    )
    return {row.game_id: row.html for row in made}  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- a page of rows


@dataclass(frozen=True)
class ListedRow:
    """One game of a page of the list, as shown: templates print it as its HTML."""

    game_id: int
    html: SafeString

    def __html__(self) -> SafeString:
        return self.html

    def __str__(self) -> str:
        return self.html


def listed(rows: Sequence[tuple[int, str | None, str | None]]) -> list[ListedRow]:
    """The page's rows, (game id, stored row, its key) in order, ready to show: missing or stale rows rendered
    and stored, every player's slot filled with their link and current name (one query for the users)."""
    from archive.models import ArchivedGame, ArchivedPlayer, ArchivedRow

    html = {game_id: stored or "" for game_id, stored, _ in rows}
    key = row_key()
    again = [game_id for game_id, _, stored_key in rows if stored_key != key]  # none yet, or an older template
    if again:
        html.update(store(ArchivedGame, ArchivedPlayer, ArchivedRow, again))
    # A player who has played cannot be deleted (Seat.user is protected): every slot's user is there.
    users = _users({int(uid) for stored in html.values() for uid in SLOT.findall(stored)})
    paths = ProfilePaths()
    links = {uid: player_link(user, paths.of(user.get_username())) for uid, user in users.items()}

    def link(slot: re.Match[str]) -> str:
        return links[int(slot[1])]

    return [ListedRow(g, mark_safe(SLOT.sub(link, html[g]))) for g, _, _ in rows]  # noqa: S308 (escaped parts)


def _users(ids: set[int]) -> dict[int, Any]:
    if not ids:
        return {}
    return {u.pk: u for u in get_user_model().objects.filter(pk__in=ids).select_related("profile")}


def player_link(user: Any, profile: str | None = None) -> SafeString:
    """A player's name as the archive lists it, linking to their profile (and a built-in bot's badge).
    `profile` is their profile's path when the caller has it (ProfilePaths: one reverse per page)."""
    profile = profile if profile is not None else reverse("player_profile", args=[user.get_username()])
    link = f'<a href="{escape(profile)}">{escape(display_name_of(user))}</a>'
    return mark_safe(link + conditional_escape(badge_for_bot(bot_label_of(user))))  # noqa: S308 (escaped)


class ProfilePaths:
    """Players' profile paths from one `reverse`: the username quoted as `reverse` quotes a path (RFC 3986),
    which costs a page of 25 games a hundred reverses less (a test compares the two)."""

    MARK = "\ue002"

    def __init__(self) -> None:
        marked = reverse("player_profile", args=[self.MARK])
        self.before, _, self.after = marked.partition(quote(self.MARK, safe=""))

    def of(self, username: str) -> str:
        return self.before + quote(username, safe=RFC3986_SUBDELIMS + "/~:@") + self.after
