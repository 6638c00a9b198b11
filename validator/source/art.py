"""The author's art as the model reads it: where a board's hexes lie in its image, and which image shows
each counter face.

A board's registration (`register`) is one reference hex's centre in image pixels and the spacings (from
one column's centres to the next, from one row's to the next), or two reference hexes, from which both
spacings follow. Hexes then lie on the board's own grid as the drawn boards have them (`BoardLayout` in
compiler/render/layout.py): columns (rows, for `orientation: rows`) a spacing apart along the major axis,
the shifted ones half a hex further on along the minor axis, row numbers running down the image, or up
it where `row_numbers_increase: north`.

A counter face's art (`faces`) is, for a unit, its own `counters` entry, else a sheet cell naming it,
else its formation's entry, else its type's; for a marker its own entry, else a sheet cell.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..geometry.hexgrid import Board, Grid
from .model import Art, BoardArt, Face

SQRT3_2 = 3 ** 0.5 / 2
REGULAR = 1 / SQRT3_2           # row spacing / column spacing of a regular flat-topped hex grid
IRREGULAR = 0.15                # a registration whose hexes are this much off regular is suspect


@dataclass(frozen=True)
class Registration:
    """Where every hex of one board lies in its image. `major` is the axis columns run along (x; y for
    `orientation: rows`), `minor` the other; `s_major`, `s_minor` the spacings along them."""
    grid: Grid
    board: Board
    north: bool
    ref: tuple[int, int]                      # (major index, minor index) of the reference hex
    at: tuple[float, float]                   # its centre: (along major, along minor)
    s_major: float
    s_minor: float

    @property
    def sideways(self) -> bool:
        return self.grid.orientation == "rows"

    @property
    def spacing(self) -> tuple[float, float]:
        """(px from one column to the next, px from one row to the next)."""
        return (self.s_minor, self.s_major) if self.sideways else (self.s_major, self.s_minor)

    def _offset(self, major: int) -> float:
        """How far a line of hexes sits along the minor axis, in spacings: half a hex for the shifted ones
        (further down; higher, where rows are numbered northwards)."""
        off = self.board.origin[1] if self.sideways else self.board.origin[0]
        if not self.grid.is_shifted(major + off):
            return 0.0
        return -0.5 if self.north else 0.5

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """A hex's centre in image pixels (x, y)."""
        major, minor = (row, column) if self.sideways else (column, row)
        u = self.at[0] + (major - self.ref[0]) * self.s_major
        sign = -1.0 if self.north else 1.0
        v = self.at[1] + (sign * (minor - self.ref[1]) + self._offset(major) - self._offset(self.ref[0])) * self.s_minor
        return (v, u) if self.sideways else (u, v)

    def centres(self):
        """(hex id, x, y) of every hex of the board."""
        for hid, c, r in self.grid.board_hexes(self.board):
            x, y = self.centre(c, r)
            yield hid, x, y

    @property
    def across_flats(self) -> float:
        """A hex's size across its flats, in image pixels (the minor spacing)."""
        return self.s_minor

    def irregularity(self) -> float:
        """How far the hexes are from regular: |rows / columns spacing of a flat hex / regular - 1|."""
        return abs(self.s_minor / self.s_major / REGULAR - 1)


@dataclass(frozen=True)
class Unregistered:
    """Why a board's registration gives no grid: the message, and the reference hexes it concerns."""
    message: str
    hexes: tuple[str, ...] = ()


def register(grid: Grid, board: Board, north: bool, art: BoardArt) -> Union[Registration, Unregistered]:
    """The board's registration from its art, or why there is none."""
    refs = []
    for r in art.registration:
        h = grid.parse(r.hex)
        if h is None or h.board != board.id or not board.contains(h.column, h.row):
            return Unregistered(f"reference hex {r.hex} is not a hex of board {board.id}", (r.hex,))
        axes = (h.row, h.column) if grid.orientation == "rows" else (h.column, h.row)
        at = (r.at[1], r.at[0]) if grid.orientation == "rows" else (r.at[0], r.at[1])
        refs.append((axes, at, r.hex))
    if len(refs) == 1:
        return _one_hex(grid, board, north, art, refs[0])
    if art.spacing is not None:
        return Unregistered("two reference hexes fix the spacings: give either a second hex or `spacing`, not both",
                            tuple(r[2] for r in refs))
    return _two_hexes(grid, board, north, refs)


