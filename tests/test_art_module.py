"""The author's art built into the module (tests/fixtures/meuse-art): the boards are the author's files byte
for byte, their HexGrids name every printed hex and snap onto it, the set-ups stand on their hexes, the
pieces are the author's faces at the art's scale, nothing unchanged is encoded again; a board or unit
without art is drawn exactly as in a tree without art."""
from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from compiler.render import art as art_mod
from compiler.render.layout import ArtLayout, COUNTER_PX, placed_layout
from compiler.vassal import gridrule, reader
from compiler.vassal.build import build_module, plans_for
from compiler.vassal.setup import MAIN_MAP
from conftest import ROOT
from validator.source.loader import load_game

ART_TREE = ROOT / "tests" / "fixtures" / "meuse-art"
GOLD = (212, 175, 55)                    # the fixture's counter frames (tests/art_fixture.py)


@pytest.fixture(scope="module")
def game():
    g, diags = load_game(ART_TREE)
    assert g is not None and not [d for d in diags if d.severity == "error"]
    return g


@pytest.fixture(scope="module")
def built(game, tmp_path_factory):
    path = build_module(game, tmp_path_factory.mktemp("art-module"))
    return path, reader.read_module(path)


def _near_gold(px) -> bool:
    return all(abs(a - b) <= 40 for a, b in zip(px[:3], GOLD))


def test_the_boards_are_the_authors_files_byte_for_byte_and_stored(built):
    path, mod = built
    z = zipfile.ZipFile(path)
    for entry, src in (("images/board_A.jpg", "board-a.jpg"), ("images/board_B.png", "board-b.png")):
        assert z.read(entry) == (ART_TREE / "art" / src).read_bytes()
        assert z.getinfo(entry).compress_type == zipfile.ZIP_STORED
    boards = {b.name: b for b in mod.boards if b.map == MAIN_MAP}
    assert (boards["A"].image, boards["A"].width, boards["A"].height) == ("board_A.jpg", 1447, 2150)
    assert (boards["B"].image, boards["B"].width, boards["B"].height) == ("board_B.png", 1449, 2133)


def test_the_hexgrid_is_calibrated_to_the_registration(built, game):
    _, mod = built
    boards = {b.name: b for b in mod.boards if b.map == MAIN_MAP}
    a, b = boards["A"].grid, boards["B"].grid
    # board A: two reference hexes A1.01 (99.5, 132.5) and A16.20 (1374, 2056): 1274.5 / 15 px a column,
    # (2056 - 132.5) / 19.5 a row (A16 is shifted half a hex down); board B: one hex and the spacings
    assert (a["x0"], a["y0"], a["dx"], a["dy"]) == ("100", "133", "84.966667", "98.641026")
    assert (b["x0"], b["y0"], b["dx"], b["dy"]) == ("67", "90", "84.94", "98.64")
    assert a["sideways"] == b["sideways"] == "false"


@pytest.mark.parametrize("board_id", ["A", "B"])
def test_vassal_names_every_printed_hex_where_the_art_prints_it(built, game, board_id):
    _, mod = built
    info = next(b for b in mod.boards if b.map == MAIN_MAP and b.name == board_id)
    lay = placed_layout(game, game.grid.board(board_id))
    assert isinstance(lay, ArtLayout)
    reg = lay.reg
    for hid, c, r in lay.hexes():
        x, y = lay.exact_centre(c, r)
        # the hex's centre and points a third of a hex from it, as VASSAL names them (gridrule: its rule)
        for dx, dy in ((0, 0), (0.3, 0), (-0.3, 0), (0, 0.3), (0, -0.3), (0.2, 0.2), (-0.2, -0.2)):
            px, py = round(x + dx * reg.s_major), round(y + dy * reg.s_minor)
            assert info.locate(px, py, MAIN_MAP).hex == hid, (hid, dx, dy)
        # where VASSAL snaps a piece dropped on the hex: within a pixel (two, in the shifted columns, whose
        # half-hex offset VASSAL truncates too) of the art's centre
        sx, sy = gridrule.snap_point(info.grid, x, y)
        assert abs(sx - x) <= 1 and abs(sy - y) <= 2 and info.locate(sx, sy, MAIN_MAP).hex == hid
        assert lay.centre(c, r) == (sx, sy)


