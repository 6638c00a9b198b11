"""The art checks (HF2001-HF2016) on a copy of tests/fixtures/meuse-art: each bad case gives its finding, at
its place in art.yaml, with the exact message; the near miss beside it gives none."""
from __future__ import annotations

import io
import os
import shutil
import struct
import zlib

import pytest
from PIL import Image

from compiler.cli import check_tree
from conftest import ROOT, Tree

ART_TREE = ROOT / "tests" / "fixtures" / "meuse-art"
ART_CODES = {f"HF20{n:02d}" for n in range(1, 17)}      # test_checks.py: these cases live here


@pytest.fixture
def art(tmp_path) -> Tree:
    dst = tmp_path / "meuse-art"
    shutil.copytree(ART_TREE, dst)
    return Tree(dst)


def found(tree, code=None):
    _, diags = check_tree(tree.path)
    return [d for d in diags if code is None or d.code == code]


def messages(tree, code):
    return [d.message for d in found(tree, code)]


def _board(d, bid):
    return next(b for b in d["boards"] if b["board"] == bid)


def _png(width, height, depth=8, colour=2, rows=None) -> bytes:
    """A PNG written by hand: any size its header declares, any bit depth (what Pillow could not write)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = rows if rows is not None else b"".join(b"\x00" + b"\x00" * (width * 3 * depth // 8) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _use_marker_image(tree, name, data: bytes):
    """Make the turn marker's image `art/<name>` with these bytes (a small counter image: its faults alone)."""
    (tree.path / "art" / name).write_bytes(data)
    tree.edit("art.yaml", lambda d: d["counters"][0].update(front=f"art/{name}"))


def test_the_art_tree_is_clean(art):
    assert [(d.code, d.message) for d in found(art)] == []


# -- HF2001 missing ---------------------------------------------------------------------------------

