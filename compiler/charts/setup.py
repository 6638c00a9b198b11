"""Scenario set-up cards: a small hex plot of the play area with the set-up hexes marked, and the
set-up list (location, unit, state) as printed, plus the scenario's own reinforcements and victory.

The plot is vector: every hex of the scenario's boards as an outline (the play area darker), each
set-up group numbered in its hex(es); the numbers match the `#` column of the list. Locations that
name several hexes (`any_of`, `range`, `within`, `area`) are drawn lighter with a thick outline.
"""
from __future__ import annotations

import re
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from validator.hexgrid import SQRT3, Hex, hexes_in_boxes
from validator.locations import location_hexes

from ..render.counters import _rgb, unit_colours
from .aids import (
    MARGIN, esc, formation_name, grid_style, incomplete_banner, location_text, lookup_unit, ooa_table,
    placement_text, styles, write_doc, _frame_width,
)
from .pdf import FONT, FONT_BOLD, paper_size

MAP_FRACTION = 0.42     # of the frame height
MAP_FRACTION_BIG = 0.72  # when the hexes would be smaller than MIN_HEX_R points
MIN_HEX_R = 3.5


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


class HexMap(Flowable):
    """The play area plot. marks: [(label, [hex ids], (r, g, b), solid)]; stars: victory hexes."""

    def __init__(self, game, scenario, width: float, max_height: float, marks: list, stars: list[str]):
        super().__init__()
        self.game, self.scenario = game, scenario
        self.marks, self.stars = marks, stars
        g = game.grid
        self.all, self.play = scenario_hexes(game, scenario)
        # rows numbered northwards (row 00 on the south edge) plot upwards
        flip = -1.0 if game.rows_increase == "north" else 1.0
        self.pos = {}
        for h in list(self.all) + [h for _, hexes, _, _ in marks for h in hexes]:
            p = g.parse(h)
            if p is not None and h not in self.pos:
                x, y = g.centre(*g.surface(p))
                self.pos[h] = (x, y * flip)
        pts = list(self.pos.values()) or [(0.0, 0.0)]
        self.minx = min(p[0] for p in pts) - 1
        self.maxx = max(p[0] for p in pts) + 1
        self.miny = min(p[1] for p in pts) - 1
        self.maxy = max(p[1] for p in pts) + 1
        sw, sh = self.maxx - self.minx, self.maxy - self.miny
        self.scale = min(width / sw, max_height / sh)
        self.width, self.height = sw * self.scale, sh * self.scale

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
        g = self.game.grid
        R = self.scale * 0.98
        outside = [h for h in self.all if h not in self.play and h in self.pos]
        inside = [h for h in self.all if h in self.play and h in self.pos]
        c.setLineWidth(0.15)
        if outside:
            c.setStrokeColor(colors.Color(0.8, 0.8, 0.8))
            c.drawPath(self._path(c, outside, R), stroke=1, fill=0)
        if inside:
            c.setStrokeColor(colors.Color(0.35, 0.35, 0.35))
            c.setFillColor(colors.Color(0.97, 0.96, 0.9))
            c.drawPath(self._path(c, inside, R), stroke=1, fill=1)
        # board names, large and faint, at each board's centre
        boards = set(self.scenario.boards) or {b.id for b in g.boards}
        for b in g.boards:
            if b.id not in boards or not b.id or len(g.boards) < 2:
                continue
            mid = g.format(Hex(b.id, (b.columns[0] + b.columns[1]) // 2, (b.rows[0] + b.rows[1]) // 2))
            if mid in self.pos:
                x, y = self._xy(mid)
                c.setFillColor(colors.Color(0.75, 0.75, 0.75))
                c.setFont(FONT_BOLD, max(8.0, min(28.0, self.scale * 6)))
                c.drawCentredString(x, y, f"Map {b.id}")
        # victory hexes: gold outline
        c.setLineWidth(max(0.6, R * 0.25))
        c.setStrokeColor(colors.Color(0.85, 0.65, 0.0))
        vs = [h for h in self.stars if h in self.pos]
        if vs:
            c.drawPath(self._path(c, vs, R * 0.8), stroke=1, fill=0)
        # set-up groups
        fs = max(3.0, min(7.0, R * 0.9))
        for label, hexes, rgb, solid in self.marks:
            hs = [h for h in hexes if h in self.pos]
            if not hs:
                continue
            col = colors.Color(*[v / 255 for v in rgb])
            if solid:
                c.setFillColor(col)
                c.setStrokeColor(colors.black)
                c.setLineWidth(0.3)
            else:
                c.setFillColor(colors.Color(*[(v + (255 - v) * 0.55) / 255 for v in rgb]))
                c.setStrokeColor(col)
                c.setLineWidth(max(0.5, R * 0.18))
            c.drawPath(self._path(c, hs, R * 0.92), stroke=1, fill=1)
        for label, hexes, rgb, solid in self.marks:
            hs = [h for h in hexes if h in self.pos]
            if not hs or R < 2.2:
                continue
            lum = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255
            c.setFillColor(colors.white if solid and lum < 0.5 else colors.black)
            c.setFont(FONT_BOLD, fs)
            x, y = self._xy(hs[0])
            c.drawCentredString(x, y - fs * 0.35, label)
        # the play area's corner hex IDs, for orientation
        if inside:
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


def _side_rgb(game, side: str, units) -> tuple[int, int, int]:
    for p in units:
        u = lookup_unit(game, p.unit)
        if u is not None:
            return unit_colours(game, u)[0]
    for s in game.sides:
        if s.id == side and s.nationalities:
            return _rgb(s.nationalities[0].colour, (128, 128, 128))
    return (128, 128, 128)


def setup_story(game, scenario, st: dict, width: float, frame_h: float) -> list:
    g = game.grid
    snames = {s.id: s.name for s in game.sides}
    story: list = [Paragraph(f"{esc(game.title)} \u2014 Scenario {esc(scenario.id)}: {esc(scenario.name)}",
                             st["h1"])]
    meta = []
    if scenario.rule:
        meta.append(f"Rule {esc(scenario.rule)}")
    meta.append(f"Turns {esc(scenario.first_turn or '?')} to {esc(scenario.last_turn or '?')}")
    if scenario.boards and any(scenario.boards):
        meta.append("Maps " + ", ".join(esc(b) for b in scenario.boards))
    if scenario.play_area:
        boxes = []
        for b in scenario.play_area:
            cs = f"{b.columns[0] if b.columns[0] is not None else '…'}\u2013{b.columns[1] if b.columns[1] is not None else '…'}"
            rs = f"{b.rows[0] if b.rows[0] is not None else '…'}\u2013{b.rows[1] if b.rows[1] is not None else '…'}"
            boxes.append((f"map {b.board} " if b.board else "") + f"columns {cs}, rows {rs}")
        meta.append("Play area: " + "; ".join(esc(x) for x in boxes))
    story.append(Paragraph(" \u00b7 ".join(meta), st["small"]))
    if scenario.orders_of_arrival:
        story.append(Paragraph("Orders of arrival used: " + ", ".join(esc(snames.get(s, s))
                                                                      for s in scenario.orders_of_arrival),
                               st["small"]))
    story.append(Spacer(0, 4))

    marks, off_map = [], []
    for i, grp in enumerate(scenario.setup, 1):
        hexes = list(location_hexes(game, grp.location) or ())
        off_map += [(str(i), h) for h in grp.location.hex_refs() if not g.exists(h)]
        solid = bool(grp.location.hex)
        marks.append((str(i), hexes, _side_rgb(game, grp.side, grp.units), solid))
    for j, d in enumerate(scenario.deployments, 1):
        hexes = list(location_hexes(game, d.location) or ())
        marks.append((f"D{j}", hexes, _side_rgb(game, d.side, ()), False))
    for k, f in enumerate(scenario.features, 1):
        if g.exists(f.hex):
            marks.append((f"F{k}", [f.hex], (255, 255, 255), True))
    vic = scenario.victory.get("hexes") if isinstance(scenario.victory, dict) else None
    stars = list(vic) if vic else [v.hex for v in game.places.victory if v.hex]
    hm = HexMap(game, scenario, width, frame_h * MAP_FRACTION, marks, stars)
    if hm.scale < MIN_HEX_R:  # small hexes: let the plot take most of the first page
        hm = HexMap(game, scenario, width, frame_h * MAP_FRACTION_BIG, marks, stars)
    story.append(hm)
    story.append(Paragraph("Plot: numbers = set-up lines below (solid: one hex; pale with a thick edge: the "
                           "line names several hexes, any one or all as printed); D = deployment groups; "
                           "F = map features; gold outline = victory hex; darker outlines = play area.", st["small"]))
    if off_map:
        story.append(incomplete_banner(st, "set-up hexes not on the map",
                                       [f"line {i}: {h}" for i, h in off_map], width, word="CHECK"))
    story.append(Spacer(0, 4))

    if not scenario.setup_printed:
        story.append(incomplete_banner(st, "the full set-up is not printed in the rulebook",
                                       ["the scenario's set-up is on a card or sheet the source does not print"
                                        + ("; only the lines below are printed" if scenario.setup else "")],
                                       width, word="NOT PRINTED"))
    if scenario.setup:
        story.append(Paragraph("Set-up", st["h2"]))
        data = [[Paragraph(h, st["head"]) for h in ("#", "Side", "Location", "Formation", "Unit", "State")]]
        style = grid_style(1)
        for i, grp in enumerate(scenario.setup, 1):
            first = True
            for p in grp.units:
                u = lookup_unit(game, p.unit)
                name = p.printed or (u.name if u else p.unit)
                if p.count and p.count > 1:
                    name = f"{p.count} \u00d7 {name}"
                data.append([
                    Paragraph(f"<b>{i}</b>" if first else "", st["cellc"]),
                    Paragraph(esc(snames.get(grp.side, grp.side)) if first else "", st["cell"]),
                    Paragraph(f"<b>{esc(location_text(game, grp.location))}</b>" if first else "", st["cell"]),
                    Paragraph(esc(formation_name(game, grp.formation)) if first else "", st["cell"]),
                    Paragraph(esc(name), st["cell"]),
                    Paragraph(esc(", ".join(p.state)), st["cell"]),
                ])
                first = False
            if first:  # a group with no units listed
                data.append([Paragraph(f"<b>{i}</b>", st["cellc"]), Paragraph(esc(snames.get(grp.side, grp.side)),
                                                                               st["cell"]),
                             Paragraph(esc(location_text(game, grp.location)), st["cell"]),
                             Paragraph(esc(formation_name(game, grp.formation)), st["cell"]),
                             Paragraph("<i>no units listed</i>", st["cell"]), ""])
            style.append(("LINEABOVE", (0, len(data) - len(grp.units or [0])), (-1, len(data) - len(grp.units or [0])),
                          0.9, colors.black))
        w = [0.3 * inch, 0.7 * inch, 1.2 * inch, 1.1 * inch]
        w += [width - sum(w) - 0.8 * inch, 0.8 * inch]
        t = Table(data, colWidths=w, repeatRows=1, hAlign="LEFT")
        t.setStyle(TableStyle(style))
        story.append(t)
    elif scenario.setup_printed:
        story.append(Paragraph("The scenario lists no set-up.", st["small"]))
    if scenario.deployments:
        story.append(Paragraph("Deployments (units not listed by the rules)", st["h3"]))
        for j, d in enumerate(scenario.deployments, 1):
            side = snames.get(d.side, d.side)
            rule = f" (rule {esc(d.rule)})" if d.rule else ""
            where = location_text(game, d.location) if d.on_map else "not on the map at start"
            story.append(Paragraph(f"<b>D{j}</b> {esc(side)}: group {esc(d.group or '')} \u2014 {esc(where)}"
                                   f"{rule}", st["small"]))
    feats = scenario.features
    if feats:
        story.append(Paragraph("Map features at start", st["h3"]))
        for k, f in enumerate(feats, 1):
            extra = []
            if f.side:
                extra.append(snames.get(f.side, f.side))
            if f.unit:
                extra.append(f.unit)
            if f.rule:
                extra.append(f"rule {f.rule}")
            story.append(Paragraph(f"<b>F{k}</b> {esc(f.kind)} in {esc(f.hex)}"
                                   + (f" ({esc(', '.join(extra))})" if extra else ""), st["small"]))
    if scenario.reinforcements:
        story.append(Paragraph("Scenario reinforcements", st["h2"]))
        story += ooa_table(game, scenario.reinforcements, st, width)
    if scenario.removals:
        story.append(Paragraph("Removals", st["h3"]))
        for r in scenario.removals:
            txt = ", ".join(placement_text(game, p) for p in r.units)
            if r.formation:
                txt = f"all of {formation_name(game, r.formation)}" + (f": {txt}" if txt else "")
            story.append(Paragraph(esc(txt), st["small"]))
    if scenario.supply_sources:
        story.append(Paragraph("Supply", st["h3"]))
        for s in scenario.supply_sources:
            if isinstance(s, dict):
                hx = ", ".join(s.get("hexes") or [])
                story.append(Paragraph(f"{esc(snames.get(s.get('side'), s.get('side')))}: {esc(s.get('text', ''))}"
                                       + (f" ({esc(hx)})" if hx else ""), st["small"]))
    if isinstance(scenario.victory, dict) and scenario.victory:
        v = scenario.victory
        story.append(Paragraph("Victory" + (f" <font size=7>(rule {esc(v['rule'])})</font>" if v.get("rule") else ""),
                               st["h3"]))
        if v.get("text"):
            story.append(Paragraph(esc(v["text"]), st["small"]))
        if v.get("hexes"):
            story.append(Paragraph("Victory hexes: " + ", ".join(esc(h) for h in v["hexes"]), st["small"]))
    if scenario.special_rules:
        story.append(Paragraph("Special rules", st["h3"]))
        for r in scenario.special_rules:
            if isinstance(r, dict):
                story.append(Paragraph(f"<b>{esc(r.get('id', ''))}</b> {esc(r.get('text', ''))}", st["small"]))
    return story


def safe_name(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("._") or "scenario"


def build_setup_card(game, scenario, dest: Path, paper: str) -> Path:
    st = styles()
    pw, ph = paper_size(paper)
    story = setup_story(game, scenario, st, _frame_width(paper), ph - 2 * MARGIN)
    return write_doc(dest, game, f"scenario {scenario.id} set-up", paper, story)
