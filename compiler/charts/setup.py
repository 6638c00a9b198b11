"""Scenario set-up cards: a plot of the play area with the scenario's units on it, the set-up list
(location, unit, state) as printed, holding boxes for the reinforcements, and victory.

The plot is vector and shows the play area only (plus anything set up outside it): the terrain,
roads/rivers and hexside features, places and victory hexes (gold outline and star) the tree knows.
Units set up in one hex stand there as small counters (a stack shows its first unit and a count; the
stack list beside the plot names them all) when the hexes are large enough, on a page per board if
the overview is too small; otherwise, and for lines that name several hexes
(`any_of`, `range`, `within`, `area`: drawn lighter with a thick outline), the hexes carry the line's
number from the `#` column of the list. Each turn's reinforcements get a holding box (per side) with
their counters, captioned by entry.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from validator.geometry.hexgrid import SQRT3, Hex, hexes_in_boxes
from validator.geometry.locations import location_hexes

from ..render.boards import feature_colour, path_segments, terrain_colour
from .artplot import art_boards, draw_board_art, draw_face
from ..render.counters import _rgb, unit_colours, unit_identification
from .aids import (
    MARGIN, esc, formation_name, grid_style, incomplete_banner, location_text, lookup_unit, ooa_table,
    placement_text, styles, write_doc, _frame_width,
)
from .pdf import FONT, FONT_BOLD, paper_size

MAP_FRACTION = 0.42     # of the frame height
MAP_FRACTION_BIG = 0.72  # when the hexes would be smaller than MIN_HEX_R points
MIN_HEX_R = 3.5
UNKNOWN_PLOT_FILL = (247, 245, 230)   # a hex whose terrain is not printed: plain paper, never a guessed colour


def scenario_hexes(game, scenario) -> tuple[list[str], set[str]]:
    """(all hexes of the scenario's boards, the play area)."""
    g = game.grid
    boards = set(scenario.boards) or {b.id for b in g.boards}
    allh = [h for b in g.boards if b.id in boards for h, _, _ in g.board_hexes(b)]
    if scenario.play_area:
        play = hexes_in_boxes(g, scenario.play_area) & set(allh)
    else:
        play = set(allh)
    return allh, play


MINI_MIN = 10.0         # points: a counter smaller than this on the plot is not drawn (the list says it)
MINI_MAX = 26.0
STACK_FIT = 1           # counters legible in one hex; a stack shows its top one and goes to the stack list
STACK_SHADOWS = 2       # blank counter edges drawn under the top one, to show there is a stack
MINI_TEXT = 0.3         # of the counter edge: one type size for every counter on the card


def _rl(rgb) -> colors.Color:
    return colors.Color(*[v / 255 for v in rgb])


def _fit_line(c, text: str, font: str, size: float, x: float, y: float, width: float) -> None:
    """text centred at (x, y) at `size`, narrowed (not set smaller) when wider than `width`."""
    w = stringWidth(text, font, size)
    t = c.beginText()
    t.setFont(font, size)
    scale = min(100.0, 100.0 * width / w) if w else 100.0
    t.setHorizScale(scale)
    t.setTextOrigin(x - w * scale / 200.0, y)
    t.textOut(text)
    t.setHorizScale(100.0)
    c.drawText(t)


def draw_mini_counter(c, game, unit, state: tuple, x: float, y: float, cs: float) -> None:
    """A small counter centred at (x, y): the author's face for it (art.yaml), else drawn as vectors with
    its colours, ID and factors (reduced: the back's)."""
    if draw_face(c, game, unit, state, x, y, cs):
        return
    bg, fg = unit_colours(game, unit)
    c.setFillColor(_rl(bg))
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.25)
    c.rect(x - cs / 2, y - cs / 2, cs, cs, stroke=1, fill=1)
    reduced = "reduced" in state
    if reduced:  # the reduced side's lighter edge, as on the counter
        c.setStrokeColor(_rl(tuple(round(v + (255 - v) * 0.55) for v in bg)))
        c.setLineWidth(cs * 0.07)
        c.rect(x - cs * 0.43, y - cs * 0.43, cs * 0.86, cs * 0.86, stroke=1, fill=0)
    c.setFillColor(_rl(fg))
    fs = cs * MINI_TEXT
    ident = unit_identification(unit)   # generic counters have none: their factors say enough
    factors = (unit.reduced if reduced else unit.factors)
    lower = factors.printed if factors else ("reduced" if reduced else "")
    if ident:
        _fit_line(c, ident, FONT_BOLD, fs, x, y + cs * 0.08, cs * 0.9)
        _fit_line(c, lower, FONT, fs, x, y - cs * 0.3, cs * 0.9)
    else:
        _fit_line(c, lower, FONT_BOLD, fs, x, y - fs * 0.35, cs * 0.9)


