"""Unit states shown by marker pieces: a module may show a state (DG, an improved position) as a
marker piece in the unit's hex instead of on the unit's own piece.

Which states a marker shows is the tree's `markers[].states`; a marker that declares none shows the
state its own id names, where that id is a state the tree's set-ups or arrivals print (a `dg`
marker for units set up `dg`). A marker shows its state for one unit of its hex: k markers showing
S stand for at most k units in state S.
"""
from __future__ import annotations

from collections import Counter as Tally
from typing import Optional

from ..source.model import Game
from ..positions.position import Position


def printed_states(game: Game) -> frozenset[str]:
    """Every unit state a set-up or arrival line of the tree prints."""
    out: set[str] = set()
    for sc in game.scenarios:
        for grp in sc.setup:
            for p in grp.units:
                out.update(p.state)
        for ooa in game.scenario_arrivals(sc):
            for b in ooa.turns:
                for a in b.arrivals:
                    for p in a.units:
                        out.update(p.state)
    return frozenset(out)


def marker_states(game: Game) -> dict[str, frozenset[str]]:
    """Marker id -> the unit states it shows (markers that show none are left out)."""
    known = printed_states(game)
    out = {}
    for m in game.markers:
        states = frozenset(m.states) if m.states else (frozenset({m.id}) if m.id in known else frozenset())
        if states:
            out[m.id] = states
    return out


_SHOWN: dict = {}


def shown_states(game: Game) -> dict[str, frozenset[str]]:
    """`marker_states(game)`, worked out once per game for the process (every battle and DG reading asks)."""
    hit = _SHOWN.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _SHOWN[id(game)] = (game, marker_states(game))
    return hit[1]


def shown_by_markers(game: Game, position: Position, shows: Optional[dict] = None) -> dict[str, Tally]:
    """Hex -> how many markers there show each state."""
    shows = marker_states(game) if shows is None else shows
    out: dict[str, Tally] = {}
    for h, cs in position.stacks().items():
        for c in cs:
            if c.kind == "marker" and c.unit in shows:
                out.setdefault(h, Tally()).update(shows[c.unit])
    return out
