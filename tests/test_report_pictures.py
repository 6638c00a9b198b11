"""The audit report's map pictures show the whole finding: every hex it names across joined boards, the
whole move, the units on legible chips that never cover a hex number, stacks and areas beside the map.
Real recorded logs (tests/fixtures/vlogs) of Crossing the Meuse, whose two boards join at A16/B1."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from compiler import report_map as rm
from compiler.audit_report import step_moves, write_report
from compiler.render.boards import render_board
from compiler.render.layout import DY
from compiler.vassal.vlog import read_log
from validator.source.loader import load_game
from validator.referee.audit import audit
from validator.referee.chain import positions_at
from validator.referee.dice import dice_stats

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"


@pytest.fixture(scope="module")
def meuse():
    game, _ = load_game(ROOT / "source" / "meuse")
    record = read_log(VLOGS / "meuse_violations.vlog", VLOGS / "meuse.vmod", game)
    boards: dict = {}
    return game, record, lambda bid: boards.setdefault(bid, render_board(game, bid))


def _finding(game, record, step):
    return next(f for f in audit(game, record).findings if f.step == step and f.severity == "error")


def _near(img, xy, colour, radius=6) -> bool:
    x0, y0 = xy
    return any(img.getpixel((x, y))[:3] == colour for x in range(int(x0) - radius, int(x0) + radius + 1)
               for y in range(int(y0) - radius, int(y0) + radius + 1) if 0 <= x < img.width and 0 <= y < img.height)


def test_a_finding_across_the_seam_rings_every_hex_on_both_boards(meuse):
    """meuse_violations step 13: B1.03 (map B) -> A16.01 through A16.02 (map A); all three are ringed and
    the path drawn through A16.02 (the picture was cut to the first hex's board before)."""
    game, record, board = meuse
    f = _finding(game, record, 13)
    assert f.code == "HF1204" and f.hexes == ("B1.03", "A16.02", "A16.01")
    surface = rm.surface_of(game)
    moves = step_moves(record, 13, f.hexes)
    pos = positions_at(record, [13])[13]
    img = rm.finding_picture(game, surface, board, f.hexes, moves, pos, "step 13")
    points = [surface.centre(h) for h in f.hexes]
    view = rm.view_around(surface, points)
    assert view.scale == 1.0
    for h in f.hexes:                                   # the ring along each hex's upper edge
        x, y = view.at(surface.centre(h))
        assert _near(img, (x, y - DY / 2 + 2), rm.RING), h
    for a, b in zip(f.hexes, f.hexes[1:]):             # the path, through the ZOC hex
        (ax, ay), (bx, by) = view.at(surface.centre(a)), view.at(surface.centre(b))
        assert _near(img, ((ax + bx) / 2, (ay + by) / 2), rm.ARROW), (a, b)
    assert img.width == view.box[2] - view.box[0] + rm.PANEL_PX


def test_a_long_move_is_drawn_whole_scaled_not_cut(meuse):
    """A move of 34 hexes (B30.48 -> B38.18 on Ardennes II) fits the picture whole at a smaller scale."""
    game, _, _ = meuse
    a2, _ = load_game(ROOT / "source" / "ardennes2")
    surface = rm.surface_of(a2)
    ends = [surface.centre("B30.48"), surface.centre("B38.18")]
    view = rm.view_around(surface, ends)
    assert rm.MIN_SCALE <= view.scale < 1.0
    img = rm.finding_picture(a2, surface, lambda b: render_board(a2, b), ("B30.48", "B38.18"),
                             [("B30.48", "B38.18")], None, "step 4")
    for p in ends:
        x, y = view.at(p)
        assert 0 <= x < img.width - rm.PANEL_PX and 0 <= y < img.height
    (ax, ay), (bx, by) = (view.at(p) for p in ends)
    for t in (0.1, 0.5, 0.9):                           # the arrow's whole length is in the picture
        assert _near(img, (ax + (bx - ax) * t, ay + (by - ay) * t), rm.ARROW, 4)
    assert max(img.width - rm.PANEL_PX, img.height) <= rm.MAX_PICTURE_PX + 1


def test_unit_chips_carry_the_short_designation_and_never_cover_a_hex_number(meuse):
    """Every occupied hex in view gets a chip in its counter's colours; the band where the board prints
    the hex number is left exactly as the board drew it; a stack is listed beside the map."""
    game, record, board = meuse
    surface = rm.surface_of(game)
    pos = positions_at(record, [7])[7]                 # step 7: three units in B10.11
    view = rm.View((0, 0) + surface.size, 1.0)
    bare = rm.compose(surface, board, view.box)
    drawn = bare.copy()
    stacks = rm.draw_units(ImageDraw.Draw(drawn), game, surface, view, pos)
    assert ("B10.11", ["1/1", "3/1", "2/1"]) in stacks
    occupied = [(h, [c for c in cs if c.kind == "unit"]) for h, cs in pos.stacks().items()]
    occupied = [(h, us) for h, us in occupied if us and surface.centre(h)]
    assert len(occupied) >= 10
    for h, units in occupied:
        x, y = surface.centre(h)
        number = (int(x - 26), int(y - DY * 0.36 - 7), int(x + 26), int(y - DY * 0.36 + 7))
        assert drawn.crop(number).tobytes() == bare.crop(number).tobytes(), f"{h}: a chip over its number"
        bg, _ = rm.chip_colours(game, units[-1].unit)
        assert _near(drawn, (x, y + DY * rm.CHIP_OFFSET), bg, 3), h
    assert rm.short_label(game, "red-4rd-10") == "10/4" and rm.short_label(game, "red-1ad-rec") == "Rec/1"


def test_stacks_and_entry_areas_are_named_in_the_panel(meuse):
    game, record, board = meuse
    surface = rm.surface_of(game)
    view = rm.view_around(surface, [surface.centre("A1.03"), surface.centre("A1.08")])
    names = [n for _, n, _ in rm.areas_in(game, surface, view)]
    assert "Blue north entry (A1.03-A1.04)" in names and "Blue centre entry (A1.08-A1.09)" in names
    img = rm.with_panel(Image.new("RGB", (200, 100), "white"), "step 23", [("B10.11", ["1/1", "3/1"])],
                        rm.areas_in(game, surface, view))
    assert img.width == 200 + rm.PANEL_PX
    panel = img.crop((200, 0, img.width, img.height)).convert("RGB")
    assert any(px == rm.AREA_COLOURS["entry"] for _, px in panel.getcolors(1 << 16))   # the areas' lines


def test_report_writes_the_pictures_the_page_and_its_step_page(meuse, tmp_path):
    game, record, board = meuse
    a = audit(game, record)
    page = write_report(tmp_path, game, record, a.findings, dice_stats(record), board_renderer=lambda g, b: board(b))
    text = page.read_text(encoding="utf-8")
    assert 'href="meuse_violations-steps.html"' in text and 'href="meuse_violations-steps.html#step=13">13</a>' in text
    assert (tmp_path / "meuse_violations-steps.html").is_file() and (tmp_path / "meuse-map.png").is_file()
    with Image.open(tmp_path / "meuse-map.png") as m:
        assert m.size == rm.surface_of(game).size       # the whole surface, both boards, unscaled
    pictures = sorted(tmp_path.glob("meuse_violations-finding*.png"))
    assert len(pictures) == len([f for f in a.findings if f.severity == "error" and f.hexes]) == 8