def _one_hex(grid, board, north, art, ref) -> Union[Registration, Unregistered]:
    if art.spacing is None:
        return Unregistered(f"one reference hex ({ref[2]}) needs the spacings beside it (`spacing: {{columns, rows}}`),"
                            " or name a second hex", (ref[2],))
    columns, rows = art.spacing
    s_major, s_minor = (rows, columns) if grid.orientation == "rows" else (columns, rows)
    return Registration(grid, board, north, ref[0], ref[1], s_major, s_minor)


def _two_hexes(grid, board, north, refs) -> Union[Registration, Unregistered]:
    ((a1, m1), (u1, v1), h1), ((a2, m2), (u2, v2), h2) = refs
    line = "row" if grid.orientation == "rows" else "column"
    if a1 == a2:
        return Unregistered(f"{h1} and {h2} are in the same {line}: the spacing from one {line} to the next does not "
                            f"follow; name hexes in different {line}s (far apart, for precision)", (h1, h2))
    s_major = (u2 - u1) / (a2 - a1)
    probe = Registration(grid, board, north, (a1, m1), (u1, v1), s_major, 1.0)
    # how many minor spacings lie between the two hexes: their rows, and the half-hex shifts of their lines
    steps = (-1.0 if north else 1.0) * (m2 - m1) + probe._offset(a2) - probe._offset(a1)
    if steps == 0:
        other = "column" if line == "row" else "row"
        return Unregistered(f"{h1} and {h2} lie level with each other across the {line}s: the spacing from one {other} "
                            f"to the next does not follow; name hexes in different {other}s", (h1, h2))
    s_minor = (v2 - v1) / steps
    if s_major <= 0 or s_minor <= 0:
        return Unregistered(f"{h1} at {_xy(grid, u1, v1)} and {h2} at {_xy(grid, u2, v2)} put the hexes in the wrong "
                            "order (the image would be mirrored or the hex IDs swapped): check both", (h1, h2))
    return Registration(grid, board, north, (a1, m1), (u1, v1), s_major, s_minor)


def _xy(grid: Grid, u: float, v: float) -> str:
    x, y = (v, u) if grid.orientation == "rows" else (u, v)
    return f"[{x:g}, {y:g}]"


def faces(art: Art, units, markers) -> dict[tuple[str, str, str], Face]:
    """(kind, id, face) -> the face's art, for every unit and marker face the art shows (`face_art`)."""
    own: dict = {}
    shared: dict = {}
    for c in art.counters:
        for face, image in (("front", c.front), ("back", c.back)):
            if image is not None:
                table = own if c.kind in ("unit", "marker") else shared
                table.setdefault((c.kind, c.id, face), Face(image, None, image.loc))
    cells: dict = {}
    for sheet in art.sheets:
        for cell in sheet.cells:
            cells.setdefault((cell.kind, cell.id, cell.face), Face(sheet.image, sheet.box(cell), cell.loc))
    out: dict = {}
    for u in units:
        for face in ("front", "back"):
            f = (own.get(("unit", u.id, face)) or cells.get(("unit", u.id, face))
                 or (shared.get(("formation", u.formation, face)) if u.formation else None)
                 or shared.get(("type", u.type, face)))
            if f is not None:
                out[("unit", u.id, face)] = f
    for m in markers:
        for face in ("front", "back"):
            f = own.get(("marker", m.id, face)) or cells.get(("marker", m.id, face))
            if f is not None:
                out[("marker", m.id, face)] = f
    return out


def board_arts(art: Art) -> dict[str, BoardArt]:
    """Board id -> its art (the first entry, where art.yaml names a board twice)."""
    out: dict = {}
    for b in art.boards:
        out.setdefault(b.board, b)
    return out


def registration(game, board_id: str) -> Union[Registration, Unregistered, None]:
    """The registration of a board of the game; None where the board has no art."""
    art = game.board_art(board_id)
    if art is None:
        return None
    return register(game.grid, game.grid.board(board_id), game.rows_increase == "north", art)
