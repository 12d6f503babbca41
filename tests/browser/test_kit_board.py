"""The kit's click script (static/js/kit_board.js) in Chromium, on a page of the tiny kit game
(tests/engine/kit_tiny.py) served by Playwright's route: the board is the game's own interactive
SVG, the data its click steps, the panel the game page's builder panel. A game is played to its end
by clicks and by taps on a 360 px phone; the keyboard alone makes a move."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

import pytest

from tests.engine.kit_tiny import GAME

pytestmark = pytest.mark.browser
SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "kit_board.js"
ORIGIN = "http://kit.test"
PANEL = """
<section id="zc-builder" hidden>
  <p data-builder="prompt" aria-live="polite"></p>
  <div data-builder="choices"></div>
  <output data-builder="notation"></output>
  <button type="button" data-builder="confirm" disabled>Confirm move</button>
  <button type="button" data-builder="cancel">Cancel</button>
</section>
<form class="zc-type"><input name="text" aria-label="move"></form>
"""
BOOT = """
import { attachBuilder } from "/static/js/kit_board.js";
const data = JSON.parse(document.getElementById("zc-play-data").textContent);
window.sent = [];
attachBuilder({
  data,
  board: document.querySelector("svg.zc-board"),
  hand: null,
  panel: document.getElementById("zc-builder"),
  onConfirm: (text) => { document.querySelector("[name=text]").value = text; window.sent.push(text); },
});
document.documentElement.dataset.ready = "1";
"""


def page_of(state, viewer: str, steps: list[dict] | None = None) -> str:
    """The tiny game's page for `viewer`: its board, and the data the game page would embed (or `steps`)."""
    view = GAME.view(state, viewer)
    moves = [str(m) for m in GAME.legal_moves(state, viewer) if not GAME.is_resign(m)]
    data = {"moves": moves, "steps": GAME.click_steps(view, moves), **GAME.board_script(view).data}
    if steps is not None:
        data |= {"moves": [step["text"] for step in steps], "steps": steps}
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Tiny</title></head><body>'
        f'<div id="board" style="max-width:318px">{GAME.board_svg(view, interactive=True)}</div>{PANEL}'
        f'<script type="application/json" id="zc-play-data">{escape(json.dumps(data), quote=False)}</script>'
        f'<script type="module">{BOOT}</script></body></html>'
    )


@pytest.fixture
def show(chromium):
    """show(state, viewer, **context) -> a Playwright page showing the tiny game to `viewer`."""
    contexts = []

    def open_page(state, viewer, steps=None, **options):
        context = chromium.new_context(**({"viewport": {"width": 1280, "height": 900}} | options))
        contexts.append(context)
        html = page_of(state, viewer, steps)
        context.route(f"{ORIGIN}/", lambda route: route.fulfill(body=html, content_type="text/html"))
        context.route(
            f"{ORIGIN}/static/js/kit_board.js",
            lambda route: route.fulfill(body=SCRIPT.read_text(), content_type="text/javascript"),
        )
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.js_errors = []
        page.on("pageerror", lambda error: page.js_errors.append(str(error)))
        page.goto(f"{ORIGIN}/")
        page.wait_for_selector("html[data-ready='1']")
        return page

    yield open_page
    for context in contexts:
        context.close()


def target(page, name: str):
    return page.locator(f'[data-target="{name}"]')


def lit(page) -> set[str]:
    return set(page.eval_on_selector_all(".kd-can", "els => els.map(el => el.dataset.target)"))


def sent(page) -> list[str]:
    return page.evaluate("window.sent")


def start():
    return GAME.new_game(["red", "blue"], "kit-board", {})


def test_clicks_narrow_the_legal_moves_until_one_is_whole_then_confirm_sends_it(show):
    page = show(start(), "red")
    assert lit(page) == {"supply:S", "supply:M"}  # only what starts a legal move
    target(page, "supply:S").click()
    assert lit(page) == {f"{f}{r}" for f in "abc" for r in (1, 2, 3)}
    assert "supply:S" in page.eval_on_selector_all(".kd-picked", "els => els.map(el => el.dataset.target)")
    target(page, "b2").click()
    assert page.locator("[data-builder=notation]").inner_text() == "enter S b2"
    assert lit(page) == set()
    page.locator("[data-builder=confirm]").click()
    assert sent(page) == ["enter S b2"]
    assert page.input_value("[name=text]") == "enter S b2"
    assert page.js_errors == []


def test_the_last_pick_clicked_again_is_taken_back_and_cancel_starts_again(show):
    page = show(start(), "red")
    target(page, "supply:M").click()
    target(page, "supply:M").click()
    assert lit(page) == {"supply:S", "supply:M"}
    target(page, "supply:M").click()
    target(page, "a3").click()
    page.locator("[data-builder=cancel]").click()
    assert page.locator("[data-builder=notation]").inner_text() == ""
    assert lit(page) == {"supply:S", "supply:M"}
    assert sent(page) == []


def test_a_cell_is_clicked_through_the_piece_on_it(show):
    state = GAME.apply(start(), GAME.parse("enter S b2"), "red")
    state = GAME.apply(state, GAME.parse("pass"), "blue")
    page = show(state, "red")
    assert "b2" in lit(page)
    target(page, "b2").click()  # the middle of the cell is the red Small drawn there
    assert lit(page) == {"a2", "c2", "b1", "b3"}


