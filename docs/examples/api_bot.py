"""A zarkcity bot: a random legal move wherever it is its turn, through the API (docs/api.md).

Standard library only. Make a token with the read and play scopes at /settings/tokens/, then:
    ZARKCITY_TOKEN=zc_... python api_bot.py https://zarkcity.example.org
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


def main(base, token, until_over=None, pause=5.0):
    """Poll the event feed and play each turn it announces; stop when game `until_over` ends."""
    base, cursor = base.rstrip("/"), ""
    while True:
        status, feed = call(base, token, f"/events?after={cursor}")
        for event in feed["events"] if status == 200 else []:
            if event["type"] == "turn":
                play_turn(base, token, event["game"])
            if event["type"] == "end" and event["game"] == until_over:
                return
        cursor = feed["cursor"] if status == 200 else cursor
        if status != 200 or not feed["more"]:
            time.sleep(pause)


if __name__ == "__main__":
    main(sys.argv[1], os.environ["ZARKCITY_TOKEN"])
