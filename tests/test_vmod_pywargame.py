"""Open each built module with an independent reader, pywargame (Python 3.12, in .venv312), through
tests/pyw_check.py, and check what it sees against the source."""
import collections
import json
import os
import subprocess
from pathlib import Path

import pytest

from compiler.render.layout import ArtLayout, board_offsets, board_slots, placed_layouts
from compiler.vassal.boxes import box_name
from compiler.vassal.build import build_module, plans_for, setup_file_name
from compiler.vassal.pieces import vassal_board_name
from tests.vmod_fixtures import make_game
from tests.vmod_games import real_games

ROOT = Path(__file__).resolve().parent.parent
PY312 = Path(os.environ.get("HEXFORGE_PY312", ROOT / ".venv312" / "bin" / "python"))


def _interpreter():
    if not PY312.exists():
        pytest.skip(f"no Python 3.12 with pywargame at {PY312} (make it: see tests/pyw_check.py)")
    r = subprocess.run([str(PY312), "-c", "import pywargame.vassal"], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"pywargame is not installed for {PY312}")
    return str(PY312)


def _facts(py, vmod: Path, names: dict, tmp: Path) -> dict:
    nf = tmp / "names.json"
    nf.write_text(json.dumps(names))
    r = subprocess.run([py, str(ROOT / "tests" / "pyw_check.py"), str(vmod), str(nf)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


CASES = ["fixture-mcr", "fixture-letters", "fixture-cr", "fixture-north", "fixture-art"] + sorted(real_games())


def _game(case):
    if case == "fixture-mcr":
        return make_game("map-column.row", gid="mcr")
    if case == "fixture-letters":
        return make_game("letters", "columns", "odd", gid="let")
    if case == "fixture-cr":
        return make_game("column-row", "columns", "even", gid="cr")
    if case == "fixture-north":
        return make_game("map-column.row", "columns", "even", gid="north", rows_increase="north")
    if case == "fixture-art":        # the author's scans, registered (tests/fixtures/meuse-art)
        from validator.source.loader import load_game
        return load_game(ROOT / "tests" / "fixtures" / "meuse-art")[0]
    g = real_games()[case]
    if g is None:
        pytest.skip(f"source/{case} does not load yet")
    return g


@pytest.mark.parametrize("case", CASES)
def test_pywargame_reads_module(case, tmp_path):
    py = _interpreter()
    game = _game(case)
    vmod = build_module(game, tmp_path / "out")
    names = {}
    lays = placed_layouts(game)
    for b in game.grid.boards:
        names[f"Main Map/{vassal_board_name(b)}"] = [hid for hid, _, _ in lays[b.id].hexes()]
    f = _facts(py, vmod, names, tmp_path)

    # maps, boards, grids
    assert sorted(f["maps"]["Main Map"]) == sorted(vassal_board_name(b) for b in game.grid.boards)
    for b in game.grid.boards:
        vb = vassal_board_name(b)
        info = f["maps"]["Main Map"][vb]
        assert len(info["hexgrids"]) == 1
        assert (int(info["width"]), int(info["height"])) == lays[b.id].size
        # pywargame's own name -> point rule puts every printed hex ID on our drawn hex centre; on the
        # author's art, within two pixels of where VASSAL snaps a piece (HexGridNumbering.getLocation
        # truncates the half-hex offset after adding it, HexGrid's snap before)
        for hid, c, r in lays[b.id].hexes():
            got = f["locations"][f"Main Map/{vb}"][hid]
            if isinstance(lays[b.id], ArtLayout):
                x, y = lays[b.id].centre(c, r)
                assert abs(got[0] - x) <= 1 and abs(got[1] - y) <= 2, hid
            else:
                assert got == list(lays[b.id].centre(c, r)), hid

    plans = plans_for(game)
    boxes = {p.box for pl in plans for p in pl.placements if p.box is not None}
    if boxes:
        assert sorted(f["maps"]["Reinforcements"]["Reinforcements"]["zones"]) == sorted(box_name(game, k) for k in boxes)

    # every image anything refers to is in the archive
    images = set(f["images"])
    for s in f["slots"]:
        assert {"images/" + i for i in s["images"]} <= images
    for m in f["maps"].values():
        for info in m.values():
            assert "images/" + info["image"] in images

    # palette: one slot per unit and marker; unit slots carry their UnitId
    assert len(f["slots"]) == len(game.units) + len(game.markers)
    assert sorted(s["props"]["UnitId"] for s in f["slots"] if "UnitId" in s["props"]) == sorted(u.id for u in game.units)
    assert f["dice"] == sorted(d.name for d in game.dice)
    assert len(f["setups"]) == len(game.scenarios)

    # saved games: each unit where the plan puts it, as many as the source lists
    for s, pl in zip(game.scenarios, plans):
        save = f["saves"][setup_file_name(s)]
        assert save["other"][0] == "begin_save" and save["other"][-1] == "end_save"
        in_play = [b.id for b in game.grid.boards if not s.boards or b.id in s.boards]
        bp = [o for o in save["other"] if o.startswith("Main MapBoardPicker")][0].split("\t")[1:]
        assert bp == [str(x) for b in in_play
                      for x in (vassal_board_name(game.grid.board(b)), *board_slots(game.grid, in_play)[b])]
        offs = board_offsets(game.grid, in_play, lays)
        got = collections.Counter()
        where = collections.defaultdict(list)
        for p in save["pieces"]:
            if "UnitId" in p["props"]:
                got[p["props"]["UnitId"]] += 1
                where[p["props"]["UnitId"]].append((p["map"], p["x"], p["y"], p["layer"]))
        want = collections.Counter(p.unit for p in pl.placements)
        assert got == want
        for p in pl.placements:
            if p.hex is None:
                continue
            h = game.grid.parse(p.hex)
            x, y = lays[h.board].centre(h.column, h.row)     # pywargame's point for it: checked above
            ox, oy = offs[h.board]
            layer = (2 if p.reduced else 1) if game.unit(p.unit).steps >= 2 else None
            assert ("Main Map", x + ox, y + oy, layer) in where[p.unit], (p.unit, p.hex)
        ids = [i for st in save["stacks"] for i in st["ids"]]
        assert sorted(ids) == sorted(p["id"] for p in save["pieces"])
