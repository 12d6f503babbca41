"""Play a game with the engine and store it as the rows the games app writes (Game, Seat, Move)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from engine import registry
from engine.kit.base import RESIGN, Resign
from engine.shuffle import commitment
from engine.zarkcity.game import GAME
from engine.zarkcity.movegen import legal_moves
from engine.zarkcity.notation import Move
from engine.zarkcity.position import to_position
from engine.zarkcity.rules import apply, movers, new_game
from engine.zarkcity.state import RULES_VERSION, State
from games.models import Game, Seat
from games.models import Move as MoveRow

GOLDEN_SEED = "golden-1"
GOLDEN_RNG = 1
GOLDEN_PLIES = 150


@dataclass
class Played:
    seed: str
    deck: str
    players: list[str]
    moves: list[tuple[str, Move | Resign]]
    states: list[State]  # states[k] = after k moves

    @property
    def final(self) -> State:
        return self.states[-1]


def play_random(
    players: list[str],
    seed: str,
    *,
    rng_seed: int = 0,
    max_plies: int = 60,
    deck: str = "standard",
    finish: bool = False,
) -> Played:
    """A seeded random legal playout; with `finish`, a game not over at the cap ends by the next mover resigning."""
    rng = random.Random(rng_seed)
    states = [new_game(players, seed, deck)]
    moves: list[tuple[str, Move | Resign]] = []
    while states[-1].phase != "over" and len(moves) < max_plies:
        state = states[-1]
        by = rng.choice(movers(state))
        move = rng.choice(legal_moves(state, by))  # the rules' moves: resigning is the kit's step
        moves.append((by, move))
        states.append(apply(state, move, by))
    while finish and states[-1].phase != "over":
        by = movers(states[-1])[0]
        moves.append((by, RESIGN))
        states.append(GAME.apply(states[-1], RESIGN, by))
    return Played(seed, deck, list(players), moves, states)


def store_game(
    users, played: Played, *, is_private: bool = False, draw: bool = False, archive: bool = True, finished_at=None
) -> Game:
    """The rows of `played`: finished (and archived) when its last state is over or `draw` ends it."""
    final = GAME.agree_draw(played.final) if draw else played.final
    now = timezone.now()
    over = final.phase == "over"
    game = Game.objects.create(
        created_by=users[0],
        status=Game.Status.FINISHED if over else Game.Status.ACTIVE,
        game="zarkcity",
        options={"deck": played.deck},
        seats_wanted=len(users),
        is_private=is_private,
        seed=played.seed,
        seed_commitment=commitment(played.seed),
        rules_version=RULES_VERSION,
        ply=len(played.moves),
        snapshot=to_position(final),
        phase=final.phase,
        to_move=",".join(movers(final)),
        turn_started_at=now,
        deadline=None if over else now + timedelta(days=3),
        winner=final.winner or "",
        result_reason=final.reason or "",
        started_at=now - timedelta(days=5),
        finished_at=(finished_at or now) if over else None,
    )
    seats = {}
    for order, (user, colour) in enumerate(zip(users, played.players, strict=True)):
        seats[colour] = Seat.objects.create(
            game=game, user=user, colour=colour, order=order, resigned=colour in final.resigned
        )
    MoveRow.objects.bulk_create(
        MoveRow(game=game, ply=ply, seat=seats[by], notation=str(move)) for ply, (by, move) in enumerate(played.moves)
    )
    if over and archive:
        from archive.services import game_archive

        game_archive(game=game)
    return game


def card_pattern(card: str) -> re.Pattern[str]:
    """A card code as a whole token ("7H" but not inside "17H" or a colour like #a7H...)."""
    return re.compile(rf"(?<![0-9A-Za-z#]){re.escape(card)}(?![0-9A-Za-z])")


COLOURS = ("red", "yellow", "green", "blue", "black")


def finished_rows(
    users,
    *,
    winner: int | None = 0,
    reason: str = "power block",
    deck: str = "standard",
    plies: int = 40,
    finished_at=None,
    is_private: bool = False,
    archive: bool = True,
    game_id: str = "zarkcity",
    options: dict[str, str] | None = None,
) -> Game:
    """A finished game as rows only (no moves): enough for the archive list, profiles and ratings.
    Zark City with `deck` unless another registered game (`game_id`, its `options`) is asked for."""
    now = finished_at or timezone.now()
    seed = f"rows-{Game.objects.count()}-{plies}"
    game = Game.objects.create(
        created_by=users[0],
        status=Game.Status.FINISHED,
        game=game_id,
        options={"deck": deck} if options is None else options,
        seats_wanted=len(users),
        is_private=is_private,
        seed=seed,
        seed_commitment=commitment(seed),
        rules_version=registry.get(game_id).info.rules_version,
        ply=plies,
        phase="over",
        winner="" if winner is None else COLOURS[winner],
        result_reason=reason,
        started_at=now - timedelta(days=3),
        finished_at=now,
    )
    Seat.objects.bulk_create(Seat(game=game, user=u, colour=COLOURS[i], order=i) for i, u in enumerate(users))
    if archive:
        from archive.services import game_archive

        game_archive(game=game)
    return game