def _sub(tree, old: str, new: str) -> None:
    """A text edit of art.yaml, keeping its lines where they are."""
    text = (tree.path / "art.yaml").read_text(encoding="utf-8")
    assert old in text
    (tree.path / "art.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(tree, text: str) -> int:
    lines = (tree.path / "art.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if text in ln)


def test_a_missing_image_is_located_at_its_path(art):
    _sub(art, "image: art/board-a.jpg", "image: art/Board-A.jpg")
    (d,) = found(art, "HF2001")
    assert d.message == "art/Board-A.jpg does not exist"
    assert d.loc.file == "art.yaml" and d.loc.line == 4 and d.severity == "error"


def test_a_directory_a_fifo_and_a_dangling_link_are_not_images(art):
    os.mkfifo(art.path / "art" / "pipe.png")
    os.symlink(art.path / "art" / "gone.png", art.path / "art" / "dangling.png")
    (art.path / "art" / "dir.png").mkdir()
    for name, words in (("pipe.png", "is not a regular file (a FIFO, socket or device)"),
                        ("dangling.png", "is a symbolic link to nothing (a dangling link)"),
                        ("dir.png", "is a directory")):
        art.edit("art.yaml", lambda d: d["counters"][0].update(front=f"art/{name}"))
        assert messages(art, "HF2001") == [f"art/{name} {words}"]


def test_near_miss_a_link_that_stays_inside_the_tree(art):
    os.symlink("board-a.jpg", art.path / "art" / "link.jpg")
    art.edit("art.yaml", lambda d: _board(d, "A").update(image="art/link.jpg"))
    assert found(art) == []


# -- HF2002 outside the tree --------------------------------------------------------------------------

def test_paths_and_links_out_of_the_tree_are_refused_unread(art, tmp_path):
    outside = tmp_path / "outside.jpg"
    shutil.copy(art.path / "art" / "board-a.jpg", outside)
    os.symlink(outside, art.path / "art" / "escape.jpg")
    cases = [("../outside.jpg", "climbs out of the game tree (`..`); nothing outside the tree is read"),
             (str(outside), "is an absolute path; art is named by its path inside the game tree"),
             ("art/escape.jpg", "leads out of the game tree through a symbolic link; nothing outside the tree is read")]
    for path, words in cases:
        art.edit("art.yaml", lambda d: _board(d, "A").update(image=path))
        (d,) = found(art, "HF2002")
        assert d.message == f"{path} {words}" and d.loc.line > 0
        g, _ = check_tree(art.path)
        assert g.board_art("A").image.digest is None          # the outside file's bytes were never read


def test_near_miss_a_dotted_path_that_stays_inside(art):
    art.edit("art.yaml", lambda d: _board(d, "A").update(image="art/../art/board-a.jpg"))
    assert found(art) == []


# -- HF2003 unreadable ------------------------------------------------------------------------------

def test_a_truncated_png_and_jpeg_do_not_decode(art):
    data = (art.path / "art" / "board-b.png").read_bytes()
    (art.path / "art" / "board-b.png").write_bytes(data[: len(data) // 2])
    jpg = (art.path / "art" / "board-a.jpg").read_bytes()
    (art.path / "art" / "board-a.jpg").write_bytes(jpg[: len(jpg) // 2])
    ms = messages(art, "HF2003")
    assert len(ms) == 2
    assert ms[0].startswith("art/board-a.jpg does not decode to its end (image file is truncated")
    assert ms[1].startswith("art/board-b.png does not decode to its end (")
    assert all(m.endswith("): a truncated or damaged file") for m in ms)


def test_other_formats_and_garbage_are_not_art(art):
    buf = io.BytesIO()
    Image.new("RGB", (88, 88), (200, 0, 0)).save(buf, "GIF")
    _use_marker_image(art, "turn.gif", buf.getvalue())
    assert messages(art, "HF2003") == ["art/turn.gif is a GIF image; art is PNG or JPEG"]
    _use_marker_image(art, "turn.png", b"\x89PNG not really")
    assert messages(art, "HF2003") == ["art/turn.png is not an image Pillow can read; art is PNG or JPEG"]


def test_near_miss_16_bit_palette_grey_and_interlaced_images_are_used(art):
    _use_marker_image(art, "turn16.png", _png(88, 88, depth=16))
    assert found(art) == []
    for mode, kw in (("P", {}), ("L", {}), ("RGB", {"interlace": 1}), ("LA", {})):
        buf = io.BytesIO()
        Image.new(mode, (88, 88)).save(buf, "PNG", **kw)
        _use_marker_image(art, f"turn-{mode}.png", buf.getvalue())
        assert found(art) == [], mode
    buf = io.BytesIO()
    Image.new("RGB", (88, 88), (9, 9, 9)).save(buf, "JPEG", progressive=True)
    _use_marker_image(art, "turn-progressive.jpg", buf.getvalue())
    assert found(art) == []


# -- HF2004 too large ---------------------------------------------------------------------------------

def test_a_decompression_bomb_is_refused_from_its_header(art):
    # 12 000 x 9 000 declared in a 60-byte file: above Pillow's limit, refused before any pixel is decoded
    (art.path / "art" / "board-b.png").write_bytes(_png(12_000, 9_000, rows=b""))
    (d,) = found(art, "HF2004")
    limit = Image.MAX_IMAGE_PIXELS
    assert d.message == (f"art/board-b.png declares 108000000 pixels, more than Pillow's decompression-bomb limit of "
                         f"{limit}: it is refused undecoded")
    assert d.loc.file == "art.yaml" and d.loc.line == 9


def test_near_miss_a_10000_by_7000_board_is_read(art):
    (art.path / "art" / "board-b.png").write_bytes(_png(10_000, 7_000, rows=b"\x00" * 10))
    assert found(art, "HF2004") == [] and found(art, "HF2003") == []     # verify() checks chunks, no inflating


def test_an_image_over_the_byte_bound(art, monkeypatch):
    import validator.source.images
    monkeypatch.setattr(validator.source.images, "MAX_IMAGE_BYTES", 400_000)
    assert messages(art, "HF2004") == ["art/board-a.jpg is 463446 bytes, more than an image may be (400000)",
                                       "art/board-b.png is 440872 bytes, more than an image may be (400000)"]


# -- HF2005 CMYK, HF2006 EXIF rotation -----------------------------------------------------------------

def test_a_cmyk_jpeg_is_refused(art):
    buf = io.BytesIO()
    Image.new("CMYK", (88, 88), (0, 80, 80, 0)).save(buf, "JPEG")
    _use_marker_image(art, "turn.jpg", buf.getvalue())
    assert messages(art, "HF2005") == ["art/turn.jpg is a CMYK JPEG, 88 x 88 px: VASSAL's Java image reader does not "
                                       "display CMYK; save it in RGB (sRGB)"]
    buf = io.BytesIO()
    Image.new("L", (88, 88), 128).save(buf, "JPEG")                         # near miss: greyscale
    _use_marker_image(art, "turn-grey.jpg", buf.getvalue())
    assert found(art) == []


def test_an_exif_rotated_photo_is_refused_and_an_upright_one_is_not(art):
    for orientation, codes in ((6, ["HF2006"]), (1, [])):
        exif = Image.Exif()
        exif[0x0112] = orientation
        buf = io.BytesIO()
        Image.new("RGB", (88, 88), (10, 20, 30)).save(buf, "JPEG", exif=exif.tobytes())
        _use_marker_image(art, f"turn-{orientation}.jpg", buf.getvalue())
        assert [d.code for d in found(art)] == codes
    art.edit("art.yaml", lambda d: d["counters"][0].update(front="art/turn-6.jpg"))
    assert messages(art, "HF2006") == [
        "art/turn-6.jpg carries EXIF orientation 6 (shown turned or mirrored): VASSAL ignores it and would show "
        "the image as stored; save it with the rotation applied (e.g. `exiftran -ai`, `mogrify -auto-orient`)"]


# -- HF2007 coverage, HF2008 registration, HF2009 irregular, HF2016 scales ----------------------------

def test_a_registration_that_puts_hexes_off_the_image_says_which_and_by_how_much(art):
    art.edit("art.yaml", lambda d: _board(d, "B").update(spacing={"columns": 100, "rows": 98.64}))
    (d,) = found(art, "HF2007")
    # B1.01 at x = 66.5: column c at 66.5 + (c - 1) * 100; columns 15 and 16 reach 1466.5 and 1566.5 (1449 wide)
    assert d.message == ("board B: 40 of 320 hexes have their centre outside art/board-b.png (1449 x 2133 px) at "
                         "this registration: up to 118 px past its right edge")
    assert set(d.hexes) == {f"B{c}.{r:02d}" for c in (15, 16) for r in range(1, 21)}
    # near miss: 96 px a column puts column 16 at 1506.5 ... no: at 85 px (the scan's own), all inside
    art.edit("art.yaml", lambda d: _board(d, "B").update(spacing={"columns": 92, "rows": 98.64}))
    assert found(art, "HF2007") == []          # column 16 at 66.5 + 15 * 92 = 1446.5 < 1449


def test_a_registration_below_and_left_of_the_image(art):
    art.edit("art.yaml", lambda d: _board(d, "A")["registration"][0].update(at=[-20, 40]))
    (d,) = found(art, "HF2007")
    assert "px past its left edge" in d.message and "A1.01" in d.hexes


@pytest.mark.parametrize("registration, spacing, message", [
    ([{"hex": "A1.01", "at": [99.5, 132.5]}, {"hex": "A1.20", "at": [99.5, 2006]}], None,
     "board A: A1.01 and A1.20 are in the same column: the spacing from one column to the next does not follow; "
     "name hexes in different columns (far apart, for precision)"),
    ([{"hex": "A1.01", "at": [99.5, 132.5]}, {"hex": "A3.01", "at": [270, 132.5]}], None,
     "board A: A1.01 and A3.01 lie level with each other across the columns: the spacing from one row to the next "
     "does not follow; name hexes in different rows"),
    ([{"hex": "A1.01", "at": [99.5, 132.5]}], None,
     "board A: one reference hex (A1.01) needs the spacings beside it (`spacing: {columns, rows}`), or name a "
     "second hex"),
    ([{"hex": "A1.01", "at": [99.5, 132.5]}, {"hex": "A16.20", "at": [1374, 2056]}], {"columns": 85, "rows": 98},
     "board A: two reference hexes fix the spacings: give either a second hex or `spacing`, not both"),
    ([{"hex": "B1.01", "at": [99.5, 132.5]}, {"hex": "A16.20", "at": [1374, 2056]}], None,
     "board A: reference hex B1.01 is not a hex of board A"),
    ([{"hex": "A16.20", "at": [99.5, 132.5]}, {"hex": "A1.01", "at": [1374, 2056]}], None,
     "board A: A16.20 at [99.5, 132.5] and A1.01 at [1374, 2056] put the hexes in the wrong order (the image would "
     "be mirrored or the hex IDs swapped): check both"),
])
def test_a_registration_that_fixes_no_grid(art, registration, spacing, message):
    def edit(d):
        b = _board(d, "A")
        b["registration"] = registration
        if spacing:
            b["spacing"] = spacing
    art.edit("art.yaml", edit)
    (d,) = found(art, "HF2008")
    assert d.message == message and d.loc.line == _line_of(art, "board: A")
    assert found(art, "HF2007") == []           # no grid: nothing to cover


def test_irregular_hexes_are_a_warning_and_the_scan_near_regular_is_not(art):
    art.edit("art.yaml", lambda d: _board(d, "B").update(spacing={"columns": 84.94, "rows": 60}))
    (d,) = found(art, "HF2009")
    assert d.severity == "warning"
    assert d.message == ("board B: hexes 84.94 px apart from column to column and 60 px from row to row (1.42 to 1); "
                         "regular hexes are 1.15 to 1")
    art.edit("art.yaml", lambda d: _board(d, "B").update(spacing={"columns": 84.94, "rows": 98.64}))
    assert found(art, "HF2009") == []           # 1.161: within 15 %


def test_boards_at_different_scales(art):
    art.edit("art.yaml", lambda d: _board(d, "B").update(spacing={"columns": 84.94 * 0.95, "rows": 98.64 * 0.95}))
    (d,) = found(art, "HF2016")
    assert d.message == "board B's hexes are 93.71 px across, board A's 98.64 px: the pieces are sized for board A"
    art.edit("art.yaml", lambda d: _board(d, "B").update(spacing={"columns": 84.94 * 0.99, "rows": 98.64 * 0.99}))
    assert found(art, "HF2016") == []


# -- HF2010 sheet grid, HF2011 square ---------------------------------------------------------------------

def test_a_sheet_grid_past_its_image_and_cells_past_its_grid(art):
    art.edit("art.yaml", lambda d: d["sheets"][0].update(columns=11))
    assert messages(art, "HF2010") == ["art/counters.png (976 x 432 px): the grid of 4 x 11 cells reaches across to "
                                       "x = 1046, 70 px past its right edge"]
    art.edit("art.yaml", lambda d: d["sheets"][0].update(columns=10, rows=3))
    assert messages(art, "HF2010") == ["art/counters.png: `cells` line 4 lists 9 cells for a sheet of 3 rows of 10"]
    art.edit("art.yaml", lambda d: d["sheets"][0].update(rows=4))
    assert found(art, "HF2010") == []


def test_counter_art_that_is_not_square(art):
    buf = io.BytesIO()
    Image.new("RGB", (120, 80)).save(buf, "PNG")
    _use_marker_image(art, "wide.png", buf.getvalue())
    assert messages(art, "HF2011") == ["art/wide.png is 120 x 80 px; counters are square, so it is scaled to fit "
                                       "and centred"]
    buf = io.BytesIO()
    Image.new("RGB", (120, 118)).save(buf, "PNG")                            # 1.7 % off: square enough
    _use_marker_image(art, "nearly.png", buf.getvalue())
    assert found(art, "HF2011") == []


# -- HF2012 units, HF2013 boards without art ------------------------------------------------------------

def test_a_unit_missing_from_the_sheet_is_named(art):
    art.edit("art.yaml", lambda d: [row.pop() for row in d["sheets"][0]["cells"][1::2]])   # blue-12id-31 both faces
    (d,) = found(art, "HF2012")
    assert d.message == "unit blue-12id-31 has no counter art, though 18 of 19 units have; it is drawn"
    assert d.loc.file == "counters.yaml" and d.loc.line == 55 and d.units == ("blue-12id-31",)


def test_a_unit_with_a_front_and_no_back(art):
    art.edit("art.yaml", lambda d: d["sheets"][0]["cells"][3].pop())
    assert messages(art, "HF2012") == ["unit blue-12id-31 has art for its front but not for its back, though 18 "
                                       "units have; its back is drawn"]


def test_near_miss_a_tree_without_any_art_is_not_told_to_have_some():
    _, diags = check_tree(ROOT / "source" / "meuse")
    assert not [d for d in diags if d.code.startswith("HF20") and len(d.code) == 6]


def test_a_board_without_art_beside_one_with(art):
    art.edit("art.yaml", lambda d: d.update(boards=[_board(d, "A")]))
    assert messages(art, "HF2013") == ["board B has no art, though 1 board(s) have; it is drawn"]


# -- HF2014 unknown, HF2015 twice -------------------------------------------------------------------------

def test_art_for_ids_the_tree_lacks(art):
    def edit(d):
        d["sheets"][0]["cells"][0][0] = "red-1ad-1tnk"
        d["counters"].append({"formation": "red-2ad", "back": "art/turn-marker.png"})
        d["boards"].append({"board": "C", "image": "art/board-a.jpg", "registration": [{"hex": "A1.01", "at": [1, 1]}],
                            "spacing": {"columns": 85, "rows": 98}})
    art.edit("art.yaml", edit)
    assert messages(art, "HF2014") == [
        "board 'C' is not a board of map.yaml",
        "counter art for formation 'red-2ad', which counters.yaml does not have",
        "art/counters.png: cell row 1, column 1 names 'red-1ad-1tnk', which is no unit of counters.yaml"]


def test_a_face_given_twice_and_a_formation_fallback_that_is_not(art):
    art.edit("art.yaml", lambda d: d["counters"].append({"unit": "red-1ad-1tk", "front": "art/turn-marker.png"}))
    (d,) = found(art, "HF2015")
    assert d.message.startswith("the front of unit red-1ad-1tk is given art again (first at art.yaml:")
    assert d.units == ("red-1ad-1tk",)
    art.edit("art.yaml", lambda d: d["counters"].pop())
    art.edit("art.yaml", lambda d: d["counters"].append({"formation": "red-1ad", "back": "art/turn-marker.png"}))
    assert found(art) == []                       # a formation's art only fills in: no finding


def test_each_art_check_documents_itself_in_the_codes_form():
    """One line, then What it checks, Why, Reads, Violation, Near miss, in that order (COMMON.md)."""
    import inspect
    from validator.checks import all_checks
    sections = ["## What it checks", "## Why", "## Reads", "## Violation", "## Near miss"]
    checks = {c: x for c, x in all_checks().items() if c in ART_CODES}
    assert set(checks) == ART_CODES
    for code, c in checks.items():
        doc = inspect.getdoc(c.func)
        first, _, rest = doc.partition("\n\n")
        assert first and "\n" not in first and first.endswith("."), code
        at = [rest.find(s) for s in sections]
        assert -1 not in at and at == sorted(at), code
        bodies = [rest[a + len(s):b].strip() for s, a, b in zip(sections, at, at[1:] + [len(rest)])]
        assert all(bodies), code
