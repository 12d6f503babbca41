"""What every page's frame shows of the games: how many wait for the signed-in player's move (the tab
title and the favicon's count)."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest

from games.selectors.turns import waiting_count


def turns(request: HttpRequest) -> dict[str, object]:
    # A callable, asked only by a page that shows it and only once: one query, none for the pages (the
    # JSON, the SVG) that never render the frame.
    user = request.user
    return {"waiting_count": cache(lambda: waiting_count(user))}
