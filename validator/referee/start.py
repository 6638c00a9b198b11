"""A scenario's start position as slots: which unit, in which state, on which hexes it may stand.

A single-hex set-up line is exact; a line naming several hexes (a range, "A or B", an area, "within
N of") lets its units stand on any of them. Lines whose units are not printed (a declared gap) are
slots any unit of their side may fill. `match` pairs the pieces a record starts with to the slots,
by unit id (several pieces share one), which gives the start-position findings and a score used to
infer the scenario of a log that does not name it.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Optional

from ..source.model import Game, Location, Scenario
from ..geometry.locations import location_hexes as read_location
from ..positions.position import Position
from ..positions.stacking import side_of


@dataclass(frozen=True, slots=True)
class Slot:
    side: str
    unit: Optional[str]                       # None: a line whose units are not printed (a gap)
    state: frozenset[str]
    hexes: Optional[frozenset[str]]           # None: the location's hexes are not printed
    location: str                             # as printed
    exact: bool                               # a single hex


def location_hexes(game: Game, loc: Location) -> Optional[frozenset[str]]:
    """The hexes a location covers (the one reading, `validator.geometry.locations`); None when not printed."""
    hexes = read_location(game, loc)
    return frozenset(hexes) if hexes else None


def slots(game: Game, sc: Scenario) -> list[Slot]:
    out = []
    for grp in sc.setup:
        hexes = location_hexes(game, grp.location)
        exact = hexes is not None and len(hexes) == 1
        if grp.gap and not grp.units:
            out.append(Slot(grp.side, None, frozenset(), hexes, str(grp.location), exact))
        for p in grp.units:
            for _ in range(p.count):
                out.append(Slot(grp.side, p.unit, frozenset(p.state), hexes, str(grp.location), exact))
    return out


@dataclass
class Match:
    scenario: Scenario
    pairs: list = field(default_factory=list)        # (Counter, hex, Slot)
    missing: list = field(default_factory=list)      # Slot
    misplaced: list = field(default_factory=list)    # (Counter, hex, Slot): right unit, hex outside its slot
    extra: list = field(default_factory=list)        # (Counter, hex, Optional gap Slot)
    total: int = 0
    boxed: int = 0                                   # pieces found in the holding boxes the scenario fills

    @property
    def score(self) -> float:
        return (len(self.pairs) + self.boxed) / self.total if self.total else 0.0


def _fits(slot: Slot, h: str) -> bool:
    return slot.hexes is None or h in slot.hexes


def match(game: Game, sc: Scenario, start: Position) -> Match:
    """Pair each on-map unit of the start position with a set-up slot of its unit id."""
    by_unit: dict = defaultdict(list)
    for s in slots(game, sc):
        by_unit[s.unit].append(s)
    pieces: dict = defaultdict(list)
    for c, w in start.units():
        if w.hex is not None:
            pieces[c.unit].append((c, w.hex))
    res = Match(sc, total=max(sum(len(v) for k, v in by_unit.items() if k), sum(len(v) for v in pieces.values())))
    for uid in sorted(set(by_unit) | set(pieces), key=str):
        if uid is None:
            continue
        free = list(by_unit.get(uid, ()))
        left = []
        # exact hexes first, then the slot with the fewest hexes that still fits
        for c, h in sorted(pieces.get(uid, ()), key=lambda ch: ch[1]):
            fits = [s for s in free if _fits(s, h)]
            if not fits:
                left.append((c, h))
                continue
            best = min(fits, key=lambda s: (not s.exact, len(s.hexes) if s.hexes else 10 ** 6))
            free.remove(best)
            res.pairs.append((c, h, best))
        for c, h in left:
            if free:
                res.misplaced.append((c, h, free.pop(0)))
            else:
                res.extra.append((c, h, None))
        res.missing.extend(free)
    gaps = list(by_unit.get(None, ()))
    extra = []
    for c, h, _ in res.extra:
        side = side_of(game, c)
        gap = next((s for s in gaps if s.side == side and _fits(s, h)), None)
        if gap is not None:
            gaps.remove(gap)
        extra.append((c, h, gap))
    res.extra = extra
    return res


def infer_scenario(game: Game, start: Position) -> Optional[Match]:
    """The scenario whose set-up the start position matches best (None if the game has none). Where no
    scenario prints a set-up the start matches, the scenario whose holding boxes (set-up groups the
    rulebook does not locate, reinforcements) the start's boxed pieces match best, as its module's
    predefined set-up fills them (most of them)."""
    matches = [match(game, sc, start) for sc in game.scenarios if sc.setup_printed]
    best = max(matches, key=lambda mt: mt.score, default=None)
    if best is not None and best.score > 0:
        return best
    boxed = [m for m in (_box_match(game, sc, start) for sc in game.scenarios) if m.score > 0.5]
    return max(boxed, key=lambda mt: mt.score, default=best)


def _box_match(game: Game, sc: Scenario, start: Position) -> Match:
    """How many of the start's pieces in boxes stand in the box, by unit, the scenario's position puts them."""
    from ..positions.scenario_position import position_of_scenario
    want: dict = defaultdict(int)
    for c, w in position_of_scenario(game, sc).position:
        if w.hex is None:
            want[(c.unit, w.box)] += 1
    have = [(c.unit, w.box) for c, w in start if w.hex is None and c.kind == "unit"]
    hits = 0
    for key in have:
        if want.get(key, 0) > 0:
            want[key] -= 1
            hits += 1
    total = max(len(have), hits + sum(want.values()))
    return Match(sc, total=total, boxed=hits)
