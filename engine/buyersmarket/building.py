"""The exact search for the best-scoring legal building of a collected pile (rules.md 15.6, 15.7, B9-B11).

Why it is exact. A building scores 2 * bricks - pile + bank + 2 * completed levels + 3 * monochrome
completed levels + Regality + 3 * Diversity (a brick is +1 and not -1 Unused). All but Cohesiveness
and Diversity depend only on the shape, the count of pyramids on each level, and every legal shape is
tried: n1 Larges; if n1 >= 4, n2 <= n1 - 1 Mediums; if n2 >= 3, Small levels strictly decreasing from
at most n2 - 1. Pyramids of one size and owner are interchangeable, so a filling of a shape is
described, as far as the score goes, by the completed levels it makes monochrome (and in which owner)
and by the GRP colours it shows. The search gives each completed level either an owner (+3, that
owner's count must carry it) or leaves it "mixed" (any pyramids, no bonus counted). Every building
is met by the branch naming exactly its monochrome levels, so the search scores it fully; every
value the search reports is a building that scores at least that much (a mixed level that happens
to be monochrome only gains). The best value found is therefore the best score.

Colours. For one size, with some levels given an owner (their GRP colours D) and m pyramids left for
the mixed levels, the colours a filling can show are exactly D plus any T of at most m colours present
in that size: a colour outside D was not touched by the monochrome levels, so one of it is still there,
and the rest of the m pyramids fill from what is left. Sizes draw on separate pools, so their colours
join by union: a table keeps, for each set of GRP colours (a mask), the best value of the levels that
can show at least that set, and two tables join by splitting the mask between them (levels showing A
under levels showing B show a mask M exactly when A holds some part of M and B the rest). Diversity is
then the entry for all five colours, plus 3, against the best entry for no colour at all.

Smalls. The Small levels of a shape all differ in size, so making some monochrome is a partial map from
level sizes to owners whose sizes, added up per owner, fit that owner's count; all of them are walked
(levels wider than every owner's count are always mixed), keeping one map for each (sizes chosen,
GRP colours shown), the only things the score sees.

Cost. A game's piles are small (at most 4 pyramids of a size per GRP colour and 2 of the bank): the
largest takes about 10 ms. The work grows fast with counts no game reaches (10 of every size and owner:
seconds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from .pieces import SUITS, Piece

MINIMUM = (4, 3)  # Larges for level 1, Mediums for level 2; every Small level needs 1
EVERY_SUIT = (1 << len(SUITS)) - 1
Level = tuple[Piece, ...]
Assignment = tuple[tuple[int, str], ...]  # (Smalls on a monochrome level, its owner)


class Part(NamedTuple):
    """The levels of one size in a planned building: pyramids per level (bottom first), each level's one
    owner (None: mixed), and the GRP colours the mixed levels must show between them (a mask)."""

    size: str
    counts: tuple[int, ...]
    owners: tuple[str | None, ...]
    colours: int


Plan = tuple[Part, ...]
Entry = tuple[int, Plan] | None
Table = list[Entry]  # by mask of GRP colours: the best value of levels that can show at least those colours


def best_levels(crp: Iterable[Piece]) -> tuple[Level, ...]:
    """The levels of a best-scoring legal building (bottom first); ties go to the fewest Larges."""
    pieces = tuple(crp)
    return realise(best_plan(pieces)[1], pieces)


def best_plan(crp: tuple[Piece, ...]) -> tuple[int, Plan]:
    """The best building as a plan, and its value (the score less bank and pile: 2 a brick, Levels,
    Cohesiveness, Diversity, Regality): every count of Larges, on it the best upper levels, with and
    without all five GRP colours."""
    pools = {size: Counter(owner for owner, s in crp if s == size) for size in "LMS"}
    larges, mediums = sum(pools["L"].values()), sum(pools["M"].values())
    most_mediums = max(0, min(mediums, larges - 1))
    uppers = _uppers(pools, most_mediums)
    best: tuple[int, Plan] = (0, ())  # nothing built
    for n1 in range(1, larges + 1):
        table = _level_table("L", pools["L"], n1, MINIMUM[0])
        if n1 >= MINIMUM[0]:
            table = _join(table, uppers[min(n1 - 1, most_mediums)])
        for mask, diversity in ((0, 0), (EVERY_SUIT, 3)):
            entry = table[mask]
            if entry is not None and entry[0] + diversity > best[0]:
                best = (entry[0] + diversity, entry[1])
    return best


def _uppers(pools: dict[str, Counter[str]], most: int) -> list[Table]:
    """uppers[b]: the best levels 2 and up with at most b Mediums (none at all among them)."""
    smalls = _small_tables(pools["S"], max(0, most - 1))
    upper = _empty()
    uppers = [upper]
    for n2 in range(1, most + 1):
        level = _level_table("M", pools["M"], n2, MINIMUM[1])
        if n2 >= MINIMUM[1]:
            level = _join(level, smalls[n2 - 1])  # smalls[b] holds "no Smalls" too
        upper = _better(upper, level)
        uppers.append(upper)
    return uppers


# --- tables ------------------------------------------------------------------------------------------


def _empty() -> Table:
    table: Table = [None] * (EVERY_SUIT + 1)
    table[0] = (0, ())
    return table


def _better(a: Table, b: Table) -> Table:
    """Either table's levels, whichever is worth more for each mask (a on ties)."""
    return [y if y is not None and _beats(y[0], x) else x for x, y in zip(a, b, strict=True)]


