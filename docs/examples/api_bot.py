"""A zarkcity bot: random legal moves in the games it is given, through the API (docs/api.md).

Standard library only. Make a token with the read and play scopes at /settings/tokens/, then:
    ZARKCITY_TOKEN=zc_... python api_bot.py https://zarkcity.example.org 12 15   # games 12 and 15 only
    ZARKCITY_TOKEN=zc_... python api_bot.py https://zarkcity.example.org --every-game
The token moves for its account: without game ids it plays nothing, for the account's own games
against people are not the bot's. --every-game is for an account made for the bot alone.
"""

import json
import os
import random
import sys
import time
import urllib.error
import urllib.request


def call(base, token, path, body=None):
    """One request: (status, the JSON answer). Errors are JSON too: {"code": ..., "message": ...}."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    try:
        with urllib.request.urlopen(urllib.request.Request(base + "/api" + path, data, headers), timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        if error.code in (401, 403):
            sys.exit(json.load(error)["message"])
        if error.code == 429:  # rate limited: wait as long as we are told
            time.sleep(int(error.headers["Retry-After"]))
        return error.code, json.load(error)


def play_turn(base, token, game):
    """Random legal moves while it is our turn (a turn may hold several moves, e.g. a discard)."""
    for _ in range(100):
        _, legal = call(base, token, f"/games/{game}/moves")
        if not legal.get("moves"):
            return
        move = {"move": random.choice(legal["moves"]), "ply": legal["ply"]}
        status, played = call(base, token, f"/games/{game}/moves", move)
        if status == 200 and not played["your_turn"]:
            return  # on 409 (stale_ply: someone moved meanwhile) look at the moves again


def main(base, token, games, pause=5.0):
    """Play each turn the event feed announces in `games` (ids; None: every game) until they end."""
    base, cursor, playing = base.rstrip("/"), "", None if games is None else set(games)
    while playing is None or playing:
        status, feed = call(base, token, f"/events?after={cursor}")
        for event in feed["events"] if status == 200 else []:
            if playing is not None and event["game"] not in playing:
                continue  # another game of the account: maybe its owner's own, against people
            if event["type"] == "turn":
                play_turn(base, token, event["game"])
            if event["type"] == "end" and playing is not None:
                playing.discard(event["game"])
        cursor = feed["cursor"] if status == 200 else cursor
        if status != 200 or not feed["more"]:
            time.sleep(pause)


def games_asked(args):
    """The game ids after the site, or None for --every-game; anything else is a usage error."""
    every = args[1:] == ["--every-game"]
    if not every and (len(args) < 2 or not all(arg.isdigit() for arg in args[1:])):
        sys.exit(__doc__)
    return None if every else {int(arg) for arg in args[1:]}


if __name__ == "__main__":
    wanted = games_asked(sys.argv[1:])
    main(sys.argv[1], os.environ["ZARKCITY_TOKEN"], wanted)
