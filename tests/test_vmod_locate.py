"""One pixel -> location rule for the module reader and the log reader (reader.Module.locate): they agree
at every point, on a hex grid, in a holding box's zone, on a board without a grid and off every board."""
from pathlib import Path

from compiler.vassal.reader import read_module
from compiler.vassal.vlog import Geometry
from validator.positions.position import Where

MEUSE = Path(__file__).resolve().parent / "fixtures" / "vlogs" / "meuse.vmod"


def _points(mod, map_name):
    layout = mod.board_setups[map_name]
    pos = mod.board_positions(map_name, layout)
    width = max(pos[b][0] + mod.board(map_name, b).width for b, _, _ in layout)
    height = max(pos[b][1] + mod.board(map_name, b).height for b, _, _ in layout)
    for x in range(-7, width + 40, 37):
        for y in range(-5, height + 40, 41):
            yield x, y


def test_the_module_reader_and_the_log_reader_name_every_point_alike():
    mod = read_module(MEUSE)
    geo = Geometry(mod)
    kinds = set()
    for map_name, layout in mod.board_setups.items():
        for x, y in _points(mod, map_name):
            w = geo.where(map_name, x, y)
            assert mod.locate(map_name, layout, x, y) == w
            assert mod.location_name(map_name, layout, x, y) == (w.hex or w.box)
            kinds.add("hex" if w.hex else "map" if w.box == map_name else "zone")
    assert kinds == {"hex", "zone", "map"}      # every kind of place was met


def test_off_the_grid_is_the_map_itself_for_both():
    mod = read_module(MEUSE)
    main, reinf = "Main Map", "Reinforcements"
    assert mod.location_name(main, mod.board_setups[main], 31, 36) == "A1.01"       # near miss: a hex
    assert mod.locate(main, mod.board_setups[main], -1, 36) == Where(box=main)      # left of every board
    # the Reinforcements board has zones and no hex grid: its margin is the map, as the log reader says
    assert mod.locate(reinf, mod.board_setups[reinf], 2, 2) == Where(box=reinf)
    assert Geometry(mod).where(reinf, 2, 2) == Where(box=reinf)
