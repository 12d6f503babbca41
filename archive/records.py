"""What a game gives away as files: the printable text log, and the "verify this game" checks.

The JSON record itself is games.selectors.game_record (moves in public text; the seed only once
the game is over). The log is built the same way: public move text and `describe` for the viewer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from accounts.selectors import display_name_of
from archive.replay import (
    closing_words,
    hand_of,
    logged_moves,
    move_text,
    played_states,
    seat_colours,
    with_result,
)
from engine import registry
from engine.errors import EngineError
from engine.interface import drawn
from engine.kit.core import finished_words
from games.models import Game, Seat
from games.selectors import game_record


def game_log_text(game: Game, viewer: str | None) -> str:
    """A plain-text, printable log: who played, the result, then one line per move in words."""
    rules = game.rules
    seats = list(Seat.objects.filter(game=game).select_related("user__profile").order_by("order"))
    finished = game.status == Game.Status.FINISHED
    options = f" ({game.options_text})" if game.options_text else ""
    lines = [f"{rules.info.name} #{game.pk}{options}"]
    lines += [f"  {seat.colour:<7} {display_name_of(seat.user)}" for seat in seats]
    lines.append(f"Result: {result_words(game)}")
    lines.append(f"Seed commitment (SHA-256): {game.seed_commitment}")
    if finished:
        lines.append(f"Seed: {game.seed}")
    lines.append("")
    moves = logged_moves(game)
    states = played_states(game, seat_colours(game), moves, len(moves))
    ending = closing_words(game)
    if not ending:  # a resignation (for time too) ends with its move; other ends get their own line
        states[-1] = with_result(game, states[-1], len(moves))
    now = rules.from_position(game.snapshot)
    if finished and rules.info.has_hands:  # the deal is public once the game is over
        players = seat_colours(game)
        lines += [f"{'':<6}{c:<7} dealt {' '.join(hand_of(rules, states[0], c))}" for c in players] + [""]
    for logged in moves:
        before, after = states[logged.ply], states[logged.ply + 1]
        text = move_text(rules, logged, finished, now, viewer)
        words = (
            finished_words(rules, logged.move, logged.by, before, after)
            if finished
            else rules.describe(logged.move, logged.by, before, after, viewer)
        )
        lines.append(f"{logged.ply + 1:>4}. {logged.by:<7} {text:<40} {words}")
        if finished:
            happened = rules.step(before, logged.move, logged.by).events
            lines += [f"{'':<14}{colour} drew {' '.join(cards)}" for colour, cards in drawn(happened).items()]
    if ending:
        lines.append(f"{'':<6}{ending}")
    return "\n".join(lines) + "\n"


def result_words(game: Game) -> str:
    if game.status != Game.Status.FINISHED:
        return "in progress"
    return outcome_words(game.winner, game.result_reason)


def outcome_words(winner: str, reason: str) -> str:
    """How a finished game ended, from its stored winner colour and reason: "red won by power block".

    A timeout with no winner is games.services.game_abandon: everyone still playing ran out of time at once.
    """
    if reason == Game.Reason.DRAW:
        return "a draw, agreed by the players"
    if not winner:
        if reason == Game.Reason.TIMEOUT:
            return "no winner: every remaining player ran out of time"
        return f"no winner ({reason or 'ended'})"
    winners = winner.split(",")
    if len(winners) > 1:
        return f"{' and '.join(winners)} share the win ({reason})"
    return f"{winner} won by {reason}"


@dataclass
class Verification:
    """The checks of the verify page, each with what it compared."""

    commitment: str
    seed: str = ""
    seed_hash: str = ""
    finished: bool = False
    commitment_ok: bool = False
    replay_ok: bool = False
    replay_error: str = ""
    snapshot_ok: bool = False
    result_ok: bool = False
    draws: list[tuple[int, str, str, list[str]]] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)
    chance: str = ""  # what the seed decided, in the game's words (GameInfo.chance): "the deal and every draw"
    offline: bool = False  # whether tools/verify_game.py reads this game's records too

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.replay_ok and self.snapshot_ok and self.result_ok


def verify_game(game: Game) -> Verification:
    """Check a finished game as an outsider would: SHA-256(seed) against the commitment, then replay
    the public record from the seed with the engine and compare the end with what the server stored."""
    check = Verification(
        commitment=game.seed_commitment,
        finished=game.status == Game.Status.FINISHED,
        chance=game.rules.info.chance,
    )
    if not check.finished:
        return check
    check.seed = game.seed
    check.seed_hash = hashlib.sha256(game.seed.encode()).hexdigest()
    check.commitment_ok = check.seed_hash == game.seed_commitment
    check.record = game_record(game)
    # A game whose package declares an offline verifier (Package.verifier): the page offers that file.
    check.offline = registry.package(game.game).verifier_path is not None
    rules = game.rules
    try:
        final = rules.replay(check.record)
    except EngineError as error:
        check.replay_error = str(error)
        return check
    check.replay_ok = True
    check.snapshot_ok = game.snapshot is None or _same_position(rules.to_position(final), game.snapshot)
    result = rules.result(final)
    replayed = (",".join(result.winners), result.reason) if result else ("", "")
    check.result_ok = replayed == (game.winner or "", game.result_reason or "")
    check.draws = _draws(game)
    return check


def _same_position(replayed: dict[str, Any], stored: dict[str, Any]) -> bool:
    """The replayed end equals the snapshot the server kept (the reason may differ: a timeout is a resign)."""
    ignore = {"reason"}
    return {k: v for k, v in replayed.items() if k not in ignore} == {
        k: v for k, v in stored.items() if k not in ignore
    }


def _draws(game: Game) -> list[tuple[int, str, str, list[str]]]:
    """Every draw of the game, from each step's events: (move number, colour, move, cards in the order drawn)."""
    moves = logged_moves(game)
    states = played_states(game, seat_colours(game), moves, len(moves))
    rows = []
    for logged in moves:
        happened = game.rules.step(states[logged.ply], logged.move, logged.by).events
        rows += [(logged.ply + 1, colour, str(logged.move), cards) for colour, cards in drawn(happened).items()]
    return rows