def test_a_near_miss_a_hex_further_is_the_neighbour(built, game):
    _, mod = built
    info = next(b for b in mod.boards if b.map == MAIN_MAP and b.name == "B")
    lay = placed_layout(game, game.grid.board("B"))
    x, y = lay.exact_centre(5, 5)
    assert info.locate(round(x), round(y + lay.reg.s_minor), MAIN_MAP).hex == "B5.06"
    # column 6 is shifted half a hex down: B6.05 lies half a row below B5.05, B6.06 a row and a half
    assert info.locate(round(x + lay.reg.s_major), round(y + lay.reg.s_minor / 2), MAIN_MAP).hex == "B6.05"
    assert info.locate(round(x + lay.reg.s_major), round(y + 1.5 * lay.reg.s_minor), MAIN_MAP).hex == "B6.06"


def test_every_set_up_piece_stands_on_its_printed_hex(built, game):
    _, mod = built
    plans = {p.scenario.id: p for p in plans_for(game)}
    for s, entry in zip(game.scenarios, mod.setups):
        sg, _ = reader.read_save(reader.Archive(mod.archive.read(entry["file"])))
        layouts = reader.board_layouts(sg)
        placed = sorted((pc.prop("UnitId"), mod.location_name(pc.basic["map"], layouts[pc.basic["map"]],
                                                             pc.basic["x"], pc.basic["y"]))
                        for pc in sg.pieces if pc.prop("UnitId") and pc.basic["map"] == MAIN_MAP)
        wanted = sorted((p.unit, p.hex) for p in plans[s.id].placements if p.hex)
        assert placed == wanted and wanted


