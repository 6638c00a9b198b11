"""Where a scenario's pieces go in the module: the scenario's starting position, as VASSAL pieces.

The position comes from `validator.positions.scenario_position.position_of_scenario`, the same placer the
set-up checks judge (and `scenario_position.starting_position` returns), so a module set-up is a legal position:
- a single-hex line: that hex (``how`` = ``hex``);
- any other location (``any_of``, ``range``, ``within``, ``area``, ``any_area``): its units one at a
  time, in printed order, into the first of its hexes the stacking and mixing rules let them join,
  so one per hex along a range where units cannot stack (``how`` = the location's kind); the build
  reports each such choice (`ScenarioPlan.choices`);
- a location whose hexes are not printed, that cannot hold its units, or a hex not on a board in
  play: a set-up holding box on the Reinforcements map (``how`` = ``<kind>:box``);
- map features a scenario places (``features``): a marker piece on the hex when a marker has the
  feature's kind as id or name; otherwise reported;
- units a set-up lists with state ``dg`` get a DG marker piece on top of them (when the game has a
  marker with id ``dg``); state ``reduced`` shows the reduced-side layer.
Reinforcements: one holding box per side, turn and entry (as printed) on the Reinforcements map.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from validator.positions.scenario_position import position_of_scenario

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
    how: str = "hex"             # hex | any_of | range | within | area | any_area | <one of those>:box | arrival
    source_hex: Optional[str] = None   # the hex the source names (for checks)


@dataclass
class ScenarioPlan:
    scenario: object
    placements: list[Placement] = field(default_factory=list)
    features: list[tuple[str, str]] = field(default_factory=list)   # (marker id, hex) the scenario places
    problems: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)   # each placement chosen for a location not a single hex


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


def _kind(location) -> str:
    """Which field of a location is set: hex | any_of | range | within | area | any_area."""
    for k in ("hex", "any_of", "range", "within", "area", "any_area"):
        if getattr(location, k):
            return k
    return "unknown"


def _choice_text(sp, choice) -> str:
    p = sp.lines[choice.piece].placement
    return f"{p.printed or p.unit} ({choice.piece}) at {choice.where} for set-up location {choice.location}"


def plan(game, scenario) -> ScenarioPlan:
    sp = position_of_scenario(game, scenario)
    p = ScenarioPlan(scenario, problems=list(sp.problems), choices=[_choice_text(sp, c) for c in sp.choices])
    states: dict[int, tuple[bool, tuple[str, ...]]] = {}    # one reading (and one report) per printed line
    for c, where in sp.position:
        line = sp.lines[c.piece]
        u = game.unit(c.unit)
        if u is None:
            if id(line.placement) not in states:
                p.problems.append(f"unknown unit {c.unit}")
                states[id(line.placement)] = (False, ())
            continue
        if id(line.placement) not in states:
            states[id(line.placement)] = _state(game, p, u, line.placement.state)
        reduced, marks = states[id(line.placement)]
        box = sp.boxes.get(where.box) if where.box is not None else None
        key = BoxKey(box.side, box.turn, box.label) if box is not None else None
        if line.turn is not None:
            how = "arrival"
        else:
            how = _kind(line.group.location) + (":box" if key is not None else "")
        p.placements.append(Placement(u.id, line.side, reduced, marks, where.hex, key, how,
                                      where.hex if how == "hex" else None))
    for f in scenario.features:
        m = _marker_for(game, f.kind)
        if m is None:
            p.problems.append(f"scenario feature {f.kind!r} at {f.hex} has no marker in counters.yaml")
        elif not game.grid.exists(f.hex) or (scenario.boards and game.grid.board_of(f.hex) not in scenario.boards):
            p.problems.append(f"scenario feature {f.kind!r}: hex {f.hex} is not on a board in play")
        else:
            p.features.append((m, f.hex))
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
