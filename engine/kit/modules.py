"""The interface's core for a game written as modules, before the kit: one adapter instead of a copy each.

Martian Chess and Buyer's Market keep their rules in `rules.py` (new_game, apply, step, legal_moves, movers,
resign, agree_draw, abandon), their notation in `notation.py` (parse, Resign), their files in
`position.py` and `record.py`; a game's class names those modules and adds only what is its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

from ..interface import GameInfo, MoveKind
from .events import Outcome


@dataclass(frozen=True)
class Modules:
    rules: ModuleType
    notation: ModuleType  # with parse(text) and the Resign move type
    position: ModuleType  # to_position, from_position
    record: ModuleType  # make_record, replay, result_of, check_result


class ModuleGame:
    info: ClassVar[GameInfo]
    modules: ClassVar[Modules]
    KINDS: ClassVar[tuple[MoveKind, ...]]
    HELP: ClassVar[tuple[tuple[str, str], ...]]
    RULES: ClassVar[str]

    # play
    def new_game(self, players: Sequence[str], seed: str, options: Mapping[str, str]) -> Any:
        self.info.check_options(options)
        return self.modules.rules.new_game(players, seed)

    def parse(self, text: str) -> Any:
        return self.modules.notation.parse(text)

    def apply(self, state: Any, move: Any, by: str) -> Any:
        return self.modules.rules.apply(state, move, by)

    def step(self, state: Any, move: Any, by: str) -> Outcome[Any]:
        outcome: Outcome[Any] = self.modules.rules.step(state, move, by)
        return outcome

    def legal_moves(self, state: Any, colour: str) -> list[Any]:
        moves: list[Any] = self.modules.rules.legal_moves(state, colour)
        return moves

    def movers(self, state: Any) -> tuple[str, ...]:
        return tuple(self.modules.rules.movers(state))

    def phase(self, state: Any) -> str:
        return str(state.phase)

    def is_resign(self, move: Any) -> bool:
        return isinstance(move, self.modules.notation.Resign)

    def resign(self, state: Any, colour: str, reason: str = "resignation") -> Any:
        return self.modules.rules.resign(state, colour, reason)

    def agree_draw(self, state: Any) -> Any:
        return self.modules.rules.agree_draw(state)

    def abandon(self, state: Any, reason: str = "timeout") -> Any:
        return self.modules.rules.abandon(state, reason)

    # help
    def rules_summary(self) -> str:
        return self.RULES

    def notation_help(self) -> tuple[tuple[str, str], ...]:
        return self.HELP

    def move_kinds(self) -> tuple[MoveKind, ...]:
        return self.KINDS

    # files
    def to_position(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = self.modules.position.to_position(state)
        return data

    def from_position(self, data: Any) -> Any:
        return self.modules.position.from_position(data)

    def make_record(
        self,
        players: Sequence[str],
        options: Mapping[str, str],
        seed: str,
        moves: Sequence[tuple[str, str]],
        result: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        self.info.check_options(options)
        made: dict[str, Any] = self.modules.record.make_record(players, seed, moves, result)
        return made

    def replay(self, game_record: Any) -> Any:
        return self.modules.record.replay(game_record)

    def record_result(self, state: Any) -> dict[str, Any] | None:
        result: dict[str, Any] | None = self.modules.record.result_of(state)
        return result

    def check_result(self, state: Any, result: Mapping[str, Any], plies: int) -> Any:
        return self.modules.record.check_result(state, result, plies)
