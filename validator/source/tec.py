"""Reading a Terrain Effects Chart's movement cells into `Cost` values.

A cell is a number of movement points as printed ("2 MP", "1/2", "½", "+2 MP") or a code. What a
code means is read from the TEC's own `notes` ("P": "Prohibited.", "ot": "Use Other Terrain in the
hex."), never from a list of codes here; a cell printed as a word ("Prohibited") says what it means
itself. A code is a prohibition when its meaning says the terrain may not be entered: the meaning
starts with "prohibited" or "not allowed", the two wordings the TEC notes print.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Optional

from .model import Cost

_FOOTNOTE = re.compile(r"\s*[(\[]([A-Za-z0-9]{1,2})[)\]]\s*")
_NUMBER = re.compile(r"(\+)?\s*(\d+\s*/\s*\d+|\d+(?:\.\d+)?|\d*\s*[½¼¾⅓⅔])\s*(?:MPs?)?", re.IGNORECASE)
_VULGAR = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
_PROHIBITED = re.compile(r"\s*(prohibited|not allowed)\b", re.IGNORECASE)


def _number(text: str) -> Optional[Fraction]:
    text = text.replace(" ", "")
    if text and text[-1] in _VULGAR:
        whole = text[:-1]
        return (int(whole) if whole else 0) + _VULGAR[text[-1]]
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def _meaning(code: str, notes: dict) -> Optional[str]:
    """The TEC note that explains a code: keyed by the code itself, case-insensitively."""
    for k, v in notes.items():
        if str(k).strip().lower() == code.lower():
            return str(v)
    return None


def read_cost(cell, notes: dict) -> Cost:
    """One printed movement cell -> a Cost (see `validator.source.model.Cost`)."""
    printed = str(cell).strip()
    footnotes = tuple(_FOOTNOTE.findall(printed))
    body = _FOOTNOTE.sub(" ", printed).strip()
    m = _NUMBER.fullmatch(body) if body else None
    if m:
        mp = _number(m.group(2))
        if mp is not None:
            return Cost(printed, "added" if m.group(1) else "mp", mp, notes=footnotes)
    if not body:                               # a footnote alone: "(b)" means what the note says
        code = footnotes[0] if footnotes else printed
        meaning = _meaning(code, notes)
        return Cost(printed, _kind(meaning), code=code, meaning=meaning, notes=footnotes)
    meaning = _meaning(body, notes)
    if meaning is None and re.fullmatch(r"[A-Za-z][a-z]{3,}(?: [a-z]+)*", body):
        meaning = body                         # a word printed in full says what it means
    return Cost(printed, _kind(meaning), code=body, meaning=meaning, notes=footnotes)


def _kind(meaning: Optional[str]) -> str:
    return "prohibited" if meaning and _PROHIBITED.match(meaning) else "code"


def read_costs(movement: dict, notes: dict) -> dict:
    """movement class -> Cost for the printed cells of one terrain row (empty cells are not printed)."""
    return {mc: read_cost(cell, notes) for mc, cell in movement.items() if cell is not None and str(cell).strip()}
