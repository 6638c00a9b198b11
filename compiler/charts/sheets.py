"""Counter sheets: every counter of the manifest at true physical size, ready to print duplex.

Layout
- Each sheet is two pages: the fronts, then the backs mirrored left-right, so printing duplex
  (flip on the long edge) puts each back behind its front. The grid is centred horizontally, so a
  counter at x on the front sits at page_width - x - pitch on the back.
- Counters do not touch: each one is cut on its own rectangle (`size x size` inches) and its artwork
  runs on past the cut by a bleed on every side (edge pixels extended), so a slightly-off cut still
  shows no white. Pitch = size + 2 x bleed. Hairline cut rectangles and crop marks in the margin.
- Grouped by side (a side starts a new sheet), then by formation in manifest order (a formation
  starts a new row), independents last; markers after all units, on their own sheets.
- Generic counters (`count` > 1) are repeated `count` times; an unknown count prints one copy and
  the per-sheet mix says the count is not printed.
- The counter mix of each sheet is listed under its grid.

Every counter drawn also gets an invisible text tag (`hexforge:unit:<id>:front:<k>`), so the PDF
can be searched for a unit and tests can check that each counter appears once per side.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as rl_canvas

from ..render.counters import counter_image, marker_image
from compiler.atomic import atomic_path
from .pdf import FONT, FONT_BOLD, metadata, paper_size, register_fonts

DPI = 300                     # minimum resolution of the counter bitmaps
BLEED_IN = 1 / 16             # artwork past the cut on each side
MARGIN_IN = 0.4               # page margin (printers need ~0.25")
HEADER_IN = 0.45
MIX_FONT_MAX = 7.0
MIX_FONT_MIN = 4.5
TAG_PREFIX = "hexforge:"
MIX_GAP = 0.15 * 72 + 8     # below the grid: clear of the crop marks


@dataclass(frozen=True)
class Piece:
    """One physical counter to print."""
    kind: str                 # unit | marker
    obj: object               # Unit | Marker
    copy: int                 # 1-based copy number
    copies: int
    count_known: bool

    @property
    def id(self) -> str:
        return self.obj.id


@dataclass(frozen=True)
class Group:
    side: Optional[str]       # None for markers
    heading: str
    pieces: tuple


@dataclass
class Sheet:
    side_name: str
    cells: list                # [(row, col, Piece)]
    groups: list               # [(heading, [Piece])] in order, for the mix


@dataclass(frozen=True)
class Geometry:
    page_w: float
    page_h: float
    size: float               # counter edge, points
    bleed: float              # points
    pitch: float
    cols: int
    x0: float                 # left edge of the first cell (cell = pitch square, cut rect inset by bleed)
    top: float                # top edge of the first row


def _copies(n: Optional[int]) -> tuple[int, bool]:
    if n is None:
        return 1, False
    return max(0, int(n)), True


def groups(game) -> list[Group]:
    """The manifest in print order: sides, then formations (independents last), then markers."""
    out: list[Group] = []
    fnames = {f.id: f.name for f in game.formations}
    forder = [f.id for f in game.formations]
    side_ids = [s.id for s in game.sides]
    units_by_side: dict = {}
    for u in game.units:
        units_by_side.setdefault(u.side, []).append(u)
    extra_sides = [s for s in units_by_side if s not in side_ids]
    for sid in side_ids + sorted(extra_sides):
        units = units_by_side.get(sid, [])
        if not units:
            continue
        by_f: dict = {}
        for u in units:
            by_f.setdefault(u.formation, []).append(u)
        keys = [f for f in forder if f in by_f] + sorted(k for k in by_f if k is not None and k not in forder)
        if None in by_f:
            keys.append(None)
        for fk in keys:
            pieces = []
            for u in by_f[fk]:
                n, known = _copies(u.count)
                pieces.extend(Piece("unit", u, i + 1, n, known) for i in range(n))
            if pieces:
                heading = fnames.get(fk, fk) if fk is not None else "Independent units"
                out.append(Group(sid, heading, tuple(pieces)))
    pieces = []
    for m in game.markers:
        n, known = _copies(m.count)
        pieces.extend(Piece("marker", m, i + 1, n, known) for i in range(n))
    if pieces:
        out.append(Group(None, "Markers", tuple(pieces)))
    return out


def geometry(game, paper: str) -> Geometry:
    pw, ph = paper_size(paper)
    size = float(game.counter_size_in) * 72.0
    if size <= 0:
        raise ValueError(f"counter_size_in must be positive, not {game.counter_size_in}")
    bleed = BLEED_IN * 72.0
    pitch = size + 2 * bleed
    usable = pw - 2 * MARGIN_IN * 72
    cols = int(usable // pitch)
    if cols < 1:
        raise ValueError("counters larger than the paper")
    x0 = (pw - cols * pitch) / 2
    top = ph - (MARGIN_IN + HEADER_IN) * 72
    return Geometry(pw, ph, size, bleed, pitch, cols, x0, top)


def _with_bleed(img: Image.Image, b: int) -> Image.Image:
    """The image with its edge pixels extended by b on every side."""
    if b <= 0:
        return img
    w, h = img.size
    out = Image.new(img.mode, (w + 2 * b, h + 2 * b))
    out.paste(img, (b, b))
    out.paste(img.crop((0, 0, w, 1)).resize((w, b)), (b, 0))
    out.paste(img.crop((0, h - 1, w, h)).resize((w, b)), (b, h + b))
    out.paste(img.crop((0, 0, 1, h)).resize((b, h)), (0, b))
    out.paste(img.crop((w - 1, 0, w, h)).resize((b, h)), (w + b, b))
    for (sx, sy), (dx, dy) in (((0, 0), (0, 0)), ((w - 1, 0), (w + b, 0)),
                               ((0, h - 1), (0, h + b)), ((w - 1, h - 1), (w + b, h + b))):
        out.paste(img.getpixel((sx, sy)), (dx, dy, dx + b, dy + b))
    return out


class _Art:
    """Counter bitmaps (with bleed) for one build, made once per distinct face."""

    def __init__(self, game, size_in: float, bleed_in: float):
        self.game = game
        self.px = math.ceil(size_in * DPI)
        # bleed in whole pixels, never more than the gutter allows
        self.bpx = int(math.floor(bleed_in * self.px / size_in))
        self._cache: dict = {}

    def get(self, piece: Piece, face: str) -> ImageReader:
        key = (piece.kind, piece.id, face)
        r = self._cache.get(key)
        if r is None:
            if piece.kind == "unit":
                img = counter_image(self.game, piece.obj, face, self.px)
            else:
                img = marker_image(self.game, piece.obj, self.px, face)
            r = ImageReader(_with_bleed(img, self.bpx))
            self._cache[key] = r
        return r


def _label(piece: Piece) -> str:
    o = piece.obj
    if piece.kind == "marker":
        return o.name or o.id
    return o.label or o.name or o.id


def mix_lines(game, sheet: Sheet) -> list[str]:
    """The counter mix of a sheet, one entry per group: 'Heading: label x n, ...'."""
    out = []
    for heading, pieces in sheet.groups:
        seen: dict = {}
        order = []
        for p in pieces:
            k = (p.kind, p.id)
            if k not in seen:
                seen[k] = [p, 0]
                order.append(k)
            seen[k][1] += 1
        parts = []
        for k in order:
            p, n = seen[k]
            s = _label(p)
            if not p.count_known:
                s += " (count not printed; 1 copy)"
            elif p.copies > 1:
                s += f" \u00d7{n}" if n == p.copies else f" \u00d7{n} (of {p.copies})"
            parts.append(s)
        out.append(f"{heading}: " + ", ".join(parts))
    return out


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth
    words = text.split(" ")
    lines, cur = [], ""
    for w in words:
        t = w if not cur else cur + " " + w
        if stringWidth(t, font, size) <= width or not cur:
            cur = t
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def _mix_layout(entries: list[str], width: float, height: float) -> Optional[tuple[float, list[str]]]:
    """The largest font size (MIX_FONT_MAX..MIX_FONT_MIN) at which the mix fits, and its lines."""
    size = MIX_FONT_MAX
    while size >= MIX_FONT_MIN - 1e-9:
        lines = []
        for e in entries:
            lines.extend(_wrap(e, FONT, size, width))
        if (len(lines) + 1) * size * 1.2 <= height:
            return size, lines
        size -= 0.5
    return None


def paginate(game, geo: Geometry) -> list[Sheet]:
    """Lay the groups out into sheets; a page is shortened when its mix would not fit under it."""
    register_fonts()  # the mix is measured in the PDF font
    gs = groups(game)
    sides = {s.id: s.name for s in game.sides}
    bottom_limit = MARGIN_IN * 72
    max_rows = int((geo.top - bottom_limit) // geo.pitch)
    if max_rows < 1:
        raise ValueError("counters larger than the paper")
    # split the manifest into runs that must start a new sheet (side changes, markers)
    runs: list[tuple[str, list[Group]]] = []
    for g in gs:
        name = "Markers" if g.side is None else sides.get(g.side, g.side)
        if runs and runs[-1][0] == name:
            runs[-1][1].append(g)
        else:
            runs.append((name, [g]))
    sheets: list[Sheet] = []
    for name, rgroups in runs:
        queue = [(g.heading, list(g.pieces)) for g in rgroups]
        while queue:
            rows = max_rows
            while True:
                sheet, rest = _fill(name, queue, geo.cols, rows)
                grid_bottom = geo.top - _rows_used(sheet) * geo.pitch
                room = grid_bottom - bottom_limit - MIX_GAP
                if _mix_layout(mix_lines(game, sheet), geo.page_w - 2 * MARGIN_IN * 72, room) or rows == 1:
                    break
                rows -= 1
            sheets.append(sheet)
            queue = rest
    return sheets


def _rows_used(sheet: Sheet) -> int:
    return (max(r for r, _, _ in sheet.cells) + 1) if sheet.cells else 0


def _fill(name: str, queue: list, cols: int, rows: int) -> tuple[Sheet, list]:
    sheet = Sheet(name, [], [])
    row, col = 0, 0
    rest = [(h, list(p)) for h, p in queue]
    while rest:
        heading, pieces = rest[0]
        if col != 0:                           # a formation starts a new row
            row, col = row + 1, 0
        if row >= rows:
            break
        placed = []
        while pieces and row < rows:
            placed.append(pieces.pop(0))
            sheet.cells.append((row, col, placed[-1]))
            col += 1
            if col == cols:
                row, col = row + 1, 0
        if placed:
            sheet.groups.append((heading, placed))
        if pieces:
            break
        rest.pop(0)
        if col == 0 and row >= rows:
            break
    return sheet, [(h, p) for h, p in rest if p]


def _cell_origin(geo: Geometry, row: int, col: int, back: bool) -> tuple[float, float]:
    """Lower-left corner of a cell (pitch square); backs are mirrored about the page's centre."""
    x = geo.x0 + col * geo.pitch
    if back:
        x = geo.page_w - x - geo.pitch
    y = geo.top - (row + 1) * geo.pitch
    return x, y


