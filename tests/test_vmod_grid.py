"""Every hex centre, named by VASSAL's own pixel->name rule (ported in compiler.vassal.gridrule from
HexGrid/HexGridNumbering/RegularGridNumbering), gives back the hex's printed ID; boards join."""
import itertools
import math

import pytest

from compiler.render.layout import DX, DY, board_offsets, layout_for
from compiler.vassal import gridrule
from tests.vmod_fixtures import make_game
from tests.vmod_games import real_games

COMBOS = [c + ("south",) for c in itertools.product(["letters", "column-row", "map-column.row"], ["columns", "rows"], ["odd", "even"])]
COMBOS += [c + ("north",) for c in itertools.product(["letters", "column-row", "map-column.row"], ["columns"], ["odd", "even"])]


def _check_names(game):
    n = 0
    for b in game.grid.boards:
        lay = layout_for(game, b)
        g, num = lay.vassal_grid()
        w, h = lay.size
        for hid, c, r in lay.hexes():
            x, y = lay.centre(c, r)
            assert 0 <= x < w and 0 <= y < h, hid
            assert gridrule.hex_location_name(g, num, x, y, lay.size) == hid
            # a point well inside the hex (not only its centre) names the same hex
            for ddx, ddy in ((DX * 0.3, 0), (-DX * 0.3, 0), (0, DY * 0.35), (0, -DY * 0.35)):
                if lay.sideways:
                    ddx, ddy = ddy, ddx
                assert gridrule.hex_location_name(g, num, round(x + ddx), round(y + ddy), lay.size) == hid, (hid, ddx, ddy)
            n += 1
    assert n == game.grid.count()


@pytest.mark.parametrize("scheme,orientation,shifted,rows_increase", COMBOS)
def test_every_hex_named_by_vassal_rule(scheme, orientation, shifted, rows_increase):
    _check_names(make_game(scheme, orientation, shifted, rows_increase=rows_increase))


@pytest.mark.parametrize("name", sorted(real_games()))
def test_real_game_every_hex_named(name):
    game = real_games()[name]
    if game is None:
        pytest.skip(f"source/{name} does not load yet")
    _check_names(game)


def _check_adjacency(game):
    """Hexes the model calls neighbours (across board seams too) are one hex apart on the joined map."""
    offs = board_offsets(game.grid)
    lays = {b.id: layout_for(game, b) for b in game.grid.boards}

    def px(hid):
        h = game.grid.parse(hid)
        x, y = lays[h.board].centre(h.column, h.row)
        ox, oy = offs[h.board]
        return x + ox, y + oy

    step = math.hypot(DX, DY / 2)
    for hid in game.grid.hexes():
        for n in game.grid.neighbours(hid):
            d = math.dist(px(hid), px(n))
            assert abs(d - step) < 1.5 or abs(d - DY) < 1.5, (hid, n, d)


@pytest.mark.parametrize("scheme,orientation,shifted,rows_increase", COMBOS)
def test_neighbours_touch_on_the_joined_map(scheme, orientation, shifted, rows_increase):
    _check_adjacency(make_game(scheme, orientation, shifted, rows_increase=rows_increase))


def test_board_b_column_1_just_east_of_a_last_column():
    g = make_game("map-column.row", "columns", "even")
    offs = board_offsets(g.grid)
    la, lb = layout_for(g, g.grid.board("A")), layout_for(g, g.grid.board("B"))
    assert offs["B"] == (la.size[0], 0)
    for r in range(0, 7):
        ax, ay = la.centre(8, r)
        bx, by = lb.centre(1, r)
        assert bx + offs["B"][0] - ax == DX
        # A8 (even: shifted down) and B1 (surface column 9: not shifted) are half a hex apart
        assert by - ay == -DY // 2
    assert "B1.03" in g.grid.neighbours("A8.03")


@pytest.mark.parametrize("name", sorted(real_games()))
def test_real_game_joins(name):
    game = real_games()[name]
    if game is None:
        pytest.skip(f"source/{name} does not load yet")
    _check_adjacency(game)


def test_vassal_name_formats():
    # RegularGridNumbering.getName: letters repeat past Z (AA, BB ...); numbers padded by `leading`
    assert [gridrule.get_name(v, "A", 0) for v in (0, 25, 26, 27, 51)] == ["A", "Z", "AA", "BB", "ZZ"]
    assert gridrule.get_name(4, "N", 1) == "04" and gridrule.get_name(12, "N", 1) == "12"
    assert gridrule.get_name(0, "N", 1) == "00" and gridrule.get_name(7, "N", 0) == "7"
    assert gridrule.get_name(-3, "N", 0) == "-3"
    assert gridrule.java_round(-0.5) == 0 and gridrule.java_round(2.5) == 3


@pytest.mark.parametrize("name", sorted(real_games()))
def test_real_game_printed_joins_hold_on_the_vassal_map(name):
    """Each printed join ("B column 1 meets A column 40") holds on the joined VASSAL map: the
    columns are one column spacing apart, east of each other, for every row both boards have."""
    game = real_games()[name]
    if game is None:
        pytest.skip(f"source/{name} does not load yet")
    if not game.joins:
        pytest.skip("no printed joins")
    offs = board_offsets(game.grid)
    for j in game.joins:
        a, b = game.grid.board(j["meets"]["board"]), game.grid.board(j["board"])
        la, lb = layout_for(game, a), layout_for(game, b)
        for r in range(max(a.rows[0], b.rows[0]), min(a.rows[1], b.rows[1]) + 1):
            ax = la.centre(j["meets"]["column"], r)[0] + offs[a.id][0]
            bx = lb.centre(j["column"], r)[0] + offs[b.id][0]
            assert bx - ax == DX, (j, r)
