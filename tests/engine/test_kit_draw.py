"""The drawing kit (engine/kit/draw): every item kind draws, interactive pictures name their targets,
the text board says the same, labels stay readable on a phone, email pictures draw alike with
librsvg and cairosvg; and a KitGame that describes a scene gets its pictures and click paths."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest

from engine.kit import draw
from engine.kit.base import KitGame
from engine.kit.draw.pyramids import stack_bases
from tests.engine.kit_tiny import GAME, TinyGame

SVG = "{http://www.w3.org/2000/svg}"
PHONE_FRAME = 318  # the board's frame on a 360 px phone (docs/board.md): the narrowest it is drawn
R, Y, G, B, K = (draw.Pyramid(c, "L") for c in ("red", "yellow", "green", "blue", "black"))


def pharaoh_like() -> draw.Scene:
    """A 5x5 grid with blocked corners, a tinted edge, pieces, a supply row, a die and a label."""
    corners = tuple(draw.Cell(c, blocked=True) for c in ("a1", "e1", "a5", "e5"))
    cells = (
        *corners,
        draw.Cell("c1", spots=(draw.Pyramid("red", "L"),), tint="red", marked=True),
        draw.Cell("b2", spots=(draw.Pyramid("red", "S"), draw.Pyramid("yellow", "M"))),
        draw.Cell("c3", label="goal"),
    )
    supply = tuple(draw.Pyramid("red", s, target=f"supply:red:{s}") for s in ("S", "M"))
    return draw.Scene(
        380,
        470,
        (
            draw.Grid(30, 8, 5, 5, 64, cells=cells, seen="side"),
            draw.Zone(8, 360, 200, "red supply", supply, tint="red"),
            draw.Die(230, 368, "4", target="die", title="throw"),
            draw.Label(230, 440, "4 points left"),
        ),
        title="A board",
    )


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def data_targets(svg: str) -> set[str]:
    return {el.get("data-target", "") for el in parse(svg).iter() if el.get("data-target") is not None}


# --- every item kind draws ---------------------------------------------------------------------------
ITEMS = [
    ("grid of named cells", draw.Grid(20, 0, 3, 2, 40, cells=(draw.Cell("b2", spots=(R,)),)), "b2: red Large"),
    ("blocked cell", draw.Grid(20, 0, 2, 1, 40, cells=(draw.Cell("a1", blocked=True),)), "a1: not on the board"),
    ("tinted cell", draw.Grid(20, 0, 2, 1, 40, cells=(draw.Cell("a1", tint="blue"),)), "a1: empty"),
    ("prefixed names", draw.Grid(20, 0, 1, 1, 40, prefix="red:"), "red:a1: empty"),
    ("upright side", draw.Piece(40, 60, R), "red Large"),
    ("upright top", draw.Piece(40, 40, B, seen="top"), "blue Large"),
    ("lying side", draw.Piece(40, 60, draw.Pyramid("green", "M", lying="left")), "pointing left"),
    ("lying top", draw.Piece(40, 40, draw.Pyramid("yellow", "S", lying="down"), seen="top"), "pointing down"),
    ("stack", draw.Piece(40, 90, draw.Stack((G, draw.Pyramid("yellow", "M"), draw.Pyramid("blue", "S")))), "stack of"),
    ("nest from above", draw.Piece(40, 40, draw.Stack((draw.Pyramid("red", "S"), R)), seen="top"), "stack of"),
    (
        "white and clear",
        draw.Piece(40, 60, draw.Stack((draw.Pyramid("white", "L"), draw.Pyramid("clear", "S")))),
        "clear",
    ),
    ("hidden piece", draw.Piece(40, 60, draw.Pyramid("hidden", "S")), "a hidden Small"),
    ("arrows", draw.Grid(20, 0, 1, 1, 40, cells=(draw.Cell("a1", arrows=("n", "w")),)), "a1: empty"),
    ("zone", draw.Zone(0, 0, 120, "Bank", (R, Y, K)), "Bank"),
    ("empty zone", draw.Zone(0, 0, 120, "Counter", empty="nothing yet"), "nothing yet"),
    ("box", draw.Box(0, 0, 120, 80, "Lorem", tint="blue", spots=(B,)), "Lorem"),
    ("number die", draw.Die(0, 0, "6"), "die: 6"),
    ("pyramid die", draw.Die(0, 0, "S/L"), "die: S/L"),
    ("colour die", draw.Die(0, 0, "green"), "die: green"),
    ("atom", draw.Die(0, 0, "atom"), "die: atom"),
    ("word die", draw.Die(0, 0, "wild"), "die: wild"),
    ("card", draw.Card(0, 0, "7♥", colour="red"), "7♥"),
    ("card face down", draw.Card(0, 0, "", face_down=True), "face down"),
    ("label", draw.Label(0, 20, "Red to move"), "Red to move"),
]


@pytest.mark.parametrize(("name", "item", "says"), ITEMS, ids=[row[0] for row in ITEMS])
def test_every_item_kind_draws_as_valid_svg_that_says_what_it_is(name, item, says):
    picture = draw.svg(draw.Scene(200, 160, (item,)))
    root = parse(picture)
    assert root.get("viewBox") == "0 0 200 160"
    assert says in "".join(root.itertext())
    assert len(list(root.iter())) > 5  # it drew something besides the ground


def test_a_link_is_a_line():
    root = parse(draw.svg(draw.Scene(100, 100, (draw.Link(0, 0, 90, 90, dashed=True),))))
    (line,) = root.iter(f"{SVG}line")
    assert line.get("stroke-dasharray") == "6 4"


def test_every_pyramid_has_a_lit_face_a_shaded_face_a_darker_edge_and_its_pips():
    for size, pips in (("S", 1), ("M", 2), ("L", 3)):
        root = parse(draw.svg(draw.Scene(100, 100, (draw.Piece(50, 90, draw.Pyramid("blue", size)),))))
        fills = [p.get("fill") for p in root.iter(f"{SVG}polygon")]
        assert draw.PALETTE["blue"][1] in fills  # the lit face
        assert "url(#kd-g-blue)" in fills  # the shaded face, a gradient
        assert any(p.get("stroke") == draw.PALETTE["blue"][2] for p in root.iter(f"{SVG}polygon"))
        assert all(float(p.get("fill-opacity", "1")) < 1 for p in root.iter(f"{SVG}polygon") if p.get("fill") != "none")
        assert len([c for c in root.iter(f"{SVG}circle")]) == pips
        assert root.find(f".//{SVG}linearGradient[@id='kd-g-blue']") is not None


@pytest.mark.parametrize(
    ("pieces", "rises"),
    [
        (("L", "M", "S"), True),  # a tree: each smaller piece rests on the one below, higher up
        (("S", "M", "L"), False),  # a nest: each bigger piece covers the one below, nearly at its base
    ],
)
def test_a_stack_sits_as_the_hollow_pieces_do(pieces, rises):
    bases = stack_bases(tuple(draw.Pyramid("red", s) for s in pieces))  # type: ignore[arg-type]
    assert bases[0] == 0
    assert all(b > a for a, b in zip(bases, bases[1:], strict=False))
    assert (bases[-1] > 0.5) is rises


def test_a_cell_not_on_the_grid_is_refused():
    with pytest.raises(ValueError, match="f1"):
        draw.svg(draw.Scene(100, 100, (draw.Grid(0, 0, 5, 5, cells=(draw.Cell("f1"),)),)))


# --- targets -----------------------------------------------------------------------------------------
def test_the_interactive_picture_names_every_target_and_the_plain_one_none():
    scene = pharaoh_like()
    names = data_targets(draw.svg(scene, interactive=True))
    playable = {f"{f}{r}" for f in "abcde" for r in range(1, 6)} - {"a1", "e1", "a5", "e5"}
    assert names == draw.targets(scene) == playable | {"supply:red:S", "supply:red:M", "die"}
    assert data_targets(draw.svg(scene)) == set()
    assert "kd-hit" not in draw.svg(scene)


def test_each_target_has_a_spoken_name_and_a_hit_area():
    root = parse(draw.svg(pharaoh_like(), interactive=True))
    for group in root.iter():
        if group.get("data-target"):
            assert group.get("aria-label")
            assert group[0].get("class") == "kd-hit"
    labels = {g.get("data-target"): g.get("aria-label") for g in root.iter() if g.get("data-target")}
    assert labels["c1"] == "c1: red Large"
    assert labels["supply:red:M"] == "red Medium"
    assert labels["die"] == "throw: 4"


def test_a_stack_is_one_target_its_own_or_its_top_pieces():
    tree = draw.Stack((draw.Pyramid("red", "L"), draw.Pyramid("red", "S", target="top")))
    assert draw.targets(draw.Scene(80, 80, (draw.Piece(40, 70, tree),))) == {"top"}
    named = draw.Stack(tree.pieces, target="tree")
    assert draw.targets(draw.Scene(80, 80, (draw.Piece(40, 70, named),))) == {"tree"}


def test_a_cell_target_can_be_renamed_or_left_out():
    grid = draw.Grid(0, 0, 2, 1, cells=(draw.Cell("a1", target="west"), draw.Cell("b1", target="")))
    assert draw.targets(draw.Scene(200, 100, (grid,))) == {"west"}


# --- the text board ----------------------------------------------------------------------------------
def test_the_text_board_says_what_the_picture_shows():
    assert draw.text(pharaoh_like()) == (
        "5 ##    .     .     .     ##\n"
        "4 .     .     .     .     .\n"
        "3 .     .     .     .     .\n"
        "2 .     rS,yM .     .     .\n"
        "1 ##    .     rL    .     ##\n"
        "  a     b     c     d     e\n"
        "\n"
        "red supply: rS rM\n"
        "\n"
        "throw: 4\n"
        "\n"
        "4 points left"
    )


@pytest.mark.parametrize(
    ("spot", "text"),
    [
        (draw.Pyramid("black", "M"), "kM"),
        (draw.Pyramid("white", "S"), "wS"),
        (draw.Pyramid("clear", "L"), "cL"),
        (draw.Pyramid("hidden", "S"), "?S"),
        (draw.Pyramid("red", "L", lying="right"), "rL>"),
        (draw.Pyramid("red", "L", lying="left"), "rL<"),
        (draw.Pyramid("green", "S", lying="up"), "gS^"),
        (draw.Pyramid("green", "S", lying="down"), "gSv"),
        (draw.Stack((draw.Pyramid("red", "L"), draw.Pyramid("blue", "S"))), "rL+bS"),
    ],
)
def test_a_spot_in_text(spot, text):
    assert draw.spot_text(spot) == text


@pytest.mark.parametrize(
    ("item", "text"),
    [
        (draw.Zone(0, 0, 100, "Vault"), "Vault: empty"),
        (draw.Zone(0, 0, 100, "Counter", empty="nothing"), "Counter: nothing"),
        (draw.Box(0, 0, 100, 60, "North", spots=(draw.Pyramid("yellow", "S"),)), "North: yS"),
        (draw.Card(0, 0, "KS"), "[KS]"),
        (draw.Card(0, 0, "KS", face_down=True), "[card]"),
        (draw.Die(0, 0, "M/L", title="pyramid die"), "pyramid die: M/L"),
        (draw.Label(0, 0, "only drawn", in_text=False), ""),
        (draw.Grid(0, 0, 2, 1, cells=(draw.Cell("a1", text="pad"),), title="Board"), "Board\n1 pad .\n  a   b"),
    ],
)
def test_an_item_in_text(item, text):
    assert draw.text(draw.Scene(100, 100, (item,))) == text


# --- readable on a phone ----------------------------------------------------------------------------
def test_the_kits_own_measure_of_the_smallest_words_agrees():
    scene = pharaoh_like()
    assert draw.smallest_text_px(scene) == pytest.approx(smallest_label_px(draw.svg(scene)))
    assert draw.smallest_text_px(scene, frame=1000) == 13  # never enlarged: a cell's label


def test_a_grid_may_fix_its_pieces_scale_or_fit_its_fullest_cell():
    full = (draw.Cell("a1", spots=(R, Y, G)),)
    assert draw.grid_unit(draw.Grid(0, 0, 2, 1, 60, cells=full)) < draw.grid_unit(draw.Grid(0, 0, 2, 1, 60))
    assert draw.grid_unit(draw.Grid(0, 0, 2, 1, 60, cells=full, unit=30)) == 30


def test_a_cells_arrows_point_out_of_its_sides():
    grid = draw.Grid(0, 0, 1, 1, 40, cells=(draw.Cell("a1", arrows=("n", "e", "s", "w")),))
    turns = re.findall(
        r'polygon points="[^"]+" fill="#5d6375" transform="rotate\((\d+)', draw.svg(draw.Scene(40, 40, (grid,)))
    )
    assert turns == ["0", "90", "180", "270"]


def smallest_label_px(svg: str, frame: float = PHONE_FRAME) -> float:
    """The smallest label as drawn when the picture is scaled to `frame` CSS px wide (never enlarged)."""
    root = parse(svg)
    width = float(root.get("viewBox", "").split()[2])
    scale = min(1.0, frame / width)
    return min(float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")) * scale


@pytest.mark.parametrize(
    "scene",
    [pharaoh_like(), GAME.scene(GAME.view(GAME.new_game(["red", "blue"], "s", {}), "red"))],
    ids=["pharaoh-like", "tiny"],
)
def test_every_label_is_at_least_10_css_px_on_a_360_px_phone(scene):
    assert smallest_label_px(draw.svg(scene, interactive=True)) >= 10


# --- the email picture -------------------------------------------------------------------------------
def test_the_email_picture_draws_with_librsvg_and_cairosvg_alike(monkeypatch):
    from PIL import Image, ImageChops, ImageStat

    from notifications import librsvg, pictures

    picture = draw.svg(pharaoh_like())
    first = pictures.draw(picture)
    assert first is not None and pictures.size(first) == (380, 470)
    monkeypatch.setattr(librsvg, "available", lambda: False)
    second = pictures.draw(picture)
    assert second is not None and pictures.size(second) == (380, 470)
    one, two = (Image.open(io.BytesIO(png)).convert("RGB") for png in (first, second))
    difference = ImageStat.Stat(ImageChops.difference(one, two)).mean
    assert max(difference) < 2  # anti-aliasing apart, the same picture


def test_the_picture_uses_only_generic_fonts_and_no_css_but_its_page_rules():
    picture = draw.svg(pharaoh_like(), interactive=True)
    assert set(re.findall(r'font-family="([^"]+)"', picture)) == {"sans-serif"}
    plain = draw.svg(pharaoh_like())
    (style,) = re.findall(r"<style>(.*?)</style>", plain)
    assert style.startswith("body svg.zc-board")  # sizes the page's board: an email has no body svg


# --- a KitGame that describes a scene --------------------------------------------------------------
def tiny_position():
    state = GAME.new_game(["red", "blue"], "seed", {})
    return GAME.apply(state, GAME.parse("enter M b2"), "red")


def test_a_kit_game_with_a_scene_gets_its_board_picture_and_text_from_it():
    view = GAME.view(tiny_position(), "blue")
    scene = GAME.scene(view)
    assert GAME.board_svg(view, interactive=True) == draw.svg(scene, interactive=True)
    assert GAME.board_svg(view) == draw.svg(scene)
    assert GAME.board_text(view) == draw.text(scene)
    assert "2 .  rM ." in GAME.board_text(view)


def test_a_kit_game_plays_by_the_kits_click_script():
    view = GAME.view(tiny_position(), "blue")
    assert GAME.board_script(view).module == "js/kit_board.js"
    moves = [str(m) for m in GAME.legal_moves(tiny_position(), "blue") if not GAME.is_resign(m)]
    steps = {step["text"]: step["path"] for step in GAME.click_steps(view, moves)}
    assert steps["enter S a1"] == ["supply:S", "a1"]  # the game's own click path
    assert steps["pass"] == []  # no target: a button


def test_the_default_click_path_is_the_moves_words_that_name_a_target():
    state = GAME.apply(tiny_position(), GAME.parse("enter S c1"), "blue")
    view = GAME.view(state, "red")
    moves = [str(m) for m in GAME.legal_moves(state, "red") if not GAME.is_resign(m)]
    steps = {step["text"]: step["path"] for step in GAME.click_steps(view, moves)}
    assert steps["b2-b3"] == ["b2", "b3"]
    assert TinyGame.click_path(GAME, GAME.parse("b2-c2")) == ("b2", "c2")


def test_a_kit_game_without_a_scene_must_draw_its_own_board():
    class Unpictured(TinyGame):
        scene = KitGame.scene  # the base's: no description

    game = Unpictured()
    with pytest.raises(NotImplementedError, match="Unpictured describes no scene"):
        game.board_svg(game.view(tiny_position(), None))
