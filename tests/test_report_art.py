"""The audit report shows the map the players played on: a board with the author's art (art.yaml) is pictured
from that art, laid into the frame the report draws its rings and arrows on so that each lands on its
printed hex (compiler/render/boards.py, report_board). A copy of tests/fixtures/meuse-art whose board A
scan is replaced by a marked one (a cyan disc on each hex's printed centre, cream between) tells the art
from hexforge's drawing and shows where its hexes fall."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw

from compiler.cli import main
from compiler.render.boards import render_board, report_board
from compiler.render.layout import layout_for
from validator.source.art import registration
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
ART_TREE = ROOT / "tests" / "fixtures" / "meuse-art"
LOG = ROOT / "tests" / "fixtures" / "vlogs" / "art" / "meuse_art_violations.vlog"
CYAN, CREAM = (0, 255, 255), (240, 230, 200)


def _close(px, colour, tolerance=30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(px[:3], colour))


@pytest.fixture(scope="module")
def marked(tmp_path_factory) -> Path:
    """The art tree with board A's scan replaced by one marking each printed hex centre."""
    tree = tmp_path_factory.mktemp("marked") / "meuse-art"
    shutil.copytree(ART_TREE, tree)
    game = load_game(tree)[0]
    reg = registration(game, "A")
    scan = tree / "art" / "board-a.jpg"
    size = Image.open(scan).size
    img = Image.new("RGB", size, CREAM)
    d = ImageDraw.Draw(img)
    r = reg.s_minor / 5
    for _, x, y in reg.centres():
        d.ellipse((x - r, y - r, x + r, y + r), fill=CYAN)
    img.save(scan, quality=95)
    return tree


def test_an_art_boards_picture_has_each_printed_hex_under_its_drawn_centre(marked):
    game = load_game(marked)[0]
    pic, drawn = report_board(game, "A"), layout_for(game, game.grid.board("A"))
    assert pic.size == drawn.size                    # the frame the report draws on
    hexes = list(game.grid.board_hexes(game.grid.board("A")))
    assert len(hexes) > 300
    for hid, c, r in hexes:
        x, y = drawn.exact_centre(c, r)
        assert _close(pic.getpixel((round(x), round(y))), CYAN), hid
    # near miss: between two hexes' centres (on their common side) is the art's cream, not a disc
    (x0, y0), (x1, y1) = drawn.exact_centre(5, 5), drawn.exact_centre(5, 6)
    assert _close(pic.getpixel((round(x0), round((y0 + y1) / 2))), CREAM)


def test_a_drawn_boards_picture_is_hexforges_drawing(marked):
    game = load_game(marked)[0]
    assert report_board(game, "B").tobytes() != render_board(game, "B").tobytes()   # B has art too: a scan
    meuse = load_game(ROOT / "source" / "meuse")[0]                                  # no art.yaml
    assert report_board(meuse, "A").tobytes() == render_board(meuse, "A").tobytes()


def test_the_reports_pictures_show_the_art(marked, tmp_path):
    vmod = tmp_path / "build"
    assert CliRunner().invoke(main, ["build", str(marked), "--out", str(vmod)]).exit_code == 0
    out = tmp_path / "report"
    res = CliRunner().invoke(main, ["audit", str(marked), str(LOG), "--module", str(vmod / "meuse.vmod"),
                                    "--report", str(out), "-q"])
    assert res.exit_code == 1, res.output                   # the log's eight violations
    # HF1402 at step 23 names A1.03: its picture is board A's left edge, the marked scan
    pic = Image.open(out / "meuse_art_violations-finding9-step23.png").convert("RGB")
    cyan = sum(1 for px in pic.get_flattened_data() if _close(px, CYAN))
    assert cyan > 2000
    # near miss: the same page from the unmarked art has none of the marks' colour
    plain = tmp_path / "plain"
    CliRunner().invoke(main, ["audit", str(ART_TREE), str(LOG), "--module", str(vmod / "meuse.vmod"),
                              "--report", str(plain), "-q"])
    unmarked = Image.open(plain / "meuse_art_violations-finding9-step23.png").convert("RGB")
    assert sum(1 for px in unmarked.get_flattened_data() if _close(px, CYAN)) < 50
