"""VASSAL's rule for naming a board point, ported from its source (3.7.9) for checking modules.

Map.locationName -> Board.locationName (point relative to the board) -> ZonedGrid (first Zone that
contains the point, named by its locationFormat) or HexGrid.locationName ->
RegularGridNumbering.locationName(getRow, getColumn), with HexGrid.getRawColumn/getRawRow and
HexGridNumbering.getRow (stagger) and RegularGridNumbering.getName (numbers padded by `leading`
zeros; letters A..Z then AA, BB, ... as `do { append(ALPHABET[v % 26]); v -= 26 } while (v >= 0)`).
"""
from __future__ import annotations

import math
from typing import Optional

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def java_round(v: float) -> int:
    """Math.round(double): floor(v + 0.5)."""
    return math.floor(v + 0.5)


def java_rem(a: int, b: int) -> int:
    """Java's % (sign of the dividend)."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def get_name(value: int, typ: str, leading: int) -> str:
    val = "-" if value < 0 else ""
    value = abs(value)
    if typ == "A":
        while True:
            val += ALPHABET[value % 26]
            value -= 26
            if value < 0:
                break
        return val
    while leading > 0 and value < 10 ** leading:
        val += "0"
        leading -= 1
    return val + str(value)


def hex_location_name(grid: dict, numbering: dict, x: int, y: int, board_size: tuple[int, int] = (0, 0)) -> str:
    """The name VASSAL gives a point (board coordinates) on a HexGrid with a HexGridNumbering.
    `board_size` (width, height) is needed for descending numbering only."""
    sideways = grid.get("sideways", "false") == "true"
    if sideways:
        x, y = y, x
    x0, y0 = int(grid.get("x0", "0")), int(grid.get("y0", "32"))
    dy = float(grid.get("dy", "64.0"))
    dx = float(grid.get("dx", str(math.sqrt(3) / 2 * dy)))
    raw_col = math.floor((x - x0) / dx + 0.5)
    nx = java_round((x - x0) / dx)
    if java_rem(nx, 2) == 0:
        ny = java_round((y - y0) / dy)
    else:
        ny = java_round((y - y0 - dy / 2) / dy)
    h_desc = numbering.get("hDescend", "false") == "true"
    v_desc = numbering.get("vDescend", "false") == "true"
    # getMaxRows/getMaxColumns as HexGridNumbering writes them (height / hex *width*, width / hex *size*)
    max_rows = math.floor(board_size[1] / dx + 0.5)
    max_cols = math.floor(board_size[0] / dy + 0.5)
    row = ny
    if v_desc and not sideways:
        row = max_rows - row
    if h_desc and sideways:
        row = max_cols - row
    if numbering.get("stagger", "true") == "true" and java_rem(raw_col, 2) != 0:
        if sideways:
            row += -1 if h_desc else 1
        else:
            row += -1 if v_desc else 1
    col = raw_col
    if v_desc and sideways:
        col = max_rows - col
    if h_desc and not sideways:
        col = max_cols - col
    h_off, v_off = int(numbering.get("hOff", "1")), int(numbering.get("vOff", "1"))
    h_type, v_type = numbering.get("hType", "N")[0], numbering.get("vType", "N")[0]
    h_lead, v_lead = int(numbering.get("hLeading", "1")), int(numbering.get("vLeading", "1"))
    sep = numbering.get("sep", "")
    row_name = get_name(row + v_off, v_type, v_lead)
    col_name = get_name(col + h_off, h_type, h_lead)
    grid_location = col_name + sep + row_name if numbering.get("first", "H")[0] == "H" else row_name + sep + col_name
    fmt = numbering.get("locationFormat", "$gridLocation$")
    return (fmt.replace("$gridLocation$", grid_location).replace("$row$", row_name)
            .replace("$column$", col_name))


def _frame(grid: dict) -> tuple[bool, int, int, float, float]:
    """(sideways, x0, y0, dx, dy) of a HexGrid's attributes, as HexGrid.setAttribute reads them."""
    dy = float(grid.get("dy", "64.0"))
    return (grid.get("sideways", "false") == "true", int(grid.get("x0", "0")), int(grid.get("y0", "32")),
            float(grid.get("dx", str(math.sqrt(3) / 2 * dy))), dy)


def raw_index(grid: dict, x: float, y: float) -> tuple[int, int]:
    """HexGrid.getRawColumn / getRawRow of a point (board coordinates)."""
    sideways, x0, y0, dx, dy = _frame(grid)
    if sideways:
        x, y = y, x
    nx = math.floor((x - x0) / dx + 0.5)
    ny = java_round((y - y0) / dy) if java_rem(java_round((x - x0) / dx), 2) == 0 else java_round((y - y0 - dy / 2) / dy)
    return nx, ny


def raw_centre(grid: dict, nx: int, ny: int) -> tuple[int, int]:
    """The point VASSAL snaps a piece to in raw hex (nx, ny): HexGrid.hexPointCenterFromRawIndex, with
    Java's truncating int casts (odd raw columns half a hex, truncated, lower)."""
    sideways, x0, y0, dx, dy = _frame(grid)
    x = int(dx * nx + x0)
    y = int(dy * ny + y0) if java_rem(nx, 2) == 0 else int(dy * ny + int(dy / 2) + y0)
    return (y, x) if sideways else (x, y)


def snap_point(grid: dict, x: float, y: float) -> tuple[int, int]:
    """Where VASSAL puts a piece dropped at or near a hex centre: the centre of its raw hex."""
    return raw_centre(grid, *raw_index(grid, x, y))


def point_in_polygon(x: float, y: float, pts: list[tuple[int, int]]) -> bool:
    inside = False
    n = len(pts)
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xi:
                inside = not inside
    return inside


def zone_location_name(zones: list[dict], x: int, y: int) -> Optional[str]:
    for z in zones:
        pts = []
        for tok in z.get("path", "").split(";"):
            if "," in tok:
                a, b = tok.split(",", 1)
                pts.append((int(a), int(b)))
        if pts and point_in_polygon(x, y, pts):
            return z.get("locationFormat", "$name$").replace("$name$", z.get("name", ""))
    return None
