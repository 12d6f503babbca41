"""Homeworlds against the kit's random bot, in Chromium on a desktop, played by clicks to its end.

The default rules (`suicide=legal`, catastrophes any time in a turn). Alice makes every step of hers
from the game page, as the page offers it: the targets of the step on the star map (a ship, a system,
the "new system" box, a bank piece, the bank, a catastrophe mark) in turn, then Confirm; `pass` is the
page's one-click button. Her steps include discoveries named by the page (the first free Greek
letter), a yellow and a red sacrifice each followed by its action, attacks and the catastrophe that
takes the bot's homeworld. The bot answers each of her turns in the Celery tasks her moves queue (run
eagerly, in the live server's request, as a worker would take them off the queue).
"""

from __future__ import annotations

import json

import pytest

from engine.homeworlds.game import GAME
from engine.homeworlds.notation import (
    Attack,
    Build,
    Catastrophe,
    Discover,
    Homeworld,
    Move,
    SacrificeStep,
    Step,
    Trade,
)
from engine.homeworlds.state import State
from games import services
from games.models import Game
from games.models import Move as Ply
from tests.browser.helpers import (
    against_the_random_bot,
    assert_won_on_page,
    confirm,
    game_url,
    open_game,
    turns_against_the_bot,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEED = "hw-bot-1"  # alice (red) starts
BOT_SALT = "78 "  # the bot's moves: alice wins on her 25th step, 47 plies in (a catastrophe at South)
MOST_STEPS = 35  # alice's steps; a game that runs past them fails instead of running on
OPENING = "homeworld r1 y2 g3"


# ----------------------------------------------------------------------------- alice's play


def choose(state: State, me: str) -> Step:
    """Alice's step: the one she values most (the first listed of equals), never one that loses."""
    best: tuple[int, Step] | None = None
    for step in GAME.legal_moves_of(state, me):
        worth = value(state, step, me)
        if worth is not None and (best is None or worth > best[0]):
            best = (worth, step)
    assert best is not None, "alice always has a step (pass or done at worst)"
    return best[1]


def value(state: State, step: Step, me: str, *, look_on: bool = True) -> int | None:
    """How much alice wants `step`; None: never (it loses, or leaves her homeworld without a ship)."""
    if isinstance(step, Homeworld):
        return int(str(step) == OPENING)
    after = GAME.apply(state, step, me)
    if after.stage == "over":
        return 1000 if after.winner == me else None
    if not after.has_ship_at_home(me):
        return None
    if isinstance(step, SacrificeStep):  # worth it only for what its actions then reach
        follow = [value(after, s, me, look_on=False) for s in GAME.legal_moves_of(after, me)] if look_on else []
        best = max((worth for worth in follow if worth is not None), default=0)
        return best - 1 if best >= 30 else None
    if isinstance(step, Catastrophe):
        return 60 if _losses(state, step, state.other(me)) > _losses(state, step, me) else None
    return _action_value(state, after, step, me)


def _action_value(state: State, after: State, step: Step, me: str) -> int:
    theirs = state.home_of(state.other(me))
    fleet = [piece for system in state.systems for piece in system.ships[state.seat(me)]]
    if isinstance(step, Attack):
        return 50 + int(step.piece[1])
    if isinstance(step, Move):  # into their homeworld, or anywhere
        return 30 if theirs is not None and step.destination.lower() == theirs.key else 3
    if isinstance(step, Discover):  # a new system next to their homeworld
        found = after.system(step.name)
        return 15 if theirs is not None and found is not None and found.connected(theirs) else 5
    if isinstance(step, Build):  # a fleet first, never a fourth piece of a colour (a catastrophe for them)
        crowded = after.system(step.system).overpopulated
        return 1 if crowded else 20 if len(fleet) < 4 else 8
    if isinstance(step, Trade):  # one red ship, once the fleet has three
        wanted = step.new[0] == "r" and len(fleet) >= 3 and not any(piece[0] == "r" for piece in fleet)
        return 25 if wanted else -1
    return 0  # pass, done


def _losses(state: State, step: Catastrophe, seat: str) -> int:
    """The pieces of the catastrophe's colour that `seat` loses in it: ships, and stars at home."""
    system = state.system(step.system)
    assert system is not None
    ships = system.ships[state.seat(seat)]
    stars = system.stars if system.home == seat else ()
    return sum(piece[0] == step.colour for piece in (*ships, *stars))


# ----------------------------------------------------------------------------- the page


def offered_path(page, text: str) -> tuple[str, ...]:
    """The targets the page itself offers for `text` (its play data), checked against the game's."""
    data = json.loads(page.locator("#zc-play-data").text_content())
    paths = {step["text"]: tuple(step["path"]) for step in data["steps"]}
    assert text in paths, f"the page does not offer {text}"
    assert paths[text] == GAME.click_path(GAME.parse(text)), f"the page's path of {text} lacks a target"
    return paths[text]


def click_step(page, text: str) -> None:
    """`text` made as a person makes it: its targets on the star map in turn then Confirm, or, for a
    step with no place on the map (pass, done), the page's one-click button."""
    path = offered_path(page, text)
    if not path:
        with page.expect_navigation(timeout=15_000):
            page.locator(f'.zc-quick button[value="{text}"]').click()
        return
    for name in path:
        target = page.locator(f'svg.zc-board [data-target="{name}"]').first
        # The bank is a box around other targets: a sacrifice's click goes to its title line, on the
        # box itself (its middle may be a bank piece that a trade of the same ship would take).
        target.click(position={"x": 8, "y": 8}) if name == "bank" else target.click()
    confirm(page, text)


def test_alice_plays_homeworlds_to_its_end_by_clicks_against_the_random_bot(
    players, open_as, live_server, eager
) -> None:
    alice, _ = players
    clicked: list[str] = []
    with against_the_random_bot(alice, "homeworlds", SEED, bot_salt=BOT_SALT) as game:
        mine = game.seats.get(user=alice).colour
        page = open_as(alice)
        for _ in turns_against_the_bot(game, mine, MOST_STEPS):
            step = str(choose(services.state_of(game), mine))
            open_game(page, game_url(live_server, game))
            click_step(page, step)
            assert Ply.objects.filter(game=game, seat__colour=mine).order_by("-ply").first().notation == step
            clicked.append(step)
            assert page.js_errors == []
            page.goto("about:blank")  # no page polls the server while the test reads the game
    assert game.status == Game.Status.FINISHED, f"not over after {MOST_STEPS} steps of alice's"
    assert (len(clicked), game.ply) == (25, 47)  # the seed's game
    assert (tuple(game.winners), game.result_reason) == ((mine,), "homeworld")
    verbs = {step.split()[0] for step in clicked}
    assert verbs == {"homeworld", "build", "trade", "discover", "move", "attack", "sacrifice", "catastrophe", "pass"}
    assert clicked[-1] == "catastrophe South red"  # it takes the bot's last ship at home
    assert_won_on_page(page, game_url(live_server, game), mine)
