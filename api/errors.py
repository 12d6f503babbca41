"""Every API error is JSON: {"code": a stable word a client may branch on, "message": what is wrong,
in words}. The codes, their HTTP statuses, and the translation of the services' refusals."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.signals import got_request_exception
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as SchemaError

from games.models import Game
from games.services import MoveRejected, NotAPlayer, PlayError, StaleMove

log = logging.getLogger(__name__)

# code -> HTTP status. A client branches on the code; the status follows from it.
STATUSES = {
    "invalid_request": 400,  # the request itself is wrong: a missing field, a bad value
    "illegal_move": 400,  # the move cannot be read, or the rules do not allow it (message: the engine's reason)
    "invalid_token": 401,
    "forbidden_scope": 403,  # the token lacks the scope this endpoint needs
    "not_a_player": 403,  # a game the caller may see but has no (remaining) seat in
    "not_found": 404,  # no such thing, or nothing the caller may see
    "method_not_allowed": 405,
    "stale_ply": 409,  # the game moved on since the ply the client sent
    "not_your_turn": 409,
    "not_started": 409,  # the game is still waiting for players
    "game_over": 409,
    "refused": 409,  # the game's state does not allow it now (full, already seated, no draw offer...)
    "too_large": 413,  # a body over settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    "rate_limited": 429,
    "server_error": 500,
}


BEARER_CHALLENGE = 'Bearer realm="zarkcity"'


class ApiError(Exception):
    def __init__(self, code: str, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.retry_after = code, message, retry_after

    @property
    def status(self) -> int:
        return STATUSES[self.code]


def error_response(code: str, message: str, **extra: Any) -> JsonResponse:
    response = JsonResponse({"code": code, "message": message} | extra, status=STATUSES[code])
    response["Cache-Control"] = "private, no-store"
    return response


def play_refusal(error: PlayError, game: Game, colour: str | None, *, sent_ply: int | None = None) -> ApiError:
    """A refused move, resignation or draw action, by what refused it (games/services/errors.py)."""
    if isinstance(error, StaleMove):
        return ApiError("stale_ply", stale_message(game, sent_ply))
    if isinstance(error, NotAPlayer):
        return ApiError("not_a_player", error.reason)
    game.refresh_from_db(fields=["status", "to_move"])
    if game.status == Game.Status.OPEN:
        return ApiError("not_started", error.reason)
    if game.status == Game.Status.FINISHED:
        return ApiError("game_over", error.reason)
    if isinstance(error, MoveRejected):
        # The ply was current (a stale one is refused first), so a mover's refusal is the rules'.
        mover = colour is not None and colour in game.to_move.split(",")
        return ApiError("illegal_move" if mover else "not_your_turn", error.reason)
    return ApiError("refused", error.reason)


def stale_message(game: Game, sent_ply: int | None) -> str:
    """The service's words are the page's ("since you loaded this page"); a program sent a ply."""
    game.refresh_from_db(fields=["ply"])
    answered = "an older ply" if sent_ply is None else f"ply {sent_ply}"
    return (
        f"This request answers {answered}, but the game is at ply {game.ply}: nothing was played. "
        f"Read the legal moves again (GET /api/games/{game.pk}/moves) and send one with the ply they answer."
    )


def refusal_text(error: DjangoValidationError) -> str:
    return " ".join(error.messages)


def install_handlers(api: NinjaAPI) -> None:
    """Every exception an operation or its auth can raise, as JSON with a code."""

    def api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
        response = error_response(error.code, error.message)
        if error.retry_after is not None:
            response["Retry-After"] = str(error.retry_after)
        if error.status == 401:
            response["WWW-Authenticate"] = BEARER_CHALLENGE
        return response

    def unauthenticated(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
        response = error_response("invalid_token", "Send a personal access token: Authorization: Bearer <token>.")
        response["WWW-Authenticate"] = BEARER_CHALLENGE
        return response

    def schema_error(request: HttpRequest, error: SchemaError) -> HttpResponse:
        problems = [_problem(item) for item in error.errors]
        return error_response("invalid_request", "; ".join(problems) or "The request is not valid.", errors=problems)

    def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
        return error_response("not_found", str(error) or "Not found.")

    def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:  # ninja's own, e.g. a bad JSON body
        code = "invalid_request" if error.status_code == 400 else "server_error"
        return error_response(code, str(error))

    def too_large(request: HttpRequest, error: RequestDataTooBig) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return error_response("too_large", f"The request body is over {limit:,} bytes: nothing was read.")

    def server_error(request: HttpRequest, error: Exception) -> HttpResponse:
        log.exception("API request failed: %s %s", request.method, request.path)
        got_request_exception.send(sender=None, request=request)  # error reporting (Sentry) sees it as Django would
        return error_response("server_error", "Something went wrong on our side; it has been logged.")

    handlers: dict[type[Exception], Callable[[HttpRequest, Any], HttpResponse]] = {
        ApiError: api_error,
        AuthenticationError: unauthenticated,
        SchemaError: schema_error,
        Http404: not_found,
        HttpError: http_error,
        RequestDataTooBig: too_large,
        Exception: server_error,
    }
    for exception, handler in handlers.items():
        api.add_exception_handler(exception, handler)


def _problem(item: dict[str, Any]) -> str:
    """ "body.move: Field required" from pydantic's error entry."""
    where = ".".join(str(part) for part in item.get("loc", ()) if part not in ("body", "payload"))
    return f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg", "invalid"))