def _star(c, x: float, y: float, r: float) -> None:
    p = c.beginPath()
    for i in range(10):
        a = math.radians(90 + 36 * i)
        rr = r if i % 2 == 0 else r * 0.45
        (p.moveTo if i == 0 else p.lineTo)(x + rr * math.cos(a), y + rr * math.sin(a))
    p.close()
    c.drawPath(p, stroke=1, fill=1)


class HexMap(Flowable):
    """The play area plot: terrain, places and victory hexes the tree knows, set-up groups marked and,
    where the hexes are large enough, their units as small counters.

    marks: [(label, [hex ids], (r, g, b), solid)]; stars: victory hexes; units: {hex: [(Unit, state)]}.
    """

    def __init__(self, game, scenario, width: float, max_height: float, marks: list, stars: list[str],
                 units: dict | None = None, board: str | None = None):
        super().__init__()
        g = game.grid
        on_board = (lambda h: g.board_of(h) == board) if board is not None else (lambda h: True)
        self.game, self.scenario = game, scenario
        self.marks = [(lb, [h for h in hs if on_board(h)], rgb, solid) for lb, hs, rgb, solid in marks]
        self.stars = stars
        self.units = {h: us for h, us in (units or {}).items() if on_board(h)}
        self.all, self.play = scenario_hexes(game, scenario)
        self.all = [h for h in self.all if on_board(h)]
        marked = {h for _, hexes, _, _ in self.marks for h in hexes} | set(self.units)
        # the play area (and anything marked outside it), not the whole board
        self.shown = [h for h in self.all if h in self.play or h in marked] if scenario.play_area else list(self.all)
        # rows numbered northwards (row 00 on the south edge) plot upwards
        flip = -1.0 if game.rows_increase == "north" else 1.0
        self.pos = {}
        for h in list(self.all) + sorted(marked - set(self.all)):
            p = g.parse(h)
            if p is not None and h not in self.pos:
                x, y = g.centre(*g.surface(p))
                self.pos[h] = (x, y * flip)
        self.visible = {h for h in self.shown if h in self.pos}   # places and victory hexes: drawn only here
        self.art = art_boards(game, self.visible)                 # boards shown as the author's own images
        pts = [self.pos[h] for h in list(self.shown) + sorted(marked) if h in self.pos] or [(0.0, 0.0)]
        self.minx = min(p[0] for p in pts) - 1
        self.maxx = max(p[0] for p in pts) + 1
        self.miny = min(p[1] for p in pts) - 1
        self.maxy = max(p[1] for p in pts) + 1
        sw, sh = self.maxx - self.minx, self.maxy - self.miny
        self.scale = min(width / sw, max_height / sh)
        self.width, self.height = sw * self.scale, sh * self.scale
        self.counter = min(MINI_MAX, self.scale * 1.45)   # just inside the hex's flats (1.7)
        self.draws_counters = self.counter >= MINI_MIN

    def overflow(self) -> dict:
        """{hex: [(Unit, state)]} of the hexes whose units are not all drawn on the plot."""
        if not self.draws_counters:
            return {}
        return {h: us for h, us in self.units.items() if len(us) > STACK_FIT and h in self.pos}

    def wrap(self, aw, ah):
        return self.width, self.height

    def _xy(self, h: str) -> tuple[float, float]:
        x, y = self.pos[h]
        return (x - self.minx) * self.scale, self.height - (y - self.miny) * self.scale

    def _path(self, c, hexes, R):
        p = c.beginPath()
        for h in hexes:
            x, y = self._xy(h)
            pts = self.game.grid.corners(x, y, R, R * SQRT3 / 2)
            p.moveTo(*pts[0])
            for q in pts[1:]:
                p.lineTo(*q)
            p.close()
        return p

    def draw(self):
        c = self.canv
        R = self.scale * 0.98
        c.saveState()
        p = c.beginPath()
        p.rect(0, 0, self.width, self.height)
        c.clipPath(p, stroke=0, fill=0)
        if self.art:     # the scans show the terrain, places and hex numbers themselves
            draw_board_art(c, self, R, self.art)
        self._draw_hexes(c, R)
        self._draw_terrain_lines(c, R)
        if not self.art:
            self._draw_board_names(c)
        self._draw_marks(c, R)
        self._draw_places(c, R)
        self._draw_victory(c, R)
        self._draw_counters(c)
        self._draw_corner_ids(c, R)
        c.restoreState()

    def _drawn(self, h: str) -> bool:
        """A hex drawn from the tree (not shown by its board's art)."""
        return not self.art or self.game.grid.board_of(h) not in self.art

    def _draw_hexes(self, c, R) -> None:
        shown = [h for h in self.shown if h in self.pos and self._drawn(h)]
        outside = [h for h in shown if h not in self.play]
        inside = [h for h in shown if h in self.play]
        c.setLineWidth(0.15)
        if outside:
            c.setStrokeColor(colors.Color(0.8, 0.8, 0.8))
            c.drawPath(self._path(c, outside, R), stroke=1, fill=0)
        c.setStrokeColor(colors.Color(0.35, 0.35, 0.35))
        for rgb, hexes in self._by_terrain_colour(inside):
            c.setFillColor(_rl(rgb))
            c.drawPath(self._path(c, hexes, R), stroke=1, fill=1)

    def _by_terrain_colour(self, hexes: list[str]) -> list[tuple[tuple[int, int, int], list[str]]]:
        """Hexes grouped by the board artwork's colour of their (first) terrain; unknown terrain stays pale."""
        groups: dict = {}
        for h in hexes:
            types = self.game.hex_terrain(h)
            groups.setdefault(terrain_colour(types[0]) if types else UNKNOWN_PLOT_FILL, []).append(h)
        return sorted(groups.items())

    def _draw_terrain_lines(self, c, R) -> None:
        """Roads, rails, rivers the tree lists as paths, and hexside features, as lines."""
        c.setLineCap(1)
        for path in self.game.terrain.paths:
            c.setStrokeColor(_rl(feature_colour(path.feature)))
            c.setLineWidth(max(0.6, R * 0.18))
            for a, b in path_segments(self.game.grid, path.hexes):
                if a in self.pos and b in self.pos and (self._drawn(a) or self._drawn(b)):
                    c.line(*self._xy(a), *self._xy(b))
        for side in self.game.terrain.hexsides:
            a, b = side.between
            if a not in self.pos or b not in self.pos or not (self._drawn(a) or self._drawn(b)):
                continue
            (xa, ya), (xb, yb) = self._xy(a), self._xy(b)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            dx, dy = xb - xa, yb - ya
            n = math.hypot(dx, dy) or 1.0
            ux, uy = -dy / n * R * 0.5, dx / n * R * 0.5      # along the shared edge
            c.setStrokeColor(_rl(feature_colour(side.feature)))
            c.setLineWidth(max(0.8, R * 0.22))
            c.line(mx - ux, my - uy, mx + ux, my + uy)
        c.setLineCap(0)

    def _draw_board_names(self, c) -> None:
        g = self.game.grid
        boards = set(self.scenario.boards) or {b.id for b in g.boards}
        for b in g.boards:
            if b.id not in boards or not b.id or len(g.boards) < 2:
                continue
            mid = g.format(Hex(b.id, (b.columns[0] + b.columns[1]) // 2, (b.rows[0] + b.rows[1]) // 2))
            if mid in self.visible:
                x, y = self._xy(mid)
                c.setFillColor(colors.Color(0.75, 0.75, 0.75))
                c.setFont(FONT_BOLD, max(8.0, min(28.0, self.scale * 6)))
                c.drawCentredString(x, y, f"Map {b.id}")

    def _draw_marks(self, c, R) -> None:
        """Set-up groups: a tinted hex and its line number (a group drawn as counters needs no number)."""
        fs = max(3.0, min(7.0, R * 0.9))
        if self.art:
            c.saveState()
            c.setFillAlpha(0.6)      # the board's art shows through the tint
        for label, hexes, rgb, solid in self.marks:
            hs = [h for h in hexes if h in self.pos]
            if not hs or (solid and self.draws_counters and hs[0] in self.units):
                continue
            col = _rl(rgb)
            if solid:
                c.setFillColor(col)
                c.setStrokeColor(colors.black)
                c.setLineWidth(0.3)
            else:
                c.setFillColor(colors.Color(*[(v + (255 - v) * 0.55) / 255 for v in rgb]))
                c.setStrokeColor(col)
                c.setLineWidth(max(0.5, R * 0.18))
            c.drawPath(self._path(c, hs, R * 0.92), stroke=1, fill=1)
        if self.art:
            c.restoreState()
        for label, hexes, rgb, solid in self.marks:
            hs = [h for h in hexes if h in self.pos]
            if not hs or R < 2.2 or (solid and self.draws_counters and hs[0] in self.units):
                continue
            lum = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255
            c.setFillColor(colors.white if solid and lum < 0.5 else colors.black)
            c.setFont(FONT_BOLD, fs)
            x, y = self._xy(hs[0])
            c.drawCentredString(x, y - fs * 0.35, label)

    def _draw_places(self, c, R) -> None:
        fs = max(4.0, min(7.0, R * 0.8))
        for place in self.game.places.places:
            hs = [h for h in place.hexes if h in self.visible and self._drawn(h)]
            if not hs:
                continue
            c.setFillColor(colors.Color(0.15, 0.15, 0.15))
            for h in hs:
                x, y = self._xy(h)
                c.circle(x, y - R * 0.55, max(0.8, R * 0.12), stroke=0, fill=1)
            x, y = self._xy(hs[0])
            c.setFont(FONT_BOLD, fs)
            c.setFillColor(colors.Color(0.1, 0.1, 0.1))
            c.drawCentredString(x, y - R * 0.55 - fs * 1.1, place.name)

    def _draw_victory(self, c, R) -> None:
        vs = [h for h in self.stars if h in self.visible]
        if not vs:
            return
        gold = colors.Color(0.85, 0.65, 0.0)
        c.setLineWidth(max(0.6, R * 0.2))
        c.setStrokeColor(gold)
        c.drawPath(self._path(c, vs, R * 0.86), stroke=1, fill=0)
        c.setFillColor(gold)
        c.setStrokeColor(colors.Color(0.45, 0.3, 0.0))
        c.setLineWidth(0.3)
        for h in vs:
            x, y = self._xy(h)
            _star(c, x + R * 0.5, y + R * 0.45, max(2.0, R * 0.3))

    def _draw_counters(self, c) -> None:
        if not self.draws_counters:
            return
        cs = self.counter
        for h, us in self.units.items():
            if h not in self.pos:
                continue
            x, y = self._xy(h)
            drawn = us[:STACK_FIT]
            off = cs * 0.12
            under = us[len(drawn):len(drawn) + STACK_SHADOWS]
            for k, (unit, _) in reversed(list(enumerate(under, 1))):   # blank edges: the list names them
                c.setFillColor(_rl(unit_colours(self.game, unit)[0]))
                c.setStrokeColor(colors.black)
                c.setLineWidth(0.25)
                c.rect(x - cs / 2 + k * off, y - cs / 2 - k * off, cs, cs, stroke=1, fill=1)
            for unit, state in reversed(drawn):   # the first unit on top
                draw_mini_counter(c, self.game, unit, state, x, y, cs)
            if len(us) > len(drawn):
                c.setFillColor(colors.Color(0.78, 0.05, 0.05))
                c.circle(x + cs * 0.5, y + cs * 0.5, cs * 0.2, stroke=0, fill=1)
                c.setFillColor(colors.white)
                c.setFont(FONT_BOLD, cs * 0.22)
                c.drawCentredString(x + cs * 0.5, y + cs * 0.43, f"+{len(us) - len(drawn)}")

    def _draw_corner_ids(self, c, R) -> None:
        inside = [h for h in self.shown if h in self.play and h in self.pos]
        if not inside:
            return
        c.setFillColor(colors.Color(0.2, 0.2, 0.2))
        c.setFont(FONT, max(4.0, min(6.5, R)))
        corners = {
            min(inside, key=lambda h: (self.pos[h][0] + self.pos[h][1], h)),
            max(inside, key=lambda h: (self.pos[h][0] + self.pos[h][1], h)),
            min(inside, key=lambda h: (self.pos[h][0] - self.pos[h][1], h)),
            max(inside, key=lambda h: (self.pos[h][0] - self.pos[h][1], h)),
        }
        for h in sorted(corners):
            x, y = self._xy(h)
            c.drawCentredString(x, y + R * 1.05, h)


BOX_COUNTER = 0.3 * inch    # counters in the holding boxes
BOX_COLUMNS = 2


CAPTION_H = 9.0


class HoldingBox(Flowable):
    """A box for one turn's (and side's) reinforcements: per entry, a caption and its counters."""

    def __init__(self, game, title: str, entries: list, width: float):
        super().__init__()
        self.game, self.title, self.entries, self.width = game, title, entries, width
        self.step = BOX_COUNTER + 3
        self.per_row = max(1, int((width - 8) // self.step))
        rows = sum(math.ceil(len(us) / self.per_row) for _, us in entries)
        self.height = 14 + len(entries) * CAPTION_H + rows * self.step + 2

    def wrap(self, aw, ah):
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        c.setFillColor(colors.Color(0.97, 0.97, 0.95))
        c.rect(0, 0, self.width, self.height, stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.setFont(FONT_BOLD, 8)
        c.drawString(4, self.height - 10, self.title)
        y = self.height - 14
        for entry, us in self.entries:
            c.setFont(FONT, 6.5)
            c.setFillColor(colors.Color(0.2, 0.2, 0.2))
            c.drawString(4, y - CAPTION_H + 2.5, entry)
            y -= CAPTION_H
            for i, (unit, state) in enumerate(us):
                col, row = i % self.per_row, i // self.per_row
                x = 4 + col * self.step + BOX_COUNTER / 2
                draw_mini_counter(c, self.game, unit, state, x, y - row * self.step - BOX_COUNTER / 2 - 1,
                                  BOX_COUNTER)
            y -= math.ceil(len(us) / self.per_row) * self.step


def _expand(game, placements) -> list:
    """[(Unit, state)] for every counter a list of placements names (a count of n: n counters)."""
    out = []
    for p in placements:
        u = lookup_unit(game, p.unit)
        if u is not None:
            out += [(u, tuple(p.state))] * max(1, p.count or 1)
    return out


def holding_boxes(game, scenario, st: dict, width: float) -> list:
    """One holding box per turn and side with the scenario's reinforcements, in turn order."""
    turn_ix = {t.id: i for i, t in enumerate(game.turns)}
    first = turn_ix.get(scenario.first_turn or "", 0)
    last = turn_ix.get(scenario.last_turn or "", len(turn_ix))
    side_ix = {sd.id: i for i, sd in enumerate(game.sides)}
    snames = {sd.id: sd.name for sd in game.sides}
    boxes: dict = {}
    for o in game.scenario_arrivals(scenario):
        for tb in o.turns:
            ti = turn_ix.get(tb.turn)
            if ti is not None and not first <= ti <= last:
                continue
            key = (ti if ti is not None else len(turn_ix), side_ix.get(o.side, len(side_ix)), tb.turn, o.side)
            b = boxes.setdefault(key, (f"{tb.printed or tb.turn} \u2014 {snames.get(o.side, o.side)}", []))
            for a in tb.arrivals:
                us = _expand(game, a.units)
                if not us:
                    continue
                entry = location_text(game, a.entry) + (f" ({a.condition})" if a.condition else "")
                same = next((e for e in b[1] if e[0] == entry), None)  # one caption per entry
                if same is None:
                    b[1].append((entry, us))
                else:
                    same[1].extend(us)
    boxes = {k: v for k, v in boxes.items() if v[1]}
    if not boxes:
        return []
    w = (width - (BOX_COLUMNS - 1) * 6) / BOX_COLUMNS
    cells = [HoldingBox(game, title, entries, w) for _, (title, entries) in sorted(boxes.items())]
    rows = [cells[i:i + BOX_COLUMNS] for i in range(0, len(cells), BOX_COLUMNS)]
    rows[-1] += [""] * (BOX_COLUMNS - len(rows[-1]))
    t = Table(rows, colWidths=[w + 6] * BOX_COLUMNS, hAlign="LEFT")
    t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                           ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                           ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]))
    return [Paragraph("Reinforcements: holding boxes", st["h2"]),
            Paragraph("Put each turn's arriving counters in its box; they enter at the entry named above them.",
                      st["small"]), Spacer(0, 3), t]


def _hex_units(game, scenario) -> dict:
    """{hex: [(Unit, state)]} for the set-up lines that name one hex, in the order listed."""
    out: dict = {}
    for grp in scenario.setup:
        if grp.location.hex and game.grid.exists(grp.location.hex):
            out.setdefault(grp.location.hex, []).extend(_expand(game, grp.units))
    return out


def _side_rgb(game, side: str, units) -> tuple[int, int, int]:
    for p in units:
        u = lookup_unit(game, p.unit)
        if u is not None:
            return unit_colours(game, u)[0]
    for s in game.sides:
        if s.id == side and s.nationalities:
            return _rgb(s.nationalities[0].colour, (128, 128, 128))
    return (128, 128, 128)


def _stack_list(hm: HexMap, st: dict) -> list:
    stacks = hm.overflow()
    if not stacks:
        return []
    out = [Paragraph("Stacks (more counters than the plot shows)", st["h3"])]
    for h, us in stacks.items():
        names = ", ".join(f"{u.label or u.id}" + (f" [{', '.join(state)}]" if state else "") for u, state in us)
        out.append(Paragraph(f"<b>{esc(h)}</b>: {esc(names)}", st["small"]))
    return out


def _board_details(game, scenario, st: dict, width: float, frame_h: float, marks, stars, units) -> list:
    """Where the overview's hexes are too small for counters: a plot per board that has set-up units,
    on a page of its own, large enough to stand them on their hexes (if any size is)."""
    out: list = []
    boards = [b.id for b in game.grid.boards]
    for b in boards:
        if not any(game.grid.board_of(h) == b for h in units):
            continue
        hm = HexMap(game, scenario, width, frame_h - 60, marks, stars, units, board=b)
        if not hm.draws_counters:
            continue
        out += [PageBreak(), Paragraph(f"Map {esc(b)}: the set-up on its hexes" if b else "The set-up on its hexes",
                                       st["h2"]), hm]
        out += _stack_list(hm, st)
    if out:
        out.append(PageBreak())
    return out


@dataclass(frozen=True)
class _Card:
    """What every section of a set-up card reads."""
    game: object
    scenario: object
    st: dict
    width: float
    frame_h: float
    snames: dict            # side id -> name

    def side_name(self, sid) -> str:
        return self.snames.get(sid, sid)


def _title(k: _Card) -> list:
    """The heading and the scenario's rule, turns, maps, play area and orders of arrival."""
    sc, st = k.scenario, k.st
    story: list = [Paragraph(f"{esc(k.game.title)} \u2014 Scenario {esc(sc.id)}: {esc(sc.name)}", st["h1"])]
    meta = []
    if sc.rule:
        meta.append(f"Rule {esc(sc.rule)}")
    meta.append(f"Turns {esc(sc.first_turn or '?')} to {esc(sc.last_turn or '?')}")
    if sc.boards and any(sc.boards):
        meta.append("Maps " + ", ".join(esc(b) for b in sc.boards))
    if sc.play_area:
        meta.append("Play area: " + "; ".join(esc(_box_text(b)) for b in sc.play_area))
    story.append(Paragraph(" \u00b7 ".join(meta), st["small"]))
    if sc.orders_of_arrival:
        story.append(Paragraph("Orders of arrival used: " + ", ".join(esc(k.side_name(s))
                                                                      for s in sc.orders_of_arrival), st["small"]))
    story.append(Spacer(0, 4))
    return story


def _box_text(b) -> str:
    cs = f"{b.columns[0] if b.columns[0] is not None else '…'}\u2013{b.columns[1] if b.columns[1] is not None else '…'}"
    rs = f"{b.rows[0] if b.rows[0] is not None else '…'}\u2013{b.rows[1] if b.rows[1] is not None else '…'}"
    return (f"map {b.board} " if b.board else "") + f"columns {cs}, rows {rs}"


def _marks(k: _Card) -> tuple[list, list]:
    """(the plot's marks: set-up lines, deployments, features; the set-up hexes not on the map)."""
    game, sc, g = k.game, k.scenario, k.game.grid
    marks, off_map = [], []
    for i, grp in enumerate(sc.setup, 1):
        hexes = list(location_hexes(game, grp.location) or ())
        off_map += [(str(i), h) for h in grp.location.hex_refs() if not g.exists(h)]
        marks.append((str(i), hexes, _side_rgb(game, grp.side, grp.units), bool(grp.location.hex)))
    for j, d in enumerate(sc.deployments, 1):
        marks.append((f"D{j}", list(location_hexes(game, d.location) or ()), _side_rgb(game, d.side, ()), False))
    for n, f in enumerate(sc.features, 1):
        if g.exists(f.hex):
            marks.append((f"F{n}", [f.hex], (255, 255, 255), True))
    return marks, off_map


def _plot(k: _Card) -> list:
    """The play area with the set-up on it, its key, the stack list, and a page per board if it is small."""
    game, sc, st = k.game, k.scenario, k.st
    marks, off_map = _marks(k)
    vic = sc.victory.get("hexes") if isinstance(sc.victory, dict) else None
    stars = list(vic) if vic else [v.hex for v in game.places.victory if v.hex]
    units = _hex_units(game, sc)
    hm = HexMap(game, sc, k.width, k.frame_h * MAP_FRACTION, marks, stars, units)
    if hm.scale < MIN_HEX_R or not hm.draws_counters:  # small hexes: let the plot take most of the page
        hm = HexMap(game, sc, k.width, k.frame_h * MAP_FRACTION_BIG, marks, stars, units)
    story: list = [hm]
    shown = ("units at one hex as counters (a stack shows its first; a red +n: the others, in the stack list); "
             if hm.draws_counters else "")
    story.append(Paragraph(f"Plot: {shown}numbers = set-up lines below (solid: one hex; pale with a thick edge: "
                           "the line names several hexes, any one or all as printed); D = deployment groups; "
                           "F = map features; gold outline and star = victory hex; dots = places; "
                           "darker outlines = play area.", st["small"]))
    story += _stack_list(hm, st)
    if units and not hm.draws_counters:
        story += _board_details(game, sc, st, k.width, k.frame_h, marks, stars, units)
    if off_map:
        story.append(incomplete_banner(st, "set-up hexes not on the map",
                                       [f"line {i}: {h}" for i, h in off_map], k.width, word="CHECK"))
    story.append(Spacer(0, 4))
    if not sc.setup_printed:
        story.append(incomplete_banner(st, "the full set-up is not printed in the rulebook",
                                       ["the scenario's set-up is on a card or sheet the source does not print"
                                        + ("; only the lines below are printed" if sc.setup else "")],
                                       k.width, word="NOT PRINTED"))
    return story


def _setup_rows(k: _Card, i: int, grp) -> list:
    """The set-up list's rows for one line of the set-up (side, location and formation on its first row)."""
    game, st = k.game, k.st
    rows = []
    for p in grp.units:
        u = lookup_unit(game, p.unit)
        name = p.printed or (u.name if u else p.unit)
        if p.count and p.count > 1:
            name = f"{p.count} \u00d7 {name}"
        first = not rows
        rows.append([
            Paragraph(f"<b>{i}</b>" if first else "", st["cellc"]),
            Paragraph(esc(k.side_name(grp.side)) if first else "", st["cell"]),
            Paragraph(f"<b>{esc(location_text(game, grp.location))}</b>" if first else "", st["cell"]),
            Paragraph(esc(formation_name(game, grp.formation)) if first else "", st["cell"]),
            Paragraph(esc(name), st["cell"]),
            Paragraph(esc(", ".join(p.state)), st["cell"]),
        ])
    if not rows:  # a group with no units listed
        rows.append([Paragraph(f"<b>{i}</b>", st["cellc"]), Paragraph(esc(k.side_name(grp.side)), st["cell"]),
                     Paragraph(esc(location_text(game, grp.location)), st["cell"]),
                     Paragraph(esc(formation_name(game, grp.formation)), st["cell"]),
                     Paragraph("<i>no units listed</i>", st["cell"]), ""])
    return rows


def _setup_list(k: _Card) -> list:
    """The set-up list as printed: line number, side, location, formation, unit, state."""
    sc, st, width = k.scenario, k.st, k.width
    if not sc.setup:
        return [Paragraph("The scenario lists no set-up.", st["small"])] if sc.setup_printed else []
    data = [[Paragraph(h, st["head"]) for h in ("#", "Side", "Location", "Formation", "Unit", "State")]]
    style = grid_style(1)
    for i, grp in enumerate(sc.setup, 1):
        data += _setup_rows(k, i, grp)
        style.append(("LINEABOVE", (0, len(data) - len(grp.units or [0])), (-1, len(data) - len(grp.units or [0])),
                      0.9, colors.black))
    w = [0.3 * inch, 0.7 * inch, 1.2 * inch, 1.1 * inch]
    state_w = _state_width(sc, st["cell"].fontSize)
    w += [width - sum(w) - state_w, state_w]
    t = Table(data, colWidths=w, repeatRows=1, hAlign="LEFT")
    t.setStyle(TableStyle(style))
    return [Paragraph("Set-up", st["h2"]), t]


def _deployments(k: _Card) -> list:
    if not k.scenario.deployments:
        return []
    out = [Paragraph("Deployments (units not listed by the rules)", k.st["h3"])]
    for j, d in enumerate(k.scenario.deployments, 1):
        rule = f" (rule {esc(d.rule)})" if d.rule else ""
        where = location_text(k.game, d.location) if d.on_map else "not on the map at start"
        out.append(Paragraph(f"<b>D{j}</b> {esc(k.side_name(d.side))}: group {esc(d.group or '')} \u2014 {esc(where)}"
                             f"{rule}", k.st["small"]))
    return out


def _features(k: _Card) -> list:
    if not k.scenario.features:
        return []
    out = [Paragraph("Map features at start", k.st["h3"])]
    for n, f in enumerate(k.scenario.features, 1):
        extra = []
        if f.side:
            extra.append(k.side_name(f.side))
        if f.unit:
            extra.append(f.unit)
        if f.rule:
            extra.append(f"rule {f.rule}")
        out.append(Paragraph(f"<b>F{n}</b> {esc(f.kind)} in {esc(f.hex)}"
                             + (f" ({esc(', '.join(extra))})" if extra else ""), k.st["small"]))
    return out


def _reinforcements(k: _Card) -> list:
    """The scenario's own reinforcements, and the holding boxes of every arrival."""
    out: list = []
    if k.scenario.reinforcements:
        out.append(Paragraph("Scenario reinforcements", k.st["h2"]))
        out += ooa_table(k.game, k.scenario.reinforcements, k.st, k.width)
    return out + holding_boxes(k.game, k.scenario, k.st, k.width)


def _removals(k: _Card) -> list:
    if not k.scenario.removals:
        return []
    out = [Paragraph("Removals", k.st["h3"])]
    for r in k.scenario.removals:
        txt = ", ".join(placement_text(k.game, p) for p in r.units)
        if r.formation:
            txt = f"all of {formation_name(k.game, r.formation)}" + (f": {txt}" if txt else "")
        out.append(Paragraph(esc(txt), k.st["small"]))
    return out


def _supply(k: _Card) -> list:
    if not k.scenario.supply_sources:
        return []
    out = [Paragraph("Supply", k.st["h3"])]
    for s in k.scenario.supply_sources:
        if isinstance(s, dict):
            hx = ", ".join(s.get("hexes") or [])
            out.append(Paragraph(f"{esc(k.side_name(s.get('side')))}: {esc(s.get('text', ''))}"
                                 + (f" ({esc(hx)})" if hx else ""), k.st["small"]))
    return out


def _victory(k: _Card) -> list:
    v = k.scenario.victory
    if not (isinstance(v, dict) and v):
        return []
    out = [Paragraph("Victory" + (f" <font size=7>(rule {esc(v['rule'])})</font>" if v.get("rule") else ""),
                     k.st["h3"])]
    if v.get("text"):
        out.append(Paragraph(esc(v["text"]), k.st["small"]))
    if v.get("hexes"):
        out.append(Paragraph("Victory hexes: " + ", ".join(esc(h) for h in v["hexes"]), k.st["small"]))
    return out


def _special_rules(k: _Card) -> list:
    if not k.scenario.special_rules:
        return []
    out = [Paragraph("Special rules", k.st["h3"])]
    for r in k.scenario.special_rules:
        if isinstance(r, dict):
            out.append(Paragraph(f"<b>{esc(r.get('id', ''))}</b> {esc(r.get('text', ''))}", k.st["small"]))
    return out


# a set-up card, section by section
SECTIONS = (_title, _plot, _setup_list, _deployments, _features, _reinforcements, _removals, _supply, _victory,
            _special_rules)


def setup_story(game, scenario, st: dict, width: float, frame_h: float) -> list:
    """The card's flowables: every section of SECTIONS in turn."""
    k = _Card(game, scenario, st, width, frame_h, {s.id: s.name for s in game.sides})
    return [f for section in SECTIONS for f in section(k)]


def _state_width(scenario, size: float) -> float:
    """The set-up list's State column: wide enough for its longest state word (never broken across lines)."""
    words = [w for grp in scenario.setup for p in grp.units for s in p.state for w in s.split()]
    return max([0.8 * inch] + [stringWidth(w + ",", FONT, size) + 6 for w in words])


def safe_name(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("._") or "scenario"


def build_setup_card(game, scenario, dest: Path, paper: str) -> Path:
    st = styles()
    pw, ph = paper_size(paper)
    story = setup_story(game, scenario, st, _frame_width(paper), ph - 2 * MARGIN)
    return write_doc(dest, game, f"scenario {scenario.id} set-up", paper, story)
