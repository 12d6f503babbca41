"""When the sweep next looks at a game's clocks (Game.clock_due_at): the bookkeeping of the due times
the sweep reads instead of every game in progress (docs/notifications.md, "The sweep")."""

from __future__ import annotations

from datetime import datetime

from games.models import Game


def clock_check_at(*, game_id: int, at: datetime | None, seen: datetime) -> bool:
    """The game's next look at `at` (None: no mover has a clock), if it was still due at `seen`: a move
    that restarted the clock meanwhile set its own later time, which stands. True if written."""
    return bool(Game.objects.filter(pk=game_id, clock_due_at__lte=seen).update(clock_due_at=at))
