"""Cache-Control for pages and JSON that show a player's hand: no shared cache (a proxy, a CDN) may
keep them and no browser may store them on disk. Views are named here, not decorated one by one,
so tests/ops/test_headers.py can check that every game-page URL is on the list."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

NO_STORE = "private, no-store"
# The game page and everything it fetches, the replay and the text log (an unfinished game's shows its
# player's hand and draws), the landing of an email's play link (it signs in and shows the game), and
# the development mailbox (every player's emails, hands included).
HAND_VIEWS = frozenset(
    {
        "game_detail",
        "game_move",
        "game_resign",
        "game_draw",
        "game_chat",
        "game_board_svg",
        "game_ply",
        "game_record",
        "game_shared",  # a private game's share link: the landing that lets a browser in
        "replay_start",
        "replay",
        "game_log",
        "notifications:play",
        "notifications:dev_mail",
        "notifications:dev_mail_message",
    }
)


class NoStoreHands:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = request.resolver_match
        if match is not None and match.view_name in HAND_VIEWS:
            response["Cache-Control"] = NO_STORE
        return response
