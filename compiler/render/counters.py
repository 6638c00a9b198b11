"""Counter artwork: one bitmap per counter face, shared by the VASSAL module and the printed sheets.

Everything drawn comes from the model: nationality colours, a NATO-style unit-type symbol chosen
from the free `unit.type` vocabulary, the size marker from `unit.size`, the identification, and the
factors exactly as printed. Nothing is invented: a two-step unit whose reduced factors are not
printed gets a back with its identity and a quiet "back not printed", and a one-step unit's back is
blank (or marked "1 step" unless the game declares blank backs).

Type is set on one scale per game (`type_scale`): every counter's identification, formation, factors
and size mark each have one size and one place, so a sheet never shows a tiny name beside a large one.

Output is deterministic: the same game, unit, face and size always give the same pixels (fonts are
the Bitstream Vera files that ship inside the reportlab wheel, so no system font is consulted).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from PIL import Image, ImageColor, ImageDraw, ImageFont

__all__ = [
    "counter_image", "marker_image", "unit_colours", "classify_type", "size_marker",
    "one_step_back_is_blank", "unit_identification", "type_scale", "FRONT", "BACK", "FACES",
]

FRONT = "front"
BACK = "back"
FACES = (FRONT, BACK)
_BACK_ALIASES = {"back", "reduced"}

_FALLBACK_BG = (192, 192, 192)
_FALLBACK_FG = (0, 0, 0)
_MARKER_BG = (236, 230, 214)
_MARKER_FG = (0, 0, 0)
_EXPLOIT = (242, 201, 30)


# -- fonts ---------------------------------------------------------------------------------------

def _font_dir() -> Optional[str]:
    try:
        import reportlab
    except ImportError:  # pragma: no cover - reportlab is a declared dependency
        return None
    d = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    return d if os.path.isfile(os.path.join(d, "VeraBd.ttf")) else None


FONT_DIR = _font_dir()


@lru_cache(maxsize=512)
def _font(size: int, bold: bool) -> ImageFont.ImageFont:
    size = max(4, int(size))
    if FONT_DIR:
        return ImageFont.truetype(os.path.join(FONT_DIR, "VeraBd.ttf" if bold else "Vera.ttf"), size)
    return ImageFont.load_default(size=size)  # Pillow >= 10.1: scalable built-in font


def _text_size(font, text: str) -> tuple[int, int, int, int]:
    return font.getbbox(text)


@lru_cache(maxsize=4096)
def _fit(text: str, max_w: int, max_h: int, bold: bool) -> ImageFont.ImageFont:
    """The largest font (by binary search) whose rendering of `text` fits max_w x max_h."""
    lo, hi = 4, max(4, int(max_h * 1.35))
    best = _font(lo, bold)
    while lo <= hi:
        mid = (lo + hi) // 2
        f = _font(mid, bold)
        x0, y0, x1, y1 = _text_size(f, text)
        if x1 - x0 <= max_w and y1 - y0 <= max_h:
            best, lo = f, mid + 1
        else:
            hi = mid - 1
    return best


def _draw_text(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], text: str, fill,
               bold: bool = True, align: str = "center") -> None:
    """Draw `text` as large as fits in box (x0, y0, x1, y1), centred vertically."""
    if not text:
        return
    x0, y0, x1, y1 = box
    w, h = int(x1 - x0), int(y1 - y0)
    if w <= 0 or h <= 0:
        return
    f = _fit(text, w, h, bold)
    bx0, by0, bx1, by1 = _text_size(f, text)
    tw, th = bx1 - bx0, by1 - by0
    if align == "left":
        tx = x0 - bx0
    elif align == "right":
        tx = x1 - tw - bx0
    else:
        tx = x0 + (w - tw) / 2 - bx0
    ty = y0 + (h - th) / 2 - by0
    d.text((round(tx), round(ty)), text, font=f, fill=fill)


# -- one type scale per game -------------------------------------------------------------------
# Each text role (size mark, identification, factors, marker name) is set at one size for every
# counter of the game, so a sheet never shows a tiny name beside a large one. The size is the
# largest at which the role's texts fit, but never below TYPE_FLOOR of what the box allows: a text
# still too wide at that size is condensed (narrowed) rather than set smaller.

TYPE_FLOOR = 0.72

# role boxes as fractions of the counter's inner width W: (width, height)
_ROLE_BOX = {"size": (0.40, 0.11), "ident": (0.92, 0.12), "formation": (0.92, 0.08), "factors": (0.86, 0.23)}


@dataclass(frozen=True)
class TypeScale:
    """Font sizes in pixels, for counters whose inner width is W pixels."""
    size: int
    ident: int
    formation: int
    factors: int


def _role_size(texts, box_w: int, box_h: int, bold: bool) -> int:
    cap = _fit("0", 1 << 20, box_h, bold).size          # what the box's height allows
    fits = [_fit(t, box_w, box_h, bold).size for t in texts if t]
    want = min(fits, default=cap)
    return max(want, round(cap * TYPE_FLOOR), 4)


_SCALES: dict = {}


def type_scale(game, W: int) -> TypeScale:
    """The game's shared font sizes for an inner counter width of W pixels."""
    key = (id(game), int(W))
    hit = _SCALES.get(key)
    if hit is not None and hit[0] is game:
        return hit[1]
    sizes, idents, formations, factors = [], [], [], []
    for u in game.units:
        formations.append(_formation_name(game, u))
        dots, text = size_marker(u.size)
        if not dots:
            sizes.append(text)
        idents.append(unit_identification(u))
        for f in (u.factors, u.reduced):
            if f is not None:
                factors.append(f.printed)

    def box(role):
        w, h = _ROLE_BOX[role]
        return int(W * w), int(W * h)

    scale = TypeScale(_role_size(sizes, *box("size"), True), _role_size(idents, *box("ident"), True),
                      _role_size(formations, *box("formation"), False), _role_size(factors, *box("factors"), True))
    if len(_SCALES) > 16:
        _SCALES.clear()
    _SCALES[key] = (game, scale)  # the game itself is kept so that its id is not reused meanwhile
    return scale


