"""Pixel layout of the map boards, shared by the board renderer and the VASSAL module writer.

Every board is one image. Hexes sit on a regular grid: in the `columns` orientation (flat-topped
hexes in vertical columns) column centres are `DX` pixels apart and hexes in a column `DY` apart,
shifted columns half a hex (`DY/2`) lower; the `rows` orientation is the same with x and y swapped.
Both spacings are integers and `DY` is even, so every hex centre is a whole pixel.

A board image is exactly `columns * DX` wide (half a column spacing of margin each side), so two
boards laid side by side in VASSAL (its BoardPicker puts a board right of its neighbour's width)
continue one column grid: B1 sits one column spacing east of A40 when B's origin column is 40.

`vassal_grid()` gives the HexGrid/HexGridNumbering attributes that make VASSAL name every hex by
its printed ID (see ``tests/test_vmod_grid.py`` for the port of VASSAL's pixel->name rule).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Optional

from compiler.vassal import gridrule
from validator.source.art import Registration, registration
from validator.geometry.hexgrid import Board, Grid

DY = 72                      # hex height across the flats, px (even)
DX = 62                      # column spacing, px (~ DY * sqrt(3)/2)
HALF_W = DX * 2 / 3          # centre-to-corner along the major axis (DX = 3/4 of corner-to-corner)
COUNTER_PX = 54              # counter artwork size, px
MARGIN_MAJOR = DX // 2       # margin before the first column
MARGIN_MINOR = DY // 2       # margin above the first row


@dataclass(frozen=True)
class BoardLayout:
    grid: Grid
    board: Board
    north: bool = False          # row numbers increase northwards (row 0 on the south edge)

    def __post_init__(self):
        if self.north and self.grid.orientation != "columns":
            raise NotImplementedError("row numbers increasing north are supported for column grids only")

    # -- shape ---------------------------------------------------------------------------------
    @property
    def sideways(self) -> bool:
        return self.grid.orientation == "rows"

    def _major_minor(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(major range, minor range): columns/rows, or rows/columns when sideways."""
        b = self.board
        return (b.rows, b.columns) if self.sideways else (b.columns, b.rows)

    @property
    def size(self) -> tuple[int, int]:
        (a0, a1), (m0, m1) = self._major_minor()
        major = (a1 - a0 + 1) * DX
        # half a hex more for the shifted columns, unless boards join along this axis: then the
        # board must be exactly its hexes long for the next board's hexes to continue the grid
        minor = (m1 - m0 + 1) * DY + (0 if self._joins_on_minor_axis() else DY // 2)
        return (minor, major) if self.sideways else (major, minor)

    def _minor_margin(self) -> int:
        """Before the first row: half a hex; a quarter when boards join along this axis (the seam then
        runs through the half-shifted hexes, and both boards' centres stay on their own board)."""
        return DY // 4 if self._joins_on_minor_axis() else MARGIN_MINOR

    def _joins_on_minor_axis(self) -> bool:
        k = 0 if self.sideways else 1
        return len({b.origin[k] for b in self.grid.boards}) > 1

    def shifted(self, major_index: int) -> bool:
        """Whether a column (row, when sideways) of this board sits half a hex down (right)."""
        off = self.board.origin[1] if self.sideways else self.board.origin[0]
        return self.grid.is_shifted(major_index + off)

    def centre(self, column: int, row: int) -> tuple[int, int]:
        """Pixel centre of a hex of this board, in board-image coordinates."""
        (a0, _), (m0, _) = self._major_minor()
        major, minor = (row, column) if self.sideways else (column, row)
        u = MARGIN_MAJOR + (major - a0) * DX
        if self.north:
            # row-number space is drawn upside down: a shifted column (half a hex further on in row
            # numbers) sits half a hex higher on the drawn map
            _, m1 = self.board.rows
            v = self._minor_margin() + (m1 - minor) * DY + (0 if self.shifted(major) else DY // 2)
        else:
            v = self._minor_margin() + (minor - m0) * DY + (DY // 2 if self.shifted(major) else 0)
        return (v, u) if self.sideways else (u, v)

    def centre_of(self, hex_id: str) -> Optional[tuple[int, int]]:
        h = self.grid.parse(hex_id)
        if h is None or h.board != self.board.id or not self.board.contains(h.column, h.row):
            return None
        return self.centre(h.column, h.row)

    def exact_centre(self, column: int, row: int) -> tuple[float, float]:
        """Where the hex's centre is drawn (on a drawn board, `centre`: a whole pixel)."""
        return self.centre(column, row)

    @property
    def across_flats(self) -> float:
        """A hex's size across its flats, in board pixels."""
        return DY

    def polygon(self, column: int, row: int, inset: float = 0.0) -> list[tuple[float, float]]:
        x, y = self.centre(column, row)
        return self.grid.corners(x, y, HALF_W - inset, DY / 2 - inset)

    def hexes(self) -> Iterator[tuple[str, int, int]]:
        return self.grid.board_hexes(self.board)

    # -- VASSAL ----------------------------------------------------------------------------------
    def _raw_parity(self) -> int:
        """1 if the board's first column (row, when sideways) is VASSAL's raw column 1, else 0: VASSAL shifts
        odd raw columns down, so a raw column is odd exactly when it is shifted here (drawn upside down,
        the columns VASSAL must shift down are the unshifted ones)."""
        (a0, _), _ = self._major_minor()
        return 1 if (self.shifted(a0) != self.north) else 0

    def _grid_geometry(self, k: int) -> tuple[str, str, str, str]:
        """(x0, y0, dx, dy) of the HexGrid: raw column 0 along the major axis, raw row 0 of a column VASSAL
        does not shift, the spacings (VASSAL reads the origin after swapping x/y when sideways)."""
        return str(MARGIN_MAJOR - k * DX), str(self._minor_margin()), f"{DX:.1f}", f"{DY:.1f}"

    def _hex_width(self) -> float:
        return DX

    def vassal_grid(self) -> tuple[dict, dict]:
        """(HexGrid attributes, HexGridNumbering attributes), all as strings."""
        k = self._raw_parity()
        x0, y0, dx, dy = self._grid_geometry(k)
        grid = {
            "sideways": "true" if self.sideways else "false",
            "x0": x0, "y0": y0, "dx": dx, "dy": dy,
            "snapTo": "true", "edgesLegal": "false", "cornersLegal": "false",
            "visible": "false", "dotsVisible": "false", "color": "0,0,0",
        }
        return grid, self._numbering(k)

    def _numbering(self, k: int) -> dict:
        """HexGridNumbering attributes that name every hex by its printed ID (raw column parity `k`)."""
        g, b = self.grid, self.board
        # Column (major) and row (minor) name formats.
        if g.scheme == "letters":
            col_fmt = ("A", 0, 1)              # type, leading, value of the first name (A=0)
        elif g.scheme == "column-row":
            col_fmt = ("N", max(g.column_digits - 1, 0), 0)
        else:
            col_fmt = ("N", 0, 0)
        if g.scheme == "letters":
            row_fmt = ("N", 0)
        else:
            row_fmt = ("N", max(g.row_digits - 1, 0))
        cols0, rows0 = b.columns[0], b.rows[0]
        col_off = cols0 - col_fmt[2]           # offset so raw index -> printed column
        if self.sideways:
            # raw column = our row (major), raw row = our column (minor)
            h_type, h_lead, h_off = row_fmt[0], row_fmt[1], rows0 - k
            v_type, v_lead, v_off = col_fmt[0], col_fmt[1], col_off
            first = "V"                         # gridLocation = row name (our column) + sep + column name
        else:
            h_type, h_lead, h_off = col_fmt[0], col_fmt[1], col_off - k
            v_type, v_lead, v_off = row_fmt[0], row_fmt[1], rows0
            first = "H"
        v_desc = "false"
        if self.north:
            # VASSAL counts rows up from the bottom with vDescend: row = getMaxRows() - rawRow, where
            # getMaxRows() = floor(board height / hex width + 0.5) (RegularGridNumbering/HexGridNumbering);
            # raw row 0 is the top row (number rows[1]), so the offset makes the top name rows[1].
            max_rows = math.floor(self.size[1] / self._hex_width() + 0.5)
            v_off = b.rows[1] - max_rows
            v_desc = "true"
        sep = "." if g.scheme == "map-column.row" else ""
        fmt = (b.id + "$gridLocation$") if g.scheme == "map-column.row" else "$gridLocation$"
        return {
            "first": first, "sep": sep,
            "hType": h_type, "hLeading": str(h_lead), "hOff": str(h_off), "hDescend": "false",
            "vType": v_type, "vLeading": str(v_lead), "vOff": str(v_off), "vDescend": v_desc,
            "stagger": "false", "locationFormat": fmt, "visible": "false",
            "fontSize": "9", "color": "0,0,0", "rotateText": "0", "hDrawOff": "0", "vDrawOff": "0",
        }


def _num(v: float) -> str:
    """A HexGrid spacing as VASSAL reads it (Double.valueOf): to a millionth of a pixel."""
    return repr(round(v, 6))


@dataclass(frozen=True)
class ArtLayout(BoardLayout):
    """A board whose image is the author's (art.yaml): the image's own size, each hex where the board's
    registration (validator/source/art.py) puts it, and a HexGrid calibrated to them, so that VASSAL's location
    names and snapping fall on the printed hexes.

    HexGrid takes its origin in whole pixels (HexGrid.setAttribute reads x0/y0 as Integer) and its
    spacings as doubles: the spacings are the registration's, the origin within a pixel of its raw hex
    (0, 0), chosen so that the points VASSAL snaps to (truncated to whole pixels) lie within a pixel, or two
    in the shifted columns (VASSAL truncates their half-hex offset too), of the exact centres. `centre` is where VASSAL puts a piece dropped
    on the hex (HexGrid.hexPointCenterFromRawIndex), which is where the set-ups place them;
    `exact_centre` the registration's own, for drawing."""
    reg: Optional[Registration] = None
    image_size: tuple[int, int] = (0, 0)

    @property
    def size(self) -> tuple[int, int]:
        return self.image_size

    @property
    def scale(self) -> float:
        """How many times the drawn board's size the art's hexes are (across the flats)."""
        return self.reg.across_flats / DY

    @property
    def across_flats(self) -> float:
        return self.reg.across_flats

    def exact_centre(self, column: int, row: int) -> tuple[float, float]:
        return self.reg.centre(column, row)

    def centre(self, column: int, row: int) -> tuple[int, int]:
        return gridrule.snap_point(self.vassal_grid()[0], *self.exact_centre(column, row))

    def polygon(self, column: int, row: int, inset: float = 0.0) -> list[tuple[float, float]]:
        x, y = self.exact_centre(column, row)
        return self.grid.corners(x, y, self.reg.s_major * 2 / 3 - inset, self.reg.s_minor / 2 - inset)

    def _hex_width(self) -> float:
        return self.reg.s_major

    def _grid_geometry(self, k: int) -> tuple[str, str, str, str]:
        (a0, _), (m0, m1) = self._major_minor()
        first, even = self._at(a0, m0), self._at(a0 + k, m1 if self.north else m0)
        u0 = first[0] - k * self.reg.s_major
        # the first whole pixel past the exact origin: VASSAL truncates the points it snaps to
        return (str(math.floor(u0) + 1), str(math.floor(even[1]) + 1), _num(self.reg.s_major),
                _num(self.reg.s_minor))

    def _at(self, major: int, minor: int) -> tuple[float, float]:
        """The exact centre of hex (major, minor) as (along major, along minor)."""
        c, r = (minor, major) if self.sideways else (major, minor)
        x, y = self.exact_centre(c, r)
        return (y, x) if self.sideways else (x, y)


def layout_for(game, board: Board) -> BoardLayout:
    """The drawn board's layout (what hexforge's own board image has)."""
    return BoardLayout(game.grid, board, game.rows_increase == "north")


def placed_layout(game, board: Board) -> BoardLayout:
    """The layout a board has in the module: its art's (the image and registration of art.yaml), else the drawn one."""
    reg = registration(game, board.id)
    if not isinstance(reg, Registration):
        return layout_for(game, board)
    art = game.board_art(board.id)
    return ArtLayout(game.grid, board, game.rows_increase == "north", reg, art.image.size)


def placed_layouts(game) -> dict[str, BoardLayout]:
    return {b.id: placed_layout(game, b) for b in game.grid.boards}


def piece_px(game) -> int:
    """The pieces' size in the module: COUNTER_PX, three quarters of a drawn hex; where the first board
    has art, the same share of its hexes (art and drawn counters alike)."""
    for b in game.grid.boards:
        lay = placed_layout(game, b)
        if isinstance(lay, ArtLayout):
            return max(8, round(COUNTER_PX * lay.scale))
    return COUNTER_PX


def board_slots(grid: Grid, board_ids: Optional[list[str]] = None) -> dict[str, tuple[int, int]]:
    """Each board's (column, row) cell in VASSAL's BoardPicker grid, from the boards' origins."""
    boards = [b for b in grid.boards if board_ids is None or b.id in board_ids]
    cols = sorted({b.origin[0] for b in boards})
    rows = sorted({b.origin[1] for b in boards})
    return {b.id: (cols.index(b.origin[0]), rows.index(b.origin[1])) for b in boards}


def board_offsets(grid: Grid, board_ids: Optional[list[str]] = None,
                  layouts: Optional[dict] = None) -> dict[str, tuple[int, int]]:
    """Pixel offset of each board in the VASSAL map (Map.getLocation: sums of widths to the left), the
    boards as `layouts` has them (by default drawn)."""
    slots = board_slots(grid, board_ids)
    lay = layouts or {b.id: BoardLayout(grid, b) for b in grid.boards}
    out = {}
    for bid, (cx, cy) in slots.items():
        x = sum(lay[o].size[0] for o, (ox, oy) in slots.items() if oy == cy and ox < cx)
        y = sum(lay[o].size[1] for o, (ox, oy) in slots.items() if ox == cx and oy < cy)
        out[bid] = (x, y)
    return out

