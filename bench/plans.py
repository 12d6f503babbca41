"""What a block of Django code cost, in figures the machine's load does not move much: CPU time (this
process's and its PostgreSQL backend's, from Linux /proc), the statements it ran, and how PostgreSQL
ran each (EXPLAIN ANALYZE: which index, how many rows read, how many buffers touched).

Wall time on a shared machine measures the other engineers' work as much as ours; the CPU time of the
two processes that do the work, and the plans, do not. Call after django.setup(); PostgreSQL on this
machine only (its backend's /proc entry is read).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A literal in a statement: numbers, quoted strings, lists of them (IN (...)): gone, the statement's shape stays.
LITERAL = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")
LISTS = re.compile(r"\((?:\?\s*,\s*)+\?\)")
# A sequential scan of a table this small is PostgreSQL's right choice (a page or two), not a missing index.
SMALL_TABLE = 1000


@dataclass
class Cost:
    """Wall time, CPU time here and in the PostgreSQL backend (seconds), and the statements run."""

    wall: float = 0.0
    cpu_here: float = 0.0
    cpu_postgres: float = 0.0
    statements: list[str] = field(default_factory=list)

    @property
    def cpu(self) -> float:
        return self.cpu_here + self.cpu_postgres


def backend_pid() -> int:
    """The PostgreSQL server process behind this thread's connection, as psycopg knows it (no query)."""
    from django.db import connection

    connection.ensure_connection()
    pid: int = connection.connection.info.backend_pid
    return pid


def backend_cpu(pid: int) -> float:
    """The backend's CPU time so far, in seconds (/proc/<pid>/schedstat: nanoseconds, not 10 ms ticks)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


@contextmanager
def measure() -> Iterator[Cost]:
    """Measure the block: its Cost is filled in when the block ends."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cost, pid = Cost(), backend_pid()
    # The log keeps at most 9,000 statements, then drops the oldest, and a capture that starts on a full
    # log sees none of its own: start each on an empty one.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        postgres, here, wall = backend_cpu(pid), time.process_time(), time.perf_counter()
        yield cost
        cost.wall = time.perf_counter() - wall
        cost.cpu_here = time.process_time() - here
        cost.cpu_postgres = backend_cpu(pid) - postgres
    cost.statements = [query["sql"] for query in queries.captured_queries]


def shape(statement: str) -> str:
    """The statement with its literals taken out: the statements a loop runs once an item share one shape."""
    return LISTS.sub("(?)", LITERAL.sub("?", statement))


@dataclass(frozen=True)
class Plan:
    """How PostgreSQL ran one statement: its scans, rows read (returned and filtered out), buffers touched."""

    statement: str
    scans: tuple[str, ...]
    rows_read: int
    buffers: int
    milliseconds: float
    big_seq_scans: tuple[str, ...]  # sequential scans of a table of more than SMALL_TABLE rows

    def line(self) -> str:
        flag = f" SEQUENTIAL SCAN of {', '.join(self.big_seq_scans)}" if self.big_seq_scans else ""
        return (
            f"{self.rows_read} rows read, {self.buffers} buffers, {self.milliseconds:.2f} ms: "
            f"{'; '.join(self.scans) or 'no scan'}{flag}\n        {brief(self.statement)}"
        )


def brief(statement: str, width: int = 240) -> str:
    """The statement's verb and table, then what it asks for (from its WHERE on): the part that picks a plan."""
    head = statement.split(" ", 1)[0]
    table = re.search(r'(?:FROM|UPDATE|INTO) ("[^"]+")', statement)
    where = statement.find(" WHERE ")
    rest = statement[where:] if where >= 0 else ""
    return f"{head} {table.group(1) if table else ''}{rest}"[:width]


def explain(statements: list[str]) -> list[Plan]:
    """EXPLAIN (ANALYZE, BUFFERS) of the first statement of each shape, in a transaction rolled back (the
    writes among them are run, then undone). The data may have moved on since they ran: the plan is what
    PostgreSQL picks for that statement on this data now."""
    from django.db import DatabaseError, transaction

    first: dict[str, str] = {}
    for statement in statements:
        if statement.lstrip().upper().startswith(("SELECT", "UPDATE", "INSERT", "DELETE", "WITH")):
            first.setdefault(shape(statement), statement)
    sizes = table_sizes()
    plans = []
    with transaction.atomic():
        for statement in first.values():
            try:  # a savepoint each: a statement that fails now (an INSERT of a row since written) spoils no other
                with transaction.atomic():
                    result = run_explain(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {statement}")
            except DatabaseError:  # then the plan PostgreSQL would pick, without running it
                with transaction.atomic():
                    result = run_explain(f"EXPLAIN (FORMAT JSON) {statement}")
            plans.append(summary(statement, result, sizes))
        transaction.set_rollback(True)
    return plans


def run_explain(command: str) -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(command)
        document = cursor.fetchone()[0]
    return (document if isinstance(document, list) else json.loads(document))[0]


def summary(statement: str, result: dict[str, Any], sizes: dict[str, float]) -> Plan:
    scans, seq, rows, buffers = [], [], 0, 0
    for node in nodes(result["Plan"]):
        relation = node.get("Relation Name")
        if relation is None:  # a Bitmap Index Scan: its index, and the entries it found (the heap scan reads them)
            if "Index Name" in node:
                scans.append(f"{node['Node Type']} of {node['Index Name']} ({node.get('Actual Rows', '?')} entries)")
            continue
        if "Actual Rows" in node:
            read = (node["Actual Rows"] + node.get("Rows Removed by Filter", 0)) * node.get("Actual Loops", 1)
        else:  # not run (see explain): the planner's estimate
            read = node.get("Plan Rows", 0)
        rows += read
        index = f" using {node['Index Name']}" if "Index Name" in node else ""
        scans.append(f"{node['Node Type']}{index} on {relation} ({read} rows)")
        if node["Node Type"] == "Seq Scan" and sizes.get(relation, 0) > SMALL_TABLE:
            seq.append(f"{relation} ({sizes[relation]:.0f} rows)")
    top = result["Plan"]
    buffers = top.get("Shared Hit Blocks", 0) + top.get("Shared Read Blocks", 0)
    return Plan(statement, tuple(scans), rows, buffers, result.get("Execution Time", 0.0), tuple(seq))


def nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from nodes(child)


def table_sizes() -> dict[str, float]:
    """Each table's live rows as PostgreSQL counts them (pg_stat_user_tables: known before any ANALYZE)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, n_live_tup FROM pg_stat_user_tables")
        return {name: float(rows) for name, rows in cursor.fetchall()}


def analyze() -> float:
    """ANALYZE every table, as autovacuum does after a bulk fill; returns how long it took."""
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return time.perf_counter() - started


def report(plans: list[Plan], indent: str = "    ", show: Callable[[Plan], bool] = lambda plan: True) -> None:
    for plan in plans:
        if show(plan):
            print(f"{indent}{plan.line()}")
