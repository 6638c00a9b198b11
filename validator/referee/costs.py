"""What movement costs each class at the cheapest, from the game's TEC (cells read by the model as
`model.Cost`: MP, added MP, prohibited, or a code). The referee needs, per
movement class, the cheapest cost a hex can have (what an unprinted hex is assumed to cost) and the
cost of plain terrain without any road (to tell when a move is legal only along roads).
`TerrainCosts` gives the exact cost of entering a hex from its neighbour where the tree gives the
whole map (hex terrain, roads and tracks, hexsides and what cancels them), the cheapest elsewhere.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..source.model import Game, TerrainType

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

    @functools.cached_property
    def road_saves(self) -> bool:
        """A road (or the cheapest terrain) costs less than a plain hex: where the map is not printed,
        a move may be legal only along roads."""
        return self.cheapest is not None and self.plain is not None and self.plain > self.cheapest


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


_KEPT: dict = {}                      # id(game) -> (the game, movement class -> its ClassCosts)


def kept_class_costs(game: Game, cls: Optional[str]) -> ClassCosts:
    """`class_costs`, worked out once per game and class (a function of the tree alone: every battle's
    retreats ask it of each unit)."""
    hit = _KEPT.get(id(game))
    if hit is None or hit[0] is not game:
        if len(_KEPT) >= 32:
            _KEPT.clear()
        hit = _KEPT[id(game)] = (game, {})
    out = hit[1].get(cls)
    if out is None:
        out = hit[1][cls] = class_costs(game, cls)
    return out


def costs_by_class(game: Game) -> dict[Optional[str], ClassCosts]:
    classes = list(game.tec.movement_classes if game.tec else ()) + [None]
    return {c: class_costs(game, c) for c in classes}


# -- exact costs from the map: what entering one hex from its neighbour costs a class --

@dataclass(frozen=True)
class StepCost:
    """What entering one hex from a neighbour costs: `mp` None = prohibited (`why`: by which row);
    `known` False = the tree does not give that cost, and the cheapest it allows is taken."""
    mp: Optional[Fraction]
    known: bool
    why: Optional[TerrainType] = None


def map_complete(game: Game) -> bool:
    """The tree gives the whole map: every hex's terrain (a default stands for the unlisted ones), and
    so its roads, tracks and hexsides are all listed."""
    return game.terrain.default is not None


def _denominators(game: Game, costs: ClassCosts) -> set[int]:
    """The denominators of every MP figure the TEC prints (and of the class's cheapest and plain)."""
    out = {1}
    for x in (costs.cheapest, costs.plain):
        if x is not None:
            out.add(Fraction(x).denominator)
    for t in (game.tec.terrain if game.tec else ()):
        for cost in t.costs.values():
            if cost.mp is not None:
                out.add(Fraction(cost.mp).denominator)
        low = _path_table(t)
        if low is not None:
            out.add(low.denominator)
    return out


class TerrainCosts:
    """Entering costs for one movement class, from the tree's map (hex terrain, paths, hexsides with
    what cancels them) and the TEC; the cheapest the TEC allows where the tree does not say.
    `scaled` gives them in units of 1/`scale` MP (integers, for fast path searches)."""

    def __init__(self, game: Game, costs: ClassCosts):
        self.game, self.costs, self.exact = game, costs, map_complete(game)
        self.scale = math.lcm(*_denominators(game, costs))
        self._scaled: dict[tuple[str, str], tuple] = {}
        self._barred: dict[str, Optional[TerrainType]] = {}
        self.rows = {t.id: t for t in (game.tec.terrain if game.tec else ())}
        self.sides: dict[frozenset, set[str]] = {}
        for hs in game.terrain.hexsides:
            self.sides.setdefault(frozenset(hs.between), set()).add(hs.feature)
        self.along: dict[frozenset, set[str]] = {}
        self.on_path: dict[str, list[frozenset]] = {}          # hex -> the path pairs it is one end of
        for p in game.terrain.paths:
            for a, b in zip(p.hexes, p.hexes[1:]):
                pair = frozenset((a, b))
                self.along.setdefault(pair, set()).add(p.feature)
                for h in (a, b):
                    self.on_path.setdefault(h, []).append(pair)

    def _cell(self, terrain_id: str):
        t = self.rows.get(terrain_id)
        if t is None:
            return None, None
        cls = self.costs.movement_class
        return t, (t.costs.get(cls) if cls is not None else None)

    def side_features(self, a: str, b: str) -> set[str]:
        """The features of the hexside a|b, less those a feature there cancels (a bridge: the river)."""
        feats = set(self.sides.get(frozenset((a, b)), ()))
        for f in list(feats):
            t = self.rows.get(f)
            if t is not None:
                feats -= set(t.cancels)
        return feats

    def _path(self, a: str, b: str) -> Optional[Fraction]:
        """The cost of moving a -> b along a road or track joining them (it replaces hex and hexside)."""
        vals = []
        for f in self.along.get(frozenset((a, b)), ()):
            _, cell = self._cell(f)
            if cell is not None and cell.kind == "mp" and cell.mp is not None:
                vals.append(cell.mp)
        return min(vals) if vals else None

    def hex_cost(self, h: str) -> StepCost:
        """Entering hex h off any road: its terrain's cost for the class (None where prohibited)."""
        terrains = self.game.hex_terrain(h)
        cells = [self._cell(t) for t in terrains]
        if not self.exact or not cells or any(c is None for _, c in cells):
            return StepCost(self.costs.cheapest, False)
        if all(c.prohibited for _, c in cells):
            return StepCost(None, True, cells[0][0])
        mps = [c.mp for _, c in cells if c.kind == "mp" and c.mp is not None]
        if len(mps) != len(cells):                     # a code or a prohibited row beside others: unsure
            return StepCost(min(mps + [self.costs.cheapest]) if mps else self.costs.cheapest, False)
        return StepCost(min(mps), len(set(mps)) == 1)

    def _side(self, a: str, b: str) -> StepCost:
        added, known = Fraction(0), True
        for f in sorted(self.side_features(a, b)):
            t, cell = self._cell(f)
            if cell is None:
                known = False
            elif cell.prohibited:                      # a listed prohibited hexside bars on any map
                return StepCost(None, True, t)
            elif cell.kind == "added" and cell.mp is not None:
                added += cell.mp
            elif cell.kind != "mp" or cell.mp != 0:
                known = False
        return StepCost(added, known and self.exact)

    def entry_cost(self, h: str) -> StepCost:
        """Entering hex h from off the map: its road's or track's cost where one passes through it, else
        its terrain's (no hexside is crossed)."""
        if self.exact:
            roads = [mp for pair in self.on_path.get(h, ()) if (mp := self._path(*pair)) is not None]
            if roads:
                return StepCost(min(roads), True)
        if self.costs.cheapest is None:
            return StepCost(None, False)
        return self.hex_cost(h)

    def prohibited_hex(self, h: str) -> Optional[TerrainType]:
        """The TEC row that certainly bars the class from hex h (no road or track of the map enters it);
        None if it may be entered or its terrain is not known."""
        if h not in self._barred:
            self._barred[h] = self._prohibited_hex(h)
        return self._barred[h]

    def _prohibited_hex(self, h: str) -> Optional[TerrainType]:
        hx = self.hex_cost(h)
        if hx.mp is not None or not hx.known:
            return None
        if any(self._path(*pair) is not None for pair in self.on_path.get(h, ())):
            return None
        return hx.why

    def scaled(self, a: str, b: str) -> tuple:
        """`enter(a, b)` as (MP × scale, known): an int (a Fraction only for a figure the TEC's
        denominators miss), None where prohibited. Each hexside is costed once."""
        key = (a, b)
        hit = self._scaled.get(key)
        if hit is None:
            step = self.enter(a, b)
            mp = None
            if step.mp is not None:
                x = Fraction(step.mp) * self.scale
                mp = x.numerator if x.denominator == 1 else x
            hit = self._scaled[key] = (mp, step.known)
        return hit

    def enter(self, a: str, b: str) -> StepCost:
        """Moving from hex a into the adjacent hex b."""
        if self.exact:
            road = self._path(a, b)
            if road is not None:
                return StepCost(road, True)
        if self.costs.cheapest is None:
            return StepCost(None, False)
        side = self._side(a, b)
        if side.mp is None:
            return side
        if not self.exact:
            return StepCost(self.costs.cheapest, False)
        hx = self.hex_cost(b)
        if hx.mp is None:
            return hx
        return StepCost(hx.mp + side.mp, hx.known and side.known)


_PER_GAME: dict[int, tuple] = {}              # id(game) -> (the game, {movement class: TerrainCosts})
_GAMES_KEPT = 4


def terrain_costs(game: Game, costs: ClassCosts) -> TerrainCosts:
    """The class's `TerrainCosts` in this game, made once per game and process: they are a function of
    the game alone, so a batch of logs (`hexforge audit` of many, a `--jobs` worker's share) costs each
    hexside once, not once per log. The latest few games are kept (the game itself with them: an id is
    not reused while its object lives)."""
    kept = _PER_GAME.get(id(game))
    if kept is None or kept[0] is not game:
        if len(_PER_GAME) >= _GAMES_KEPT:
            _PER_GAME.clear()
        kept = _PER_GAME[id(game)] = (game, {})
    tc = kept[1].get(costs.movement_class)
    if tc is None:                             # a class's costs are the game's: one per class
        tc = kept[1][costs.movement_class] = TerrainCosts(game, costs)
    return tc