def _put_text(img: Image.Image, box, text: str, font, fill, align: str = "center") -> None:
    """`text` in `font`, centred vertically in box; narrowed to the box's width when wider."""
    if not text:
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    bx0, by0, bx1, by1 = font.getbbox(text)
    tw, th = bx1 - bx0, by1 - by0
    ty = y0 + (h - th) / 2 - by0
    if tw <= w:
        tx = x0 - bx0 if align == "left" else x0 + (w - tw) / 2 - bx0
        ImageDraw.Draw(img).text((round(tx), round(ty)), text, font=font, fill=fill)
        return
    mask = Image.new("L", (max(1, tw), max(1, th)), 0)
    ImageDraw.Draw(mask).text((-bx0, -by0), text, font=font, fill=255)
    mask = mask.resize((max(1, int(w)), mask.height), Image.LANCZOS)
    img.paste(Image.new(img.mode, mask.size, fill), (round(x0), round(ty + by0)), mask)


# -- colours -------------------------------------------------------------------------------------

def _rgb(value: Optional[str], fallback):
    if not value:
        return fallback
    try:
        c = ImageColor.getrgb(value)
    except (ValueError, AttributeError):
        return fallback
    return tuple(c[:3])


def _nationalities(game) -> dict:
    out = {}
    for s in game.sides:
        for n in s.nationalities:
            out.setdefault(n.id, n)
    return out


# Backgrounds for sides whose colours are not printed or do not tell the sides apart (every side
# the same colour): a working choice, so that the two sides' counters can be told apart at all.
_SIDE_FALLBACK = ((214, 206, 170), (168, 186, 208), (210, 170, 160), (176, 204, 170))


def _side_fallback(game, side_id: str) -> Optional[tuple[int, int, int]]:
    """A fallback background for `side_id` when the printed colours cannot distinguish the sides."""
    by_side = {}
    for s in game.sides:
        by_side[s.id] = {_rgb(n.colour, None) for n in s.nationalities} or {None}
    if len(by_side) < 2:
        return None
    mine = by_side.get(side_id, {None})
    others = set().union(*(v for k, v in by_side.items() if k != side_id))
    if None in mine or mine & others:
        ids = [s.id for s in game.sides]
        i = ids.index(side_id) if side_id in ids else len(ids)
        return _SIDE_FALLBACK[i % len(_SIDE_FALLBACK)]
    return None