def _crop_marks(c, geo: Geometry, rows: int, cols_used: set, back: bool) -> None:
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    mark = 0.15 * 72
    grid_top = geo.top
    grid_bottom = geo.top - rows * geo.pitch
    xs = set()
    for col in cols_used:
        x, _ = _cell_origin(geo, 0, col, back)
        xs.add(round(x + geo.bleed, 3))
        xs.add(round(x + geo.bleed + geo.size, 3))
    for x in sorted(xs):
        c.line(x, grid_top + 2, x, grid_top + 2 + mark)
        c.line(x, grid_bottom - 2, x, grid_bottom - 2 - mark)
    left = min(_cell_origin(geo, 0, col, back)[0] for col in cols_used)
    right = max(_cell_origin(geo, 0, col, back)[0] for col in cols_used) + geo.pitch
    for r in range(rows):
        y = geo.top - (r + 1) * geo.pitch + geo.bleed
        for yy in (y, y + geo.size):
            c.line(left - 2 - mark, yy, left - 2, yy)
            c.line(right + 2, yy, right + 2 + mark, yy)


def _scale_bar(c, geo: Geometry) -> None:
    """A 1-inch and a 2-cm bar: measure them to confirm the page printed at 100%."""
    y = MARGIN_IN * 72 * 0.55
    x = geo.page_w - MARGIN_IN * 72 - 72
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(0, 0, 0)
    c.line(x, y, x + 72, y)
    c.line(x, y - 2, x, y + 2)
    c.line(x + 72, y - 2, x + 72, y + 2)
    c.setFont(FONT, 5)
    c.drawCentredString(x + 36, y + 2.5, "1 inch")
    cm2 = 72 * 2 / 2.54
    x2 = x - 20 - cm2
    c.line(x2, y, x2 + cm2, y)
    c.line(x2, y - 2, x2, y + 2)
    c.line(x2 + cm2, y - 2, x2 + cm2, y + 2)
    c.drawCentredString(x2 + cm2 / 2, y + 2.5, "2 cm")