def test_the_keyboard_alone_makes_a_move(show):
    page = show(start(), "red")
    target(page, "supply:M").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert lit(page) == {"supply:S", "supply:M"}
    target(page, "supply:M").focus()
    page.keyboard.press(" ")
    target(page, "c1").focus()
    page.keyboard.press("Enter")
    page.locator("[data-builder=confirm]").press("Enter")
    assert sent(page) == ["enter M c1"]
    spoken = "els => els.map(el => el.getAttribute('aria-label'))"
    labels = page.eval_on_selector_all("[role=button][data-target]", spoken)
    assert all(labels)


@pytest.mark.parametrize(
    "options",
    [{}, {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}],
    ids=["mouse", "phone"],
)
def test_a_game_to_its_end_by_clicks(show, options):
    """Red enters a Small on b3 and steps it to c3 (blue passes between): every move from the page."""
    state, plan = start(), {"red": [["supply:S", "b3"], ["b3", "c3"]]}
    while GAME.result(state) is None:
        (mover,) = GAME.movers(state)
        if not plan.get(mover):
            state = GAME.apply(state, GAME.parse("pass"), mover)
            continue
        page = show(state, mover, **options)
        for name in plan[mover].pop(0):
            (target(page, name).tap if options else target(page, name).click)()
        page.locator("[data-builder=confirm]").click()
        (text,) = sent(page)
        assert page.js_errors == []
        state = GAME.apply(state, GAME.parse(text), mover)
    assert GAME.result(state).winners == ("red",)


def test_steps_sharing_a_path_become_buttons_and_a_path_that_goes_on_stays_lit(show):
    steps = [
        {"text": "take red", "path": ["a1"]},
        {"text": "take blue", "path": ["a1"]},
        {"text": "a1-a2", "path": ["a1", "a2"]},
        {"text": "pass", "path": []},
    ]
    page = show(start(), "red", steps=steps)
    assert lit(page) == {"a1"}
    target(page, "a1").click()
    buttons = page.locator("[data-builder=choices] button")
    assert buttons.all_inner_texts() == ["take red", "take blue"]
    assert lit(page) == {"a2"}
    buttons.nth(1).click()
    assert page.locator("[data-builder=notation]").inner_text() == "take blue"
    page.locator("[data-builder=confirm]").click()
    assert sent(page) == ["take blue"]


def test_only_steps_in_the_legal_move_list_light_up(show):
    page = show(start(), "red")
    page.evaluate(
        """async () => {
          const { clickable } = await import("/static/js/kit_board.js");
          window.kept = clickable({moves: ["a1-a2"], steps: [
            {text: "a1-a2", path: ["a1", "a2"]}, {text: "b1-b2", path: ["b1", "b2"]}, {text: "pass", path: []}]});
        }"""
    )
    assert page.evaluate("window.kept.map(step => step.text)") == ["a1-a2"]


def test_the_prompt_speaks_of_the_picked_targets_in_the_pictures_words(show):
    page = show(start(), "red")
    assert (
        page.locator("[data-builder=prompt]").inner_text()
        == "Click one of the 2 lit places on the board to start your move."
    )
    target(page, "supply:M").click()
    assert page.locator("[data-builder=prompt]").inner_text() == "Picked red Medium: now click one of the 9 lit places."


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "options",
    [{}, {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}],
    ids=["mouse", "phone"],
)
def test_on_the_game_page_a_kit_game_is_played_to_its_end_by_clicks(
    players, open_as, live_server, monkeypatch, options
):
    """The tiny game registered for this test only: game_page.js imports the kit's script from the page
    data, Confirm sends each move through the page's form, and the server plays it. On a phone the
    board fits the screen (no sideways scroll) and every move is made by taps."""
    from engine import registry
    from games import services
    from tests.browser.helpers import confirm, game_url, open_game
    from tests.service.gameplay import mover, start_game, user_of

    monkeypatch.setitem(registry._MODULES, "tiny", "tests.engine.kit_tiny")
    monkeypatch.setattr(registry, "_loaded", dict(registry._loaded))
    game = start_game(*players, game="tiny")
    first = mover(game)
    clicks = [(["supply:S", "b3"], "enter S b3"), (["b3", "c3"], "b3-c3")]  # to the first seat's corner
    while game.status == game.Status.ACTIVE:
        colour = mover(game)
        if colour != first:
            services.move_submit(game=game, user=user_of(game, colour), text="pass", seen_ply=game.ply)
        else:
            names, move = clicks.pop(0)
            page = open_as(user_of(game, colour), **options)
            open_game(page, game_url(live_server, game))
            if options:
                assert page.evaluate("document.documentElement.scrollWidth") <= 360
                assert page.locator("svg.zc-board").bounding_box()["width"] <= 340
            for name in names:
                locator = page.locator(f'[data-target="{name}"]')
                locator.tap() if options else locator.click()
            confirm(page, move)
            assert page.js_errors == []
        game.refresh_from_db()
    assert (game.status, clicks, tuple(game.winners)) == (game.Status.FINISHED, [], (first,))
