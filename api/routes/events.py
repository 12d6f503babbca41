"""The event feed: one cheap URL to poll for every game you sit at (api/feed.py)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router

from api import feed, schemas
from api.auth import READ, caller
from api.schemas import FAILURES

router = Router(tags=["events"])


@router.get("/events", response={200: schemas.Events, **FAILURES}, auth=READ)
def events(request: HttpRequest, after: str = "") -> schemas.Events:
    """Turn, move, chat, start and end events of your games since `after` (needs the read scope).

    Without `after`: a turn event for every game waiting on you now, and the cursor to go on from.
    Each answer's `cursor` is the next request's `after`; events are in the order they happened,
    up to a couple of seconds ago (docs/api.md)."""
    cursor = feed.Cursor.parse(after) if after else None
    page = feed.events_for(user=caller(request), after=cursor, now=timezone.now())
    return schemas.Events(events=page.events, cursor=str(page.cursor), more=page.more)
