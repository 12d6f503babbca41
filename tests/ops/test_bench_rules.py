"""The benches' common rules (issue 14): every bench/*.py takes --database NAME, creates that database only if
it does not exist yet (by default a fresh name), drops only what it created, and refuses DJANGO_DEBUG=1 before
touching anything. Each bench is run as a script, as people run it; benches added later are checked too."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import common

ROOT = Path(__file__).resolve().parents[2]
HELPERS = ("__init__.py", "common.py", "midgame.py", "plans.py")  # modules the benches import, not benches
BENCHES = sorted(path for path in (ROOT / "bench").glob("*.py") if path.name not in HELPERS)
# Benches that touch no database and no Django (checked below): they take no --database.
NO_DATABASE = {"engine.py", "board_memory.py", "board_tiles.py", "png_deflate.py"}
UNREACHABLE = "postgres://nobody@127.0.0.1:9/nothing"  # were a bench to connect anywhere, it would fail otherwise


def run_bench(bench: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"} | {"DATABASE_URL": UNREACHABLE, **env}
    command = [sys.executable, str(bench), *args]
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)


def test_every_bench_is_checked():
    assert {"archive.py", "service.py", "engine.py"} <= {bench.name for bench in BENCHES}


@pytest.mark.parametrize("bench", BENCHES, ids=lambda path: path.name)
def test_a_bench_refuses_debug_before_touching_anything(bench):
    args = () if bench.name in NO_DATABASE else ("--database", "zc_bench_never_made")
    done = run_bench(bench, *args, DJANGO_DEBUG="1")
    assert done.returncode != 0
    assert "refusing to run with DJANGO_DEBUG on" in done.stderr, done.stderr[-2000:]


@pytest.mark.parametrize("bench", [b for b in BENCHES if b.name not in NO_DATABASE], ids=lambda path: path.name)
def test_a_bench_takes_a_database_name(bench):
    done = run_bench(bench, "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "--database NAME" in done.stdout


@pytest.mark.parametrize("bench", sorted(NO_DATABASE))
def test_a_bench_without_a_database_name_imports_no_database(bench):
    tree = ast.parse((ROOT / "bench" / bench).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name.split(".")[0] in ("django", "psycopg", "games", "archive")}


def test_the_default_name_is_fresh_each_run():
    names = {common.fresh_name("archive") for _ in range(20)}
    assert len(names) == 20 and all(common.NAME.match(name) for name in names)


class Server:
    """A stand-in for the PostgreSQL server behind common._admin: which databases exist, what was asked."""

    def __init__(self, *existing: str) -> None:
        self.databases, self.asked, self.found = set(existing), [], None

    def __call__(self, url: str) -> Server:  # common._admin(url): a connection to the server
        return self

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute(self, sql: str, params: tuple = ()) -> Server:
        self.asked.append(sql)
        if sql.startswith("SELECT"):
            self.found = (1,) if params[0] in self.databases else None
        elif sql.startswith("CREATE DATABASE"):
            self.databases.add(sql.split('"')[1])
        elif sql.startswith("DROP DATABASE"):
            self.databases.discard(sql.split('"')[1])
        return self

    def fetchone(self) -> tuple | None:
        return self.found


@pytest.fixture
def server(monkeypatch):
    stand_in = Server("zc_someone_elses")
    monkeypatch.setattr(common, "_admin", stand_in)
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    return stand_in


def test_an_existing_database_is_refused_and_left_alone(server):
    with pytest.raises(SystemExit, match="already exists"):
        common.own_database("archive", "zc_someone_elses")
    assert server.databases == {"zc_someone_elses"}
    assert not [sql for sql in server.asked if sql.startswith(("CREATE", "DROP"))]


def test_the_bench_creates_its_database_and_drops_that_one(server, monkeypatch):
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)
    url, name = common.own_database("archive", None)
    assert name.startswith("zc_bench_archive_") and name in server.databases
    assert os.environ["DATABASE_URL"].endswith(f"/{name}")
    common.drop_database(url, name)
    assert server.databases == {"zc_someone_elses"}


def test_a_name_that_is_not_a_plain_identifier_is_refused(server):
    with pytest.raises(SystemExit, match="lower-case letters"):
        common.own_database("archive", 'x"; DROP DATABASE zc_someone_elses; --')
    assert server.databases == {"zc_someone_elses"} and not server.asked
