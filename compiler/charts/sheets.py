"""Counter sheets: every counter of the manifest at true physical size, ready to print duplex and cut.

Layout (like a die-cut sheet)
- Counters abut in one dense grid: the cut between two neighbours is a single hairline, and every
  row is full except where a side (or the markers) begins a new row, and the last row of a sheet.
  Formations follow one another without gaps, in manifest order, independents after a side's
  formations; a sheet may hold several sides. The page count is therefore close to
  ceil(counters / cells per page).
- Artwork runs past the sheet's outer cut lines by a bleed (edge pixels extended), so a slightly-off
  cut along the edge shows no white; inside the grid each counter is clipped to its own square.
- Crop marks outside the grid continue every cut line to the sheet edge.
- Each sheet is two pages: the fronts, then the backs mirrored left-right about the page's centre,
  so printing duplex (flip on the long edge) puts each back behind its front; the geometry is
  exact, so the only offset is the printer's own registration.
- Generic counters (`count` > 1) are repeated `count` times; an unknown count prints one copy and
  the per-sheet mix says the count is not printed.
- The counter mix of each sheet is printed under its grid, compactly: counters per formation, and the
  labels of independent units and markers.

Every counter drawn also gets an invisible text tag (`hexforge:unit:<id>:front:<k>`) at its square,
so the PDF's text layer can be searched for a unit and tests can check each counter is on each face once.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import PIL
from PIL import Image
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as rl_canvas

from ..render.art import face_image, on_white
from ..render.counters import FONT_DIR, counter_image, counter_type_scale, marker_image, marker_type_px
from compiler import cache as cache_mod
from compiler.atomic import atomic_path
from .pdf import (
    FONT, FONT_BOLD, FlateImage, apply_metadata, binary_streams, draw_flate_image, paper_size, register_fonts,
)

DPI = 300                     # minimum resolution of the counter bitmaps
BLEED_IN = 1 / 16             # artwork past the sheet's outer cut lines
PRINTER_MARGIN = 18.0         # points every printer can print to (0.25")
MARK_GAP = 1.5                # points between the bleed and a crop mark
MARK_LEN = 9.0                # points
HEADER_H = 22.0               # points: title and instruction lines
MIX_FONT_MAX = 6.5
MIX_FONT_MIN = 4.5
SCALE_BAR_H = 10.0            # points reserved at the foot for the scale bars
TAG_PREFIX = "hexforge:"
TAG_FONT = 2.0
MARKERS = "Markers"
INDEPENDENTS = "Independent units"


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


@dataclass(frozen=True)
class Item:
    """A piece in print order, with the run (a side, or the markers) and group it belongs to."""
    run: str                  # the side's name, or MARKERS
    heading: str              # formation name, INDEPENDENTS or MARKERS
    total: int                # counters in the whole group
    piece: Piece


@dataclass
class Sheet:
    side_name: str                                   # the runs on the sheet, joined
    cells: list = field(default_factory=list)        # [(row, col, Piece)]
    groups: list = field(default_factory=list)       # [(run, heading, [Piece], group total)] in order


@dataclass(frozen=True)
class Geometry:
    page_w: float
    page_h: float
    size: float               # counter edge = grid pitch, points
    bleed: float              # points, past the outer cut lines
    pitch: float
    cols: int
    x0: float                 # left cut line of the grid
    top: float                # top cut line of the grid
    bottom_limit: float       # nothing of the grid's marks or mix below this


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
                heading = fnames.get(fk, fk) if fk is not None else INDEPENDENTS
                out.append(Group(sid, heading, tuple(pieces)))
    pieces = []
    for m in game.markers:
        n, known = _copies(m.count)
        pieces.extend(Piece("marker", m, i + 1, n, known) for i in range(n))
    if pieces:
        out.append(Group(None, MARKERS, tuple(pieces)))
    return out


def print_order(game) -> list[Item]:
    sides = {s.id: s.name for s in game.sides}
    return [Item(MARKERS if g.side is None else sides.get(g.side, g.side), g.heading, len(g.pieces), p)
            for g in groups(game) for p in g.pieces]


def geometry(game, paper: str) -> Geometry:
    pw, ph = paper_size(paper)
    size = float(game.counter_size_in) * 72.0
    if size <= 0:
        raise ValueError(f"counter_size_in must be positive, not {game.counter_size_in}")
    bleed = BLEED_IN * 72.0
    outside = PRINTER_MARGIN + MARK_GAP + MARK_LEN + bleed     # from the paper edge to a cut line
    cols = int((pw - 2 * outside) // size)
    if cols < 1:
        raise ValueError("counters larger than the paper")
    x0 = (pw - cols * size) / 2
    top = ph - PRINTER_MARGIN - HEADER_H - MARK_GAP - MARK_LEN - bleed
    return Geometry(pw, ph, size, bleed, size, cols, x0, top, PRINTER_MARGIN + SCALE_BAR_H)


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


def _art_value(x):
    """A model value (or tuple of them) as artwork sees it: where it was written does not show."""
    if isinstance(x, tuple):
        return tuple(_art_value(v) for v in x)
    if dataclasses.is_dataclass(x) and any(f.name == "loc" for f in dataclasses.fields(x)):
        return dataclasses.replace(x, loc=None)
    return x


@functools.lru_cache(maxsize=1)
def _renderer_fingerprint() -> str:
    """The code that turns a unit into a face's pixels (and its bleed) and those into a PDF image
    stream, and the libraries that draw and compress them."""
    from compiler.render import art as art_mod, counters as counters_mod, layout as layout_mod
    from . import pdf as pdf_mod
    return cache_mod.key(cache_mod.code_fingerprint([counters_mod, layout_mod, pdf_mod, art_mod,
                                                     sys.modules[__name__]]),
                         PIL.__version__, FONT_DIR, zlib.ZLIB_RUNTIME_VERSION)


class _Art:
    """Counter bitmaps (with bleed) for one build, made once per distinct face.

    With a `cache` (compiler/cache.py), each face is kept, as the PDF image stream it is placed with
    (pdf.FlateImage: nothing to decode or compress again), under a key of exactly what
    shapes them: the piece itself, what every face reads besides (sides, formations, factor names,
    rules), the game-wide type scale of that face, its size and bleed, and the renderer's own source.
    So after one unit changes only its faces are drawn again (unless the shared type scale moves)."""

    def __init__(self, game, size_in: float, bleed_in: float, cache: Optional[cache_mod.Cache] = None):
        self.game = game
        self.px = math.ceil(size_in * DPI)
        self.bpx = int(math.ceil(bleed_in * self.px / size_in))
        self._cache: dict = {}
        self._store = cache
        self._shared = cache_mod.key(repr((_art_value(game.sides), _art_value(game.formations),
                                           game.factor_names, game.rules))) if cache is not None else ""

    def _art_of(self, piece: Piece, face: str):
        """The author's art for this face (art.yaml), if any: printed in place of the drawing."""
        return self.game.face_art(piece.kind, piece.id, face)

    def _face_key(self, piece: Piece, face: str) -> str:
        art = self._art_of(piece, face)
        if art is not None:    # the art's own bytes (digest) and cell, not where it was written
            return cache_mod.key("sheet-face-art", _renderer_fingerprint(), art.image.digest, list(art.box or ()),
                                 self.px, self.bpx)
        if piece.kind == "unit":
            scale = repr(counter_type_scale(self.game, face, self.px))
        else:
            scale = marker_type_px(self.game, self.px)
        return cache_mod.key("sheet-face", _renderer_fingerprint(), self._shared, piece.kind,
                             repr(_art_value(piece.obj)), face, scale, self.px, self.bpx)

    def _draw(self, piece: Piece, face: str) -> Image.Image:
        art = self._art_of(piece, face)
        if art is not None:
            return _with_bleed(on_white(face_image(self.game.root, art, self.px)), self.bpx)
        if piece.kind == "unit":
            img = counter_image(self.game, piece.obj, face, self.px)
        else:
            img = marker_image(self.game, piece.obj, self.px, face)
        return _with_bleed(img, self.bpx)

    def _image(self, piece: Piece, face: str) -> FlateImage:
        if self._store is None:
            return FlateImage.of(self._draw(piece, face))
        data = self._store.get_or_make(self._face_key(piece, face),
                                       lambda: FlateImage.of(self._draw(piece, face)).to_bytes(), ".rgbz")
        return FlateImage.from_bytes(data)

    def get(self, piece: Piece, face: str) -> FlateImage:
        key = (piece.kind, piece.id, face)
        r = self._cache.get(key)
        if r is None:
            r = self._image(piece, face)
            self._cache[key] = r
        return r


