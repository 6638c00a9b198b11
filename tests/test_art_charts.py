"""The author's art in the printed charts, the board pictures and `hexforge art`: the counter sheets print
the art's faces, the set-up cards lay the board scans under the set-up, `board_picture` gives either board
at any scale with its hexes, and `hexforge art` draws the registration over each image."""
from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from compiler.charts.build import build_charts
from compiler.charts.sheets import geometry
from compiler.cli import main
from compiler.render.boards import board_picture, render_board
from compiler.render.previews import GRID_COLOUR
from conftest import ROOT
from test_charts import render
from validator.source.loader import load_game

ART_TREE = ROOT / "tests" / "fixtures" / "meuse-art"
GOLD = (212, 175, 55)


@pytest.fixture(scope="module")
def game():
    return load_game(ART_TREE)[0]


@pytest.fixture(scope="module")
def charts(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("art-charts") / "charts"
    build_charts(game, out)
    return out


@pytest.fixture(scope="module")
def plain_charts(tmp_path_factory):
    out = tmp_path_factory.mktemp("plain-charts") / "charts"
    build_charts(load_game(ROOT / "source" / "meuse")[0], out)
    return out


def _gold(px, tolerance: int = 45) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(px, GOLD))


def _first_cell_edge(pdf, game):
    """The pixel just inside the first counter's left edge, halfway down, on the fronts page."""
    geo = geometry(game, "a4")
    img, k = render(pdf, 0, dpi=300)
    x = (geo.x0 + 1.2) * k
    y = (geo.page_h - geo.top + geo.pitch / 2) * k
    return img.getpixel((round(x), round(y)))


def test_the_counter_sheets_print_the_authors_faces(charts, plain_charts, game):
    assert _gold(_first_cell_edge(charts / "counter-sheets.pdf", game))           # the art's gold frame
    assert not _gold(_first_cell_edge(plain_charts / "counter-sheets.pdf", game))  # near miss: drawn


def _images(pdf, page=0):
    res = PdfReader(str(pdf)).pages[page]["/Resources"]
    xo = res.get("/XObject") or {}
    return [(int(o["/Width"]), int(o["/Height"])) for o in (x.get_object() for x in xo.values())
            if o.get("/Subtype") == "/Image"]


def test_the_set_up_card_lays_the_scans_under_the_set_up(charts, plain_charts):
    assert _images(plain_charts / "setup-1.pdf") == []                # the drawn card: vectors only
    sizes = sorted(_images(charts / "setup-1.pdf"))
    boards = [s for s in sizes if s[0] > 300]
    faces = [s for s in sizes if s == (96, 96)]
    assert len(boards) == 2                                           # both scans, decoded at the card's scale
    assert all(w < 1447 for w, _ in boards)                           # never at their full size
    assert faces                                                      # the set-up's counters: the author's faces


def test_the_set_up_cards_counters_are_the_authors_faces(charts, game):
    from compiler.render.art import face_image, on_white
    embedded = {im.image.convert("RGB").tobytes() for im in PdfReader(str(charts / "setup-1.pdf")).pages[0].images
                if im.image.size == (96, 96)}
    sc = game.scenario("1")
    alone = [g.units[0] for g in sc.setup if g.location.hex and len(g.units) == 1]   # drawn on top of their hex
    assert alone
    for p in alone:
        face = game.face_art("unit", p.unit, "back" if "reduced" in p.state else "front")
        assert on_white(face_image(game.root, face, 96)).tobytes() in embedded, p.unit


@pytest.mark.parametrize("scale", [1.0, 0.25])
def test_board_picture_of_an_art_board(game, scale):
    p = board_picture(game, "A", scale)
    assert p.image.size == (round(1447 * scale), round(2150 * scale))
    assert p.centre_of("A1.01") == (99.5 * scale, 132.5 * scale)     # the registration's own reference hex
    assert p.centre_of("B1.01") is None                               # a hex of another board
    assert abs(p.hex_size - 98.641 * scale) < 0.01


def test_board_picture_of_a_drawn_board_is_the_drawing():
    g = load_game(ROOT / "source" / "meuse")[0]
    p = board_picture(g, "B")
    assert p.image.tobytes() == render_board(g, "B").tobytes()
    assert p.centre_of("B1.01") == (31, 36) and p.hex_size == 72
    half = board_picture(g, "B", 0.5)
    assert half.image.size == (496, 738) and half.centre_of("B1.01") == (15.5, 18.0)


# -- hexforge art ------------------------------------------------------------------------------------

def test_hexforge_art_draws_the_grid_on_the_printed_hexes(game, tmp_path):
    r = CliRunner().invoke(main, ["art", str(ART_TREE), "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        f"wrote {tmp_path}/board-A.png (board A: art/board-a.jpg, 1447 x 2150 px, scale 1)",
        f"wrote {tmp_path}/board-B.png (board B: art/board-b.png, 1449 x 2133 px, scale 1)",
        f"wrote {tmp_path}/sheet-1.png (sheet 1: art/counters.png, 4 x 10 cells, 38 named)"]
    img = Image.open(tmp_path / "board-A.png").convert("RGB")
    assert img.size == (1447, 2150)
    # the grid's outline runs along the printed hexes' edges: red at A5.05's left corner, not at its centre
    x, y = 99.5 + 4 * 84.966667, 132.5 + 4 * 98.641026
    left_corner = (round(x - 84.966667 * 2 / 3), round(y))
    assert img.getpixel(left_corner) == GRID_COLOUR
    assert img.getpixel((round(x), round(y + 20))) != GRID_COLOUR


def test_hexforge_art_with_a_broken_registration_still_shows_the_reference_points(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ART_TREE, tree)
    text = (tree / "art.yaml").read_text().replace("{hex: A16.20, at: [1374, 2056]}", "{hex: A1.20, at: [99.5, 2006]}")
    (tree / "art.yaml").write_text(text)
    r = CliRunner().invoke(main, ["art", str(tree), "--out", str(tmp_path / "out"), "--scale", "0.5"])
    assert r.exit_code == 1
    assert "error[HF2008] board A: A1.01 and A1.20 are in the same column" in r.output
    assert f"wrote {tmp_path}/out/board-A.png (board A: art/board-a.jpg, 1447 x 2150 px, scale 0.5)" in r.output
    img = Image.open(tmp_path / "out" / "board-A.png").convert("RGB")
    assert img.size == (724, 1075)
    assert img.getpixel((round(99.5 * 0.5), round(132.5 * 0.5))) == (0, 160, 60)     # the green cross


def test_hexforge_art_on_a_tree_without_art(tmp_path):
    r = CliRunner().invoke(main, ["art", str(ROOT / "source" / "meuse"), "--out", str(tmp_path)])
    assert r.exit_code == 0
    assert "no usable art to preview" in r.output and list(tmp_path.iterdir()) == []
