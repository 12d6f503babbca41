"""Mid-game Zark City positions for the benches, made by playing the engine forward from a seed: the
same boards on every run and every machine (a seeded random.Random picks each move; no clock, no global
random). A bench copies them into games of its own (Game, Seat and Move rows as move_submit writes
them) instead of playing a hundred moves a game through the service.

The standard deck's number cards stop a board at about 36 cards, so boards of 37 and more are played
with the Pyramid Arcade deck (5 suits), as the players who want bigger cities do.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.shuffle import commitment

RULES = registry.get("zarkcity")
MAX_PLIES = 400  # a seed whose board has not grown by then is passed over for the next
BUILD_SHARE = 0.8  # how often a player who can build does: what grows a city
ATTACKS = ("demolish", "convert", "fly")  # moves that shrink or reshape a board: left out while it grows
BIGGEST_STANDARD = 35  # boards above this are played with the Pyramid Arcade deck


@dataclass(frozen=True)
class Playthrough:
    """A game played from `seed` to a board of `cards` cards: each (colour, move text), and the states."""

    seed: str
    options: dict[str, str]
    colours: tuple[str, ...]
    moves: tuple[tuple[str, str], ...]
    states: tuple[Any, ...]  # the state before each move, and the last one after them

    @property
    def cards(self) -> int:
        return len(self.final.board)

    @property
    def final(self) -> Any:
        return self.states[-1]


def grow(seed: str, cards: int, colours: tuple[str, ...] = ("red", "yellow")) -> Playthrough | None:
    """Play from `seed` until the board has `cards` cards; None if the game ends or stalls first."""
    options = {"deck": "arcade" if cards > BIGGEST_STANDARD else "standard"}
    chooser = random.Random(seed)
    state = RULES.new_game(list(colours), seed, options)
    states, moves = [state], []
    while len(state.board) < cards:
        if RULES.result(state) is not None or len(moves) >= MAX_PLIES:
            return None
        colour = RULES.movers(state)[0]
        move = pick(chooser, [m for m in RULES.legal_moves(state, colour) if not RULES.is_resign(m)])
        state = RULES.apply(state, move, colour)
        states.append(state)
        moves.append((colour, str(move)))
    return Playthrough(seed, options, colours, tuple(moves), tuple(states))


def pick(chooser: random.Random, moves: list[Any]) -> Any:
    builds = [m for m in moves if str(m).startswith("build")]
    if builds and chooser.random() < BUILD_SHARE:
        return chooser.choice(builds)
    peaceful = [m for m in moves if str(m).split()[0] not in ATTACKS]
    return chooser.choice(peaceful or moves)


def boards(sizes: list[int], *, prefix: str = "bench") -> list[Playthrough]:
    """One playthrough for each size asked, in order: the first seed (prefix-size-0, -1, ...) that gets there."""
    found = []
    for cards in sizes:
        for attempt in range(100):
            played = grow(f"{prefix}-{cards}-{attempt}", cards)
            if played is not None:
                found.append(played)
                break
        else:
            raise RuntimeError(f"no seed grew a board of {cards} cards in 100 tries")
    return found


def descriptions(played: Playthrough, ply: int) -> dict[str, str]:
    """The words move_submit stores with move `ply` (games.services.play._descriptions)."""
    colour, text = played.moves[ply]
    move = RULES.parse(text)
    before, after = played.states[ply], played.states[ply + 1]
    words = {"*": RULES.describe(move, colour, before, after, None)}
    return words | {seat: RULES.describe(move, colour, before, after, seat) for seat in played.colours}


def game_columns(played: Playthrough) -> dict[str, Any]:
    """The Game columns of a game at the end of `played` (games.services.core.save_position writes them)."""
    final = played.final
    return {
        "game": "zarkcity",
        "options": played.options,
        "seed": played.seed,
        "seed_commitment": commitment(played.seed),
        "rules_version": RULES.info.rules_version,
        "ply": len(played.moves),
        "snapshot": RULES.to_position(final),
        "phase": RULES.phase(final),
        "to_move": ",".join(RULES.movers(final)),
        "seats_wanted": len(played.colours),
    }


def make_games(
    played: list[Playthrough],
    players: list[tuple[Any, ...]],
    *,
    now,
    with_moves: bool = True,
    columns: Callable[[int], dict[str, Any]] = lambda n: {},
) -> list[Any]:
    """A game in progress per table of `players` (users, in seat order), each a copy of the next of
    `played` in turn: its Game row (with `columns(n)` for the n-th, e.g. its clock), its seats and
    (`with_moves`) its move log, as move_submit leaves them, written in bulk. Call after django.setup()."""
    from games.models import Game, Move, Seat  # Django is set up by the bench first

    games = Game.objects.bulk_create(
        (
            Game(
                created_by=table[0],
                status=Game.Status.ACTIVE,
                started_at=now,
                **game_columns(played[n % len(played)]),
                **columns(n),
            )
            for n, table in enumerate(players)
        ),
        batch_size=2000,
    )
    seats = Seat.objects.bulk_create(
        (
            Seat(game=game, user=user, colour=colour, order=order)
            for game, table in zip(games, players, strict=True)
            for order, (user, colour) in enumerate(zip(table, played[0].colours, strict=True))
        ),
        batch_size=5000,
    )
    if not with_moves:
        return games
    words = [[descriptions(p, ply) for ply in range(len(p.moves))] for p in played]
    seat_of = {(seat.game_id, seat.colour): seat for seat in seats}
    Move.objects.bulk_create(
        (
            Move(
                game=game,
                ply=ply,
                seat=seat_of[game.pk, colour],
                notation=text,
                descriptions=words[n % len(played)][ply],
            )
            for n, game in enumerate(games)
            for ply, (colour, text) in enumerate(played[n % len(played)].moves)
        ),
        batch_size=5000,
    )
    return games