def unit_colours(game, unit) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, text) colours: the unit's nationality, else its formation's, else its side's first.

    Where the nationality colours cannot tell the sides apart (not printed, or one colour for every
    side), the background is a fixed per-side fallback tint instead.
    """
    nats = _nationalities(game)
    nid = unit.nationality
    if nid is None and unit.formation:
        for f in game.formations:
            if f.id == unit.formation:
                nid = f.nationality
                break
    nat = nats.get(nid) if nid else None
    if nat is None:
        for s in game.sides:
            if s.id == unit.side and s.nationalities:
                nat = s.nationalities[0]
                break
    fb = _side_fallback(game, unit.side)
    if nat is None:
        return (fb or _FALLBACK_BG), _FALLBACK_FG
    bg = _rgb(nat.colour, None)
    if bg is None or fb is not None:
        return (fb or _FALLBACK_BG), _FALLBACK_FG  # the fallback tints are all light: black text
    return bg, _rgb(nat.text_colour, _FALLBACK_FG)


def _lighter(c: tuple[int, int, int], t: float = 0.5) -> tuple[int, int, int]:
    return tuple(round(v + (255 - v) * t) for v in c)


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """a moved towards b by t (0 = a, 1 = b)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


# -- unit type and size --------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")


def classify_type(type_str: Optional[str]) -> tuple[frozenset, Optional[str]]:
    """NATO symbol components for a free-vocabulary unit type, and a text code when none fits.

    Components: inf, armor, cav, art, rocket, eng, para, glider, at, aa, mountain, wheeled, air.
    """
    t = " ".join(_WORD.findall((type_str or "").lower()))
    w = set(t.split())
    c: set[str] = set()

    def sub(*keys: str) -> bool:
        return any(k in t for k in keys)

    def word(*keys: str) -> bool:
        return any(k in w for k in keys)

    armoured = sub("armor", "armour", "panzer", "tank", "armd") or word("pz", "arm", "sp", "mech")
    if sub("tank destroyer", "jagdpanzer", "jgpz", "anti tank", "antitank", "panzerjager", "panzerjaeger") \
            or word("td", "at", "pak", "jg"):
        c.add("at")
        if sub("tank destroyer", "jagdpanzer", "jgpz") or word("sp", "td"):
            c.add("armor")
    elif sub("flak", "anti aircraft", "antiaircraft") or word("aa", "aaa"):
        c.add("aa")
        if word("sp") or sub("self propelled"):
            c.add("armor")
    elif sub("nebelwerfer", "werfer", "rocket") or word("nw"):
        c.update({"art", "rocket"})
    elif sub("artillery", "howitzer") or word("arty", "art", "fa", "divarty"):
        c.add("art")
        if word("sp") or sub("self propelled", "armored", "armoured") or word("pz"):
            c.add("armor")
    elif sub("cavalry", "recon", "reconnaissance", "aufkl", "scout") or word("cav", "rcn"):
        c.add("cav")
        if armoured:
            c.add("armor")
    elif sub("engineer", "pioneer", "pionier") or word("eng", "engr", "pio", "pion"):
        c.add("eng")
        if armoured and not word("mech"):
            c.add("armor")
    elif sub("parachute", "airborne", "fallschirm", "paratroop") or word("para", "fj", "abn", "pir"):
        c.update({"inf", "para"})
    elif sub("glider") or word("gir"):
        c.update({"inf", "glider"})
    elif sub("mountain", "gebirg") or word("mtn"):
        c.update({"inf", "mountain"})
    elif sub("panzergrenadier", "panzer grenadier", "mechanized", "mechanised", "armored infantry",
             "armoured infantry", "armd inf") or word("pg", "pzg", "mech", "aib"):
        c.update({"inf", "armor"})
    elif sub("motorized", "motorised", "bicycle", "cyclist") or word("mot"):
        c.update({"inf", "wheeled"})
    elif armoured:
        c.add("armor")
    elif sub("infantry", "grenadier", "fusilier", "rifle", "volks", "security", "penal", "landwehr") \
            or word("inf", "vg", "gren", "fus", "ost", "erz", "mg"):
        c.add("inf")
        if word("mg") or sub("machine gun"):
            return frozenset(c), "MG"
    elif sub("air", "fighter", "bomber", "aircraft"):
        c.add("air")
    if c:
        return frozenset(c), None
    code = "".join(ch for ch in (type_str or "").upper() if ch.isalnum())[:4]
    return frozenset(), code or "?"


_SIZES = {
    "team": (1, None), "squad": (1, None), "section": (2, None), "platoon": (3, None), "plt": (3, None),
    "co": (0, "I"), "coy": (0, "I"), "company": (0, "I"), "battery": (0, "I"), "btry": (0, "I"),
    "troop": (0, "I"), "tp": (0, "I"),
    "bn": (0, "II"), "battalion": (0, "II"), "sqn": (0, "II"), "squadron": (0, "II"), "abt": (0, "II"),
    "rgt": (0, "III"), "regt": (0, "III"), "regiment": (0, "III"), "grp": (0, "III"), "group": (0, "III"),
    "bde": (0, "X"), "brigade": (0, "X"), "div": (0, "XX"), "division": (0, "XX"),
    "corps": (0, "XXX"), "army": (0, "XXXX"),
}


