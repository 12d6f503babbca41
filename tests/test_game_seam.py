"""The apps know no game by name: they reach every game through engine.interface and the registry.

Fails if a module of games/, notifications/, archive/, accounts/, zarkcity_site/ or replies/, a template or a
board script names a game id as a value (to compare, branch or look up on it) or imports a game's
own package (engine.zarkcity, engine.decktown, ...) instead of the interface.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from django.utils.html import escape

from engine import registry
from engine.interface import Throw, View

ROOT = Path(__file__).resolve().parents[1]
APPS = ("games", "notifications", "archive", "accounts", "zarkcity_site", "replies", "api")
SHARED_ENGINE = {"engine", "engine.interface", "engine.registry", "engine.errors", "engine.shuffle", "engine.bots"}
SHARED_ENGINE |= {"engine.kit", "engine.kit.core", "engine.kit.events", "engine.kit.steps"}  # the kit knows no game
SHARED_ENGINE |= {"engine.kit.draw.tiles"}  # how every game's picture marks its tiles, read by the email's picture
GAME_IDS = set(registry.ids())


def app_modules() -> list[Path]:
    files = [p for app in APPS for p in (ROOT / app).rglob("*.py")]
    return sorted(p for p in files if "migrations" not in p.parts)


def game_branches(source: str, filename: str = "<source>") -> list[str]:
    """Each place a Python source branches or looks up on a game id, or imports a game's own package.

    The service's own name ("zarkcity", as in Celery("zarkcity")) is the same word as the flagship
    game's id, so only the places a value decides something are looked at: comparisons, match
    cases, dict keys, subscripts and registry look-ups.
    """
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        for value in _deciding_values(node):
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value in GAME_IDS:
                found.append(f"line {value.lineno}: decides on the game id {value.value!r}")
        for module in _imported(node):
            if module.startswith("engine.") and module not in SHARED_ENGINE:
                found.append(f"line {node.lineno}: imports {module} (use engine.registry / the interface)")
    return found


def _deciding_values(node: ast.AST) -> list[ast.AST]:
    """The expressions whose value a branch or look-up depends on, with the members of literal collections."""
    values: list[ast.AST] = []
    if isinstance(node, ast.Compare):
        values = [node.left, *node.comparators]
    elif isinstance(node, ast.MatchValue):
        values = [node.value]
    elif isinstance(node, ast.Dict):
        values = [key for key in node.keys if key is not None]
    elif isinstance(node, ast.Subscript):
        values = [node.slice]
    elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("get", "game"):
        values = list(node.args[:1])
    members = [m for v in values if isinstance(v, (ast.Tuple, ast.List, ast.Set)) for m in v.elts]
    return values + members


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module == "engine":
            return [f"engine.{alias.name}" for alias in node.names if f"engine.{alias.name}" not in SHARED_ENGINE]
        return [node.module]
    return []


def quoted_ids(text: str) -> list[str]:
    """A game id written as a quoted string in a template or a script: a branch on it."""
    ids = "|".join(sorted(GAME_IDS))
    return [m.group(0) for m in re.finditer(rf"""(["'])({ids})\1""", text)]


def test_the_checker_sees_a_branch_and_a_game_import() -> None:
    sample = 'from engine.zarkcity.cards import CARDS\nif game.game == "zarkcity":\n    pass\n'
    assert len(game_branches(sample)) == 2
    assert len(game_branches('x = {"zarkcity": 1}\ny = registry.get("zarkcity")\nz = g in ("zarkcity", "a")')) == 3
    assert game_branches('app = Celery("zarkcity")') == []
    assert quoted_ids('{% if game.game == "zarkcity" %}') == ['"zarkcity"']
    assert game_branches("from engine import registry\nname = game.rules.info.name\n") == []


def test_the_scan_covers_the_apps() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in app_modules()}
    assert {"games/models.py", "notifications/emails.py", "archive/replay.py"} <= names


@pytest.mark.parametrize("path", app_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_app_module_branches_on_a_game(path: Path) -> None:
    assert game_branches(path.read_text(encoding="utf-8"), str(path)) == []


def front_end_files() -> list[Path]:
    return sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "templates").rglob("*.txt")]) + sorted(
        (ROOT / "static" / "js").rglob("*.js")
    )


