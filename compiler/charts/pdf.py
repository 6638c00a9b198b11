"""Shared PDF plumbing for the charts: paper sizes, fonts, reproducible canvases, atomic writes.

Reproducibility: every document is made with reportlab's `invariant=1` (fixed creation date and
document ID), fonts are the Bitstream Vera files that ship inside reportlab (embedded as subsets,
so text stays vector and searchable), and nothing depends on the clock, the host or dict order.
"""
from __future__ import annotations

import hashlib
import os
import zlib
from contextlib import contextmanager
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..render.counters import FONT_DIR

PAPERS = {"a4": A4, "letter": LETTER}

FONT = "HF-Vera"
FONT_BOLD = "HF-Vera-Bold"
FONT_ITALIC = "HF-Vera-Italic"

INCOMPLETE_RED = (0.78, 0.05, 0.05)


def paper_size(paper: str) -> tuple[float, float]:
    try:
        return PAPERS[paper.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}") from None


_registered = False


def register_fonts() -> None:
    global _registered
    if _registered:
        return
    if FONT_DIR is None:  # pragma: no cover - reportlab always ships Vera
        raise RuntimeError("reportlab's bundled Vera fonts were not found")
    pdfmetrics.registerFont(TTFont(FONT, os.path.join(FONT_DIR, "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, os.path.join(FONT_DIR, "VeraBd.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_ITALIC, os.path.join(FONT_DIR, "VeraIt.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT_ITALIC,
                                  boldItalic=FONT_BOLD)
    _registered = True


def metadata(game, what: str) -> dict:
    return {
        "title": f"{game.title} — {what}",
        "author": "hexforge",
        "subject": f"{game.title}: {what}",
        "creator": "hexforge charts",
    }


def apply_metadata(c, game, what: str) -> None:
    """Title, subject, author and creator on a reportlab canvas (the platypus documents take them as
    arguments)."""
    md = metadata(game, what)
    c.setTitle(md["title"])
    c.setAuthor(md["author"])
    c.setSubject(md["subject"])
    c.setCreator(md["creator"])


@contextmanager
def binary_streams():
    """PDF streams written binary (Flate only) instead of reportlab's default ASCII85 on top, which it
    encodes in pure Python when its C accelerator is absent: a counter sheet is written in half the
    time and the file is about a fifth smaller. The setting is the library's global, so it is
    restored on the way out."""
    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = old


@dataclass(frozen=True)
class FlateImage:
    """An 8-bit RGB image as a PDF image stream: its rows zlib-compressed, as drawImage would write them.
    Kept in the face pack in this form (`to_bytes`), a counter face reused from the last run is placed
    without decoding or compressing its pixels again."""
    width: int
    height: int
    data: bytes

    @classmethod
    def of(cls, img) -> "FlateImage":
        rgb = img.convert("RGB")
        return cls(rgb.width, rgb.height, zlib.compress(rgb.tobytes()))

    def to_bytes(self) -> bytes:
        return b"%d %d\n" % (self.width, self.height) + self.data

    @classmethod
    def from_bytes(cls, blob: bytes) -> "FlateImage":
        head, data = blob.split(b"\n", 1)
        w, h = (int(x) for x in head.split())
        return cls(w, h, data)

    @property
    def name(self) -> str:
        return "hf" + hashlib.sha256(self.data).hexdigest()[:32]


def draw_flate_image(c, img: FlateImage, x: float, y: float, width: float, height: float) -> None:
    """`c.drawImage` for an image whose stream is already made: the same XObject, stored once however
    often it is placed, and the same operators. reportlab's drawImage always encodes the pixels again,
    so this registers the XObject the way it does (the names used are reportlab 4-5's canvas internals)."""
    doc = c._doc
    reg = doc.getXObjectName(img.name)
    if doc.idToObject.get(reg) is None:
        obj = pdfdoc.PDFImageXObject(img.name)
        obj.width, obj.height, obj.bitsPerComponent = img.width, img.height, 8
        obj.colorSpace, obj._filters, obj.streamContent, obj.mask = "DeviceRGB", ("FlateDecode",), img.data, None
        obj.XObjects = None   # an image has no resources (drawImage fills in the page's forms, unused)
        doc.Reference(obj, reg)
        doc.addForm(img.name, obj)
    c._currentPageHasImages = 1
    c.saveState()
    c.translate(x, y)
    c.scale(width, height)
    c._code.append(f"/{reg} Do")
    c.restoreState()
    c._formsinuse.append(img.name)