def size_marker(size: Optional[str]) -> tuple[int, str]:
    """(number of dots, text) for a printed unit size; unknown sizes keep their own text."""
    if not size:
        return 0, ""
    m = re.fullmatch(r"\s*(.*?)\s*(\(\+\)|\+|\(-\)|-)?\s*", size.lower())
    s = m.group(1).strip("() ")
    suffix = "+" if m.group(2) and "+" in m.group(2) else "-" if m.group(2) else ""
    if s in _SIZES:
        dots, text = _SIZES[s]
        return dots, (text or "") + suffix
    return 0, size.strip().upper()


# -- drawing -------------------------------------------------------------------------------------

def _supersample(size_px: int) -> int:
    return 4 if size_px <= 96 else 3 if size_px <= 256 else 2


def _symbol(d: ImageDraw.ImageDraw, box, comps: frozenset, code: Optional[str], fg, bg, lw: int) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.rectangle(box, outline=fg, width=lw)
    if "inf" in comps:
        d.line([(x0, y0), (x1, y1)], fill=fg, width=lw)
        d.line([(x0, y1), (x1, y0)], fill=fg, width=lw)
    if "cav" in comps:
        d.line([(x0, y1), (x1, y0)], fill=fg, width=lw)
    if "armor" in comps:
        rx, ry = w * 0.32, h * 0.26
        d.rounded_rectangle((cx - rx, cy - ry, cx + rx, cy + ry), radius=ry, outline=fg, width=lw)
    if "art" in comps:
        r = min(w, h) * 0.13
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fg)
    if "rocket" in comps:
        a = h * 0.22
        d.line([(cx - a, y0 + h * 0.34), (cx, y0 + h * 0.12), (cx + a, y0 + h * 0.34)], fill=fg, width=lw)
    if "eng" in comps:
        yb, yl = cy - h * 0.1, cy + h * 0.18
        xa, xb = cx - w * 0.25, cx + w * 0.25
        d.line([(xa, yb), (xb, yb)], fill=fg, width=lw)
        for x in (xa, cx, xb):
            d.line([(x, yb), (x, yl)], fill=fg, width=lw)
    if "at" in comps:
        d.line([(x0, y1), (cx, y0)], fill=fg, width=lw)
        d.line([(cx, y0), (x1, y1)], fill=fg, width=lw)
    if "aa" in comps:
        d.arc((x0 + w * 0.15, y0 + h * 0.35, x1 - w * 0.15, y1 + h * 0.55), 180, 360, fill=fg, width=lw)
    if "para" in comps:
        r = w * 0.1
        yb = y1 - h * 0.08
        d.arc((cx - 2 * r, yb - r, cx, yb + r), 180, 360, fill=fg, width=lw)
        d.arc((cx, yb - r, cx + 2 * r, yb + r), 180, 360, fill=fg, width=lw)
    if "glider" in comps:
        yb = y1 - h * 0.14
        d.line([(cx - w * 0.22, yb - h * 0.08), (cx - w * 0.12, yb), (cx + w * 0.12, yb),
                (cx + w * 0.22, yb - h * 0.08)], fill=fg, width=lw)
    if "mountain" in comps:
        a = w * 0.1
        d.polygon([(cx - a, y1), (cx, y1 - h * 0.28), (cx + a, y1)], fill=fg)
    if "wheeled" in comps:
        r = h * 0.09
        for x in (cx - w * 0.14, cx + w * 0.14):
            d.ellipse((x - r, y1 + r * 0.4, x + r, y1 + r * 2.4), outline=fg, width=max(1, lw // 2))
    if "air" in comps:
        r = w * 0.16
        d.ellipse((cx - 2 * r, cy - r * 0.6, cx, cy + r * 0.6), outline=fg, width=lw)
        d.ellipse((cx, cy - r * 0.6, cx + 2 * r, cy + r * 0.6), outline=fg, width=lw)
    if code:
        pad = w * 0.12
        # keep the text off the crossing lines of an infantry box by drawing it on a small plate
        if comps:
            tb = (cx - w * 0.28, cy - h * 0.2, cx + w * 0.28, cy + h * 0.2)
            d.rectangle(tb, fill=bg)
            _draw_text(d, tb, code, fg)
        else:
            _draw_text(d, (x0 + pad, y0 + h * 0.15, x1 - pad, y1 - h * 0.15), code, fg)


def _size_mark(img: Image.Image, box, size: Optional[str], fg, font_px: int) -> None:
    dots, text = size_marker(size)
    x0, y0, x1, y1 = box
    h = y1 - y0
    cx = (x0 + x1) / 2
    if dots:
        d = ImageDraw.Draw(img)
        r = h * 0.28
        gap = r * 2.8
        start = cx - gap * (dots - 1) / 2
        cy = (y0 + y1) / 2
        for i in range(dots):
            x = start + gap * i
            d.ellipse((x - r, cy - r, x + r, cy + r), fill=fg)
    elif text:
        _put_text(img, box, text, _font(font_px, True), fg)


def _hexagon(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill) -> None:
    pts = [(cx + r * c, cy + r * s) for c, s in
           ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))]
    d.polygon(pts, fill=fill)


