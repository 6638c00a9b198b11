"""What movement costs each class at the cheapest, from the game's TEC (cells read by the model as
`model.Cost`: MP, added MP, prohibited, or a code). The referee needs, per
movement class, the cheapest cost a hex can have (what an unprinted hex is assumed to cost) and the
cost of plain terrain without any road (to tell when a move is legal only along roads).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..model import Game, TerrainType

_ANY_NUMBER = re.compile(r"(\d+\s*/\s*\d+|\d+(?:\.\d+)?|[½⅓¼¾])")
_GLYPHS = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}


def _number(text: str) -> Fraction:
    text = text.replace(" ", "")
    return _GLYPHS[text] if text in _GLYPHS else Fraction(text)


@dataclass(frozen=True)
class ClassCosts:
    """What one movement class pays, as far as the TEC says."""
    movement_class: Optional[str]             # None = a unit whose class the tree does not know
    cheapest: Optional[Fraction]              # the lowest cost any hex can have (roads included)
    plain: Optional[Fraction]                 # the lowest cost of a hex entered without a road or track
    prohibited: frozenset[str]                # terrain ids this class may not enter or cross
    cheapest_rule: Optional[str] = None       # the rule number of the TEC row that gives `cheapest`


def _row_costs(t: TerrainType, cls: Optional[str]) -> list:
    """The read cells (model.Cost) that apply to a class: its own, or every cell of the row when the
    unit's class is unknown."""
    if cls is not None and cls in t.costs:
        return [t.costs[cls]]
    return list(t.costs.values())


def _path_table(t: TerrainType) -> Optional[Fraction]:
    """A path row printed by unit type instead of movement class (a road table): its lowest figure."""
    vals = [_lowest_number(str(v)) for v in t.other.values()]
    vals = [v for v in vals if v is not None]
    return min(vals) if vals else None


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
    entering: list[tuple[Fraction, Optional[str]]] = []
    plain: list[Fraction] = []
    prohibited: set[str] = set()
    for t in tec.terrain:
        if t.kind not in ("hex", "path", "hexside"):
            continue
        cells = _row_costs(t, cls)
        if not cells and t.kind == "path" and _path_table(t) is not None:
            entering.append((_path_table(t), t.rule))
        for cost in cells:
            if cost.prohibited:
                prohibited.add(t.id)
            elif cost.kind == "mp" and cost.mp is not None and t.kind != "hexside":
                entering.append((cost.mp, t.rule))
                if t.kind == "hex":
                    plain.append(cost.mp)
    low = min(entering, key=lambda e: e[0]) if entering else (None, None)
    return ClassCosts(cls, low[0], min(plain) if plain else None, frozenset(prohibited), low[1])


def costs_by_class(game: Game) -> dict[Optional[str], ClassCosts]:
    classes = list(game.tec.movement_classes if game.tec else ()) + [None]
    return {c: class_costs(game, c) for c in classes}
