"""The map as the audit report shows it: the whole play surface, every board where the module joins it.

A hex's place is its centre on the surface (`Surface.centre`: the board's layout, shifted by the board's
offset, as VASSAL lays the boards out), so a picture can span hexes of two boards and a move across
the seam is one arrow. The boards' pictures come from the board renderer (compiler/render/boards.py),
one per board, pasted side by side; what the report adds is drawn over them after any scaling, at a
size a player reads: the ring of each hex a finding names, each move's arrow (the whole path where
the finding names the hexes it went by), each unit's short printed designation (the ID its counter
shows) on a chip in the lower half of its hex, clear of the hex number, a stack's units listed in a
panel beside the map, and the entry and deployment areas named there too.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence

from PIL import Image, ImageDraw

from validator.source.model import Game
from validator.positions.position import Position

from .render.boards import font
from .render.counters import unit_colours, unit_identification
from .render.layout import DX, DY, HALF_W, BoardLayout, board_offsets, layout_for

RING = (230, 0, 200)                  # magenta: apart from the red victory-hex rings
ARROW = (20, 60, 220)                 # the move drawn: blue, from where it started to where it ended
AREA_COLOURS = {"entry": (230, 120, 0), "deployment": (0, 150, 150)}   # as the board renderer rings them
MARGIN_HEXES = 2                      # hexes of map shown around the ones a picture is about
MAX_PICTURE_PX = 1400                 # a picture's longest side; a bigger span is scaled down to it ...
MIN_SCALE = 0.45                      # ... but never below this (hex numbers must stay readable): cropped
CHIP_PX = 12                          # the type of a unit's chip and of the panel
CHIP_OFFSET = 0.06                    # a chip's centre below its hex's centre, in hex heights: clear of the
#                                       hex number above and of a place's name below
PANEL_PX = 300                        # the width of the panel beside the map
MAX_PANEL_LINES = 40

BoardPicture = Callable[[str], Image.Image]


@dataclass(frozen=True)
class Surface:
    """The joined boards: each board's layout and offset, and the size of the whole."""
    layouts: dict[str, BoardLayout]
    offsets: dict[str, tuple[int, int]]
    size: tuple[int, int]
    grid: object

    def centre(self, hex_id: Optional[str]) -> Optional[tuple[float, float]]:
        """The hex's centre on the surface, or None for a hex on no board (or no hex)."""
        if not hex_id:
            return None
        h = self.grid.parse(hex_id)
        lay = self.layouts.get(h.board) if h is not None else None
        c = lay.centre_of(hex_id) if lay is not None else None
        if c is None:
            return None
        ox, oy = self.offsets[h.board]
        return c[0] + ox, c[1] + oy


def surface_of(game: Game) -> Surface:
    layouts = {b.id: layout_for(game, b) for b in game.grid.boards}
    offsets = board_offsets(game.grid)
    w = max(offsets[b][0] + lay.size[0] for b, lay in layouts.items())
    h = max(offsets[b][1] + lay.size[1] for b, lay in layouts.items())
    return Surface(layouts, offsets, (w, h), game.grid)


def compose(surface: Surface, board: BoardPicture, box: tuple[int, int, int, int]) -> Image.Image:
    """The part `box` (x0, y0, x1, y1 on the surface) of the joined boards, one board picture per board."""
    x0, y0, x1, y1 = box
    img = Image.new("RGB", (x1 - x0, y1 - y0), (255, 255, 255))
    for bid, lay in surface.layouts.items():
        ox, oy = surface.offsets[bid]
        bw, bh = lay.size
        ix0, iy0, ix1, iy1 = max(x0, ox), max(y0, oy), min(x1, ox + bw), min(y1, oy + bh)
        if ix0 < ix1 and iy0 < iy1:
            part = board(bid).crop((ix0 - ox, iy0 - oy, ix1 - ox, iy1 - oy)).convert("RGB")
            img.paste(part, (ix0 - x0, iy0 - y0))
    return img


def short_label(game: Game, unit_id: str) -> str:
    """A unit's short printed designation: the ID its counter shows, else its name cut short."""
    u = game.unit(unit_id)
    if u is None:
        m = next((m for m in game.markers if m.id == unit_id), None)
        return (m.name if m else unit_id)[:14]
    return unit_identification(u) or (u.name or unit_id)[:14]