def test_the_pieces_are_the_authors_faces_at_the_arts_scale(built, game):
    path, mod = built
    z = zipfile.ZipFile(path)
    px = round(COUNTER_PX * 98.641026 / 72)                  # three quarters of board A's hexes, as drawn ones are
    assert px == 74
    assert {(s["entryName"], s["gpid"]) for s in mod.slots} and all(
        s["traits"] for s in mod.slots)
    for u in game.units:
        for face in ("front", "back"):
            img = Image.open(io.BytesIO(z.read(f"images/unit_{u.id}_{face}.png")))
            assert img.size == (px, px)
            assert _near_gold(img.convert("RGB").getpixel((1, px // 2))), (u.id, face)   # the sheet's gold frame
    marker = Image.open(io.BytesIO(z.read("images/marker_turn.png")))
    assert marker.size == (px, px) and not _near_gold(marker.convert("RGB").getpixel((1, px // 2)))
    xml = z.read("buildFile.xml").decode()
    assert f'width="{px}" height="{px}"' in xml and f'width="{COUNTER_PX}"' not in xml


def test_a_face_is_cut_from_its_cell(game):
    face = game.face_art("unit", "red-1ad-1tk", "back")
    assert face.image.path == "art/counters.png" and face.box == (18, 214, 106, 302)   # row 3, column 1
    cell = art_mod.face_image(game.root, face, 88)
    sheet = Image.open(ART_TREE / "art" / "counters.png").convert("RGB").crop(face.box)
    assert cell.tobytes() == sheet.tobytes() and cell.size == sheet.size   # at the cell's own size: the very pixels


def test_a_rebuild_encodes_nothing_again_and_never_opens_the_board_scans(game, tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    shutil.copytree(ART_TREE, tree)
    g1, _ = load_game(tree)
    out = tmp_path / "out"
    cut = []
    real = art_mod.face_image
    monkeypatch.setattr(art_mod, "face_image", lambda *a: cut.append(a[1]) or real(*a))
    opened = []
    real_open = Image.open
    monkeypatch.setattr(Image, "open", lambda fp, *a, **k: opened.append(str(fp)) or real_open(fp, *a, **k))
    build_module(g1, out)
    assert len(cut) == 2 * len(game.units) + 1                 # every face cut once
    assert not [p for p in opened if "board-" in p]            # the scans are copied, never decoded
    # a change that no drawing shows: a scenario's name. Nothing is cut or encoded again.
    text = (tree / "scenarios" / "1-bridges.yaml").read_text()
    (tree / "scenarios" / "1-bridges.yaml").write_text(text.replace("name: The Bridges", "name: The Bridges (2)"))
    g2, _ = load_game(tree)
    cut.clear()
    build_module(g2, out)
    assert cut == []


def test_a_changed_sheet_recuts_its_faces(game, tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    shutil.copytree(ART_TREE, tree)
    out = tmp_path / "out"
    build_module(load_game(tree)[0], out)
    im = Image.open(tree / "art" / "counters.png").convert("RGB")
    im.putpixel((0, 0), (1, 2, 3))                             # one pixel outside every cell: new bytes
    im.save(tree / "art" / "counters.png")
    cut = []
    real = art_mod.face_image
    monkeypatch.setattr(art_mod, "face_image", lambda *a: cut.append(a[1]) or real(*a))
    build_module(load_game(tree)[0], out)
    assert len(cut) == 2 * len(game.units)                     # keyed by the sheet's digest: all cut again


# -- boards and units without art: drawn exactly as without art.yaml ------------------------------------

def _entries(path: Path) -> dict[str, bytes]:
    z = zipfile.ZipFile(path)
    return {n: z.read(n) for n in z.namelist()}


def test_units_without_art_and_every_board_are_byte_identical_to_the_tree_without_art(tmp_path):
    plain = tmp_path / "plain"
    shutil.copytree(ROOT / "source" / "meuse", plain)
    one = tmp_path / "one"
    shutil.copytree(ROOT / "source" / "meuse", one)
    (one / "art").mkdir()
    shutil.copy(ART_TREE / "art" / "turn-marker.png", one / "art" / "tk.png")
    (one / "art.yaml").write_text("counters:\n  - {unit: red-1ad-1tk, front: art/tk.png}\n")
    g_plain, g_one = load_game(plain)[0], load_game(one)[0]
    a = _entries(build_module(g_plain, tmp_path / "out-plain"))
    b = _entries(build_module(g_one, tmp_path / "out-one"))
    assert set(a) == set(b)
    differ = sorted(n for n in a if a[n] != b[n])
    assert differ == ["images/unit_red-1ad-1tk_front.png"]   # the buildFile, the boards, every other face: the same


def test_a_board_without_art_beside_one_with_is_drawn_as_without_art(tmp_path):
    plain = tmp_path / "plain"
    shutil.copytree(ROOT / "source" / "meuse", plain)
    half = tmp_path / "half"
    shutil.copytree(ART_TREE, half)
    text = (half / "art.yaml").read_text()
    boards_a = text.split("  - board: B")[0]
    (half / "art.yaml").write_text(boards_a + "counters:" + text.split("counters:", 1)[1])
    a = _entries(build_module(load_game(plain)[0], tmp_path / "out-plain"))
    b = _entries(build_module(load_game(half)[0], tmp_path / "out-half"))
    assert b["images/board_B.png"] == a["images/board_B.png"]
    assert "images/board_A.jpg" in b and "images/board_A.png" not in b


def test_a_units_face_comes_from_its_own_entry_then_a_cell_then_its_formation_then_its_type(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ART_TREE, tree)
    text = (tree / "art.yaml").read_text()
    text = text.replace(", {unit: blue-12id-30, face: back}, {unit: blue-12id-31, face: back}]", "]")
    text = text.replace("counters:\n", "counters:\n  - {formation: blue-12id, back: art/turn-marker.png}\n"
                                       "  - {type: infantry, back: art/sheet-back.png}\n"
                                       "  - {type: armor, front: art/sheet-back.png}\n", 1)
    (tree / "art.yaml").write_text(text)
    Image.new("RGB", (60, 60), (9, 9, 9)).save(tree / "art" / "sheet-back.png")
    g = load_game(tree)[0]
    assert g.face_art("unit", "blue-12id-31", "back").image.path == "art/turn-marker.png"   # its formation's
    assert g.face_art("unit", "blue-12id-31", "front").image.path == "art/counters.png"     # its own cell
    assert g.face_art("unit", "red-4rd-10", "back").box is not None                         # a cell beats its type
    assert g.face_art("unit", "red-1ad-1tk", "front").image.path == "art/counters.png"      # ... and its type's
    assert g.face_art("marker", "turn", "back") is None                                     # nothing: drawn


def test_a_16_bit_greyscale_face_keeps_its_tones(tmp_path):
    im = Image.new("I;16", (40, 40), 40000)                   # 40000 / 65535 of white: a mid grey
    im.save(tmp_path / "grey16.png")
    from validator.source.images import inspect
    from validator.source.model import Face, Loc
    facts = inspect(tmp_path, "grey16.png", Loc("art.yaml"))
    assert facts.usable and facts.mode == "I;16"
    face = art_mod.face_image(str(tmp_path), Face(facts, None), 40)
    assert face.getpixel((20, 20)) in ((155, 155, 155), (156, 156, 156))     # not clipped to white


def test_a_scan_swapped_for_a_link_out_of_the_tree_after_the_check_is_not_copied(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ART_TREE, tree)
    g = load_game(tree)[0]                               # checked: the scan is inside the tree
    secret = tmp_path / "secret.jpg"
    secret.write_bytes(b"not the author's")
    (tree / "art" / "board-a.jpg").unlink()
    (tree / "art" / "board-a.jpg").symlink_to(secret)    # swapped before the build reads it
    with pytest.raises(OSError, match="art/board-a.jpg leads out of the game tree"):
        build_module(g, tmp_path / "out")
    assert not (tmp_path / "out" / "meuse.vmod").exists()   # nothing half-written
