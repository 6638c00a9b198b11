"""Player aids: die-roll tables (CRT first), terrain effects chart, turn record track, orders of arrival.

All text is vector (platypus paragraphs and tables in the embedded Vera fonts). Whatever the source
declares incomplete is shown, not hidden: an `INCOMPLETE` banner naming what is missing (rolls the
rows do not cover, cells a row lacks, TEC rows listed in `missing`), and red placeholder rows/cells.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import (
    BaseDocTemplate, CondPageBreak, Frame, KeepInFrame, PageTemplate, Paragraph, Spacer,
    Table, TableStyle,
)

from compiler.atomic import atomic_path
from .corrections import corrected_heading, loose_note, mark, note, ooa_corrections
from .pdf import (
    FONT, FONT_BOLD, FONT_ITALIC, INCOMPLETE_RED, binary_streams, metadata, paper_size, register_fonts,
)

RED = colors.Color(*INCOMPLETE_RED)
PALE_RED = colors.Color(1, 0.88, 0.88)
PALE_YELLOW = colors.Color(1, 0.96, 0.7)
HEAD_BG = colors.Color(0.85, 0.85, 0.85)
GRID = colors.Color(0.35, 0.35, 0.35)
MARGIN = 0.5 * inch

INCOMPLETE_WORD = "INCOMPLETE"
LONG_CELL = 40          # TEC cells longer than this are printed as numbered notes under the table


# -- styles ---------------------------------------------------------------------------------------

def styles() -> dict:
    register_fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=8, leading=10)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=6.5, leading=8),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.5, leading=9),
        "cellc": ParagraphStyle("cellc", parent=base, fontSize=7.5, leading=9, alignment=TA_CENTER),
        "head": ParagraphStyle("head", parent=base, fontName=FONT_BOLD, fontSize=7.5, leading=9,
                               alignment=TA_CENTER),
        "h1": ParagraphStyle("h1", parent=base, fontName=FONT_BOLD, fontSize=14, leading=17, spaceAfter=4),
        "h2": ParagraphStyle("h2", parent=base, fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=8,
                             spaceAfter=3),
        "h3": ParagraphStyle("h3", parent=base, fontName=FONT_BOLD, fontSize=9, leading=11, spaceBefore=5,
                             spaceAfter=2),
        "note": ParagraphStyle("note", parent=base, fontName=FONT_ITALIC, fontSize=7, leading=8.5),
        "warn": ParagraphStyle("warn", parent=base, fontName=FONT_BOLD, fontSize=9, leading=11,
                               textColor=colors.white),
    }


def esc(s) -> str:
    return escape("" if s is None else str(s))


def incomplete_banner(st: dict, what: str, details: Iterable[str], width: float,
                      word: str = INCOMPLETE_WORD) -> Table:
    """A red box: INCOMPLETE — what — details (every missing item listed)."""
    lines = [Paragraph(f"{esc(word)} \u2014 {esc(what)}", st["warn"])]
    for d in details:
        lines.append(Paragraph(esc(d), ParagraphStyle("wd", parent=st["small"], textColor=colors.white)))
    t = Table([[lines]], colWidths=[width])
    t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT),
                           ("BACKGROUND", (0, 0), (-1, -1), RED), ("BOX", (0, 0), (-1, -1), 1, RED),
                           ("LEFTPADDING", (0, 0), (-1, -1), 6), ("TOPPADDING", (0, 0), (-1, -1), 4),
                           ("BOTTOMPADDING", (0, 0), (-1, -1), 5)]))
    return t


def grid_style(header_rows: int = 1) -> list:
    head = [("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG)] if header_rows > 0 else []
    return head + [
        ("FONTNAME", (0, 0), (-1, -1), FONT),   # plain-string cells: the embedded font, not Helvetica
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.5), ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]


class Doc(BaseDocTemplate):
    """A reproducible document with a running footer."""

    def __init__(self, path: Path, game, what: str, paper: str):
        pw, ph = paper_size(paper)
        md = metadata(game, what)
        super().__init__(str(path), pagesize=(pw, ph), leftMargin=MARGIN, rightMargin=MARGIN,
                         topMargin=MARGIN, bottomMargin=MARGIN, invariant=1, initialFontName=FONT,
                         title=md["title"],
                         author=md["author"], subject=md["subject"], creator=md["creator"])
        self.footer = f"{game.title} \u2014 {what}" + ("" if game.errata_applied or not game.errata else
                                                         " \u2014 as printed: the errata are not applied")
        frame = Frame(MARGIN, MARGIN, pw - 2 * MARGIN, ph - 2 * MARGIN, id="f", leftPadding=0,
                      rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="p", frames=[frame], onPage=self._foot)])

    def _foot(self, c, doc) -> None:
        c.saveState()
        c.setFont(FONT, 6.5)
        c.setFillGray(0.3)
        c.drawString(MARGIN, MARGIN * 0.5, self.footer)
        c.drawRightString(self.pagesize[0] - MARGIN, MARGIN * 0.5, f"page {doc.page}")
        c.restoreState()


def write_doc(dest: Path, game, what: str, paper: str, story: list) -> Path:
    with atomic_path(dest) as tmp, binary_streams():
        doc = Doc(tmp, game, what, paper)
        doc.build(story)
    return dest


def _frame_width(paper: str) -> float:
    return paper_size(paper)[0] - 2 * MARGIN


# -- tables (CRT and other die-roll tables) ------------------------------------------------------

def table_gaps(game, t) -> list[str]:
    """What a table lacks, as sentences: uncovered rolls, short rows, a bare declaration."""
    out: list[str] = []
    want = t.roll_range()
    covered = {r for row in t.rows for r in row.rolls}
    if want:
        missing = [r for r in range(want[0], want[1] + 1) if r not in covered]
        if missing:
            out.append(f"no row for roll{'s' if len(missing) > 1 else ''} {_ranges(missing)} "
                       f"(the table must cover {want[0]} to {want[1]})")
    # row headings only need to read as rolls when the table is read with dice
    unread = [row.roll for row in t.rows if not row.rolls] if (t.dice or t.rolls) else []
    if unread:
        out.append("row headings not read as rolls: " + ", ".join(unread))
    n = len(t.columns)
    for row in t.rows:
        if len(row.results) < n:
            out.append(f"roll {row.roll}: {n - len(row.results)} of {n} cells not transcribed "
                       "(the source does not show under which column)")
    declared = (t.extra or {}).get("missing")
    if declared:
        items = declared if isinstance(declared, (list, tuple)) else [declared]
        out.append("the source names as missing: " + ", ".join(str(x) for x in items))
    if not t.complete and not out:
        out.append("declared incomplete in the source (complete: false); the transcription does not say what is missing")
    return out


def _humanise(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def extra_rows(t) -> list[tuple[str, list]]:
    """Printed header rows kept in `extra`: a list with one cell per column, or mappings holding one."""
    n = len(t.columns)
    out = []
    for key, val in (t.extra or {}).items():
        if key == "missing" or not isinstance(val, (list, tuple)):
            continue
        if len(val) == n and all(not isinstance(v, (dict, list, tuple)) for v in val):
            out.append((_humanise(key), ["" if v is None else str(v) for v in val]))
            continue
        for item in val:
            if not isinstance(item, dict):
                continue
            cells = next((v for v in item.values() if isinstance(v, (list, tuple)) and len(v) == n), None)
            if cells is not None:
                label = item.get("printed") or item.get("name") or _humanise(key)
                out.append((str(label), ["" if v is None else str(v) for v in cells]))
    return out


def extra_notes(t) -> list[tuple[str, str]]:
    """Everything else in `extra` that is not a header row nor the declared-missing list, as text."""
    out = []
    n = len(t.columns)
    for key, val in (t.extra or {}).items():
        if key == "missing":
            continue
        if isinstance(val, (list, tuple)):
            if len(val) == n and all(not isinstance(v, (dict, list, tuple)) for v in val):
                continue
            if all(isinstance(i, dict) and any(isinstance(v, (list, tuple)) and len(v) == n for v in i.values())
                   for i in val) and val:
                continue
            out.append((_humanise(key), "; ".join(str(v) for v in val)))
        elif isinstance(val, dict):
            out.append((_humanise(key), "; ".join(f"{k}: {v}" for k, v in val.items())))
        elif val is not None:
            out.append((_humanise(key), str(val)))
    return out


def _ranges(nums: list[int]) -> str:
    parts, start, prev = [], None, None
    for n in nums:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            parts.append(f"{start}" if start == prev else f"{start}\u2013{prev}")
            start = prev = n
    if start is not None:
        parts.append(f"{start}" if start == prev else f"{start}\u2013{prev}")
    return ", ".join(parts)


def _uncertain_cells(t) -> dict:
    out = {}
    for i, u in enumerate(t.uncertain, 1):
        if isinstance(u, dict):
            out.setdefault((str(u.get("roll")), str(u.get("column"))), []).append(i)
    return out


def _table_heading(game, t, st: dict, width: float) -> list:
    """The table's name and rule, how it is read, and what it lacks."""
    title = esc(t.name) + (f" <font size=8>(rule {esc(t.rule)})</font>" if t.rule else "")
    story: list = [Paragraph(title, st["h2"])]
    meta = []
    if t.dice:
        meta.append(f"Roll: {esc(t.dice)}")
    if t.method and t.method != "none":
        meta.append(f"Columns by {esc(t.method)}")
    if t.rolls:
        meta.append(f"Modified rolls {t.rolls[0]} to {t.rolls[1]}")
    if meta:
        story.append(Paragraph(" \u00b7 ".join(meta), st["small"]))
    gaps = table_gaps(game, t)
    if not t.complete or gaps:
        what = "this table is declared incomplete" if not t.complete else "rows or cells are missing"
        story.append(Spacer(0, 3))
        story.append(incomplete_banner(st, what, gaps, width))
    story.append(Spacer(0, 4))
    return story


