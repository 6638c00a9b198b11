"""Where a scenario's pieces go: set-up units on their hexes, reinforcements in holding boxes.

Placement of locations that are not one hex (reported by `Placement.how`):
- ``hex``: that hex.
- ``any_of``: the first listed hex; ``range``: its first hex; ``within``: the centre hex named.
- ``area``: the area's first hex when places.yaml lists its hexes, else a holding box on the
  Reinforcements map named after the area; ``any_area``: likewise with the first area listed.
- a hex that is not on the map, or on a board the scenario does not use: a holding box named by it.
- map features a scenario places (``features``): a marker piece on the hex when a marker has the
  feature's kind as id or name; otherwise reported.
- units a set-up lists with state ``dg`` get a DG marker piece on top of them (when the game has a
  marker with id ``dg``); state ``reduced`` shows the reduced-side layer.
Reinforcements: one holding box per side, turn and entry (as printed) on the Reinforcements map.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

MAIN_MAP = "Main Map"
REINF_MAP = "Reinforcements"


@dataclass(frozen=True)
class BoxKey:
    side: str
    turn: Optional[str]          # None: a set-up holding box
    label: str


@dataclass
class Placement:
    unit: str
    side: str
    reduced: bool
    markers: tuple[str, ...]     # marker ids stacked on the unit (dg ...)
    hex: Optional[str] = None    # on the main map
    box: Optional[BoxKey] = None # or in a holding box
    how: str = "hex"             # hex | any_of:first | range:first | within:centre | area:first | area:box | arrival
    source_hex: Optional[str] = None   # the hex the source names (for checks)


@dataclass
class ScenarioPlan:
    scenario: object
    placements: list[Placement] = field(default_factory=list)
    features: list[tuple[str, str]] = field(default_factory=list)   # (marker id, hex) the scenario places
    problems: list[str] = field(default_factory=list)


def _words(s: str) -> frozenset:
    return frozenset(w for w in re.split(r"[^a-z0-9]+", s.lower()) if w)


def _marker_for(game, kind: str) -> Optional[str]:
    """The marker a feature kind or unit state stands for: the marker with that id or that declares the
    state (`states:` in counters.yaml); else the one
    marker whose id or name holds all the kind's words ("blown-bridge" -> "bridge-blown",
    "Bridge Blown / Bridge Tested"); None when there is none or more than one."""
    for m in game.markers:
        if m.id == kind or kind in m.states:
            return m.id
    kw = _words(kind)
    hits = [m.id for m in game.markers if kw and (kw <= _words(m.id) or kw <= _words(m.name))]
    return hits[0] if len(hits) == 1 else None


def _turn_order(game, tid: Optional[str]) -> int:
    t = game.turn(tid) if tid else None
    return t.index if t else 10_000


def _location(game, loc) -> tuple[Optional[str], Optional[str], str]:
    """(hex, box label, how) for a location."""
    if loc.hex:
        return loc.hex, None, "hex"
    if loc.any_of:
        return loc.any_of[0], None, "any_of:first"
    if loc.range:
        return loc.range[0], None, "range:first"
    if loc.within:
        return loc.within[1], None, "within:centre"
    any_area = loc.any_area
    if any_area:
        a = game.area(any_area[0])
        if a is not None and a.hexes:
            return a.hexes[0], None, "any_area:first"
        return None, f"Set-up: {loc.printed or ('area ' + ' or '.join(any_area))}", "any_area:box"
    if loc.area:
        a = game.area(loc.area)
        if a is not None and a.hexes:
            return a.hexes[0], None, "area:first"
        name = (a.name if a is not None and a.name else loc.area)
        return None, f"Set-up: {loc.printed or ('area ' + name)}", "area:box"
    return None, f"Set-up: {loc.printed or '?'}", "unknown:box"


def entry_label(game, loc) -> str:
    """How a holding box names an arrival location: the area's printed name, else the location as printed."""
    if loc.area and not loc.printed:
        a = game.area(loc.area)
        if a is not None and a.name:
            return a.name
        return f"Area {loc.area}"
    return str(loc)


def _state(game, p: ScenarioPlan, u, states) -> tuple[bool, tuple[str, ...]]:
    """(shown reduced, marker ids on top) for a unit line's printed states; what cannot be shown is reported."""
    reduced = "reduced" in states
    if reduced and u.steps < 2:
        p.problems.append(f"{u.id} is placed reduced but has one step; placed full")
        reduced = False
    marks = []
    for s in states:
        if s == "reduced":
            continue
        m = _marker_for(game, s)
        if m is None:
            p.problems.append(f"{u.id}: state {s!r} has no marker in counters.yaml")
        else:
            marks.append(m)
    return reduced, tuple(marks)


def plan(game, scenario) -> ScenarioPlan:
    p = ScenarioPlan(scenario)
    for g in scenario.setup:
        hex_id, box, how = _location(game, g.location)
        if hex_id is not None and not game.grid.exists(hex_id):
            p.problems.append(f"set-up hex {hex_id} is not on the map; placed in a holding box")
            box, how, hex_id = f"Set-up: {hex_id}", "bad-hex:box", None
        elif hex_id is not None and scenario.boards and game.grid.board_of(hex_id) not in scenario.boards:
            p.problems.append(f"set-up hex {hex_id} is on a board not in play; placed in a holding box")
            box, how, hex_id = f"Set-up: {hex_id}", "off-board:box", None
        for pl in g.units:
            u = game.unit(pl.unit)
            if u is None:
                p.problems.append(f"unknown unit {pl.unit}")
                continue
            reduced, marks = _state(game, p, u, pl.state)
            for _ in range(max(pl.count, 1)):
                p.placements.append(Placement(
                    u.id, g.side, reduced, marks, hex_id,
                    BoxKey(g.side, None, box) if box else None, how,
                    hex_id if how == "hex" else None))
    for f in scenario.features:
        m = _marker_for(game, f.kind)
        if m is None:
            p.problems.append(f"scenario feature {f.kind!r} at {f.hex} has no marker in counters.yaml")
        elif not game.grid.exists(f.hex) or (scenario.boards and game.grid.board_of(f.hex) not in scenario.boards):
            p.problems.append(f"scenario feature {f.kind!r}: hex {f.hex} is not on a board in play")
        else:
            p.features.append((m, f.hex))
    for oa in game.scenario_arrivals(scenario):
        for tb in oa.turns:
            for arr in tb.arrivals:
                label = entry_label(game, arr.entry)
                key = BoxKey(oa.side, tb.turn, label)
                for pl in arr.units:
                    u = game.unit(pl.unit)
                    if u is None:
                        p.problems.append(f"unknown unit {pl.unit}")
                        continue
                    reduced, marks = _state(game, p, u, pl.state)
                    for _ in range(max(pl.count, 1)):
                        p.placements.append(Placement(u.id, oa.side, reduced, marks, None, key, "arrival"))
    return p


def all_boxes(game, plans: list[ScenarioPlan]) -> list[BoxKey]:
    """Every holding box any scenario uses, in a stable order: side, set-up boxes first, then turns."""
    seen: dict[BoxKey, int] = {}
    for pl in plans:
        for x in pl.placements:
            if x.box is not None and x.box not in seen:
                seen[x.box] = len(seen)
    side_order = {s.id: i for i, s in enumerate(game.sides)}
    return sorted(seen, key=lambda b: (side_order.get(b.side, 99), b.turn is not None,
                                       _turn_order(game, b.turn), seen[b]))
