"""Games: mine, the open ones, the kinds there are, one game as my seat sees it; create and join."""

from __future__ import annotations

from typing import Literal

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from ninja import Router, Status

from api import present, schemas
from api.access import visible_game
from api.auth import PLAY, READ, caller
from api.errors import ApiError, refusal_text
from api.schemas import FAILURES
from engine import registry
from engine.bots import bots_for
from games import selectors, services
from games.models import Game

router = Router(tags=["games"])


@router.get("/games", response={200: schemas.MyGames, **FAILURES}, auth=READ)
def my_games(request: HttpRequest, game: str = "") -> schemas.MyGames:
    """Your games, your move first, and the invitations waiting for you (needs the read scope).

    `?game=martianchess` shows one game's tables only."""
    user = caller(request)
    board = selectors.dashboard_for(user=user, game=game)
    entries = board.my_turn + board.waiting_on_others + board.waiting_for_players + board.finished
    invitations = [
        present.invitation_out(invitation, selectors.lobby_game(game_id=invitation.game_id, user=user))
        for invitation in board.invitations
    ]
    return schemas.MyGames(games=[present.game_summary(entry) for entry in entries], invitations=invitations)


@router.get("/games/open", response={200: list[schemas.GameSummary], **FAILURES}, auth=READ)
def open_games(request: HttpRequest, game: str = "") -> list[schemas.GameSummary]:
    """Public games waiting for players, newest first (needs the read scope)."""
    entries = selectors.open_games_list(user=caller(request), game=game)
    return [present.game_summary(entry) for entry in entries]


@router.get("/game-types", response={200: list[schemas.GameType], **FAILURES}, auth=READ)
def game_types(request: HttpRequest) -> list[schemas.GameType]:
    """Every game you can create: its player counts, options and built-in bots (needs the read scope)."""
    return [
        schemas.GameType(
            id=info.id,
            name=info.name,
            player_counts=list(info.player_counts),
            options=[
                {
                    "name": option.name,
                    "label": option.label,
                    "default": option.default,
                    "choices": [{"value": c.value, "label": c.label} for c in option.choices],
                }
                for option in info.options
            ],
            summary=info.summary,
            bots=[bot.name for bot in bots_for(info.id)],
        )
        for info in registry.infos()
    ]


@router.get("/games/{game_id}", response={200: schemas.GameDetail, **FAILURES}, auth=READ)
def game_detail(request: HttpRequest, game_id: int, history: Literal["latest", "all"] = "latest") -> schemas.GameDetail:
    """One game as your seat sees it on its page, or as a spectator when you are not seated
    (needs the read scope). The history holds the latest 60 moves unless `?history=all`."""
    user = caller(request)
    entry = visible_game(game_id, user)
    page = None
    if entry.game.status != Game.Status.OPEN:
        page = selectors.game_for_viewer(entry.game, user, whole_history=history == "all")
    return present.game_detail(entry, page)


@router.get("/games/{game_id}/events", response={200: schemas.GameEvents, **FAILURES}, auth=READ)
def game_events(request: HttpRequest, game_id: int, since: int = 0) -> schemas.GameEvents:
    """What happened at each move from ply `since` on, as your seat may read it (needs the read scope):
    your own draws name their cards, others' only their number; spectators read the public lines. Once
    the game is over everything is revealed. The answer's `next` is the next request's `since`."""
    user = caller(request)
    game = visible_game(game_id, user).game
    if since < 0:
        raise ApiError("invalid_request", "since is a ply: 0 or more.")
    seat = selectors.seat_of(game, user)
    moves = selectors.events_seen(game, seat.colour if seat else None, since=since)
    return present.game_events(game, moves)


@router.post("/games", response={201: schemas.GameSummary, **FAILURES}, auth=PLAY)
def game_create(request: HttpRequest, body: schemas.GameIn) -> Status[schemas.GameSummary]:
    """Create a game with you in the first seat and any built-in bots in the next ones (needs the play
    scope); it starts when every seat is taken."""
    user = caller(request)
    try:
        game = services.game_create(
            creator=user,
            game=body.game,
            seats=body.seats,
            options=body.options,
            time_limit_days=body.time_limit_days,
            is_private=body.is_private,
            bots=body.bots,
        )
    except ValidationError as error:
        raise ApiError("invalid_request", refusal_text(error)) from None
    return Status(201, present.game_summary(selectors.lobby_game(game_id=game.pk, user=user)))


@router.post("/games/{game_id}/join", response={200: schemas.GameSummary, **FAILURES}, auth=PLAY)
def game_join(request: HttpRequest, game_id: int) -> schemas.GameSummary:
    """Take the next free seat in a waiting game; the last seat starts it (needs the play scope)."""
    user = caller(request)
    entry = visible_game(game_id, user)
    try:
        services.game_join(game=entry.game, user=user)
    except ValidationError as error:
        raise ApiError("refused", refusal_text(error)) from None
    return present.game_summary(selectors.lobby_game(game_id=game_id, user=user))
