"""Movement costs read from the game's TEC: printed cells turned into numbers, "prohibited" or "unknown".

A TEC cell is printed text ("1", "½", "2 MP", "+1 MP", "1/4 MP", "Prohibited", "(b)", "DG"). A cell
is prohibited when it says so or when the TEC's `notes` explain its code as prohibited or not
allowed; a cell that is neither a number nor such a code is unknown. The referee needs, per
movement class, the cheapest cost a hex can have (what an unprinted hex is assumed to cost) and the
cost of plain terrain without any road (to tell when a move is legal only along roads).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Union

from ..model import Game, TerrainType

Cost = Union[Fraction, str]                   # a number of MP, "prohibited" or "unknown"
PROHIBITED = "prohibited"
UNKNOWN = "unknown"

_GLYPHS = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}
_NUMBER = re.compile(r"^\s*(\+)?\s*(\d+\s*/\s*\d+|\d+(?:\.\d+)?|[½⅓¼¾])\s*(?:MPs?|MP)?\s*$", re.IGNORECASE)
_ANY_NUMBER = re.compile(r"(\d+\s*/\s*\d+|\d+(?:\.\d+)?|[½⅓¼¾])")
_PROHIBITING = re.compile(r"\b(prohibited|not allowed)\b", re.IGNORECASE)


def _number(text: str) -> Fraction:
    text = text.replace(" ", "")
    if text in _GLYPHS:
        return _GLYPHS[text]
    return Fraction(text)


def parse_cell(cell: Optional[str], notes: dict) -> tuple[Cost, bool]:
    """(cost, additive) of one printed cell; additive for "+N" hexside-style cells."""
    if cell is None:
        return UNKNOWN, False
    text = str(cell).strip()
    m = _NUMBER.match(text)
    if m:
        return _number(m.group(2)), bool(m.group(1))
    if _PROHIBITING.search(text):
        return PROHIBITED, False
    code = text.strip("()[] ")
    meaning = notes.get(code) or notes.get(text)
    if meaning and _PROHIBITING.search(str(meaning)) and not _ANY_NUMBER.search(code):
        return PROHIBITED, False
    return UNKNOWN, False


@dataclass(frozen=True)
class ClassCosts:
    """What one movement class pays, as far as the TEC says."""
    movement_class: Optional[str]             # None = a unit whose class the tree does not know
    cheapest: Optional[Fraction]              # the lowest cost any hex can have (roads included)
    plain: Optional[Fraction]                 # the lowest cost of a hex entered without a road or track
    prohibited: frozenset[str]                # terrain ids this class may not enter or cross


def _cells(game: Game, t: TerrainType, cls: Optional[str]) -> list[str]:
    """The cells that apply to a class: its own cell, or every cell of the row if the class is unknown
    or the row is printed by another key (a road table printed by unit type)."""
    if cls is not None and cls in t.movement:
        return [t.movement[cls]]
    cells = list(t.movement.values())
    if not cells and t.kind == "path":
        cells = [v for v in t.other.values() if _ANY_NUMBER.search(str(v))]
    return [str(c) for c in cells]


def _lowest_number(text: str) -> Optional[Fraction]:
    """The lowest MP figure in a cell that prints several ("1/4 MP, or 1/3 MP (d)")."""
    vals = []
    for part in re.split(r",|\bor\b", text):
        m = _ANY_NUMBER.search(part)
        if m:
            vals.append(_number(m.group(1)))
    return min(vals) if vals else None


def class_costs(game: Game, cls: Optional[str]) -> ClassCosts:
    tec = game.tec
    if tec is None:
        return ClassCosts(cls, None, None, frozenset())
    entering: list[Fraction] = []
    plain: list[Fraction] = []
    prohibited: set[str] = set()
    for t in tec.terrain:
        if t.kind not in ("hex", "path", "hexside"):
            continue
        for cell in _cells(game, t, cls):
            cost, additive = parse_cell(cell, tec.notes)
            if cost == PROHIBITED:
                prohibited.add(t.id)
                continue
            if cost == UNKNOWN and t.kind == "path":
                cost = _lowest_number(cell) or UNKNOWN
            if isinstance(cost, Fraction) and not additive and t.kind != "hexside":
                entering.append(cost)
                if t.kind == "hex":
                    plain.append(cost)
    return ClassCosts(cls, min(entering) if entering else None, min(plain) if plain else None,
                      frozenset(prohibited))


def costs_by_class(game: Game) -> dict[Optional[str], ClassCosts]:
    classes = list(game.tec.movement_classes if game.tec else ()) + [None]
    return {c: class_costs(game, c) for c in classes}
