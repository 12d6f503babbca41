"""The curl lines of docs/api.md, run as written against a live server: the move they send carries
the ply the game is at, so a first mover's move is played, not refused as stale."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from unittest import mock

import pytest

from games.models import Game
from notifications.models import Preference
from tests.api.conftest import secret_for
from tests.conftest import make_user

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def curl_example() -> str:
    section = API_DOC.read_text().split("## With curl", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def answers(output: str) -> list[dict]:
    """curl prints each JSON answer without a newline after it: split them one after the other."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while at < len(output):
        value, at = decoder.raw_decode(output, at)
        found.append(value)
        at += len(output[at:]) - len(output[at:].lstrip())
    return found


@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
def test_the_curl_example_plays_the_first_move_as_written(transactional_db, live_server, eager):
    player = make_user("player")
    Preference.objects.create(user=player, mode=Preference.Mode.NONE)
    script = curl_example()
    script = re.sub(r"^TOKEN=.*$", f"TOKEN={secret_for(player)}", script, count=1, flags=re.M)
    script = re.sub(r"^SITE=.*$", f"SITE={live_server.url}", script, count=1, flags=re.M)
    # A deal where the creator (red) moves first: the game is at ply 0 when the example moves.
    with mock.patch("games.services.secrets.token_hex", return_value="first-mover-0"):
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    played = answers(run.stdout)[-1]
    assert "code" not in played, played  # an error answer: {"code": "stale_ply", ...}
    game = Game.objects.get()
    assert played["ply"] == 0 and played["game"] == game.pk, played
    assert game.moves.filter(seat__user=player, ply=0).exists()
