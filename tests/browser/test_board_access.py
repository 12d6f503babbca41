"""The board on a phone, with the keyboard alone, zoomed and panned, and with JavaScript switched off."""

from __future__ import annotations

import pytest

from games import services
from games.models import Move
from tests.browser.helpers import (
    cell,
    confirm,
    game_url,
    hand_card,
    lit_cells,
    notation,
    open_game,
    screenshot,
    wait_ready,
    write_position,
)
from tests.browser.scenario import middle_game
from tests.service.gameplay import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def red_to_move(players):
    """A game at the scripted middle position: alice (red) to move, 7H in hand to build."""
    alice, bob = players
    game = start_game(alice, bob)
    write_position(game, middle_game(game.seed))
    return game


def moves_of(game) -> list[str]:
    return list(Move.objects.filter(game=game).values_list("notation", flat=True))


def within_width(page, locator, width: int) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def test_a_phone_sized_screen_fits_and_a_move_is_made_by_taps(red_to_move, players, open_as, live_server, artifacts):
    game, (alice, _) = red_to_move, players
    page = open_as(alice, **PHONE)
    open_game(page, game_url(live_server, game))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "the page scrolls sideways"
    for card in ("7H", "KS", "9C"):
        assert within_width(page, hand_card(page, card), 360), f"{card} is off the screen"
    board = page.locator("svg.zc-board")
    assert within_width(page, board, 360)
    screenshot(page, artifacts / "phone-01-page.png")

    hand_card(page, "7H").tap()
    assert lit_cells(page) == {"-1,0", "0,-1", "1,-1", "1,1"}
    cell(page, "1,1").tap()
    assert notation(page) == "build 7H 1,1"
    confirm_button = page.locator("[data-builder=confirm]")
    assert confirm_button.is_visible() and within_width(page, confirm_button, 360)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator(".zc-board-box").scroll_into_view_if_needed()
    screenshot(page, artifacts / "phone-02-built-screen.png", full_page=False)
    confirm(page, "build 7H 1,1")
    assert moves_of(game) == ["build 7H 1,1"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.js_errors == []


ON_SCREEN = """(selector) => {
  const bar = document.querySelector("[data-builder=confirm]").closest(".zc-builder").getBoundingClientRect();
  const svg = document.querySelector("svg.zc-board").getBoundingClientRect();
  const strip = document.querySelector("svg.zc-board .zc-coords--rows text").getBoundingClientRect();
  return [...document.querySelectorAll(selector)].map((el) => {
    const r = el.getBoundingClientRect();
    return [el.dataset.cell, r.top >= 0 && r.bottom <= bar.top && r.left >= Math.max(svg.left, strip.right)
      && r.right <= svg.right && r.top >= svg.top && r.bottom <= svg.bottom];
  });
}"""


def test_a_tapped_hand_card_brings_its_lit_cells_on_screen(players, open_as, live_server, artifacts):
    """On a phone the hand is below the board: the lit cells of a tapped card are scrolled and panned
    into view, above the Confirm bar and clear of the row numbers."""
    alice, bob = players
    game = start_game(alice, bob)
    position = middle_game(game.seed)
    extra = [((3, 0), "4H"), ((4, 0), "5H"), ((5, 0), "6H"), ((6, 0), "7S"), ((7, 0), "3S"), ((2, -1), "6C")]
    position["board"] += [{"at": list(at), "card": card, "pieces": {}} for at, card in extra]
    write_position(game, position)
    page = open_as(alice, **PHONE)
    open_game(page, game_url(live_server, game))
    page.locator("[data-zoom=in]").tap()
    page.locator("[data-zoom=in]").tap()  # close in: the lit cells are beyond the picture's edges too
    hand_card(page, "7H").scroll_into_view_if_needed()
    hand_card(page, "7H").tap()
    assert lit_cells(page) >= {"-1,0", "0,-1", "1,1"}
    shown = dict(page.evaluate(ON_SCREEN, "svg.zc-board .zc-target"))
    screenshot(page, artifacts / "phone-05-lit-cells-shown.png", full_page=False)
    assert all(shown.values()), f"lit cells off the screen or under the row numbers: {shown}"
    cell(page, "1,1").tap()
    confirm(page, "build 7H 1,1")
    assert page.js_errors == []


def test_the_stuck_row_numbers_leave_the_leftmost_cards_uncovered(players, open_as, live_server):
    alice, bob = players
    game = start_game(alice, bob)
    write_position(game, middle_game(game.seed))
    page = open_as(alice, **PHONE)
    open_game(page, game_url(live_server, game))
    page.locator("svg.zc-board .zc-coords--rows.zc-coords--stuck").wait_for(state="attached")  # panned past them
    strip = page.locator("svg.zc-board .zc-coords--rows .zc-coord-strip")
    assert strip.evaluate("el => getComputedStyle(el).opacity") == "0"
    halo = page.locator("svg.zc-board .zc-coords--rows text").first
    assert halo.evaluate("el => getComputedStyle(el).paintOrder").startswith("stroke")


def test_a_move_made_with_the_keyboard_alone(red_to_move, players, open_as, live_server, artifacts):
    game, (alice, _) = red_to_move, players
    page = open_as(alice)
    open_game(page, game_url(live_server, game))

    def focused(selector: str) -> bool:
        return page.evaluate("s => Boolean(document.activeElement && document.activeElement.matches(s))", selector)

    def tab_to(selector: str, most: int = 80) -> None:
        for _ in range(most):
            if focused(selector):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    tab_to("svg.zc-hand .zc-hand-card[role=button]")
    card = page.evaluate("document.activeElement.dataset.card")
    assert card == "7H"  # the first card that can start a move (the king only attacks)
    page.keyboard.press("Enter")
    assert notation(page) == "build 7H \u2026"
    tab_to("svg.zc-board .zc-target")
    target = page.evaluate("document.activeElement.dataset.cell")
    assert target in lit_cells(page)
    screenshot(page.locator(".zc-board-box"), artifacts / "keyboard-01-focus.png")
    page.keyboard.press("Enter")
    assert notation(page) == f"build 7H {target}"
    assert focused("[data-builder=confirm]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert moves_of(game) == [f"build 7H {target}"]
    page.wait_for_selector("html[data-zc-ready]", state="attached")
    assert page.js_errors == []


def test_the_board_pans_and_zooms(red_to_move, players, open_as, live_server):
    game, (alice, _) = red_to_move, players
    page = open_as(alice)
    open_game(page, game_url(live_server, game))
    board = page.locator("svg.zc-board")

    def view_box() -> list[float]:
        return [float(n) for n in board.get_attribute("viewBox").split()]

    fitted = view_box()
    page.locator("[data-zoom=in]").click()
    zoomed = view_box()
    assert zoomed[2] < fitted[2] and zoomed[3] < fitted[3]
    box = board.bounding_box()
    page.mouse.move(box["x"] + 40, box["y"] + 40)
    page.mouse.down()
    page.mouse.move(box["x"] + 140, box["y"] + 90, steps=5)
    page.mouse.up()
    panned = view_box()
    assert panned[0] < zoomed[0] and panned[1] < zoomed[1] and panned[2] == zoomed[2]
    assert lit_cells(page) == set(), "a drag is not a click"
    page.locator("[data-zoom=fit]").click()
    assert view_box() == fitted
    board.hover()
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    assert view_box()[2] < fitted[2]


def test_without_javascript_the_forms_still_play(players, open_as, live_server):
    alice, _ = players
    game = start_game(alice, players[1])
    page = open_as(alice, java_script_enabled=False)
    page.goto(game_url(live_server, game))
    assert page.locator("#zc-builder").is_hidden()
    assert page.locator("#zc-zoom").is_hidden()
    with page.expect_navigation():
        page.locator('button[value="choose 5C"]').click()
    # The starter choice is sealed: held as alice's commitment, no move until bob chooses too.
    assert moves_of(game) == [] and [c.notation for c in game.commitments.all()] == ["choose 5C"]
    assert "Your sealed choice: choose 5C." in page.content()


def test_the_move_index_reads_every_kind_of_move(players, open_as, live_server):
    """engine/zarkcity/static/moves.js, run in the browser: each kind of notation lands where the clicks look for it."""
    page = open_as(None)
    page.goto(live_server.url + "/")
    found = page.evaluate(
        """async () => {
            const m = await import("/static/games/zarkcity/moves.js");
            const pips = { KS: 3, KH: 3, QH: 2, QS: 2, JS: 1, AD: 1, JK: 1 }; /* as the page data has them */
            const index = m.indexMoves([
                "choose 9S", "place 1,0", "draw", "grow S 1,0", "spawn 1,0", "move S 1,0 2,0",
                "hatch 6C 0,1", "hatch 6C 1,1", "demolish blue L 1,0 pay JS QH",
                "convert blue L 1,0 into M pay KH", "fly 2,0 0,1 pay AD", "discard JK JK 3C",
                "demolish blue S 2,2 pay KM draw 1", "convert blue S 2,2 into S pay KM draw 0",
            ]);
            return {
                hatch: [...index.build.get("6C").entries()].map(([cell, b]) => cell + " " + b.verb),
                attacks: index.attack.get("1,0").map(
                    (o) => [o.verb, o.into, o.pay.join(" "), m.changeFor(pips, o.pay, o.size)]),
                draws: index.attack.get("2,2").map((o) => [o.verb, o.into, o.pay.join(" "), o.draws]),
                fly: index.fly.get("AD").get("2,0").get("0,1"),
                discard: index.discard.get(m.cardsKey(["JK", "3C", "JK"])),
                move: index.move.get("1,0 S").get("2,0"),
                roles: [m.handCardRole(index, "act", "6C"), m.handCardRole(index, "act", "AD"),
                        m.handCardRole(index, "discard", "JK"), m.handCardRole(index, "act", "KH")],
                change: [m.changeFor(pips, ["KS"], "S"), m.changeFor(pips, ["QH", "QS"], "L"),
                         m.changeFor(pips, ["JK"], "S"), m.changeFor({}, ["KS"], "S")],
                labels: [m.cardLabel({ "7H": "7\u2665" }, "7H"), m.cardLabel({}, "9C")],
                simple: [index.draw, index.choose.get("9S"), index.place.get("1,0"), index.grow.get("1,0 S"),
                         index.spawn.get("1,0")],
            };
        }"""
    )
    assert found["hatch"] == ["0,1 hatch", "1,1 hatch"]
    assert found["attacks"] == [["demolish", None, "JS QH", 0], ["convert", "M", "KH", 0]]
    assert found["draws"] == [["demolish", None, "KM", 1], ["convert", "S", "KM", 0]]  # Deck Town's `draw N` (D9)
    assert found["fly"] == "fly 2,0 0,1 pay AD" and found["move"] == "move S 1,0 2,0"
    assert found["discard"] == "discard JK JK 3C"
    assert found["roles"] == ["build", "fly", "discard", None]
    assert found["change"] == [2, 1, 0, 0]  # a card the page data gives no pips pays nothing
    assert found["labels"] == ["7\u2665", "9C"]
    assert found["simple"] == ["draw", "choose 9S", "place 1,0", "grow S 1,0", "spawn 1,0"]


def test_a_stale_page_updates_itself_instead_of_sending(red_to_move, players, open_as, live_server, settings):
    """Confirm asks ply.json first: when the game moved on, the page shows the new position instead."""
    settings.ZARKCITY_POLL_SECONDS = 600  # no poll during the test: only Confirm's own check
    game, (alice, _) = red_to_move, players
    page = open_as(alice)
    open_game(page, game_url(live_server, game))
    hand_card(page, "7H").click()
    cell(page, "1,1").click()
    services.move_submit(game=game, user=alice, text="build 7H -1,0", seen_ply=0)  # from another tab
    page.locator("[data-builder=confirm]").click()
    page.wait_for_selector('html[data-zc-ready="1"]', state="attached")
    assert page.locator("#zc-notice").inner_text() == "You moved \u2014 the board was updated."
    assert moves_of(game) == ["build 7H -1,0"]
    assert page.locator("#zc-builder").count() == 0  # yellow's turn now
    assert page.js_errors == []


def test_a_starter_chosen_while_the_other_player_chose_is_sent(players, open_as, live_server, settings):
    """Both players choose at once: the others' choice since the page loaded does not make it stale."""
    settings.ZARKCITY_POLL_SECONDS = 600  # no poll during the test: only Confirm's own check
    alice, bob = players
    game = start_game(alice, bob)  # seed7: red holds 6S 5C QC, yellow 7C AH 9H
    page = open_as(alice)
    open_game(page, game_url(live_server, game))
    hand_card(page, "5C").click()
    services.move_submit(game=game, user=bob, text="choose 9H", seen_ply=0)  # bob, a moment earlier
    confirm(page, "choose 5C")
    assert moves_of(game) == ["choose 9H", "choose 5C"]
    assert page.js_errors == []


def test_a_confirm_pressed_while_the_poll_swaps_the_page_is_sent(players, open_as, live_server, settings):
    """The poll notices bob's sealed choice and swaps the page in while alice's Confirm is asking ply.json:
    the move goes through the page the swap brought (a detached form's submit() would send nothing)."""
    settings.ZARKCITY_POLL_SECONDS = 600  # the test starts the one poll itself
    alice, bob = players
    game = start_game(alice, bob)  # seed7: red holds 6S 5C QC, yellow 7C AH 9H
    url = game_url(live_server, game)
    page = open_as(alice)
    open_game(page, url)
    held = {"page": [], "ply": []}
    hold_ply = [False]

    def hold(route, request):
        if request.resource_type == "fetch" and request.url.split("?")[0] == url:
            held["page"].append(route)  # the poll's swap, held until Confirm has begun
        elif "/ply.json" in request.url and hold_ply[0]:
            held["ply"].append(route)
        else:
            route.continue_()

    page.route("**/*", hold)
    hand_card(page, "5C").click()
    services.move_submit(game=game, user=bob, text="choose 9H", seen_ply=0)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the poll, now
    while not held["page"]:
        page.wait_for_timeout(20)
    hold_ply[0] = True
    with page.expect_navigation():
        page.locator("[data-builder=confirm]").click()
        page.wait_for_timeout(200)  # Confirm is under way: asking ply.json, or waiting for the swap
        held["page"].pop().continue_()  # the swap lands
        page.wait_for_selector("#zc-notice:not([hidden])")
        hold_ply[0] = False
        while held["ply"]:
            held["ply"].pop().continue_()
    page.unroute("**/*")
    wait_ready(page)
    assert moves_of(game) == ["choose 9H", "choose 5C"]
    assert page.js_errors == []


def test_a_big_board_on_a_phone_stays_legible_and_pans(players, open_as, live_server, artifacts):
    """A ten-column board is not shrunk to fit 360 px: it starts at a readable scale, its coordinate
    labels stay inside the picture (no button covers them) and follow a pan, and fit shows it all."""
    alice, bob = players
    game = start_game(alice, bob)
    position = middle_game(game.seed)
    extra = [((3, 0), "4H"), ((4, 0), "5H"), ((5, 0), "6H"), ((6, 0), "7S"), ((7, 0), "3S"), ((2, -1), "6C")]
    position["board"] += [{"at": list(at), "card": card, "pieces": {}} for at, card in extra]
    write_position(game, position)
    page = open_as(alice, **PHONE)
    open_game(page, game_url(live_server, game))
    board = page.locator("svg.zc-board")
    frame = board.bounding_box()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert cell(page, "0,0").bounding_box()["width"] >= 45, "the cards are drawn too small to read"
    zoom_bar = page.locator("#zc-zoom").bounding_box()
    assert zoom_bar["y"] + zoom_bar["height"] <= frame["y"], "the zoom buttons sit over the board"

    def labels_inside(group: str) -> list[str]:
        shown = []
        for label in page.locator(f"svg.zc-board .zc-coords--{group} text").all():
            box = label.bounding_box()
            centre_x, centre_y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            if (
                frame["x"] <= centre_x <= frame["x"] + frame["width"]
                and frame["y"] <= centre_y <= frame["y"] + frame["height"]
            ):
                shown.append(label.text_content())
        return shown

    assert len(labels_inside("cols")) >= 3 and len(labels_inside("rows")) >= 3
    screenshot(page.locator(".zc-board-box"), artifacts / "phone-03-big-board.png")

    page.evaluate("window.scrollTo(0, 0)")
    board.scroll_into_view_if_needed()
    frame = board.bounding_box()
    before = float(board.get_attribute("viewBox").split()[0])
    page.mouse.move(frame["x"] + 250, frame["y"] + 60)  # drag the board to the left: the row numbers follow
    page.mouse.down()
    page.mouse.move(frame["x"] + 50, frame["y"] + 60, steps=5)
    page.mouse.up()
    assert float(board.get_attribute("viewBox").split()[0]) > before
    rows = page.locator("svg.zc-board .zc-coords--rows text").first.bounding_box()
    assert frame["x"] <= rows["x"] <= frame["x"] + 40, "the row numbers scrolled away with the board"
    screenshot(page.locator(".zc-board-box"), artifacts / "phone-04-big-board-panned.png")

    page.locator("[data-zoom=fit]").tap()
    assert cell(page, "0,0").bounding_box()["width"] < 45  # now the whole board, smaller
    left, top, width, height = (float(n) for n in board.get_attribute("viewBox").split())
    assert width >= 10 * 124 and height >= 5 * 124
    assert page.js_errors == []
