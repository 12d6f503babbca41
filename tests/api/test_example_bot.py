"""The example bot of docs/api.md (docs/examples/api_bot.py) plays a whole game of Martian Chess through
the API, over HTTP, against the built-in random bot (which a Celery task plays, eagerly here)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from games.models import Game
from notifications.models import Preference
from tests.api.conftest import ApiClient, secret_for
from tests.conftest import make_user
from tests.service.gameplay import start_game

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "api_bot.py"


def example_bot():
    spec = importlib.util.spec_from_file_location("api_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_is_standard_library_only_and_short():
    source = EXAMPLE.read_text()
    imports = {line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imports <= {"json", "os", "random", "sys", "time", "urllib.error", "urllib.request"}
    code = [
        line for line in source.split('"""', 2)[2].splitlines() if line.strip() and not line.strip().startswith("#")
    ]
    assert len(code) <= 55  # docs/api.md: "about 50 lines of code"


# The live server's WhiteNoise starts before the per-test static settings apply (tests/browser/conftest.py).
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
def test_the_example_bot_finishes_a_game_against_the_random_bot(transactional_db, live_server, eager, settings):
    settings.ZARKCITY_BOT_EFFORT = 0.01
    player = make_user("player")
    Preference.objects.create(user=player, mode=Preference.Mode.NONE)  # a program needs no turn emails
    secret = secret_for(player)
    created = ApiClient(secret).post("/games", {"game": "martianchess", "seats": 2, "bots": ["random"]})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE  # the bot's seat filled the table

    # The same player's game against a person, waiting on them: the bot was not given it.
    human = start_game(player, make_user("human"))
    waiting = human.ply

    bot = threading.Thread(target=example_bot().main, args=(live_server.url, secret, {game_id}, 0.05), daemon=True)
    bot.start()
    bot.join(timeout=240)
    assert not bot.is_alive(), "the example bot did not see the game end in time"
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED and game.result_reason != "resignation"
    assert game.moves.filter(seat__user=player).count() >= 10
    human.refresh_from_db()
    assert human.ply == waiting and not human.moves.filter(seat__user=player).exists()


@pytest.mark.parametrize("args", [[], ["--every-games"], ["12", "x"]])
def test_the_example_bot_without_game_ids_plays_nothing_and_says_how(args):
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "http://127.0.0.1:9", *args],
        env={"ZARKCITY_TOKEN": "zc_unused"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 1 and "--every-game" in run.stderr and "12 15" in run.stderr


def test_the_example_bot_reads_game_ids_or_every_game():
    bot = example_bot()
    assert bot.games_asked(["https://site", "12", "15"]) == {12, 15}
    assert bot.games_asked(["https://site", "--every-game"]) is None