@pytest.mark.parametrize("path", front_end_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_template_or_script_branches_on_a_game(path: Path) -> None:
    assert quoted_ids(path.read_text(encoding="utf-8")) == []


def own_script(path: Path) -> bool:
    """A game's own board script (its BoardScript.module) is named after it: it may speak that game's language."""
    return path.suffix == ".js" and any(path.name.startswith(game_id) for game_id in GAME_IDS)


def named_games(text: str) -> list[str]:
    """Every game's name a page or a shared script writes itself, instead of asking the game's info."""
    names = {info.name for info in registry.infos()} | {escape(info.name) for info in registry.infos()}
    return sorted(name for name in names if name in text)


# A count of cards or a hand limit written into a shared script's words: one game's figure (Deck Town
# discards down to 5, Zark City to 6). The page data carries them (handLimit, drawCards).
GAME_FIGURE = re.compile(r"\b\d+ (?:more )?cards?\b|down to \d")


def test_the_checker_sees_a_game_named_in_a_page() -> None:
    assert named_games("<h1>Open Zark City #{{ game.pk }}</h1>") == ["Zark City"]
    assert named_games("<h1>Open {{ game.rules.info.name }} #{{ game.pk }}</h1>") == []
    assert own_script(ROOT / "static" / "js" / "martianchess_board.js")
    assert not own_script(ROOT / "static" / "js" / "board_builder.js")
    assert GAME_FIGURE.findall('button("Draw 3 cards"); `discard (down to 6).`') == ["3 cards", "down to 6"]
    assert not GAME_FIGURE.findall("`Draw ${data.drawCards} cards`, `(down to ${data.handLimit})`")


@pytest.mark.parametrize(
    "path", [p for p in front_end_files() if not own_script(p)], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_template_or_shared_script_names_a_game(path: Path) -> None:
    """A shared page or script writes what the game's info says ("Open Deck Town #7"), never one game's words."""
    assert named_games(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "path", [p for p in front_end_files() if p.suffix == ".js" and not own_script(p)], ids=lambda p: p.name
)
def test_no_shared_script_writes_a_games_figure(path: Path) -> None:
    assert GAME_FIGURE.findall(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_registered_game_offers_the_whole_interface(game_id: str) -> None:
    from engine.interface import Game

    game = registry.get(game_id)
    assert isinstance(game, Game)
    assert game.info.id == game_id and set(game.info.player_counts) <= {2, 3, 4, 5}


# ----------------------------------------------------------------------------- every game's own words

# Words every game shares through the interface, or that the apps own: the View's common keys, the kit's
# resignation, the page data's own keys, and the service's own words that a game happens to use too (a
# "move", an agreed "draw", a seat's "hand" in Table, the "board" picture, the "seed", "winners", "last";
# a Web Push subscription's "keys", which Black ICE's view also has).
SHARED_WORDS = set(View.__annotations__) | {"resign", "over", "labels", "module", "moves", "active"}
SHARED_WORDS |= {"move", "draw", "hand", "board", "seed", "winners", "last", "options", "rules", "keys"}
SHARED_WORDS |= {"start"}  # a game's start in the apps (the event feed); Launch Pad 23's opening pick's verb
SHARED_WORDS |= set(Throw.__annotations__)  # a stored throw's keys (the kit's, every dice game's): "seat", "dice"


def played_phases_and_keys(game_id: str, plies: int = 150) -> tuple[set[str], set[str]]:
    """The phases a seeded random game passes through and every key its views hold."""
    game = registry.get(game_id)
    players = ["red", "blue", "green"][: min(n for n in game.info.player_counts if n >= 2)]
    state = game.new_game(players, f"seam-{game_id}", {})
    picker = random.Random(game_id)
    phases, keys = set(), set()
    for _ in range(plies):
        phases.add(game.phase(state))
        keys |= set(game.view(state, players[0])) | set(game.board_script(game.view(state, players[0])).data)
        movers = game.movers(state)
        if game.result(state) is not None or not movers:
            break
        seat = movers[0]
        moves = [m for m in game.legal_moves(state, seat) if not game.is_resign(m)]
        if not moves:
            break
        state = game.apply(state, picker.choice(moves), seat)
    return phases, keys


def game_words() -> dict[str, str]:
    """word -> the game it is of: every registered game's verbs, phases and view and board-data keys."""
    words: dict[str, str] = {}
    for game_id in registry.ids():
        game = registry.get(game_id)
        phases, keys = played_phases_and_keys(game_id)
        for word in {kind.verb for kind in game.move_kinds()} | phases | keys | {game_id}:
            words.setdefault(word, game_id)
    return {word: game for word, game in words.items() if word not in SHARED_WORDS}


WORDS = game_words()


def quoted_words(text: str) -> list[str]:
    """A game's word written as a whole quoted string: a branch, a look-up or a move built from it."""
    return sorted({m.group(2) for m in re.finditer(r"""(["'`])([A-Za-z_]+)\1""", text) if m.group(2) in WORDS})


def python_words(source: str) -> list[str]:
    """A game's word deciding something in Python: compared, matched, looked up, a key or a prefix."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        values = _deciding_values(node)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("startswith", "endswith"):
            values = [*values, *node.args[:1]]
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value in WORDS:
                found.add(value.value)
    return sorted(found)


def shared_static_files() -> list[Path]:
    return sorted(p for p in (ROOT / "static").rglob("*") if p.suffix in (".js", ".css"))


def test_the_words_come_from_every_game() -> None:
    assert {"discard", "choose", "build", "handLimit"} <= set(WORDS)  # Zark City's step, phase, verb, data key
    assert "pile" in WORDS and "phase" not in WORDS and "resign" not in WORDS
    assert python_words('if line.notation.startswith("discard"): pass\nx = view["handLimit"]') == [
        "discard",
        "handLimit",
    ]
    assert quoted_words("{% if entry.game.phase == 'choose' %}") == ["choose"]
    assert quoted_words("To move: {{ entry.movers_label }}") == []


@pytest.mark.parametrize("path", app_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_app_module_decides_on_a_games_words(path: Path) -> None:
    found = python_words(path.read_text(encoding="utf-8"))
    assert found == [], {w: WORDS[w] for w in found}


@pytest.mark.parametrize(
    "path", [*front_end_files(), *shared_static_files()], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_template_or_shared_static_file_names_a_games_words(path: Path) -> None:
    found = quoted_words(path.read_text(encoding="utf-8"))
    assert found == [], {w: WORDS[w] for w in found}


def test_no_shared_static_file_is_a_games_own() -> None:
    """A game's board script and style live in its package's static/ (Package.script, Package.style)."""
    for package in registry.packages():
        for name in (package.script, package.style):
            if name:
                assert (Path(package.static_folder) / name).is_file(), (package.id, name)
        if package.script:
            script = package.game.board_script(package.game.view(package.game.new_game(["red", "blue"], "s", {}), None))
            assert script.module == package.static_path(package.script), package.id
    assert not [p.name for p in shared_static_files() if any(p.name.startswith(g) for g in registry.ids())]
