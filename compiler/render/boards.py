"""Map board artwork, drawn with Pillow from the source data only.

What is drawn: every hex (outline and its printed ID), terrain per hex where the source gives it
(hexes whose terrain is not printed are drawn hatched grey: unknown, never guessed), paths (roads,
railways ...), hexside features, named places, victory hexes with their values, entry/deployment
areas, map features and supply sources. Boards are drawn in play-surface pixels and cropped, so
hexes, paths and hexsides that cross a board seam line up on both boards.
"""
from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from PIL import Image, ImageDraw, ImageFont

from .art import scaled_board
from .layout import DX, DY, HALF_W, ArtLayout, BoardLayout, board_offsets, layout_for, placed_layout

def _reportlab_font(name: str) -> str:
    """A font file shipped inside the reportlab wheel (a declared dependency): the same pixels on
    every machine, unlike system fonts."""
    try:
        import os
        import reportlab
        return os.path.join(os.path.dirname(reportlab.__file__), "fonts", name)
    except ImportError:
        return ""


FONT_PATHS = (_reportlab_font("Vera.ttf"), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD_PATHS = (_reportlab_font("VeraBd.ttf"), "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

UNKNOWN_FILL = (222, 222, 216)
UNKNOWN_HATCH = (190, 190, 184)
GRID_LINE = (90, 90, 90)

# Colours by words in terrain ids; anything else gets a stable pastel from its id.
TERRAIN_COLOURS = (
    (("clear", "open"), (238, 232, 200)),
    (("forest", "wood", "jungle"), (150, 190, 120)),
    (("rough", "broken", "hill"), (205, 180, 140)),
    (("mountain",), (170, 140, 110)),
    (("marsh", "swamp", "polder"), (180, 210, 200)),
    (("city", "urban", "town", "village", "west-wall", "westwall"), (190, 185, 185)),
    (("water", "lake", "sea", "river"), (150, 190, 230)),
)
FEATURE_COLOURS = (
    (("river", "stream", "creek", "canal", "water"), (40, 100, 210)),
    (("rail",), (30, 30, 30)),
    (("road", "highway", "autobahn"), (200, 40, 30)),
    (("track", "trail"), (140, 90, 40)),
    (("bridge",), (90, 90, 90)),
    (("border", "boundary", "frontier"), (140, 40, 140)),
)
SIDE_COLOURS = ((200, 30, 30), (30, 60, 200), (30, 140, 60), (150, 80, 20))


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False):
    for p in (FONT_BOLD_PATHS if bold else FONT_PATHS):
        if not p:
            continue
        try:
            return ImageFont.truetype(p, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _pastel(key: str) -> tuple[int, int, int]:
    h = hashlib.sha256(key.encode("utf-8")).digest()
    return tuple(150 + h[i] % 90 for i in range(3))


def terrain_colour(tid: str) -> tuple[int, int, int]:
    t = tid.lower()
    for words, colour in TERRAIN_COLOURS:
        if any(w in t for w in words):
            return colour
    return _pastel(tid)


def feature_colour(fid: str) -> tuple[int, int, int]:
    t = fid.lower()
    for words, colour in FEATURE_COLOURS:
        if any(w in t for w in words):
            return colour
    h = hashlib.sha256(fid.encode("utf-8")).digest()
    return (h[0] % 160, h[1] % 160, h[2] % 160)


def board_inputs(game) -> dict:
    """Everything a board drawing depends on, as plain data (the board cache key is built from it)."""
    g = game.grid
    return {
        "renderer": 3,
        "rows_increase": game.rows_increase,
        "grid": [g.scheme, g.orientation, g.shifted, g.column_digits, g.row_digits,
                 [[b.id, list(b.columns), list(b.rows), list(b.origin), b.name] for b in g.boards]],
        "default": game.terrain.default,
        "hexes": [[t.hex, list(t.terrain)] for t in game.terrain.hexes],
        "hexsides": [[list(s.between), s.feature] for s in game.terrain.hexsides],
        "paths": [[p.feature, list(p.hexes)] for p in game.terrain.paths],
        "places": [[p.name, list(p.hexes), p.kind] for p in game.places.places],
        "victory": [[v.hex, v.place, v.value, v.side] for v in game.places.victory],
        "areas": [[a.id, a.kind, a.name, list(a.hexes) if a.hexes is not None else None]
                  for a in game.places.areas],
        "features": [[f.kind, f.hex, f.side] for f in game.places.features],
        "supply": [[s.side, s.hex] for s in game.places.supply_sources],
        "sides": [s.id for s in game.sides],
    }


def path_segments(grid, hexes) -> list[tuple[str, str]]:
    """The consecutive hexes of a road or track that touch (across board seams too); where the list
    skips hexes there is no segment, rather than a straight line drawn across the gap."""
    return [(a, b) for a, b in zip(hexes, hexes[1:]) if grid.adjacent(a, b)]


class _Sheet:
    """One board being drawn: its image, the layouts of every board, and where a hex falls on it."""

    def __init__(self, game, board_id: str):
        grid = game.grid
        self.game, self.grid, self.board_id = game, grid, board_id
        self.layouts = {b.id: layout_for(game, b) for b in grid.boards}
        self.lay = self.layouts[board_id]
        self.offsets = board_offsets(grid)
        self.ox, self.oy = self.offsets[board_id]
        self.img = Image.new("RGB", self.lay.size, UNKNOWN_FILL)
        self.d = ImageDraw.Draw(self.img)
        self.visible = self._visible()

    def surf(self, hex_id: str) -> Optional[tuple[float, float]]:
        """A hex's centre on this board's image (a neighbouring board's hexes too); None if off every board."""
        hx = self.grid.parse(hex_id)
        if hx is None or hx.board not in self.layouts or not self.layouts[hx.board].board.contains(hx.column, hx.row):
            return None
        cx, cy = self.layouts[hx.board].centre(hx.column, hx.row)
        bx, by = self.offsets[hx.board]
        return cx + bx - self.ox, cy + by - self.oy

    def _visible(self) -> list[tuple[str, BoardLayout, int, int, float, float]]:
        """Every hex of every board that shows on this one (neighbours' edges included)."""
        w, h = self.lay.size
        pad = DX * 2
        out = []
        for bl in self.layouts.values():
            bx, by = self.offsets[bl.board.id]
            for hid, c, r in bl.hexes():
                cx, cy = bl.centre(c, r)
                x, y = cx + bx - self.ox, cy + by - self.oy
                if -pad <= x <= w + pad and -pad <= y <= h + pad:
                    out.append((hid, bl, c, r, x, y))
        return out


def _hatching(s: _Sheet) -> None:
    """Unknown terrain: hatching everywhere; known terrain is painted over it hex by hex."""
    w, h = s.lay.size
    for k in range(-h, w, 9):
        s.d.line([(k, 0), (k + h, h)], fill=UNKNOWN_HATCH, width=1)


def _hexes(s: _Sheet) -> None:
    """Each hex's outline, filled with its (first) terrain where the tree gives it."""
    hex_terrain = {t.hex: t.terrain for t in s.game.terrain.hexes}
    default = s.game.terrain.default
    for hid, bl, c, r, x, y in s.visible:
        terr = hex_terrain.get(hid)
        if terr is None:
            terr = (default,) if default else ()
        poly = _poly_at(bl, x, y, 0)
        if terr:
            s.d.polygon(poly, fill=terrain_colour(terr[0]))
        s.d.polygon(poly, outline=GRID_LINE)
        if len(terr) > 1:
            # further terrain of the hex, by name (the fill shows the first)
            _text(s.d, (x, y + DY * 0.12), " ".join(terr[1:]), 8, (60, 60, 60), max_w=DX * 1.1)


def _areas(s: _Sheet) -> None:
    """Entry and deployment areas: an inner coloured ring and the area's id."""
    for a in s.game.places.areas:
        if not a.hexes:
            continue
        colour = (230, 120, 0) if a.kind == "entry" else (0, 150, 150)
        for hid in a.hexes:
            p = s.surf(hid)
            if p is None:
                continue
            x, y = p
            ring = _poly_at(s.lay, x, y, 5)
            s.d.line(ring + [ring[0]], fill=colour, width=4)
            label = a.name or (f"Entry {a.id}" if a.kind == "entry" else a.id)
            _text(s.d, (x, y + DY * 0.05), label, 10, colour, bold=True, max_w=DX * 1.25)


def _paths(s: _Sheet) -> None:
    """Roads, tracks and railways: centre to centre."""
    for p in s.game.terrain.paths:
        colour = feature_colour(p.feature)
        wd = 3 if "rail" in p.feature.lower() else 4
        for ha, hb in path_segments(s.grid, p.hexes):
            a, b = s.surf(ha), s.surf(hb)
            if a is not None and b is not None:
                s.d.line([a, b], fill=colour, width=wd)


def _hexsides(s: _Sheet) -> None:
    """Hexside features: the shared edge of two adjacent hexes."""
    side_len = HALF_W
    for hs in s.game.terrain.hexsides:
        a, b = s.surf(hs.between[0]), s.surf(hs.between[1])
        if a is None or b is None:
            continue
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        vx, vy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(vx, vy) or 1.0
        px, py = -vy / n * side_len / 2, vx / n * side_len / 2
        s.d.line([(mx - px, my - py), (mx + px, my + py)], fill=feature_colour(hs.feature), width=5)


def _features(s: _Sheet) -> None:
    """Map features by name, and supply sources as an S in their side's colour."""
    for f in s.game.places.features:
        p = s.surf(f.hex)
        if p:
            _text(s.d, (p[0], p[1] + DY * 0.22), f.kind.replace("-", " "), 9, (120, 0, 120), bold=True)
    side_ids = [sd.id for sd in s.game.sides]
    for src in s.game.places.supply_sources:
        if src.hex and (p := s.surf(src.hex)):
            col = SIDE_COLOURS[side_ids.index(src.side) % 4] if src.side in side_ids else (0, 0, 0)
            _text(s.d, (p[0] - DX * 0.3, p[1] - DY * 0.05), "S", 12, col, bold=True)


def _victory(s: _Sheet) -> None:
    """Victory hexes: a red ring and the value."""
    places = {pl.id: pl for pl in s.game.places.places}
    for v in s.game.places.victory:
        hexes = [v.hex] if v.hex else (list(places[v.place].hexes) if v.place in places else [])
        for hid in hexes:
            p = s.surf(hid)
            if p is None:
                continue
            x, y = p
            rr = DY * 0.36
            s.d.ellipse([x - rr, y - rr, x + rr, y + rr], outline=(200, 0, 0), width=3)
            if v.value is not None:
                _text(s.d, (x + DX * 0.28, y - DY * 0.05), f"{v.value}", 12, (200, 0, 0), bold=True)


def _place_names(s: _Sheet) -> None:
    for pl in s.game.places.places:
        for hid in pl.hexes:
            p = s.surf(hid)
            if p:
                _text(s.d, (p[0], p[1] + DY * 0.34), pl.name, 10, (0, 0, 0), bold=True, max_w=DX * 1.6)


def _hex_ids(s: _Sheet) -> None:
    """This board's hex IDs (a neighbour's hexes carry their own board's IDs)."""
    for hid, bl, c, r, x, y in s.visible:
        if bl.board.id == s.board_id:
            _text(s.d, (x, y - DY * 0.36), hid, 10 if len(hid) <= 5 else 9, (40, 40, 40))


# a board, layer by layer, bottom first
LAYERS = (_hatching, _hexes, _areas, _paths, _hexsides, _features, _victory, _place_names, _hex_ids)


def render_board(game, board_id: str) -> Image.Image:
    """A board drawn from the tree: every layer of LAYERS in turn."""
    s = _Sheet(game, board_id)
    for layer in LAYERS:
        layer(s)
    return s.img


@dataclass(frozen=True)
class BoardPicture:
    """A board's picture at a scale, the author's art (art.yaml) or hexforge's drawing, and where each of
    its hexes is on it: what a report or a preview draws on."""
    image: Image.Image
    scale: float
    layout: BoardLayout                       # the board as the module has it (placed_layout), unscaled

    def centre_of(self, hex_id: str) -> Optional[tuple[float, float]]:
        """The hex's centre in the picture's pixels; None if it is not a hex of this board."""
        h = self.layout.grid.parse(hex_id)
        if h is None or h.board != self.layout.board.id or not self.layout.board.contains(h.column, h.row):
            return None
        x, y = self.layout.exact_centre(h.column, h.row)
        return x * self.scale, y * self.scale

    @property
    def hex_size(self) -> float:
        """A hex's size across its flats, in the picture's pixels."""
        return self.layout.across_flats * self.scale


def board_picture(game, board_id: str, scale: float = 1.0) -> BoardPicture:
    """Board `board_id` at `scale` (1 = the module's own pixels): its art where art.yaml gives one (decoded
    at the size asked, never held whole for a small picture), else drawn (`render_board`, scaled)."""
    board = game.grid.board(board_id)
    lay = placed_layout(game, board)
    if isinstance(lay, ArtLayout):
        img = scaled_board(game.root, game.board_art(board_id).image, scale)
    else:
        img = render_board(game, board_id)
        if scale != 1:
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.LANCZOS)
    return BoardPicture(img, scale, lay)


def report_board(game, board_id: str) -> Image.Image:
    """Board `board_id` in the drawn board's frame (`layout_for`: its size, each hex where hexforge draws
    it), showing what the module shows: the author's art where art.yaml gives one, so that a report's
    rings and arrows, drawn on that frame, fall on the printed hexes; else the drawing itself."""
    board = game.grid.board(board_id)
    placed, drawn = placed_layout(game, board), layout_for(game, board)
    b = board.columns, board.rows
    if not isinstance(placed, ArtLayout) or b[0][0] == b[0][1] or b[1][0] == b[1][1]:
        return render_board(game, board_id)          # (a board one hex wide fixes no affine map)
    pic = board_picture(game, board_id, 1 / placed.scale)     # about the drawn size: a clean downscale
    return pic.image.convert("RGB").transform(drawn.size, Image.AFFINE, _drawn_to_art(pic, drawn),
                                              Image.BICUBIC, fillcolor=(255, 255, 255))


def _drawn_to_art(pic: BoardPicture, drawn: BoardLayout) -> tuple[float, ...]:
    """The affine map from the drawn frame's pixels to the picture's (PIL's transform takes it that way
    round), fixed by three hexes not in one line: both layouts are regular grids of the same hexes."""
    board = drawn.board
    c0, r0 = board.columns[0], board.rows[0]
    c1, r1 = c0 + 2 if board.contains(c0 + 2, r0) else c0 + 1, r0 + 1   # an unshifted column, if any
    hexes = [(c0, r0), (c1, r0), (c0, r1)]
    src = [drawn.exact_centre(c, r) for c, r in hexes]
    dst = [tuple(v * pic.scale for v in pic.layout.exact_centre(c, r)) for c, r in hexes]
    return _affine(src, dst)


def _affine(src, dst) -> tuple[float, ...]:
    """(a, b, c, d, e, f) with x' = a x + b y + c, y' = d x + e y + f taking the three points src to dst."""
    (x0, y0), (x1, y1), (x2, y2) = src
    det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    out = []
    for k in (0, 1):
        v0, v1, v2 = dst[0][k], dst[1][k], dst[2][k]
        a = ((v1 - v0) * (y2 - y0) - (v2 - v0) * (y1 - y0)) / det
        b = ((x1 - x0) * (v2 - v0) - (x2 - x0) * (v1 - v0)) / det
        out += [a, b, v0 - a * x0 - b * y0]
    return tuple(out)


def _poly_at(lay: BoardLayout, x: float, y: float, inset: float) -> list[tuple[float, float]]:
    hw, hh = HALF_W - inset, DY / 2 - inset
    pts = [(hw, 0), (hw / 2, hh), (-hw / 2, hh), (-hw, 0), (-hw / 2, -hh), (hw / 2, -hh)]
    if lay.sideways:
        pts = [(b, a) for a, b in pts]
    return [(x + a, y + b) for a, b in pts]


def _text(d: ImageDraw.ImageDraw, at, text: str, size: int, fill, bold: bool = False,
          max_w: Optional[float] = None) -> None:
    f = font(size, bold)
    if max_w is not None:
        while size > 6 and d.textlength(text, font=f) > max_w:
            size -= 1
            f = font(size, bold)
    d.text(at, text, fill=fill, font=f, anchor="mm")


def png_bytes(img: Image.Image) -> bytes:
    """Deterministic PNG: no metadata chunks, fixed compression."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def legend_image(game) -> Image.Image:
    """The map key: terrain fills (only terrain the source assigns to hexes), the unknown hatching,
    feature line colours and the symbols used."""
    used = []
    for t in [game.terrain.default] + [x for h in game.terrain.hexes for x in h.terrain]:
        if t and t not in used:
            used.append(t)
    feats = []
    for f in [s.feature for s in game.terrain.hexsides] + [p.feature for p in game.terrain.paths]:
        if f not in feats:
            feats.append(f)
    rows = len(used) + len(feats) + 5
    img = Image.new("RGB", (420, 40 + rows * 26), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((10, 8), "Map key", fill=(0, 0, 0), font=font(15, True))
    y = 40

    def name_of(tid):
        tt = game.terrain_type(tid) if hasattr(game, "terrain_type") else None
        return tt.name if tt is not None else tid

    d.rectangle([10, y, 50, y + 18], fill=UNKNOWN_FILL, outline=GRID_LINE)
    for k in range(-18, 40, 9):
        d.line([(10 + max(k, 0), y + max(-k, 0)), (10 + min(k + 18, 40), y + min(18, 40 - k))], fill=UNKNOWN_HATCH)
    d.text((60, y + 2), "terrain not given by the source (unknown)", fill=(0, 0, 0), font=font(12))
    y += 26
    for t in used:
        d.rectangle([10, y, 50, y + 18], fill=terrain_colour(t), outline=GRID_LINE)
        d.text((60, y + 2), name_of(t), fill=(0, 0, 0), font=font(12))
        y += 26
    for f in feats:
        d.line([(10, y + 9), (50, y + 9)], fill=feature_colour(f), width=5)
        d.text((60, y + 2), name_of(f), fill=(0, 0, 0), font=font(12))
        y += 26
    d.ellipse([20, y, 38, y + 18], outline=(200, 0, 0), width=3)
    d.text((60, y + 2), "victory hex (red number: its value)", fill=(0, 0, 0), font=font(12))
    y += 26
    d.line([(10, y), (50, y), (50, y + 18), (10, y + 18), (10, y)], fill=(230, 120, 0), width=4)
    d.text((60, y + 2), "entry area (its id)", fill=(0, 0, 0), font=font(12))
    y += 26
    d.text((22, y + 2), "S", fill=(0, 0, 0), font=font(12, True))
    d.text((60, y + 2), "supply source (colour of its side)", fill=(0, 0, 0), font=font(12))
    return img
