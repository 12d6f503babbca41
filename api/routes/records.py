"""Finished games: the archive's search, and a game's record (the seed in it once the game is over)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Schema

from api import present, schemas
from api.access import visible_game
from api.auth import READ, caller
from api.errors import ApiError
from api.schemas import FAILURES
from archive import selectors as archive_selectors
from archive.forms import ArchiveSearchForm
from games import selectors
from games.models import Game

router = Router(tags=["archive"])


class ArchiveFilters(Schema):
    player: str = ""
    game: str = ""
    players: int | None = None
    reason: str = ""
    since: date | None = None
    until: date | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    sort: str = ""
    page: int = 1
    # Each game's own options filter too (e.g. deck=arcade): any other query parameter is passed to the search form.


@router.get("/archive", response={200: schemas.ArchivePage, **FAILURES}, auth=READ)
def archive(request: HttpRequest, filters: Query[ArchiveFilters]) -> schemas.ArchivePage:
    """Finished games, as the archive page searches them: the public ones and your own private ones
    (needs the read scope). Filters are the archive page's; a game option (e.g. `deck=arcade`) too."""
    form = ArchiveSearchForm({k: v for k, v in request.GET.items() if k != "page"})
    if not form.is_valid():
        problems = [f"{field}: {' '.join(str(m) for m in messages)}" for field, messages in form.errors.items()]
        raise ApiError("invalid_request", "; ".join(problems))
    page = archive_selectors.archive_page(form.cleaned_data, filters.page, caller(request))
    paginator: Any = page.paginator
    return schemas.ArchivePage(
        count=paginator.count,
        capped=paginator.capped,
        page=page.number,
        pages=paginator.num_pages,
        games=[present.archived_game(row) for row in page.object_list],
    )


@router.get("/games/{game_id}/record", response={200: dict[str, Any], **FAILURES}, auth=READ)
def record(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """The game record, as the page's download gives it to you: public moves, and the seed once
    the game is over, to verify with tools/verify_game.py (needs the read scope)."""
    user = caller(request)
    entry = visible_game(game_id, user)
    if entry.game.status == Game.Status.OPEN:
        raise ApiError("not_started", "This game has not started yet: it has no record.")
    seat = entry.my_seat
    return selectors.game_record(entry.game, seat.colour if seat else None)