def chip_colours(game: Game, unit_id: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, text) of a unit's chip: its counter's colours."""
    u = game.unit(unit_id)
    return unit_colours(game, u) if u is not None else ((235, 235, 235), (0, 0, 0))


@dataclass
class View:
    """A picture of part of the surface: the box shown and the scale it is drawn at."""
    box: tuple[int, int, int, int]
    scale: float

    def at(self, p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - self.box[0]) * self.scale, (p[1] - self.box[1]) * self.scale


def view_around(surface: Surface, points: Sequence[tuple[float, float]]) -> View:
    """The box that shows every point with a margin of hexes, scaled to fit MAX_PICTURE_PX; where that
    would need a scale under MIN_SCALE, the box is cut around the first point instead."""
    margin_x, margin_y = MARGIN_HEXES * DX, MARGIN_HEXES * DY
    w, h = surface.size
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = [max(0, min(xs) - margin_x), max(0, min(ys) - margin_y),
           min(w, max(xs) + margin_x), min(h, max(ys) + margin_y)]
    scale = min(1.0, MAX_PICTURE_PX / max(box[2] - box[0], box[3] - box[1], 1))
    if scale < MIN_SCALE:
        scale, side = MIN_SCALE, MAX_PICTURE_PX / MIN_SCALE
        cx, cy = points[0]
        box = [max(0, cx - side / 2), max(0, cy - side / 2), min(w, cx + side / 2), min(h, cy + side / 2)]
    return View(tuple(int(v) for v in box), scale)


def draw_rings(d: ImageDraw.ImageDraw, surface: Surface, view: View, centres: Iterable[tuple[float, float]]) -> None:
    """Each hex outlined along its edge (a hexagon, so it never crosses the hex number)."""
    width = max(3, round(5 * view.scale))
    for cx, cy in centres:
        corners = [view.at(p) for p in surface.grid.corners(cx, cy, HALF_W - 2, DY / 2 - 2)]
        d.line(corners + corners[:1], fill=RING, width=width, joint="curve")


def draw_path(d: ImageDraw.ImageDraw, view: View, points: Sequence[tuple[float, float]]) -> None:
    """A line through the points with a filled head pointing at the last (stopping short of its centre,
    where the unit's chip is)."""
    pts = [view.at(p) for p in points]
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    gap = min(DY * 0.12 * view.scale, math.hypot(bx - ax, by - ay) / 3)
    n = math.hypot(bx - ax, by - ay) or 1.0
    pts[-1] = (bx - (bx - ax) / n * gap, by - (by - ay) / n * gap)
    d.line(pts, fill=ARROW, width=4, joint="curve")
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = min(max(14.0, DY * 0.35 * view.scale), length)
    base = (bx - ux * head, by - uy * head)
    d.polygon([(bx, by), (base[0] - uy * head * 0.5, base[1] + ux * head * 0.5),
               (base[0] + uy * head * 0.5, base[1] - ux * head * 0.5)], fill=ARROW)


def draw_units(d: ImageDraw.ImageDraw, game: Game, surface: Surface, view: View,
               position: Position) -> list[tuple[str, list[str]]]:
    """A chip per occupied hex in view: the top unit's short designation (with "+n" for the others of a
    stack), in the hex's lower half, clear of its number. Returns the stacks, for the panel."""
    f = font(CHIP_PX, True)
    stacks = []
    w, h = view.box[2] - view.box[0], view.box[3] - view.box[1]
    for hid, counters in sorted(position.stacks().items()):
        units = [c for c in counters if c.kind == "unit"]
        c = surface.centre(hid)
        if not units or c is None:
            continue
        x, y = view.at(c)
        if not (0 <= x < w * view.scale and 0 <= y < h * view.scale):
            continue
        top = units[-1]
        text = short_label(game, top.unit) + (f" +{len(units) - 1}" if len(units) > 1 else "")
        bg, fg = chip_colours(game, top.unit)
        tw = d.textlength(text, font=f)
        cy = y + DY * CHIP_OFFSET * view.scale
        d.rectangle([x - tw / 2 - 3, cy - CHIP_PX / 2 - 2, x + tw / 2 + 3, cy + CHIP_PX / 2 + 2], fill=bg,
                    outline=(0, 0, 0))
        d.text((x, cy), text, fill=fg, font=f, anchor="mm")
        if len(units) > 1:
            stacks.append((hid, [short_label(game, u.unit) + (" (" + ", ".join(sorted(u.state)) + ")"
                                                              if u.state else "") for u in units]))
    return stacks


def areas_in(game: Game, surface: Surface, view: View) -> list[tuple[str, str, list[str]]]:
    """(kind, name, hexes) of each entry or deployment area with a hex in view."""
    out = []
    for a in game.places.areas:
        shown = [hx for hx in a.hexes or () if (c := surface.centre(hx)) is not None and _inside(view, c)]
        if shown:
            out.append((a.kind, a.name or a.id, list(a.hexes)))
    return out


def _inside(view: View, c: tuple[float, float]) -> bool:
    x0, y0, x1, y1 = view.box
    return x0 <= c[0] < x1 and y0 <= c[1] < y1


def with_panel(img: Image.Image, title: str, stacks: list, areas: list) -> Image.Image:
    """The picture with a panel on its right: the stacks in it (every unit of each), then the areas."""
    f, fb = font(CHIP_PX), font(CHIP_PX, True)
    lines: list[tuple[str, object, tuple]] = [(title, fb, (0, 0, 0))]
    if stacks:
        lines.append(("Stacks (bottom first):", fb, (0, 0, 0)))
        lines += [(f"{hid}: {', '.join(units)}", f, (0, 0, 0)) for hid, units in stacks]
    for kind, name, hexes in areas:
        shown = name if hexes[0] in name else f"{name} ({', '.join(hexes[:4])}{', …' if len(hexes) > 4 else ''})"
        lines.append((f"{kind} area (its ring): {shown}", f, AREA_COLOURS.get(kind, (0, 0, 0))))
    wrapped = []
    for text, fnt, colour in lines:
        wrapped += [(part, fnt, colour) for part in _wrap(text, fnt, PANEL_PX - 16)]
    if len(wrapped) > MAX_PANEL_LINES:
        wrapped = wrapped[:MAX_PANEL_LINES - 1] + [(f"\u2026 {len(wrapped) - MAX_PANEL_LINES + 1} more lines", f,
                                                    (0, 0, 0))]
    line_h = CHIP_PX + 5
    out = Image.new("RGB", (img.width + PANEL_PX, max(img.height, 12 + line_h * len(wrapped))), (255, 255, 255))
    out.paste(img, (0, 0))
    d = ImageDraw.Draw(out)
    for i, (text, fnt, colour) in enumerate(wrapped):
        d.text((img.width + 10, 8 + i * line_h), text, fill=colour, font=fnt)
    return out


def _wrap(text: str, fnt, width: float) -> list[str]:
    """The text in lines of at most `width` pixels, the lines after the first indented."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines, line = [], ""
    for w in text.split():
        trial = f"{line} {w}" if line else w
        if line and probe.textlength(trial, font=fnt) > width:
            lines.append(line)
            line = "   " + w
        else:
            line = trial
    return lines + [line] if line else lines


def finding_picture(game: Game, surface: Surface, board: BoardPicture, hexes: Sequence[str],
                    moves: Sequence[tuple[str, str]], position: Optional[Position], title: str,
                    ) -> Optional[Image.Image]:
    """The map around every hex a finding names and every move of its step, across boards: the hexes
    ringed, each move drawn whole (through the finding's hexes where they trace it), the units then
    standing there on chips, the stacks and areas in a panel. None if no hex is on the map."""
    ringed = [c for h in hexes if (c := surface.centre(h)) is not None]
    paths = [_path(surface, m, hexes) for m in moves]
    paths = [p for p in paths if p]
    points = ringed + [pt for p in paths for pt in p]
    if not points:
        return None
    view = view_around(surface, points)
    img = compose(surface, board, view.box)
    if view.scale != 1.0:
        img = img.resize((max(1, round(img.width * view.scale)), max(1, round(img.height * view.scale))),
                         Image.LANCZOS)
    d = ImageDraw.Draw(img)
    draw_rings(d, surface, view, ringed)
    for p in paths:
        draw_path(d, view, p)
    stacks = draw_units(d, game, surface, view, position) if position is not None else []
    return with_panel(img, title, stacks, areas_in(game, surface, view))


def _path(surface: Surface, move: tuple[str, str], hexes: Sequence[str]) -> list[tuple[float, float]]:
    """The move's points: through the finding's hexes where they run from its start to its end (the way
    the finding says it went), else straight from start to end."""
    src, dst = move
    via = list(hexes) if len(hexes) > 2 and hexes[0] == src and hexes[-1] == dst else [src, dst]
    pts = [surface.centre(h) for h in via]
    return [] if any(p is None for p in pts) else pts