def _join(a: Table, b: Table) -> Table:
    """Levels of a under levels of b: showing mask means a shows some part of it and b the rest."""
    joined: Table = [None] * (EVERY_SUIT + 1)
    for mask in range(EVERY_SUIT + 1):
        for part in _submasks(mask):
            x, y = a[part], b[mask & ~part]
            if x is not None and y is not None and _beats(x[0] + y[0], joined[mask]):
                joined[mask] = (x[0] + y[0], x[1] + y[1])
    return joined


def _beats(value: int, entry: tuple[Any, ...] | None) -> bool:
    """Strictly better than what a cell holds (nothing counts as minus infinity): the first found keeps ties."""
    return entry is None or value > entry[0]


def _submasks(mask: int) -> Iterator[int]:
    part = mask
    while True:
        yield part
        if part == 0:
            return
        part = (part - 1) & mask


def _bit(owner: str) -> int:
    return 1 << SUITS.index(owner) if owner in SUITS else 0


def _shown(pool: Counter[str]) -> int:
    """The GRP colours present in a pool."""
    mask = 0
    for owner, count in pool.items():
        if count:
            mask |= _bit(owner)
    return mask


def _order(owner: str) -> tuple[int, str]:
    """Owners in a fixed order (suit order, then bank colours by name), so ties break the same way."""
    return (SUITS.index(owner) if owner in SUITS else len(SUITS), owner)


def _owners(pool: Counter[str]) -> list[str]:
    return sorted(pool, key=_order)


# --- level 1 or level 2: one level of one size --------------------------------------------------------


def _level_table(size: str, pool: Counter[str], n: int, minimum: int) -> Table:
    """One level of n pyramids: 2 a brick; +2 built to code, +3 more if monochrome (one owner with n or
    more). A mixed level can show any colours of the pool, at most n of them."""
    table: Table = [None] * (EVERY_SUIT + 1)
    if n > sum(pool.values()):
        return table
    built = n >= minimum
    mixed = 2 * n + (2 if built else 0)
    for mask in _submasks(_shown(pool)):
        if mask.bit_count() <= n:
            table[mask] = (mixed, (Part(size, (n,), (None,), mask),))
    for owner in _owners(pool) if built else ():
        if pool[owner] >= n:
            for mask in {0, _bit(owner)}:
                if _beats(mixed + 3, table[mask]):
                    table[mask] = (mixed + 3, (Part(size, (n,), (owner,), 0),))
    return table


# --- levels 3 and up: the Smalls ----------------------------------------------------------------------


