"""Shared PDF plumbing for the charts: paper sizes, fonts, reproducible canvases, atomic writes.

Reproducibility: every document is made with reportlab's `invariant=1` (fixed creation date and
document ID), fonts are the Bitstream Vera files that ship inside reportlab (embedded as subsets,
so text stays vector and searchable), and nothing depends on the clock, the host or dict order.
"""
from __future__ import annotations

import os
from contextlib import contextmanager

from reportlab import rl_config
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
