"""What the game page now works out once (a class's capabilities, the header's fixed addresses, static
addresses) or escapes without Django's lazy wrapper answers as what it replaced."""

from __future__ import annotations

import pytest
from django.template import engines
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils.functional import lazy
from django.utils.html import conditional_escape as django_conditional_escape
from django.utils.html import escape as django_escape
from django.utils.safestring import mark_safe
from whitenoise.storage import CompressedManifestStaticFilesStorage

from engine import registry
from engine.interface import Clicks
from engine.kit import core
from games import html
from zarkcity_site.addresses import address
from zarkcity_site.static import StaticFiles

CAPABILITIES = (
    core.CardFaces,
    core.Hands,
    core.Hidden,
    core.Sealed,
    core.OpenCommitments,
    core.Chance,
    core.Scores,
    core.Simultaneous,
    core.TurnSteps,
    core.TimeoutMoves,
    core.RevealedWords,
    Clicks,
)


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.info.id)
def test_has_answers_as_isinstance_for_every_game(game):
    for capability in CAPABILITIES:
        assert core.has(game, capability) == isinstance(game, capability), capability
        assert core.has(game, capability) == isinstance(game, capability), capability  # remembered


@pytest.mark.parametrize(
    "text",
    ["plain", "<b>&\"'</b>", 7, None, mark_safe("<i>kept</i>"), lazy(lambda: "<lazy>", str)()],
)
def test_escapes_answer_as_djangos(text):
    assert html.escape(text) == django_escape(text)
    assert html.conditional_escape(text) == django_conditional_escape(text)


HEADER_NAMES = (
    "home",
    "dashboard",
    "game_new",
    "open_games",
    "archive",
    "leaderboard",
    "account_settings",
    "account_logout",
    "account_login",
    "account_signup",
)


@pytest.mark.parametrize("name", HEADER_NAMES)
def test_fixed_url_renders_as_url(name):
    django = engines["django"]
    fixed = django.from_string("{% load zarkcity_urls %}{% fixed_url '" + name + "' %}")
    plain = django.from_string("{% url '" + name + "' %}")
    assert fixed.render({}) == fixed.render({}) == plain.render({})


# The game page's own addresses, kept by name and arguments (zarkcity_site.addresses); a username is quoted.
GAME_ADDRESSES = [
    ("game_detail", (7,)),
    ("game_ply", (12345,)),
    ("notifications:game_unwatched", (7,)),
    ("notifications:game_mute", (7,)),
    ("turn_icon", (0,)),
    ("player_profile", ("ann.o'neil+1",)),
]


@pytest.mark.parametrize(("name", "args"), GAME_ADDRESSES)
def test_fixed_url_with_arguments_renders_as_url(name, args):
    django = engines["django"]
    context = {"args": args}
    given = " ".join(f"args.{n}" for n in range(len(args)))
    fixed = django.from_string("{% load zarkcity_urls %}{% fixed_url '" + name + "' " + given + " %}")
    plain = django.from_string("{% url '" + name + "' " + given + " %}")
    assert fixed.render(context) == fixed.render(context) == plain.render(context)


def test_kept_addresses_follow_the_script_prefix():
    """A site served under a path (SCRIPT_NAME) gets its own addresses, not those kept for another prefix."""
    before = get_script_prefix()
    try:
        assert address("game_detail", 7) == reverse("game_detail", args=[7])
        set_script_prefix("/zark/")
        assert address("game_detail", 7) == reverse("game_detail", args=[7]) == "/zark/games/7/"
    finally:
        set_script_prefix(before)
    assert address("game_detail", 7) == "/games/7/"


def test_static_addresses_as_whitenoise_gives_them(tmp_path):
    kept, theirs = (
        kind(location=tmp_path, base_url="/static/") for kind in (StaticFiles, CompressedManifestStaticFilesStorage)
    )
    for storage in (kept, theirs):
        storage.hashed_files = {"css/site.css": "css/site.0123abcd.css"}
    assert (
        kept.url("css/site.css")
        == kept.url("css/site.css")
        == theirs.url("css/site.css")
        == "/static/css/site.0123abcd.css"
    )
    with pytest.raises(ValueError):  # not in the manifest: refused every time, nothing kept
        kept.url("missing.css")
    with pytest.raises(ValueError):
        kept.url("missing.css")
