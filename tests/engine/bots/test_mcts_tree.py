"""The MCTS bot's tree: one tree serves every deal, each line adds one node, and busy nodes widen."""

from __future__ import annotations

from collections.abc import Iterator

from engine import registry
from engine.bots import choose_move, playable_moves
from engine.bots.mcts import Node, grow
from engine.bots.rng import Rng

DEALS = 40


def act_position(players: int = 2) -> tuple[object, object, str]:
    """A Zark City position some plies in where the seat to move takes its Turn Option."""
    game = registry.get("zarkcity")
    state = game.new_game(["red", "blue", "green", "yellow"][:players], "tree", {})
    for ply in range(200):
        seat = game.movers(state)[0]
        if ply >= 20 and state.phase == "act":
            return game, state, seat
        state = game.apply(state, game.parse(choose_move(game, "greedy", state, seat, f"t{ply}")), seat)
    raise AssertionError("no Turn Option within 200 plies")


def nodes(node: Node, depth: int = 0) -> Iterator[tuple[Node, int]]:
    yield node, depth
    for child in node.children.values():
        yield from nodes(child, depth + 1)


def grown(players: int = 2) -> list[tuple[object, Node]]:
    game, state, seat = act_position(players)
    rng = Rng.from_text("tree", "zarkcity", "mcts", seat)
    seen = game.determinize(state, seat, rng)
    return grow(game, seen, seat, playable_moves(game, seen, seat), rng, DEALS)


def test_the_candidates_left_in_the_race_were_searched_in_every_deal() -> None:
    race = grown()
    assert len(race) >= 2
    assert all(root.visits == DEALS for _, root in race)


def test_each_line_follows_one_move_from_each_node_and_counts_where_it_was_offered() -> None:
    for _, root in grown():
        for node, _ in nodes(root):
            assert sum(child.visits for child in node.children.values()) <= node.visits
            for child in node.children.values():
                assert child.visits <= child.offered
                assert 0.0 <= child.total <= child.visits


def test_the_tree_grows_below_the_root_across_deals_and_widens_where_busy() -> None:
    for players in (2, 4):
        race = grown(players)
        everything = [(node, depth) for _, root in race for node, depth in nodes(root)]
        assert max(depth for node, depth in everything if node.visits > 1) >= 2
        widened = [node for node, _ in everything if sum(1 for c in node.children.values() if c.visits) >= 2]
        assert widened, f"no node weighed two moves with {players} players"
