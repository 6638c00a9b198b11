"""Registration on every grid hexforge knows (letters, column-row, map-column.row; columns and rows; odd and
even shifts; rows numbered south and north; joined boards): a board "scanned" at another scale and offset
is registered from two reference hexes (or one and the spacings), every hex lands where the scan has it,
and VASSAL's rule (gridrule, its port) names each one from the calibrated HexGrid and snaps onto it."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from compiler.render.layout import DX, DY, ArtLayout, layout_for, placed_layout
from compiler.vassal import gridrule
from tests.vmod_fixtures import make_game
from validator.source.art import Registration, register
from validator.source.model import Art, BoardArt, ImageFile, ReferenceHex

SCALE, OFFSET = 1.37, (57.0, 83.0)
COMBOS = [c + ("south",) for c in itertools.product(["letters", "column-row", "map-column.row"], ["columns", "rows"],
                                                      ["odd", "even"])]
COMBOS += [("map-column.row", "columns", "odd", "north"), ("map-column.row", "columns", "even", "north"),
           ("column-row", "columns", "even", "north")]


def scanned(game, one_hex: bool = False):
    """The game with each drawn board 'scanned' at SCALE, OFFSET, registered from its first and last hexes
    (or the first and the spacings)."""
    arts = {}
    for b in game.grid.boards:
        lay = layout_for(game, b)
        hexes = list(lay.hexes())
        (h1, c1, r1), (h2, c2, r2) = hexes[0], hexes[-1]
        at = lambda c, r: tuple(v * SCALE + o for v, o in zip(lay.centre(c, r), OFFSET))  # noqa: E731
        w, h = lay.size
        image = ImageFile("art/scan.png", format="PNG", width=round(w * SCALE + 120), height=round(h * SCALE + 170),
                          mode="RGB", digest="0" * 64)
        spacing = (DX * SCALE, DY * SCALE) if game.grid.orientation == "columns" else (DY * SCALE, DX * SCALE)
        refs = (ReferenceHex(h1, at(c1, r1)),) + (() if one_hex else (ReferenceHex(h2, at(c2, r2)),))
        arts[b.id] = BoardArt(b.id, image, refs, spacing if one_hex else None)
    index = dict(game._index, board_art=arts)
    return dataclasses.replace(game, art=Art(boards=tuple(arts.values())), _index=index)


@pytest.mark.parametrize("scheme,orientation,shifted,rows_increase", COMBOS)
@pytest.mark.parametrize("one_hex", [False, True])
def test_every_hex_lands_where_the_scan_has_it(scheme, orientation, shifted, rows_increase, one_hex):
    plain = make_game(scheme, orientation, shifted, rows_increase=rows_increase)
    game = scanned(plain, one_hex)
    for b in game.grid.boards:
        reg = register(game.grid, b, rows_increase == "north", game.board_art(b.id))
        assert isinstance(reg, Registration), reg
        drawn = layout_for(plain, b)
        for hid, c, r in drawn.hexes():
            want = tuple(v * SCALE + o for v, o in zip(drawn.centre(c, r), OFFSET))
            assert reg.centre(c, r) == pytest.approx(want, abs=1e-6), hid


@pytest.mark.parametrize("scheme,orientation,shifted,rows_increase", COMBOS)
def test_vassal_names_and_snaps_every_hex_of_the_calibrated_grid(scheme, orientation, shifted, rows_increase):
    game = scanned(make_game(scheme, orientation, shifted, rows_increase=rows_increase))
    for b in game.grid.boards:
        lay = placed_layout(game, b)
        assert isinstance(lay, ArtLayout)
        g, num = lay.vassal_grid()
        assert g["sideways"] == ("true" if orientation == "rows" else "false")
        for hid, c, r in lay.hexes():
            x, y = lay.exact_centre(c, r)
            assert gridrule.hex_location_name(g, num, round(x), round(y), lay.size) == hid
            sx, sy = lay.centre(c, r)                  # where VASSAL puts a piece on it
            assert abs(sx - x) <= 2 and abs(sy - y) <= 2, hid
            assert gridrule.hex_location_name(g, num, sx, sy, lay.size) == hid
