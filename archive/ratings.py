"""The multiplayer skill rating: openskill's Plackett-Luce model, which rates 2 to 5 players in one game.

A Zark City game has one winner and no order among the losers, so the winner ranks first and
everyone else ties for second; an agreed draw ties everyone still playing, ahead of those who
resigned before it. What we show and sort by is the conservative estimate mu - 3 sigma
(openskill's ordinal): it starts at 0 and rises as the model grows sure of a player.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma


START = Skill(START_MU, START_SIGMA)


def rate_game(before: Mapping[int, Skill], winners: Sequence[int], resigned: Collection[int] = ()) -> dict[int, Skill]:
    """New skills for the players of one game (keys are user ids); `winners` empty means a draw.

    In a draw only the players still in the game share first place: one who resigned before it lost.
    """
    players = list(before)
    teams = [[MODEL.rating(mu=before[p].mu, sigma=before[p].sigma)] for p in players]
    ranks: list[float] = [0 if (p in winners or (not winners and p not in resigned)) else 1 for p in players]
    rated = MODEL.rate(teams, ranks=ranks)
    return {p: Skill(team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}