def _result_row(t, row, st: dict, r: int, unc: dict, style: list) -> list:
    """One printed row: its roll and a cell per column (uncertain cells marked, missing ones in red)."""
    cells = [Paragraph(f"<b>{esc(row.roll)}</b>", st["cellc"])]
    for i in range(len(t.columns)):
        if i < len(row.results):
            text = esc(row.results[i])
            marks = unc.get((row.roll, t.columns[i]), [])
            if marks:
                text += "<super>?" + ",".join(map(str, marks)) + "</super>"
                style.append(("BACKGROUND", (i + 1, r), (i + 1, r), PALE_YELLOW))
            cells.append(Paragraph(text, st["cellc"]))
        else:
            cells.append(Paragraph("<font color='#c70d0d'>missing</font>", st["cellc"]))
            style.append(("BACKGROUND", (i + 1, r), (i + 1, r), PALE_RED))
    return cells


def _table_grid(game, t, st: dict, width: float) -> list:
    """The grid as printed: the columns, other header rows, a row per roll, the rolls not transcribed."""
    n = len(t.columns)
    unc = _uncertain_cells(t)
    data = [[Paragraph("Roll", st["head"])] + [Paragraph(esc(c), st["head"]) for c in t.columns]]
    style = grid_style(1)
    # other printed header rows (e.g. the terrain lines above Aachen's differential columns)
    for label, cells_ in extra_rows(t):
        data.append([Paragraph(esc(label), st["head"])] + [Paragraph(esc(v), st["cellc"]) for v in cells_])
        style.append(("BACKGROUND", (0, len(data) - 1), (-1, len(data) - 1), HEAD_BG))
    body_start = len(data)
    for row in t.rows:
        data.append(_result_row(t, row, st, len(data), unc, style))
    want = t.roll_range()
    if want:
        covered = {r for row in t.rows for r in row.rolls}
        missing = [r for r in range(want[0], want[1] + 1) if r not in covered]
        if missing:
            r = len(data)
            data.append([Paragraph(f"<b>{esc(_ranges(missing))}</b>", st["cellc"])] +
                        [Paragraph("<font color='#c70d0d'>not transcribed</font>", st["cellc"])] + [""] * (n - 1))
            style += [("BACKGROUND", (0, r), (-1, r), PALE_RED), ("SPAN", (1, r), (-1, r))] if n > 1 else \
                [("BACKGROUND", (0, r), (-1, r), PALE_RED)]
    roll_w = 0.75 * inch
    col_w = min(0.9 * inch, (width - roll_w) / max(n, 1))
    tbl = Table(data, colWidths=[roll_w] + [col_w] * n, repeatRows=body_start, hAlign="LEFT")
    tbl.setStyle(TableStyle(style))
    return [tbl] + [Paragraph(f"<b>{esc(key)}:</b> {esc(val)}", st["note"]) for key, val in extra_notes(t)]