# -- the counter mix ------------------------------------------------------------------------------

def _label(piece: Piece) -> str:
    o = piece.obj
    if piece.kind == "marker":
        return o.name or o.id
    return o.label or o.name or o.id


def _count_text(n: int, total: int) -> str:
    return f"\u00d7{n}" if n == total else f"\u00d7{n} (of {total})"


def _listed(pieces: list) -> str:
    """Labels in order, each with its number of copies on the sheet."""
    seen: dict = {}
    for p in pieces:
        seen.setdefault((p.kind, p.id), [p, 0])[1] += 1
    parts = []
    for p, n in seen.values():
        s = _label(p)
        if not p.count_known:
            s += " (count not printed; 1 copy)"
        elif p.copies > 1:
            s += " " + _count_text(n, p.copies)
        parts.append(s)
    return ", ".join(parts)


def mix_lines(game, sheet: Sheet) -> list[str]:
    """The counter mix of a sheet, one entry per run: formations with their counter counts, then the
    labels of independent units (or markers)."""
    runs: dict = {}
    for run, heading, pieces, total in sheet.groups:
        runs.setdefault(run, []).append((heading, pieces, total))
    out = []
    for run, gs in runs.items():
        forms = [f"{h} {_count_text(len(ps), t)}" for h, ps, t in gs if h not in (INDEPENDENTS, MARKERS)]
        listed = [(h, ps) for h, ps, _ in gs if h in (INDEPENDENTS, MARKERS)]
        parts = []
        if forms:
            parts.append(" \u00b7 ".join(forms))
        for h, ps in listed:
            parts.append((f"{h.lower()}: " if run != MARKERS else "") + _listed(ps))
        out.append(f"{run}: " + "; ".join(parts))
    return out


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
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