def _small_tables(pool: Counter[str], most: int) -> list[Table]:
    """tables[b], b = 0..most: the best Small levels whose bottom has at most b Smalls (none included).
    Small levels are always built to code; the top one's Smalls are Spires, 4 points each beyond the
    first. Each run of level sizes is tried with every monochrome assignment its sizes allow."""
    total = sum(pool.values())
    shown = list(_submasks(_shown(pool)))
    largest = min(most, max(pool.values(), default=0))  # no owner can fill a wider level alone
    assignments = _assignments(pool, largest)
    bonuses: dict[int, list[list[tuple[int, Assignment, int] | None]]] = {}
    by_bottom = [_empty()] + [[None] * (EVERY_SUIT + 1) for _ in range(most)]
    for run in _runs(most, total):
        sizes = sum(1 << n for n in run if n <= largest)
        if sizes not in bonuses:
            bonuses[sizes] = _bonus(assignments, sizes, shown, total)
        count = sum(run)
        value = 2 * count + 2 * len(run) + 4 * (run[-1] - 1)
        row = by_bottom[run[0]]
        for mask in shown:
            cell = bonuses[sizes][mask][count]
            if cell is not None and _beats(value + cell[0], row[mask]):
                owners = dict(cell[1])
                part = Part("S", run, tuple(owners.get(n) for n in run), mask & ~cell[2])
                row[mask] = (value + cell[0], (part,))
    tables = [by_bottom[0]]
    for row in by_bottom[1:]:
        tables.append(_better(tables[-1], row))
    return tables


def _runs(most: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every strictly decreasing run of level sizes, the bottom at most `most`, at most `total` in all."""
    for bottom in range(1, min(most, total) + 1):
        yield (bottom,)
        for rest in _runs(bottom - 1, total - bottom):
            yield (bottom, *rest)


def _assignments(pool: Counter[str], largest: int) -> dict[tuple[int, int], Assignment]:
    """Every way to make levels monochrome: each level size (levels of a run all differ in size) gets no
    owner or one whose count still carries it. Only the sizes chosen and the GRP colours they show
    matter to the score, so one assignment is kept for each pair (sizes as a bit set, colour mask)."""
    found: dict[tuple[int, int], Assignment] = {}
    left = dict(pool)
    owners = _owners(pool)

    def walk(size: int, sizes: int, colours: int, chosen: Assignment) -> None:
        if size == 0:
            found.setdefault((sizes, colours), chosen)
            return
        walk(size - 1, sizes, colours, chosen)
        for owner in owners:
            if left[owner] >= size:
                left[owner] -= size
                walk(size - 1, sizes | 1 << size, colours | _bit(owner), ((size, owner), *chosen))
                left[owner] += size

    walk(largest, 0, 0, ())
    return found


def _bonus(
    assignments: dict[tuple[int, int], Assignment], sizes: int, shown: list[int], total: int
) -> list[list[tuple[int, Assignment, int] | None]]:
    """bonus[mask][count]: the most Cohesiveness among assignments using only `sizes` with which levels of
    `count` Smalls in all can show `mask`: its mixed levels hold count - (monochrome Smalls), enough for
    one of each colour of the mask the monochrome levels do not show."""
    cells: list[list[tuple[int, Assignment, int] | None]] = [[None] * (total + 1) for _ in range(EVERY_SUIT + 1)]
    for (chosen, colours), assignment in assignments.items():
        if chosen & ~sizes:
            continue
        points, used = 3 * len(assignment), sum(n for n, _ in assignment)
        for mask in shown:
            need = used + (mask & ~colours).bit_count()
            if need <= total and _beats(points, cells[mask][need]):
                cells[mask][need] = (points, assignment, colours)
    for row in cells:
        for count in range(1, total + 1):
            below = row[count - 1]
            if below is not None and _beats(below[0], row[count]):
                row[count] = below
    return cells


# --- from plan to pyramids ----------------------------------------------------------------------------


def realise(plan: Plan, crp: tuple[Piece, ...]) -> tuple[Level, ...]:
    """The pyramids of a plan: monochrome levels first take their owner's, then the mixed levels take one
    of each colour they must show and fill up from what is left (the most plentiful owner first)."""
    levels: list[Level] = []
    for part in plan:
        left = Counter(owner for owner, s in crp if s == part.size)
        for n, owner in zip(part.counts, part.owners, strict=True):
            if owner is not None:
                left[owner] -= n
        mixed = [suit for i, suit in enumerate(SUITS) if part.colours >> i & 1]
        left.subtract(mixed)
        room = sum(n for n, owner in zip(part.counts, part.owners, strict=True) if owner is None) - len(mixed)
        for owner in sorted(_owners(left), key=lambda o: -left[o]):
            take = min(room, left[owner])
            mixed += [owner] * take
            room -= take
        mixed.sort(key=_order)
        for n, owner in zip(part.counts, part.owners, strict=True):
            if owner is None:
                taken, mixed = mixed[:n], mixed[n:]
            else:
                taken = [owner] * n
            levels.append(tuple((o, part.size) for o in taken))
    return tuple(levels)