def _table_key(game, t, st: dict, width: float) -> list:
    if not t.key:
        return []
    kd = [[Paragraph(f"<b>{esc(k.code)}</b>", st["cell"]), Paragraph(esc(k.meaning), st["cell"])] for k in t.key]
    kt = Table(kd, colWidths=[0.8 * inch, width - 0.8 * inch], hAlign="LEFT")
    kt.setStyle(TableStyle(grid_style(0)))
    story = [Paragraph("Result key", st["h3"]), kt]
    if t.separators:
        seps = " or ".join(f"\u201c{esc(s)}\u201d" if s.strip() else "a space" for s in t.separators)
        story.append(Paragraph(f"Several results in one cell are separated by {seps}; # stands for a number.",
                               st["small"]))
    return story


def _table_drm(game, t, st: dict, width: float) -> list:
    if not t.drm:
        return []
    dd = [[Paragraph("<b>DRM</b>", st["cell"]), Paragraph("<b>When</b>", st["cell"]),
           Paragraph("<b>Rule</b>", st["cell"])]]
    for m in t.drm:
        dd.append([Paragraph(f"{m.value:+d}", st["cellc"]), Paragraph(esc(m.when), st["cell"]),
                   Paragraph(esc(m.rule or ""), st["cell"])])
    dt = Table(dd, colWidths=[0.5 * inch, width - 1.2 * inch, 0.7 * inch], hAlign="LEFT")
    dt.setStyle(TableStyle(grid_style(1)))
    return [Paragraph("Die-roll modifiers", st["h3"]), dt]


