"""The arena: line-ups and seat rotation, the Wilson interval, and a run of two tiny games."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bots import arena, kit, mcts_iterations


def test_wilson_interval_matches_known_values() -> None:
    low, high = arena.wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = arena.wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)
    low, high = arena.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_the_interval_narrows_as_games_add_up() -> None:
    widths = [arena.wilson(n * 0.7, n)[1] - arena.wilson(n * 0.7, n)[0] for n in (10, 100, 1000)]
    assert widths[0] > widths[1] > widths[2]


def test_each_bot_sits_in_each_seat_equally_often() -> None:
    line_ups = arena.tables(["mcts", "greedy", "greedy"], 3)
    seats = Counter(arena.seating(line_ups, n, ("red", "yellow", "green"))[0][1] for n in range(6))
    assert seats == {"mcts": 2, "greedy": 4}
    for colour_index in range(3):
        first = Counter(arena.seating(line_ups, n, ("red", "yellow", "green"))[colour_index][1] for n in range(3))
        assert first["mcts"] == 1


def test_more_bots_than_seats_play_every_line_up_in_turn() -> None:
    line_ups = arena.tables(["mcts", "greedy", "random"], 2)
    assert line_ups == [("mcts", "greedy"), ("mcts", "random"), ("greedy", "random")]
    games = [arena.seating(line_ups, n, ("red", "yellow")) for n in range(6)]
    assert games[0] == (("red", "mcts"), ("yellow", "greedy"))
    assert games[3] == (("red", "greedy"), ("yellow", "mcts"))
    with pytest.raises(ValueError, match="3 players need at least 3 bots"):
        arena.tables(["mcts", "greedy"], 3)


def test_a_run_of_two_tiny_games_prints_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "martianchess", "--bots", "alphabeta,random", "--games", "2", "--effort", "0.01", "--progress"]
    assert arena.main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("game ") == 2 and "2 games, 2 players" in out
    assert "alphabeta" in out and "random" in out and "95% CI (Wilson)" in out


def test_the_same_seed_gives_the_same_games_with_two_processes() -> None:
    argv = ["--game", "zarkcity", "--bots", "random,random", "--games", "2", "--max-plies", "40"]
    one = [arena.play(job) for job in arena.jobs_of(arena.parse_args(argv))]
    two = list(arena.run(arena.jobs_of(arena.parse_args([*argv, "--jobs", "2"])), 2))
    assert [(o.winners, o.plies) for o in one] == [(o.winners, o.plies) for o in two]


def test_a_bot_that_does_not_play_the_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["--game", "buyersmarket", "--bots", "greedy,random"]) == 2
    assert "does not play Buyer's Market" in capsys.readouterr().err


# --- the kit's own bots beside a game's (kit-mcts) ------------------------------------------------------


def test_kit_mcts_plays_the_kits_plain_mcts_beside_the_games_own(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "homeworlds", "--bots", "mcts,kit-mcts", "--games", "2", "--mcts-iterations", "4"]
    assert arena.main(argv) == 0
    out = capsys.readouterr().out
    assert "2 games, 2 players" in out and "kit-mcts" in out and "\nmcts " in out


def test_mcts_iterations_sets_each_mcts_by_its_own_budget() -> None:
    """Zark City's own MCTS plays 15 iterations at effort 1.0, the kit's 100: 30 a move is 2.0 and 0.3."""
    argv = ["--game", "zarkcity", "--bots", "mcts,kit-mcts,greedy", "--mcts-iterations", "30", "--effort", "0.5"]
    efforts = dict(arena.jobs_of(arena.parse_args(argv))[0].efforts)
    assert efforts == {"mcts": pytest.approx(2.0), "kit-mcts": pytest.approx(0.3), "greedy": 0.5}
    assert mcts_iterations("homeworlds") == kit.ITERATIONS and mcts_iterations("zarkcity") == 15


def test_a_kit_bot_the_kit_does_not_have_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["--game", "homeworlds", "--bots", "mcts,kit-greedy"]) == 2
    assert "the kit has no greedy bot (it has random, mcts)" in capsys.readouterr().err


def test_an_option_reaches_every_game_and_a_bad_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "homeworlds", "--bots", "random,random", "--games", "2", "--option", "suicide=illegal"]
    jobs = arena.jobs_of(arena.parse_args(argv))
    assert {job.options for job in jobs} == {(("suicide", "illegal"),)}
    assert all(outcome.plies > 10 for outcome in map(arena.play, jobs))  # random may no longer leave home
    assert arena.main([*argv[:-1], "suicide=sometimes"]) == 2
    assert "must be one of legal, illegal, not 'sometimes'" in capsys.readouterr().err
    assert arena.main([*argv[:-1], "suicide"]) == 2
    assert "an option is NAME=VALUE, not 'suicide'" in capsys.readouterr().err