_ID_IN_NAME = re.compile(r"\(([^()]+)\)\s*$")


def unit_identification(unit) -> str:
    """The ID printed on the counter: `label`, else the parenthesised ID ending the printed designation."""
    if unit.label:
        return unit.label
    m = _ID_IN_NAME.search(unit.name or "")
    return m.group(1).strip() if m else ""


def _formation_name(game, unit) -> str:
    if not unit.formation:
        return ""
    for f in game.formations:
        if f.id == unit.formation:
            return f.name
    return unit.formation


def one_step_back_is_blank(game) -> bool:
    """Whether the game declares one-step counters to have blank backs (`rules.other`)."""
    other = game.rules.other
    v = other.get("one_step_back") if isinstance(other, dict) else None
    if isinstance(v, dict):
        v = v.get("value", v.get("kind"))
    return isinstance(v, str) and v.lower() == "blank"


def _face(face: str) -> str:
    f = (face or "").lower()
    if f == FRONT:
        return FRONT
    if f in _BACK_ALIASES:
        return BACK
    raise ValueError(f"face must be 'front' or 'back', not {face!r}")


def _back_margin(S: int) -> float:
    """The reduced side's lighter edge border, in pixels of an S-pixel face."""
    return S * 0.065


def counter_type_scale(game, face: str, size_px: int) -> TypeScale:
    """The game-wide font sizes one face of a `size_px` counter is drawn with. Every unit's texts
    shape them, so a cache of faces must key on them too (see charts/sheets.py)."""
    S = size_px * _supersample(size_px)
    m = _back_margin(S) if _face(face) == BACK else 0.0
    return type_scale(game, round(S - 2 * m))


def counter_image(game, unit, face: str, size_px: int) -> Image.Image:
    """The artwork of one face of a unit counter, `size_px` square, RGB."""
    face = _face(face)
    if size_px < 8:
        raise ValueError("size_px too small to draw a counter")
    ss = _supersample(size_px)
    S = size_px * ss
    bg, fg = unit_colours(game, unit)
    img = Image.new("RGB", (S, S), bg)
    d = ImageDraw.Draw(img)
    lw = max(1, round(S * 0.018))

    if face == BACK and unit.steps <= 1:
        if not one_step_back_is_blank(game):
            _draw_text(d, (S * 0.3, S * 0.82, S * 0.7, S * 0.94), "1 step", _lighter(fg, 0.0), bold=False)
        return img.reduce(ss)

    m = 0.0
    if face == BACK:
        # reduced side: a lighter edge border (the usual convention; Ardennes II 1.2 prints it so)
        m = _back_margin(S)
        d.rectangle((0, 0, S - 1, S - 1), fill=_lighter(bg, 0.55))
        d.rectangle((m, m, S - 1 - m, S - 1 - m), fill=bg)
    X0, Y0, W = m, m, S - 2 * m

    def bx(a: float, b: float, c: float, e: float) -> tuple[float, float, float, float]:
        return (X0 + W * a, Y0 + W * b, X0 + W * c, Y0 + W * e)

    exploit = "exploit" in unit.flags
    if exploit:
        d.rectangle(bx(0, 0.9, 1, 1), fill=_EXPLOIT)
    if "no-zoc" in unit.flags:
        _hexagon(d, X0 + W * 0.88, Y0 + W * 0.12, W * 0.075, (0, 0, 0))

    ts = counter_type_scale(game, face, size_px)
    _size_mark(img, bx(0.3, 0.03, 0.7, 0.14), unit.size, fg, ts.size)
    comps, code = classify_type(unit.type)
    _symbol(d, bx(0.27, 0.16, 0.73, 0.43), comps, code, fg, bg, lw)
    if unit.range is not None and not (unit.factors and f"[{unit.range}]" in unit.factors.printed):
        _draw_text(d, bx(0.76, 0.24, 0.98, 0.38), f"R{unit.range}", fg, bold=False)

    # the identification, and the formation on a line of its own: the same places on every counter
    _put_text(img, bx(0.04, 0.45, 0.96, 0.57), unit_identification(unit), _font(ts.ident, True), fg)
    _put_text(img, bx(0.04, 0.575, 0.96, 0.655), _formation_name(game, unit), _font(ts.formation, False), fg)

    fy0, fy1 = (0.665, 0.895) if exploit else (0.67, 0.97)
    factors = unit.factors if face == FRONT else unit.reduced
    if factors is not None:
        _put_text(img, bx(0.07, fy0, 0.93, fy1), factors.printed, _font(ts.factors, True), fg)
    elif face == BACK:
        # the reduced values are not printed anywhere we read: say so quietly, never make them up
        _put_text(img, bx(0.1, fy0, 0.9, fy1), "back not printed", _font(round(ts.ident * 0.8), False),
                  _blend(fg, bg, 0.45))
    return img.reduce(ss)