def _table_readings(game, t, st: dict, width: float) -> list:
    """The table's notes, its uncertain readings and how it was read."""
    story: list = []
    if t.notes:
        story.append(Paragraph("Notes", st["h3"]))
        story += [Paragraph(esc(n), st["small"]) for n in t.notes]
    if t.uncertain:
        story.append(Paragraph("Uncertain readings", st["h3"]))
        for i, u in enumerate(t.uncertain, 1):
            if isinstance(u, dict):
                where = ", ".join(f"{k} {v}" for k, v in u.items() if k in ("roll", "column") and v is not None)
                story.append(Paragraph(f"?{i}: {esc(where)} \u2014 {esc(u.get('note', ''))}", st["small"]))
            else:
                story.append(Paragraph(f"?{i}: {esc(u)}", st["small"]))
    if t.reconstruction:
        story.append(Paragraph(f"<b>How this table was read:</b> {esc(t.reconstruction)}", st["note"]))
    return story


# a table's page, part by part
TABLE_PARTS = (_table_heading, _table_grid, _table_key, _table_drm, _table_readings)


def table_story(game, t, st: dict, width: float) -> list:
    return [f for part in TABLE_PARTS for f in part(game, t, st, width)]


TITLE_ROOM = 24.0   # points the document title takes above the first table


def tables_story(game, st: dict, width: float, height: Optional[float] = None) -> list:
    """Every table, combat tables first. With `height` (the frame's), each combat table is kept on one
    page, set smaller if it must be: a CRT prints on one side of the paper."""
    story: list = [Paragraph(f"{esc(game.title)} \u2014 Tables", st["h1"])]
    # the combat tables first: the CRT is the page players look for
    ordered = [t for t in game.tables if t.kind == "combat"] + [t for t in game.tables if t.kind != "combat"]
    if not ordered:
        story.append(Paragraph("The source tree has no tables.", st["base"]))
    for i, t in enumerate(ordered):
        part = table_story(game, t, st, width)
        if i:
            story.append(CondPageBreak(2.5 * inch))
        if t.kind == "combat" and height:
            room = height - (TITLE_ROOM if i == 0 else 0.0)
            story.append(KeepInFrame(width, room, part, mode="shrink", hAlign="LEFT"))
        else:
            story += part
    return story


# -- terrain effects chart -------------------------------------------------------------------------

