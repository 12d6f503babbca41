"""Every read of a game, by concept: the game page (page, history), the public record, and the
lobby's and dashboard's lists. Pages, JSON files and emails are built from the game's `view`
through `game.rules` (the one place hidden information is stripped) and the public move text."""

from __future__ import annotations

from .events import PlyEvents, events_seen
from .history import HISTORY_SHOWN, NO_WINNER_ON_TIME, HistoryEntry
from .lists import (
    DASHBOARD_FINISHED_LIMIT,
    OPEN_GAMES_LIMIT,
    Dashboard,
    GameListEntry,
    dashboard_for,
    game_filter_choices,
    game_page_url,
    invitation_addressed_to,
    invitation_get,
    lobby_game,
    lobby_invitations,
    lobby_visible_to,
    open_games_list,
    pending_invitations_for,
)
from .page import (
    DrawOffer,
    GameContext,
    MoveGroup,
    Outcome,
    SeatInfo,
    game_for_viewer,
    game_visible_to,
    game_with_table,
    seat_of,
    state_of,
    table_of,
)
from .record import game_record, result_of
from .sealed import seat_view, waiting_on

__all__ = [
    "seat_view",
    "waiting_on",
    "DASHBOARD_FINISHED_LIMIT",
    "HISTORY_SHOWN",
    "NO_WINNER_ON_TIME",
    "OPEN_GAMES_LIMIT",
    "Dashboard",
    "DrawOffer",
    "GameContext",
    "GameListEntry",
    "HistoryEntry",
    "MoveGroup",
    "Outcome",
    "PlyEvents",
    "SeatInfo",
    "dashboard_for",
    "events_seen",
    "game_filter_choices",
    "game_for_viewer",
    "game_page_url",
    "game_record",
    "game_visible_to",
    "game_with_table",
    "invitation_addressed_to",
    "invitation_get",
    "lobby_game",
    "lobby_invitations",
    "lobby_visible_to",
    "open_games_list",
    "pending_invitations_for",
    "result_of",
    "seat_of",
    "state_of",
    "table_of",
]
