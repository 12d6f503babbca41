"""The public game record (the game's own record format through `make_record`): moves as public
text for the viewer, the seed only once the game is over."""

from __future__ import annotations

from typing import Any

from engine.interface import COLOURS
from games.models import Game, Move

from .history import public_notation
from .page import state_of


def game_record(game: Game, viewer: str | None = None) -> dict[str, Any]:
    colours: dict[int, str] = dict(game.seats.values_list("pk", "colour"))
    now = state_of(game)
    moves = [
        (colours[seat_id], public_notation(game, notation, colours[seat_id], now, viewer))
        for seat_id, notation in Move.objects.filter(game=game).values_list("seat_id", "notation")
    ]
    finished = game.status == Game.Status.FINISHED
    players = sorted(colours.values(), key=COLOURS.index)
    record = game.rules.make_record(players, game.options, game.seed if finished else "", moves, result_of(game))
    if not finished:
        del record["seed"]  # secret until the end: the commitment below lets anyone check it then
    record["seed_commitment"] = game.seed_commitment
    return record


def result_of(game: Game) -> dict[str, Any] | None:
    """The record's result: {"winner": colour or None, "reason": ...}, with "winners" when several won."""
    if game.status != Game.Status.FINISHED:
        return None
    if game.snapshot:  # the game's own words for how it ended: a tie, the scores
        return game.rules.record_result(state_of(game))
    winners = game.winners
    result: dict[str, Any] = {"winner": winners[0] if len(winners) == 1 else None, "reason": game.result_reason}
    if len(winners) > 1:
        result["winners"] = list(winners)
    return result