def tec_story(game, st: dict, width: float) -> list:
    story: list = [Paragraph(f"{esc(game.title)} \u2014 Terrain Effects Chart", st["h1"])]
    tec = game.tec
    if tec is None:
        story.append(incomplete_banner(st, "no terrain effects chart in the source tree",
                                       ["tec.yaml is absent"], width))
        return story
    if not tec.complete or tec.missing:
        details = []
        if tec.missing:
            details.append("rows the rulebook has but this transcription lacks: " + ", ".join(tec.missing))
        if not tec.complete and not tec.missing:
            details.append("declared incomplete in the source (complete: false); missing rows not named")
        story.append(incomplete_banner(st, "this chart is declared incomplete", details, width))
        story.append(Spacer(0, 4))
    classes = list(tec.movement_classes)
    others = tec.other_columns()
    titles = ["Terrain", "Kind"] + [f"Move: {m}" for m in classes] + ["Combat"] + list(others)
    rows = [[tt.name, tt.kind] + [tt.movement.get(m) for m in classes] + [tt.combat]
            + [tt.other.get(o) for o in others] for tt in tec.terrain]
    size, widths = _tec_columns(titles, rows, width)
    hs = ParagraphStyle("heads", parent=st["head"], fontSize=size, leading=size + 1.5)
    cs = ParagraphStyle("cellsc", parent=st["cellc"], fontSize=size, leading=size + 1.5)
    ls = ParagraphStyle("cells", parent=st["cell"], fontSize=size, leading=size + 1.5)
    data = [[Paragraph(esc(t), hs) for t in titles]]
    style = grid_style(1)
    long_cells: list[str] = []

    def cell(text, column: str, terrain: str):
        if text is None:
            return Paragraph("\u2014", cs)
        text = str(text)
        if len(text) > LONG_CELL:
            # long printed text would make a column one word wide: print it under the table instead
            long_cells.append(f"<b>[{len(long_cells) + 1}]</b> {esc(terrain)} \u2014 {esc(column)}: {esc(text)}")
            return Paragraph(f"see [{len(long_cells)}]", cs)
        return Paragraph(esc(text), cs)

    n_moves = len(classes)
    for tt, values in zip(tec.terrain, rows):
        row = [Paragraph(f"<b>{esc(tt.name)}</b>", ls), Paragraph(esc(tt.kind), cs)]
        for j, v in enumerate(values[2:]):
            if j >= n_moves + 1 and v is None:
                row.append(Paragraph("", cs))           # an extra column this row does not print
            else:
                row.append(cell(v, titles[j + 2], tt.name))
        data.append(row)
    ncols = len(titles)
    for name in tec.missing:
        r = len(data)
        data.append([Paragraph(f"<b>{esc(name)}</b>", ls),
                     Paragraph("<font color='#c70d0d'>not transcribed</font>", cs)] + [""] * (ncols - 2))
        style += [("BACKGROUND", (0, r), (-1, r), PALE_RED), ("SPAN", (1, r), (-1, r))]
    tbl = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    tbl.setStyle(TableStyle(style))
    story.append(tbl)
    for line in long_cells:
        story.append(Paragraph(line, st["small"]))
    if tec.notes:
        story.append(Paragraph("Notes", st["h3"]))
        for k, v in tec.notes.items():
            story.append(Paragraph(f"<b>{esc(k)}.</b> {esc(v)}", st["small"]))
    return story


TEC_TYPE_SIZES = (7.5, 7, 6.5, 6, 5.5)    # the largest at which every column holds its longest word
CELL_PADDING = 5.0                       # left + right padding of a cell (grid_style)


def _tec_columns(titles: list[str], rows: list[list], width: float) -> tuple[float, list[float]]:
    """(type size, column widths) for the TEC: no column narrower than its longest word, so no word is
    broken across lines; the room left over goes to the columns by how much text they hold. The type
    shrinks until the words fit; at the smallest size a word that still does not fit is broken."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    texts = [[str(t)] + [str(r[j]) for r in rows if r[j] is not None and len(str(r[j])) <= LONG_CELL]
             for j, t in enumerate(titles)]
    for size in TEC_TYPE_SIZES:
        need = [max(stringWidth(w, FONT_BOLD, size) for t in col for w in t.split() or [""]) + CELL_PADDING
                for col in texts]
        if sum(need) <= width or size == TEC_TYPE_SIZES[-1]:
            break
    spare = max(0.0, width - sum(need))
    wants = [max(1.0, min(24, max(len(t) for t in col[1:] or [""])) - n / 8) for col, n in zip(texts, need)]
    wants[0] += 24                                                     # the terrain names: the widest
    return size, [n + spare * w / sum(wants) for n, w in zip(need, wants)]


# -- turn record track ---------------------------------------------------------------------------

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def fmt_date(iso: Optional[str]) -> str:
    if not iso:
        return ""
    try:
        y, m, d = iso.split("-")
        return f"{int(d)} {_MONTHS[int(m) - 1]} {y}"
    except (ValueError, IndexError):
        return iso


def reinforcement_counts(game) -> tuple[dict, dict]:
    """{turn id: {side id: counters arriving}} from the game's orders of arrival, and turns not on the track."""
    known = {t.id for t in game.turns}
    counts: dict = {}
    stray: dict = {}
    for o in game.orders_of_arrival:
        for tb in o.turns:
            n = sum(p.count for a in tb.arrivals for p in a.units)
            if not n:
                continue
            target = counts if tb.turn in known else stray
            target.setdefault(tb.turn, {}).setdefault(o.side, 0)
            target[tb.turn][o.side] += n
    return counts, stray