def _wrap(text: str, n_lines: int) -> list[str]:
    """Split text into at most n_lines lines of similar length (words kept whole)."""
    words = text.split()
    if len(words) <= 1 or n_lines <= 1:
        return [text]
    best = [text]
    best_len = len(text)
    # try every split into up to n_lines lines; marker names are short so this is cheap
    def splits(ws, k):
        if k == 1:
            yield [" ".join(ws)]
            return
        for i in range(1, len(ws)):
            for rest in splits(ws[i:], k - 1):
                yield [" ".join(ws[:i])] + rest
    for k in range(2, min(n_lines, len(words)) + 1):
        for cand in splits(words, k):
            longest = max(len(s) for s in cand)
            if longest < best_len:
                best, best_len = cand, longest
    return best


_MARKER_TOP, _MARKER_BOTTOM, _MARKER_LINES = 0.12, 0.88, 3


def _marker_lines(marker) -> list[str]:
    return _wrap(marker.name or marker.id, _MARKER_LINES)


def _marker_line_height(n: int) -> float:
    return (_MARKER_BOTTOM - _MARKER_TOP) / max(n, 2)


def _marker_best_px(marker, S: int) -> int:
    """The largest font at which this marker's name, wrapped, fits its plate."""
    lines = _marker_lines(marker)
    lh = _marker_line_height(len(lines))
    return min(_fit(t, int(S * 0.9), int(S * lh * 0.85), True).size for t in lines)


def marker_font_px(game, S: int) -> int:
    """One size for every marker's name in the game (see TYPE_FLOOR), at plate size S."""
    key = (id(game), "markers", int(S))
    hit = _SCALES.get(key)
    if hit is not None and hit[0] is game:
        return hit[1]
    cap = _fit("0", 1 << 20, int(S * _marker_line_height(_MARKER_LINES) * 0.85), True).size
    px = max(min((_marker_best_px(m, S) for m in game.markers), default=cap), round(cap * TYPE_FLOOR), 4)
    _SCALES[key] = (game, px)
    return px


def marker_type_px(game, size_px: int) -> int:
    """The game-wide marker font size a `size_px` marker is drawn with (every marker's name shapes it)."""
    return marker_font_px(game, size_px * _supersample(size_px))


def marker_image(game, marker, size_px: int, face: str = FRONT) -> Image.Image:
    """A game-aid marker: its printed name on a neutral plate. The back (not modelled) is blank."""
    face = _face(face)
    ss = _supersample(size_px)
    S = size_px * ss
    img = Image.new("RGB", (S, S), _MARKER_BG)
    if face == FRONT:
        lines = _marker_lines(marker)
        n = len(lines)
        lh = _marker_line_height(n)
        y = 0.5 - lh * n / 2
        f = _font(marker_font_px(game, S), True)
        for t in lines:
            _put_text(img, (S * 0.05, S * y, S * 0.95, S * (y + lh)), t, f, _MARKER_FG)
            y += lh
    return img.reduce(ss)