def _mix_top(geo: Geometry, rows: int) -> float:
    """The top of the mix: below the grid's bleed and crop marks."""
    return geo.top - rows * geo.pitch - geo.bleed - MARK_GAP - MARK_LEN - 3


def _mix_width(geo: Geometry) -> float:
    return geo.page_w - 2 * PRINTER_MARGIN


# -- pagination ----------------------------------------------------------------------------------

def paginate(game, geo: Geometry) -> list[Sheet]:
    """Lay the manifest out into sheets; a sheet is shortened by a row while its mix would not fit."""
    register_fonts()  # the mix is measured in the PDF font
    max_rows = int((geo.top - geo.bleed - MARK_GAP - MARK_LEN - geo.bottom_limit) // geo.pitch)
    if max_rows < 1:
        raise ValueError("counters larger than the paper")
    queue = print_order(game)
    sheets: list[Sheet] = []
    while queue:
        rows = max_rows
        while True:
            sheet, used = _fill(queue, geo.cols, rows)
            room = _mix_top(geo, _rows_used(sheet)) - geo.bottom_limit
            if _mix_layout(mix_lines(game, sheet), _mix_width(geo), room) or rows == 1:
                break
            rows -= 1
        sheets.append(sheet)
        queue = queue[used:]
    return sheets


def _rows_used(sheet: Sheet) -> int:
    return (max(r for r, _, _ in sheet.cells) + 1) if sheet.cells else 0


def _fill(queue: list[Item], cols: int, rows: int) -> tuple[Sheet, int]:
    """Place items densely, a new run (side, markers) starting a new row; (sheet, items placed)."""
    sheet = Sheet("")
    row, col, placed = 0, 0, 0
    prev: Optional[Item] = None
    for it in queue:
        if prev is not None and it.run != prev.run and col:
            row, col = row + 1, 0
        if row >= rows:
            break
        sheet.cells.append((row, col, it.piece))
        if prev is not None and (it.run, it.heading) == (prev.run, prev.heading) and sheet.groups:
            sheet.groups[-1][2].append(it.piece)
        else:
            sheet.groups.append((it.run, it.heading, [it.piece], it.total))
        prev, placed = it, placed + 1
        col += 1
        if col == cols:
            row, col = row + 1, 0
    names = list(dict.fromkeys(g[0] for g in sheet.groups))
    sheet.side_name = ", ".join(names)
    return sheet, placed


# -- drawing -------------------------------------------------------------------------------------

def _cell_origin(geo: Geometry, row: int, col: int, back: bool) -> tuple[float, float]:
    """Lower-left corner of a counter's square; backs are mirrored about the page's centre."""
    x = geo.x0 + col * geo.pitch
    if back:
        x = geo.page_w - x - geo.pitch
    y = geo.top - (row + 1) * geo.pitch
    return x, y


def _clip_box(geo: Geometry, occupied: set, row: int, col: int, back: bool) -> tuple[float, float, float, float]:
    """The square of a counter, grown by the bleed on each side where no counter neighbours it."""
    x, y = _cell_origin(geo, row, col, back)
    b = geo.bleed
    left = b if (row, col - 1) not in occupied else 0.0
    right = b if (row, col + 1) not in occupied else 0.0
    if back:
        left, right = right, left
    up = b if (row - 1, col) not in occupied else 0.0
    down = b if (row + 1, col) not in occupied else 0.0
    return x - left, y - down, geo.pitch + left + right, geo.pitch + up + down


def _crop_marks(c, geo: Geometry, sheet: Sheet, back: bool) -> None:
    """A mark continuing every cut line, outside the grid's bleed, on all four sides."""
    rows = _rows_used(sheet)
    cols = max(col for _, col, _ in sheet.cells) + 1
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    off = geo.bleed + MARK_GAP
    top, bottom = geo.top, geo.top - rows * geo.pitch
    lefts = [_cell_origin(geo, 0, col, back)[0] for col in range(cols)]
    xs = sorted({round(x, 4) for x in lefts} | {round(x + geo.pitch, 4) for x in lefts})
    for x in xs:
        c.line(x, top + off, x, top + off + MARK_LEN)
        c.line(x, bottom - off, x, bottom - off - MARK_LEN)
    left, right = min(xs), max(xs)
    for r in range(rows + 1):
        y = geo.top - r * geo.pitch
        c.line(left - off - MARK_LEN, y, left - off, y)
        c.line(right + off, y, right + off + MARK_LEN, y)


def _scale_bar(c, geo: Geometry) -> None:
    """A 1-inch and a 2-cm bar: measure them to confirm the page printed at 100%."""
    y = PRINTER_MARGIN + 2
    x = geo.page_w - PRINTER_MARGIN - 72
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(0, 0, 0)
    c.setFillColorRGB(0, 0, 0)
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


def _header(c, game, geo: Geometry, sheet: Sheet, number: int, total: int, back: bool, paper: str) -> None:
    title = (f"{game.title} \u2014 counter sheet {number} of {total} ({'backs, mirrored' if back else 'fronts'})"
             f" \u2014 {sheet.side_name}")
    c.setFillColorRGB(0, 0, 0)
    c.setFont(FONT_BOLD, 9)
    c.drawString(PRINTER_MARGIN, geo.page_h - PRINTER_MARGIN - 8, title)
    c.setFont(FONT, 6.5)
    size_in = float(game.counter_size_in)
    c.drawString(PRINTER_MARGIN, geo.page_h - PRINTER_MARGIN - 17,
                 f"Counters {size_in:g}\" ({size_in * 25.4:.1f} mm). Print at 100% (no scaling) on "
                 f"{'A4' if paper == 'a4' else 'US Letter'}, duplex, flip on long edge. "
                 f"Cut on the hairlines; the crop marks continue them to the sheet edge.")


def _counters(c, geo: Geometry, sheet: Sheet, back: bool, art: _Art) -> None:
    face = "back" if back else "front"
    occupied = {(r, col) for r, col, _ in sheet.cells}
    ext = geo.size * (art.px + 2 * art.bpx) / art.px
    for row, col, piece in sheet.cells:
        x, y = _cell_origin(geo, row, col, back)
        c.saveState()
        p = c.beginPath()
        p.rect(*_clip_box(geo, occupied, row, col, back))
        c.clipPath(p, stroke=0, fill=0)
        off = (geo.pitch - ext) / 2
        draw_flate_image(c, art.get(piece, face), x + off, y + off, ext, ext)
        c.restoreState()
        # invisible tag: find a counter by id in the PDF (render mode 3 draws nothing)
        tag = f"{TAG_PREFIX}{piece.kind}:{piece.id}:{face}:{piece.copy} "
        t = c.beginText(x + 1, y + 1)
        t.setTextRenderMode(3)
        t.setFont(FONT, TAG_FONT)
        t.setHorizScale(min(100.0, 100.0 * (geo.size - 2) / stringWidth(tag, FONT, TAG_FONT)))  # inside its square
        t.textOut(tag)
        t.setHorizScale(100.0)
        t.setTextRenderMode(0)  # the render mode outlives the text object: restore it
        c.drawText(t)
    c.setStrokeColorRGB(0.2, 0.2, 0.2)
    c.setLineWidth(0.25)
    for row, col, _ in sheet.cells:
        x, y = _cell_origin(geo, row, col, back)
        c.rect(x, y, geo.size, geo.size, stroke=1, fill=0)


def _mix(c, game, geo: Geometry, sheet: Sheet, number: int) -> None:
    top = _mix_top(geo, _rows_used(sheet))
    width = _mix_width(geo)
    lay = _mix_layout(mix_lines(game, sheet), width, top - geo.bottom_limit)
    if lay is None:  # one row and still too long: smallest font, as many lines as fit
        lines = [ln for e in mix_lines(game, sheet) for ln in _wrap(e, FONT, MIX_FONT_MIN, width)]
        lay = (MIX_FONT_MIN, lines)
    fs, lines = lay
    c.setFillColorRGB(0, 0, 0)
    y = top - fs
    c.setFont(FONT_BOLD, fs)
    c.drawString(PRINTER_MARGIN, y, f"Counter mix of sheet {number} ({len(sheet.cells)} counters):")
    c.setFont(FONT, fs)
    for ln in lines:
        y -= fs * 1.2
        if y < geo.bottom_limit:
            break
        c.drawString(PRINTER_MARGIN, y, ln)


def _page(c, game, geo: Geometry, sheet: Sheet, number: int, total: int, back: bool, art: _Art,
          paper: str) -> None:
    _header(c, game, geo, sheet, number, total, back, paper)
    if sheet.cells:
        _counters(c, geo, sheet, back, art)
        _crop_marks(c, geo, sheet, back)
    if not back:
        _mix(c, game, geo, sheet, number)
    _scale_bar(c, geo)


def build_counter_sheets(game, dest: Path, paper: str = "a4",
                         progress: Optional[Callable[[str, int, int], None]] = None,
                         cache: Optional[cache_mod.Cache] = None) -> Path:
    """`cache`, if given, keeps the counter faces between runs (the caller commits it)."""
    register_fonts()
    geo = geometry(game, paper)
    sheets = paginate(game, geo)
    art = _Art(game, float(game.counter_size_in), BLEED_IN, cache)
    with atomic_path(dest) as tmp, binary_streams():
        c = rl_canvas.Canvas(str(tmp), pagesize=(geo.page_w, geo.page_h), invariant=1, pageCompression=1,
                             initialFontName=FONT)  # not Helvetica: every font in the file is embedded
        apply_metadata(c, game, "counter sheets")
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