def turn_track_story(game, st: dict, width: float) -> list:
    story: list = [Paragraph(f"{esc(game.title)} \u2014 Turn Record Track", st["h1"])]
    if not game.turns:
        story.append(incomplete_banner(st, "no turns in the source", ["game.yaml lists no turn track"], width))
        return story
    counts, stray = reinforcement_counts(game)
    sides = [(s.id, s.name) for s in game.sides]
    has_ooa = bool(game.orders_of_arrival)
    per_row = 6
    box_w = width / per_row
    cells, style_cmds = [], []
    for t in game.turns:
        parts = [f"<font size=13><b>{esc(t.id)}</b></font>"]
        if t.date:
            parts.append(esc(fmt_date(t.date)))
        if t.time:
            parts.append(f"<b>{esc(t.time)}</b>")
        if has_ooa:
            c = counts.get(t.id, {})
            rein = [f"{esc(name)}: {c[sid]}" for sid, name in sides if c.get(sid)]
            parts.append("<font size=6.5>Reinf.: " + (", ".join(rein) if rein else "none") + "</font>")
        cells.append(Paragraph("<br/>".join(parts), st["cellc"]))
    rows = [cells[i:i + per_row] for i in range(0, len(cells), per_row)]
    if len(rows[-1]) < per_row:
        rows[-1] += [""] * (per_row - len(rows[-1]))
    tbl = Table(rows, colWidths=[box_w] * per_row, rowHeights=[0.9 * inch] * len(rows), hAlign="LEFT")
    style = [("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("FONTNAME", (0, 0), (-1, -1), FONT)]
    for i in range(len(game.turns)):  # a box per turn; the row's unused tail stays blank
        r, c = divmod(i, per_row)
        style.append(("BOX", (c, r), (c, r), 0.8, colors.black))
    tbl.setStyle(TableStyle(style + style_cmds))
    story.append(tbl)
    story.append(Spacer(0, 6))
    if has_ooa:
        story.append(Paragraph(
            "Reinf.: counters arriving that turn by the game's orders of arrival (scenario-specific "
            "reinforcements are on each scenario's set-up card).", st["small"]))
    else:
        story.append(Paragraph("Reinforcement counts: the source has no orders of arrival.", st["small"]))
    if stray:
        story.append(incomplete_banner(st, "arrivals on turns not on the track",
                                       [f"turn {k}: " + ", ".join(f"{s} {n}" for s, n in v.items())
                                        for k, v in stray.items()], width))
    if game.scenarios:
        story.append(Paragraph("Scenario lengths", st["h3"]))
        for s in game.scenarios:
            story.append(Paragraph(f"<b>{esc(s.id)}</b> {esc(s.name)}: turns {esc(s.first_turn or '?')} to "
                                   f"{esc(s.last_turn or '?')}", st["small"]))
    if game.phases:
        story.append(Paragraph("Sequence of play", st["h3"]))
        snames = dict(sides)
        for i, p in enumerate(game.phases, 1):
            who = f" ({esc(snames.get(p.side, p.side))})" if p.side else ""
            story.append(Paragraph(f"{i}. {esc(p.name)}{who}", st["small"]))
    return story


# -- orders of arrival ------------------------------------------------------------------------------

def lookup_unit(game, uid: str):
    try:
        return game.unit(uid)
    except (KeyError, AttributeError):
        return next((u for u in game.units if u.id == uid), None)


_ID_TAIL = re.compile(r"\s*\(([^()]*)\)\s*$")
_FACTORS_HEAD = re.compile(r"^\S+\s+")          # "6-8-6 " of "6-8-6 JgTg Bn (653)"


def placement_text(game, p) -> str:
    u = lookup_unit(game, p.unit)
    name = p.printed or (u.name if u else p.unit)
    s = (f"{p.count}\u00d7 " if p.count and p.count > 1 else "") + name
    if p.state:
        s += " [" + ", ".join(p.state) + "]"
    return s


def _designation(game, p) -> tuple[str, str]:
    """(the printed designation without its ID, the unit's ID) of one unit line."""
    u = lookup_unit(game, p.unit)
    name = p.printed or (u.name if u else p.unit)
    ident = (u.label if u and u.label else "") if u else ""
    m = _ID_TAIL.search(name)
    if m:
        name = name[:m.start()]
        if not ident and "," not in m.group(1):
            ident = m.group(1).strip()
    return name.strip(), ident


def grouped_units(game, placements, marks: Optional[dict] = None) -> list[str]:
    """Unit lines with identical designation and state as one line with a count, their IDs listed:
    `6\u00d7 2-4-10 Abn Bn(+) (A/504, B/504, ...)`. `marks` (unit id -> an erratum's id) keeps a
    corrected line apart and ends it with the erratum: `6-8-6 JgTg Bn (653) [counters-1]`."""
    marks = marks or {}
    groups: dict = {}
    for p in placements:
        base, ident = _designation(game, p)
        g = groups.setdefault((base, tuple(p.state), marks.get(p.unit)), [0, []])
        g[0] += p.count or 1
        if ident and ident not in g[1]:
            g[1].append(ident)
    out = []
    for (base, state, erratum), (n, ids) in groups.items():
        s = (f"{n}\u00d7 " if n > 1 else "") + base + (f" ({', '.join(ids)})" if ids else "")
        if state:
            s += " [" + ", ".join(state) + "]"
        out.append(s + (f" \u2014 erratum {erratum}" if erratum else ""))
    return out


def formation_name(game, fid: Optional[str]) -> str:
    if not fid:
        return ""
    for f in game.formations:
        if f.id == fid:
            return f.name
    return fid


def area_name(game, aid: str) -> str:
    """An area's printed name; its id is added only when the name does not already show it."""
    a = next((x for x in game.places.areas if x.id == aid), None)
    if a is None or not a.name:
        return f"area {aid}"
    return a.name if re.search(rf"(?<!\w){re.escape(aid)}(?!\w)", a.name) else f"{a.name} ({aid})"


def location_text(game, loc) -> str:
    s = str(loc)
    areas = [loc.area] if loc.area else list(loc.any_area or ())
    if areas and not loc.printed:
        s = " or ".join(area_name(game, aid) for aid in areas)
    return s


def _natural(s: str) -> tuple:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.findall(r"\d+|\D+", s))


@dataclass(frozen=True)
class OoaLine:
    """One row of an order-of-arrival card."""
    turn_index: int
    turn: str                   # its heading: as printed, or naming the turn an erratum corrected it to
    side_index: int
    side: str
    entry: str                  # entry text, or "removed"
    formation: str
    units: tuple                # unit lines (grouped)
    notes: str
    removal: bool


def ooa_lines(game, ooa_list, fixes: Optional[dict] = None) -> list[OoaLine]:
    """Every arrival and removal, in the order of the printed card: by turn, then side, then entry.
    A row sits at its block's turn; `fixes` (corrections.ooa_corrections) marks what errata correct:
    a heading whose turn was corrected names the corrected turn, with the erratum's id beside it."""
    fixes = fixes or {}
    turn_ix = {t.id: i for i, t in enumerate(game.turns)}
    side_ix = {s.id: i for i, s in enumerate(game.sides)}
    snames = {s.id: s.name for s in game.sides}
    lines = []
    for oi, o in enumerate(ooa_list):
        for bi, tb in enumerate(o.turns):
            label = _heading(tb, fixes.get(("block", oi, bi, "turn")), fixes.get(("block", oi, bi, "printed")))
            if tb.turn not in turn_ix:
                label += " (not on the turn track)"
            ti = turn_ix.get(tb.turn, len(turn_ix))
            si = side_ix.get(o.side, len(side_ix))
            side = snames.get(o.side, o.side)
            for ai, a in enumerate(tb.arrivals):
                marks = {uid: c.item for (kind, *at, uid), c in fixes.items() if kind == "unit" and at == [oi, bi, ai]}
                arrival_fix = fixes.get(("arrival", oi, bi, ai))
                lines.append(OoaLine(ti, label, si, side, location_text(game, a.entry)
                                     + (mark(arrival_fix) if arrival_fix else ""),
                                     formation_name(game, a.formation), tuple(grouped_units(game, a.units, marks)),
                                     a.condition or "", False))
            for r in tb.removals:
                what = grouped_units(game, r.units)
                if r.formation:
                    what = [f"all of {formation_name(game, r.formation)}"] + what
                if r.except_:
                    what.append("except " + ", ".join(grouped_units(game, r.except_)))
                lines.append(OoaLine(ti, label, si, side, "removed", formation_name(game, r.formation),
                                     tuple(what), "", True))
    # stable: lines of one entry keep the source's order; removals after the turn's arrivals
    return sorted(lines, key=lambda ln: (ln.turn_index, ln.turn, ln.side_index, ln.side, ln.removal,
                                         _natural(ln.entry)))


def _heading(tb, turn_fix, printed_fix) -> str:
    """A block's heading: as printed, but with the corrected turn where an applied erratum moved it."""
    label = tb.printed or tb.turn
    if turn_fix is not None and turn_fix.applied:
        label = corrected_heading(tb.printed, tb.turn, turn_fix)
    fixes = {c.item: c for c in (turn_fix, printed_fix) if c is not None}
    return label + "".join(mark(c) for c in fixes.values())


def ooa_table(game, ooa_list, st: dict, width: float, fixes: Optional[dict] = None) -> list:
    lines = ooa_lines(game, ooa_list, fixes)
    if not lines:
        return [Paragraph("No arrivals listed.", st["small"])]
    header = [Paragraph(h, st["head"]) for h in ("Turn", "Side", "Entry", "Formation", "Units", "Notes")]
    data = [header]
    style = grid_style(1)
    prev = None
    for ln in lines:
        row = len(data)
        new_turn = prev is None or (ln.turn_index, ln.turn) != (prev.turn_index, prev.turn)
        new_side = new_turn or ln.side != prev.side
        if new_turn and prev is not None and ln.turn_index == prev.turn_index:
            new_turn = "label"          # one turn, another heading (an erratum's): the label, no line
        new_entry = new_side or ln.entry != prev.entry
        if new_turn is True and prev is not None:
            style.append(("LINEABOVE", (0, row), (-1, row), 1.2, colors.black))
        entry = "<i>removed</i>" if ln.removal else esc(ln.entry)
        data.append([Paragraph(f"<b>{esc(ln.turn)}</b>" if new_turn else "", st["cell"]),
                     Paragraph(esc(ln.side) if new_side else "", st["cell"]),
                     Paragraph(entry if new_entry else "", st["cell"]),
                     Paragraph(esc(ln.formation), st["cell"]),
                     Paragraph("<br/>".join(esc(u) for u in ln.units), st["cell"]),
                     Paragraph(esc(ln.notes), st["cell"])])
        if ln.removal:
            style.append(("BACKGROUND", (0, row), (-1, row), colors.Color(0.93, 0.93, 0.93)))
        prev = ln
    w = [0.65 * inch, 0.6 * inch, 1.1 * inch, 1.0 * inch]
    w += [width - sum(w) - 1.3 * inch, 1.3 * inch]
    tbl = Table(data, colWidths=w, repeatRows=1, hAlign="LEFT")
    tbl.setStyle(TableStyle(style))
    return [tbl]


def ooa_story(game, st: dict, width: float) -> list:
    story: list = [Paragraph(f"{esc(game.title)} \u2014 Orders of Arrival", st["h1"])]
    if not game.orders_of_arrival:
        story.append(Paragraph("The source tree has no orders of arrival (orders-of-arrival.yaml is optional; "
                               "scenario-specific reinforcements are on the set-up cards).", st["base"]))
        return story
    rules = sorted({o.rule for o in game.orders_of_arrival if o.rule})
    if rules:
        story.append(Paragraph(f"Rule {esc(', '.join(rules))}. By turn, then side, then entry; "
                               "n\u00d7 = that many identical counters (their IDs in brackets).", st["small"]))
    story.append(Spacer(0, 4))
    fixes, loose = ooa_corrections(game)
    story += ooa_table(game, game.orders_of_arrival, st, width, fixes)
    if fixes or loose:
        head = ("Corrected by the errata: each value an erratum corrects is marked with the erratum."
                if game.errata_applied else
                "As printed: the errata are not applied; each value an erratum corrects is marked with the erratum.")
        story += [Spacer(0, 6), Paragraph(head, st["small"])]
        story += [Paragraph(esc(note(c, _what(game, target))), st["small"])
                  for target, c in sorted(fixes.items(), key=lambda kv: kv[0][1:3])]
        story += [Paragraph(esc(loose_note(c)), st["small"]) for c in loose]
    return story


def _what(game, target: tuple) -> str:
    """The value a correction's target names, in the chart's words."""
    kind, oi, bi = target[:3]
    o = game.orders_of_arrival[oi]
    side = next((s.name for s in game.sides if s.id == o.side), o.side)
    tb = o.turns[bi]
    block = f"the {side} block headed \u201c{tb.printed}\u201d" if tb.printed else f"the {side} turn {tb.turn} block"
    block += f" (block {bi + 1} of the {side} list)"
    if kind == "block":
        return f"the {target[3]} of {block}"
    if kind == "unit":
        u = lookup_unit(game, target[4])
        return f"the {_FACTORS_HEAD.sub('', u.name) if u else target[4]} line of {block}"
    return f"an arrival of {block}"


def build_tables(game, dest: Path, paper: str) -> Path:
    st = styles()
    return write_doc(dest, game, "tables", paper,
                     tables_story(game, st, _frame_width(paper), paper_size(paper)[1] - 2 * MARGIN))


def build_tec(game, dest: Path, paper: str) -> Path:
    st = styles()
    return write_doc(dest, game, "terrain effects chart", paper, tec_story(game, st, _frame_width(paper)))


def build_turn_track(game, dest: Path, paper: str) -> Path:
    st = styles()
    return write_doc(dest, game, "turn record track", paper, turn_track_story(game, st, _frame_width(paper)))


def build_ooa(game, dest: Path, paper: str) -> Path:
    st = styles()
    return write_doc(dest, game, "orders of arrival", paper, ooa_story(game, st, _frame_width(paper)))
