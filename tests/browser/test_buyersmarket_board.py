"""Buyer's Market's market picture in Chromium, at 1280 px and on a 360 px phone, for 2, 3 and 4
players, in the middle of a game and once it is scored: as the browser lays the text out, no label,
pyramid, chip or tag overlaps another and nothing leaves the picture; on the phone the board opens
with every label at least 10 CSS px, the whole width in view, and the page's zoom works on it.

The games are played through the service by the policy of tests/engine/test_buyersmarket_picture.py
(random moves, the building phase called once allowed after ply 40). Screenshots go to
test-artifacts/browser/buyersmarket-board-*.png.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.browser.helpers import game_url, open_game, screenshot
from tests.conftest import make_user
from tests.engine.test_buyersmarket_picture import policy
from tests.service.gameplay import start_game, user_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIDDLE = 18  # plies into the game: pallets half full, pyramids collected, banks spent

# Every mark a reader tells apart, by its box on the screen: labels, pyramids, seat chips, tags.
MARKS = """svg => {
  const boxes = [];
  const add = (what, el) => {
    const r = el.getBoundingClientRect();
    boxes.push({what, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
  };
  svg.querySelectorAll("text.bm-label").forEach(t => { if (!t.closest(".bm-tag")) add(`label ${t.textContent}`, t); });
  svg.querySelectorAll(".bm-pyramid polygon").forEach(p => add(`pyramid ${p.parentNode.textContent}`, p));
  svg.querySelectorAll(".bm-chip circle, .bm-tag rect").forEach(c => add(c.parentNode.getAttribute("class"), c));
  return boxes;
}"""
LABEL_PX = """svg => Math.min(...[...svg.querySelectorAll("text.bm-label")].map(
  t => Number(t.getAttribute("font-size")) * t.getScreenCTM().a))"""


@pytest.fixture
def four(transactional_db):
    return [make_user(name) for name in ("alice", "bob", "charlie", "dave")]


def played(users, plies: int | None) -> Game:
    """A game of len(users) played through the service for `plies` plies, or to its scored end."""
    game = start_game(*users, seed=f"layout-{len(users)}", game="buyersmarket")
    while game.status == Game.Status.ACTIVE and (plies is None or game.ply < plies):
        state = services.state_of(game)
        colour = game.to_move.split(",")[0]
        text = policy(state, colour, game.ply, f"layout-{len(users)}")
        services.move_submit(game=game, user=user_of(game, colour), text=text, seen_ply=game.ply)
        game.refresh_from_db()
    return game


def in_frame(svg, element) -> bool:
    frame = svg.evaluate("svg => { const r = svg.getBoundingClientRect(); return [r.top, r.bottom]; }")
    box = element.evaluate("el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }")
    return frame[0] <= box[0] and box[1] <= frame[1]


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 0.5
                and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > 0.5
            ):
                found.append((a["what"], b["what"]))
    return found


def check_picture(page) -> None:
    """No two marks overlap as the browser draws them, and with the whole board shown (the zoom's fit
    button) every mark is inside the picture's frame: nothing cut off at the bottom or the side."""
    svg = page.locator("svg.zc-board")
    assert overlaps(svg.evaluate(MARKS)) == []
    page.locator('[data-zoom="fit"]').click()
    boxes = svg.evaluate(MARKS)
    assert len(boxes) > 40 and overlaps(boxes) == []
    left, top, right, bottom = svg.evaluate(
        "svg => { const r = svg.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
    )
    outside = [b["what"] for b in boxes if b["x0"] < left or b["y0"] < top or b["x1"] > right or b["y1"] > bottom]
    assert outside == []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("stage", ["middle", "scored"])
def test_the_market_lays_out_without_overlaps_at_1280_px(four, open_as, live_server, artifacts, players, stage):
    game = played(four[:players], MIDDLE if stage == "middle" else None)
    assert (game.status == Game.Status.FINISHED) == (stage == "scored")
    page = open_as(four[0])
    open_game(page, game_url(live_server, game))
    page.locator("#board").scroll_into_view_if_needed()
    screenshot(page, artifacts / f"buyersmarket-board-{players}-{stage}-1280.png", full_page=False)
    check_picture(page)
    if stage == "scored":
        assert page.locator("svg.zc-board .bm-building").count() == players
    phone = open_as(four[0], viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    open_game(phone, game_url(live_server, game))
    phone.locator("#board").scroll_into_view_if_needed()
    screenshot(phone, artifacts / f"buyersmarket-board-{players}-{stage}-360.png", full_page=False)
    check_picture(phone)
    assert page.js_errors == [] and phone.js_errors == []


def test_on_a_360_px_phone_the_market_opens_legible_and_zooms(four, open_as, live_server, artifacts):
    game = played(four[:3], MIDDLE)
    mover = game.to_move.split(",")[0]
    phone = open_as(user_of(game, mover), viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    open_game(phone, game_url(live_server, game))
    svg = phone.locator("svg.zc-board")
    assert phone.locator("#zc-zoom").is_visible()
    opened = svg.evaluate(LABEL_PX)
    assert opened >= 10, f"the smallest label is {opened:.1f} CSS px"
    shown = svg.evaluate("svg => svg.viewBox.baseVal.width")
    assert shown >= float(svg.evaluate("svg => svg.querySelector('rect').getAttribute('width')")) - 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    frame = svg.evaluate("svg => { const r = svg.getBoundingClientRect(); return [r.top, r.bottom]; }")
    piles = phone.locator("svg.zc-board .bm-pile rect").first.evaluate("el => el.getBoundingClientRect().top")
    pallet = phone.locator("svg.zc-board .bm-pallet rect").first.evaluate("el => el.getBoundingClientRect().bottom")
    assert frame[0] <= piles and pallet <= frame[1]  # it opens at the top: the piles and the first pallets
    screenshot(phone, artifacts / "buyersmarket-board-phone-opened.png", full_page=False)
    # A tap on a lit pallet offers its moves, as on a desktop.
    phone.locator("svg.zc-board .bm-selectable[data-pallet]").first.tap()
    assert phone.locator("[data-builder=choices] [data-move]").count() >= 1

    phone.locator('[data-zoom="in"]').click()
    phone.locator('[data-zoom="in"]').click()
    zoomed = svg.evaluate(LABEL_PX)
    assert zoomed == pytest.approx(opened * 1.25 * 1.25, rel=0.02)
    screenshot(phone, artifacts / "buyersmarket-board-phone-zoomed.png", full_page=False)
    phone.locator('[data-zoom="fit"]').click()
    assert svg.evaluate(LABEL_PX) < opened  # the whole market, smaller than legible: the reader chose it

    # Zoomed in on the players, a pallet reached by the keyboard is panned into view.
    for _ in range(4):
        phone.locator('[data-zoom="in"]').click()
    pallet = phone.locator("svg.zc-board .bm-selectable[data-pallet]").first
    assert not in_frame(svg, pallet)
    pallet.focus()
    assert in_frame(svg, pallet)

    assert phone.js_errors == []