def _page(c, game, geo: Geometry, sheet: Sheet, number: int, total: int, back: bool, art: _Art,
          paper: str) -> None:
    face = "back" if back else "front"
    title = (f"{game.title} \u2014 counter sheet {number} of {total} ({'backs, mirrored' if back else 'fronts'})"
             f" \u2014 {sheet.side_name}")
    c.setFillColorRGB(0, 0, 0)
    c.setFont(FONT_BOLD, 9)
    c.drawString(MARGIN_IN * 72, geo.page_h - MARGIN_IN * 72 - 9, title)
    c.setFont(FONT, 6.5)
    size_in = float(game.counter_size_in)
    c.drawString(MARGIN_IN * 72, geo.page_h - MARGIN_IN * 72 - 18,
                 f"Counters {size_in:g}\" ({size_in * 25.4:.1f} mm), bleed {BLEED_IN:g}\" each side. "
                 f"Print at 100% (no scaling) on {paper.upper() if paper == 'a4' else 'US Letter'}, "
                 f"duplex, flip on long edge. Cut on the hairlines.")
    for row, col, piece in sheet.cells:
        x, y = _cell_origin(geo, row, col, back)
        img = art.get(piece, face)
        ext = geo.size * (art.px + 2 * art.bpx) / art.px
        off = (geo.pitch - ext) / 2
        c.drawImage(img, x + off, y + off, ext, ext)
        # invisible tag: find a counter by id in the PDF (render mode 3 draws nothing)
        t = c.beginText(x + geo.bleed + 1, y + geo.bleed + 1)
        t.setTextRenderMode(3)
        t.setFont(FONT, 2)
        t.textOut(f"{TAG_PREFIX}{piece.kind}:{piece.id}:{face}:{piece.copy} ")
        t.setTextRenderMode(0)  # the render mode outlives the text object: restore it
        c.drawText(t)
    # cut rectangles
    c.setStrokeColorRGB(0.25, 0.25, 0.25)
    c.setLineWidth(0.25)
    for row, col, _ in sheet.cells:
        x, y = _cell_origin(geo, row, col, back)
        c.rect(x + geo.bleed, y + geo.bleed, geo.size, geo.size, stroke=1, fill=0)
    rows = _rows_used(sheet)
    if rows:
        _crop_marks(c, geo, rows, {col for _, col, _ in sheet.cells}, back)
    if not back:
        grid_bottom = geo.top - rows * geo.pitch
        room = grid_bottom - MARGIN_IN * 72 - MIX_GAP
        width = geo.page_w - 2 * MARGIN_IN * 72
        lay = _mix_layout(mix_lines(game, sheet), width, room)
        if lay is None:  # one row and still too long: smallest font, as many lines as fit
            lines = []
            for e in mix_lines(game, sheet):
                lines.extend(_wrap(e, FONT, MIX_FONT_MIN, width))
            lay = (MIX_FONT_MIN, lines)
        fs, lines = lay
        c.setFillColorRGB(0, 0, 0)
        y = grid_bottom - MIX_GAP - fs * 0.2
        c.setFont(FONT_BOLD, fs)
        c.drawString(MARGIN_IN * 72, y, f"Counter mix of sheet {number} ({len(sheet.cells)} counters):")
        c.setFont(FONT, fs)
        for ln in lines:
            y -= fs * 1.2
            c.drawString(MARGIN_IN * 72, y, ln)
    _scale_bar(c, geo)


def build_counter_sheets(game, dest: Path, paper: str = "a4",
                         progress: Optional[Callable[[str, int, int], None]] = None) -> Path:
    register_fonts()
    geo = geometry(game, paper)
    sheets = paginate(game, geo)
    art = _Art(game, float(game.counter_size_in), BLEED_IN)
    with atomic_path(dest) as tmp:
        c = rl_canvas.Canvas(str(tmp), pagesize=(geo.page_w, geo.page_h), invariant=1, pageCompression=1)
        md = metadata(game, "counter sheets")
        c.setTitle(md["title"])
        c.setAuthor(md["author"])
        c.setSubject(md["subject"])
        c.setCreator(md["creator"])
        if not sheets:
            c.setFont(FONT_BOLD, 12)
            c.drawString(72, geo.page_h - 72, f"{game.title}: the counter manifest is empty.")
            c.showPage()
        for i, sheet in enumerate(sheets, 1):
            if progress:
                progress("counter sheets", i - 1, len(sheets))
            for back in (False, True):
                _page(c, game, geo, sheet, i, len(sheets), back, art, paper)
                c.showPage()
        c.save()
    return dest
