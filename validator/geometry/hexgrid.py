"""Hex geometry: the one place that knows how hex IDs are written and how hexes touch.

Three printed schemes share one model. Each board numbers its own hexes (column, row); boards sit
in one play surface at a column/row `origin`, so hexes on both sides of a seam are neighbours.
Internally every hex becomes cube coordinates, where distance and neighbours are simple sums.

- ``letters``        ``TT15``  ``UU1``  ``W2``   columns A..Z, AA..ZZ (doubled), rows unpadded
- ``column-row``     ``0409``                    zero-padded column then row
- ``map-column.row`` ``B27.49`` ``A29.00``        board letter, column unpadded, '.', row padded
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, NamedTuple, Optional

from ..source.frozen import frozen

SCHEMES = ("letters", "column-row", "map-column.row")
SQRT3 = 3 ** 0.5
ORIENTATIONS = ("columns", "rows")

# Cube directions; the order is stable so hexside numbering is too.
_DIRS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


class Hex(NamedTuple):
    board: str
    column: int
    row: int


@frozen
class Board:
    """One map board: its column and row ranges (inclusive) and its offset in the joined play surface."""
    id: str
    columns: tuple[int, int]          # inclusive
    rows: tuple[int, int]             # inclusive
    origin: tuple[int, int] = (0, 0)  # column/row offset in the joined play surface
    name: str = ""

    def contains(self, column: int, row: int) -> bool:
        return self.columns[0] <= column <= self.columns[1] and self.rows[0] <= row <= self.rows[1]


def column_letters(n: int) -> str:
    """1 -> A … 26 -> Z, 27 -> AA … 52 -> ZZ (the doubled-letter convention of wargame maps)."""
    if not 1 <= n <= 52:
        raise ValueError(f"column {n} has no letter name")
    letter = chr(ord("A") + (n - 1) % 26)
    return letter if n <= 26 else letter * 2


def letters_column(s: str) -> Optional[int]:
    if len(s) == 1 and "A" <= s <= "Z":
        return ord(s) - ord("A") + 1
    if len(s) == 2 and s[0] == s[1] and "A" <= s[0] <= "Z":
        return ord(s[0]) - ord("A") + 27
    return None


@dataclass(frozen=True)
class Grid:
    scheme: str
    orientation: str = "columns"
    shifted: str = "odd"                       # which columns (rows) sit half a hex down (right)
    boards: tuple[Board, ...] = ()
    column_digits: int = 2
    row_digits: int = 2
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.scheme not in SCHEMES:
            raise ValueError(f"unknown hex-ID scheme {self.scheme!r}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"unknown orientation {self.orientation!r}")
        if self.shifted not in ("odd", "even"):
            raise ValueError(f"shifted must be odd or even, not {self.shifted!r}")
        by_id = {b.id: b for b in self.boards}
        self._cache["boards"] = by_id
        self._cache["ids"] = {}
        self._cache["at"] = {}
        if self.scheme == "letters":
            rx = re.compile(r"([A-Z]{1,2})(\d+)")
        elif self.scheme == "column-row":
            rx = re.compile(r"(\d{%d})(\d{%d})" % (self.column_digits, self.row_digits))
        else:
            rx = re.compile(r"([A-Z][A-Za-z0-9]*?)(\d+)\.(\d+)")
        self._cache["rx"] = rx

    # -- IDs -----------------------------------------------------------------------------------

    def board(self, board_id: str) -> Optional[Board]:
        return self._cache["boards"].get(board_id)

    def _single_board(self) -> Optional[Board]:
        return self.boards[0] if len(self.boards) == 1 else None

    def format(self, h: Hex) -> str:
        if self.scheme == "letters":
            return f"{column_letters(h.column)}{h.row}"
        if self.scheme == "column-row":
            return f"{h.column:0{self.column_digits}d}{h.row:0{self.row_digits}d}"
        return f"{h.board}{h.column}.{h.row:0{self.row_digits}d}"

    def parse(self, hex_id: str) -> Optional[Hex]:
        """The hex an ID names, if the ID is written the canonical way for this map (any extent)."""
        cache = self._cache["ids"]
        if hex_id in cache:
            return cache[hex_id]
        h = self._parse(hex_id) if isinstance(hex_id, str) else None
        if h is not None and self.format(h) != hex_id:
            h = None
        cache[hex_id] = h
        return h

    def _parse(self, s: str) -> Optional[Hex]:
        m = self._cache["rx"].fullmatch(s)
        if not m:
            return None
        if self.scheme == "map-column.row":
            return Hex(m.group(1), int(m.group(2)), int(m.group(3)))
        b = self._single_board()
        board_id = b.id if b else ""
        if self.scheme == "letters":
            col = letters_column(m.group(1))
            return None if col is None else Hex(board_id, col, int(m.group(2)))
        return Hex(board_id, int(m.group(1)), int(m.group(2)))

    def is_wellformed(self, hex_id: str) -> bool:
        return self.parse(hex_id) is not None

    def exists(self, hex_id: str) -> bool:
        """Well-formed and on one of the boards."""
        h = self.parse(hex_id)
        if h is None:
            return False
        b = self.board(h.board)
        return b is not None and b.contains(h.column, h.row)

    def hexes(self) -> Iterator[str]:
        """Every hex of every board, board by board, column by column."""
        for b in self.boards:
            for hex_id, _, _ in self.board_hexes(b):
                yield hex_id

    def board_hexes(self, board: Board) -> Iterator[tuple[str, int, int]]:
        """(hex ID, column, row) of every hex of one board, column by column."""
        for c in range(board.columns[0], board.columns[1] + 1):
            for r in range(board.rows[0], board.rows[1] + 1):
                yield self.format(Hex(board.id, c, r)), c, r

    def count(self) -> int:
        return sum((b.columns[1] - b.columns[0] + 1) * (b.rows[1] - b.rows[0] + 1) for b in self.boards)

    # -- the joined play surface ---------------------------------------------------------------

    def surface(self, h: Hex) -> tuple[int, int]:
        """(column, row) in the joined play surface."""
        b = self.board(h.board)
        oc, orow = b.origin if b else (0, 0)
        return h.column + oc, h.row + orow

    # -- drawing geometry: the one place that knows the shift parity and a hex's shape -----------

    @property
    def shift_parity(self) -> int:
        """1 when odd columns (rows) sit half a hex down (right), 0 when even ones do."""
        return 1 if self.shifted == "odd" else 0

    def is_shifted(self, major: int) -> bool:
        """Whether play-surface column `major` (row, in the `rows` orientation) sits half a hex on."""
        return (major & 1) == self.shift_parity

    def centre_steps(self, c: int, r: int) -> tuple[float, float]:
        """Centre of surface hex (c, r) in grid steps (one column, one row), x east and y in row order:
        a shifted column (row) adds half a step. Renderers scale the steps by their own spacings."""
        if self.orientation == "columns":
            return float(c), r + (0.5 if self.is_shifted(c) else 0.0)
        return c + (0.5 if self.is_shifted(r) else 0.0), float(r)

    def centre(self, c: int, r: int, radius: float = 1.0) -> tuple[float, float]:
        """Centre of surface hex (c, r) for regular hexes of circumradius `radius` (y in row order)."""
        x, y = self.centre_steps(c, r)
        if self.orientation == "columns":
            return 1.5 * radius * x, SQRT3 * radius * y
        return SQRT3 * radius * x, 1.5 * radius * y

    def corners(self, x: float, y: float, half_major: float, half_minor: float) -> list[tuple[float, float]]:
        """The six corners of a hex centred at (x, y): `half_major` centre-to-corner along the columns'
        axis (flat-topped in the `columns` orientation), `half_minor` centre-to-flat across it.
        A regular hex of circumradius R has half_major R and half_minor R * sqrt(3) / 2."""
        hw, hh = half_major, half_minor
        pts = [(hw, 0.0), (hw / 2, hh), (-hw / 2, hh), (-hw, 0.0), (-hw / 2, -hh), (hw / 2, -hh)]
        if self.orientation == "rows":
            pts = [(b, a) for a, b in pts]
        return [(x + a, y + b) for a, b in pts]

    def _to_cube(self, c: int, r: int) -> tuple[int, int, int]:
        p = self.shift_parity
        if self.orientation == "columns":
            x = c
            # columns of parity p sit half a hex lower
            z = r - (c - (c & 1)) // 2 if p == 1 else r - (c + (c & 1)) // 2
            return x, -x - z, z
        z = r
        x = c - (r - (r & 1)) // 2 if p == 1 else c - (r + (r & 1)) // 2
        return x, -x - z, z

    def _from_cube(self, x: int, y: int, z: int) -> tuple[int, int]:
        p = self.shift_parity
        if self.orientation == "columns":
            c = x
            r = z + (x - (x & 1)) // 2 if p == 1 else z + (x + (x & 1)) // 2
            return c, r
        r = z
        c = x + (z - (z & 1)) // 2 if p == 1 else x + (z + (z & 1)) // 2
        return c, r

    def cube(self, hex_id: str) -> Optional[tuple[int, int, int]]:
        known = self._cache.setdefault("cubes", {})   # distances ask for the same hexes again and again
        if hex_id in known:
            return known[hex_id]
        h = self.parse(hex_id)
        known[hex_id] = c = None if h is None else self._to_cube(*self.surface(h))
        return c

    def at_surface(self, c: int, r: int) -> Optional[str]:
        """The hex ID at a play-surface position (first board that holds it), or None off the maps."""
        key = (c, r)
        at = self._cache["at"]
        if key in at:
            return at[key]
        found = None
        for b in self.boards:
            lc, lr = c - b.origin[0], r - b.origin[1]
            if b.contains(lc, lr):
                found = self.format(Hex(b.id, lc, lr))
                break
        at[key] = found
        return found

    def _at_cube(self, x: int, y: int, z: int) -> Optional[str]:
        return self.at_surface(*self._from_cube(x, y, z))

    def distance(self, a: str, b: str) -> Optional[int]:
        ca, cb = self.cube(a), self.cube(b)
        if ca is None or cb is None:
            return None
        return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The hexes next to a hex that exist on some board (across board seams too)."""
        known = self._cache.setdefault("neighbours", {})   # the grid never changes: work each hex out once
        found = known.get(hex_id)
        if found is None:
            c = self.cube(hex_id)
            if c is None:
                return ()                    # not a hex of this grid: not kept, so the cache stays bounded
            found = known[hex_id] = tuple(n for d in _DIRS
                                          if (n := self._at_cube(c[0] + d[0], c[1] + d[1], c[2] + d[2])) is not None)
        return found

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def direction(self, a: str, b: str) -> Optional[int]:
        """0..5: the side of `a` that `b` lies across, or None if they are not adjacent."""
        ca, cb = self.cube(a), self.cube(b)
        if ca is None or cb is None:
            return None
        d = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
        return _DIRS.index(d) if d in _DIRS else None

    def hexside(self, a: str, b: str) -> Optional[tuple[str, str]]:
        """The side shared by two adjacent hexes as a canonical (sorted) pair, else None."""
        if not self.adjacent(a, b):
            return None
        return (a, b) if (self.cube(a) < self.cube(b)) else (b, a)

    def within(self, hex_id: str, n: int) -> list[str]:
        """Every existing hex at distance <= n (the hex itself included)."""
        c = self.cube(hex_id)
        if c is None:
            return []
        n = min(n, self._span())  # no two hexes are further apart: a huge n costs no more than the map
        out = []
        for dx in range(-n, n + 1):
            for dy in range(max(-n, -dx - n), min(n, -dx + n) + 1):
                dz = -dx - dy
                h = self._at_cube(c[0] + dx, c[1] + dy, c[2] + dz)
                if h is not None:
                    out.append(h)
        return out

    def _span(self) -> int:
        """An upper bound on the distance between any two hexes of the play surface."""
        if "span" not in self._cache:
            cols = [x for b in self.boards for x in (b.columns[0] + b.origin[0], b.columns[1] + b.origin[0])]
            rows = [x for b in self.boards for x in (b.rows[0] + b.origin[1], b.rows[1] + b.origin[1])]
            self._cache["span"] = (max(cols) - min(cols)) + (max(rows) - min(rows)) + 1 if cols else 0
        return self._cache["span"]

    def line(self, a: str, b: str) -> list[str]:
        """The hexes on the straight line from a to b inclusive. Where the line runs exactly between two
        hexes (along a hex row of an offset map) ties are broken one consistent way, unless that hex is
        off the map and the other is not: a line along a map edge stays on the map."""
        ca, cb = self.cube(a), self.cube(b)
        if ca is None or cb is None:
            return []
        n = max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))
        out: list[str] = []
        for i in range(n + 1):
            t = i / n if n else 0.0
            point = tuple(p + (q - p) * t for p, q in zip(ca, cb))
            h = self._at_cube(*_cube_round(point, 1)) or self._at_cube(*_cube_round(point, -1))
            if h is not None and (not out or out[-1] != h):
                out.append(h)
        return out

    def board_of(self, hex_id: str) -> Optional[str]:
        h = self.parse(hex_id)
        return h.board if h else None


def _cube_round(point: tuple[float, ...], side: int) -> tuple[int, int, int]:
    """The hex a fractional cube point lies in; exact ties go one way (`side` 1) or the other (-1)."""
    fx, fy, fz = point[0] + side * 1e-6, point[1] + side * 2e-6, point[2] - side * 3e-6
    rx, ry, rz = round(fx), round(fy), round(fz)
    ex, ey, ez = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if ex > ey and ex > ez:
        rx = -ry - rz
    elif ey > ez:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def hexes_in_boxes(grid: Grid, boxes: Iterable) -> set[str]:
    """The hexes of the grid inside a union of boxes (anything with `contains(board, column, row)`)."""
    boxes = list(boxes)
    return {h for b in grid.boards for h, c, r in grid.board_hexes(b)
            if any(box.contains(b.id, c, r) for box in boxes)}
