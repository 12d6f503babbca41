"""Perft-style counts for Martian Chess, checked by a second, simple, independent move generator.

The generator below shares no code with engine/martianchess: it tries every (from, to) pair of
cells by brute force and tests each rule directly, on a board kept as {"c2": "S"}. It plays from
the engine's position file, so it also checks the file says everything the rules need.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.martianchess.game import GAME
from engine.martianchess.state import State

Board = dict[str, str]
FILES = "abcdefgh"


def zone(cell: str, players: int) -> int:
    f, r = FILES.index(cell[0]), int(cell[1]) - 1
    if players == 2:
        return 0 if r < 4 else 1
    return [[0, 1], [3, 2]][f >= 4][r >= 4]


def cells(players: int) -> list[str]:
    return [f + str(r) for f in FILES[: 4 if players == 2 else 8] for r in range(1, 9)]


def between(a: str, b: str) -> list[str] | None:
    """Cells strictly between a and b on a straight line, or None."""
    fa, ra, fb, rb = FILES.index(a[0]), int(a[1]), FILES.index(b[0]), int(b[1])
    df, dr = fb - fa, rb - ra
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)) or (df, dr) == (0, 0):
        return None
    n = max(abs(df), abs(dr))
    return [FILES[fa + (df // n) * i] + str(ra + (dr // n) * i) for i in range(1, n)]


def reaches(size: str, a: str, b: str) -> bool:
    df, dr = abs(FILES.index(b[0]) - FILES.index(a[0])), abs(int(b[1]) - int(a[1]))
    return {"S": df == dr == 1, "M": (df == 0 or dr == 0) and 0 < df + dr <= 2, "L": between(a, b) is not None}[size]


def moves(board: Board, seat: int, players: int, crossing: tuple[str, str] | None) -> Iterator[tuple[str, str]]:
    mine = {c: s for c, s in board.items() if zone(c, players) == seat}
    for a, size in mine.items():
        for b in cells(players):
            if a == b or not reaches(size, a, b):
                continue
            if any(c in board for c in between(a, b) or []):
                continue
            if players == 2 and crossing == (b, a):
                continue
            if b in mine:
                pair = sorted(size + mine[b])
                if not (
                    (pair == ["M", "S"] and "L" not in mine.values())
                    or (pair == ["S", "S"] and "M" not in mine.values())
                ):
                    continue
            yield a, b


def play(board: Board, a: str, b: str, players: int) -> tuple[Board, tuple[str, str] | None]:
    board = dict(board)
    piece, target = board.pop(a), board.get(b)
    crossed = zone(a, players) != zone(b, players)
    if target and not crossed:
        piece = "L" if sorted(piece + target) == ["M", "S"] else "M"
    board[b] = piece
    return board, (a, b) if crossed else None


def over(board: Board, players: int) -> bool:
    return len({zone(c, players) for c in board}) < players


def perft(board: Board, seat: int, players: int, crossing: tuple[str, str] | None, depth: int) -> int:
    if depth == 0 or over(board, players):
        return 1
    found = list(moves(board, seat, players, crossing))
    if not found:
        return perft(board, (seat + 1) % players, players, None, depth - 1)  # pass
    return sum(perft(*_next(board, a, b, seat, players), depth - 1) for a, b in found)


def _next(board: Board, a: str, b: str, seat: int, players: int) -> tuple[Board, int, int, tuple[str, str] | None]:
    after, crossing = play(board, a, b, players)
    return after, (seat + 1) % players, players, crossing


def engine_perft(state: State, depth: int) -> int:
    if depth == 0 or state.phase == "over":
        return 1
    mover = state.to_move or ""
    return sum(
        engine_perft(GAME.apply(state, m, mover), depth - 1)
        for m in GAME.legal_moves(state, mover)
        if str(m) != "resign"
    )


def independent_perft(state: State, depth: int) -> int:
    data = GAME.to_position(state)
    players = len(data["players"])
    crossing = data["last_crossing"]
    pair = (crossing["from"], crossing["to"]) if crossing else None
    return perft(data["board"], data["players"].index(data["to_move"]), players, pair, depth)


# Measured with the engine and confirmed by the independent generator. Who starts does not change
# them: the setup looks the same from every seat. Move sequences (perft) and distinct positions
# (board, player to move, the no-undo crossing, captures) after 0-3 plies; 2 players, 4 plies: 17428.
EXPECTED = {
    2: [1, 10, 104, 1328],
    4: [1, 11, 122, 1353],
}
DISTINCT = {
    2: [1, 10, 104, 945],
    4: [1, 11, 122, 1353],
}


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green", "blue"]])
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_perft_from_the_start(players: list[str], depth: int) -> None:
    state = GAME.new_game(players, "perft", {})
    engine = engine_perft(state, depth)
    assert engine == independent_perft(state, depth)
    assert engine == EXPECTED[len(players)][depth]


def distinct_positions(state: State, depth: int) -> int:
    """Positions after exactly `depth` plies, told apart by board, seat to move, crossing and captures."""
    data = GAME.to_position(state)
    players = len(data["players"])
    Node = tuple[frozenset[tuple[str, str]], int, tuple[str, str] | None, tuple[tuple[str, ...], ...]]
    start: Node = (frozenset(data["board"].items()), data["players"].index(data["to_move"]), None, ((),) * players)
    layer = {start}
    for _ in range(depth):
        following: set[Node] = set()
        for board_items, seat, crossing, captured in layer:
            board = dict(board_items)
            for a, b in moves(board, seat, players, crossing):
                after, crossed = play(board, a, b, players)
                taken = list(captured)
                if b in board and crossed:
                    taken[seat] = tuple(sorted((*taken[seat], board[b])))
                following.add((frozenset(after.items()), (seat + 1) % players, crossed, tuple(taken)))
        layer = following
    return len(layer)


def engine_distinct(state: State, depth: int) -> int:
    def key(s: State) -> str:
        data = GAME.to_position(s)
        data["captured"] = {c: sorted(v) for c, v in data["captured"].items()}
        return repr((sorted(data["board"].items()), data["to_move"], data["last_crossing"], data["captured"]))

    layer = {key(state): state}
    for _ in range(depth):
        following: dict[str, State] = {}
        for s in layer.values():
            for m in GAME.legal_moves(s, s.to_move or ""):
                if str(m) != "resign":
                    after = GAME.apply(s, m, s.to_move or "")
                    following[key(after)] = after
        layer = following
    return len(layer)


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green", "blue"]])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_distinct_positions_from_the_start(players: list[str], depth: int) -> None:
    state = GAME.new_game(players, "perft", {})
    assert engine_distinct(state, depth) == distinct_positions(state, depth) == DISTINCT[len(players)][depth]


def test_the_first_move_lists_agree_move_by_move() -> None:
    state = GAME.new_game(["red", "blue"], "perft", {})
    data = GAME.to_position(state)
    theirs = {f"{a}-{b}" for a, b in moves(data["board"], 0, 2, None)}
    ours = {str(m) for m in GAME.legal_moves(state, "red")} - {"resign"}
    assert ours == theirs


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "yellow", "green", "blue"]])
@pytest.mark.parametrize("seed", ["mid-1", "mid-2", "mid-3"])
def test_perft_from_played_positions(players: list[str], seed: str) -> None:
    """Midgame positions (captures, crossings, promotions likely) reached by a fixed walk, depth 2."""
    state = GAME.new_game(players, seed, {})
    for ply in range(24):
        if state.phase == "over":
            break
        options = [m for m in GAME.legal_moves(state, state.to_move or "") if str(m) != "resign"]
        state = GAME.apply(state, options[(ply * 7 + len(seed)) % len(options)], state.to_move or "")
    assert engine_perft(state, 2) == independent_perft(state, 2)
