"""Drags after a roll in a game whose combat tables do not say how retreats go (`after_combat`), so that no battle
judges them (Aachen: the map, its fortified hexes and which counters exert a ZOC are not printed): what is certain
all the same. A drag longer than any result's retreat or advance, and one through a hex an enemy holds, are no
retreat and no advance at all. Nothing here names a game.
"""
from __future__ import annotations

import re
from typing import Optional

from ..records.record import Moved, Removed
from . import Finding, Verdict, found, rule
from .lookahead import steps_after
from .movement import combat_judges_retreats

_LONGEST: dict = {}


def longest_after_combat(game) -> Optional[tuple[int, Optional[str]]]:
    """(the most hexes any combat result retreats or advances a unit, the rule of that result), once per game; a
    "#" code's number read from the cells it is printed in ("DR#": DR4). None where a length is not known (an
    illegible cell, a "#" printed in no cell) or no result says."""
    hit = _LONGEST.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _LONGEST[id(game)] = (game, _longest(game))
    return hit[1]


def _longest(game) -> Optional[tuple[int, Optional[str]]]:
    best, rule_no, seen = 0, None, False
    for t in game.tables:
        if t.kind != "combat":
            continue
        cells = [c for row in t.rows for c in row.results]
        if any("?" in c for c in cells):
            return None                        # an illegible cell may retreat a unit farther
        for rc in t.key:
            e = rc.effect
            for side in (e.attacker, e.defender, e.designated) if e is not None else ():
                for n in (side.retreat, side.advance) if side is not None else ():
                    if n is None:
                        continue
                    n = _printed_most(rc.code, cells) if str(n) == "#" else (int(n) if str(n).isdigit() else None)
                    if n is None:
                        return None
                    seen = True
                    if n > best:
                        best, rule_no = n, e.rule
    rbc = game.rules.combat.retreat_before_combat
    if seen and rbc is not None and rbc.hexes and rbc.hexes > best:
        best, rule_no = rbc.hexes, rbc.rule    # a retreat before combat after an earlier battle's roll
    return (best, rule_no) if seen else None


def _printed_most(code: str, cells: list) -> Optional[int]:
    """The largest number printed with a "#" code in the table's cells ("DR#": DR2, DR4 -> 4); None if none."""
    if not code.endswith("#"):
        return None
    found = [int(m) for c in cells for m in re.findall(rf"{re.escape(code[:-1])}(\d+)", c)]
    return max(found) if found else None


def _unjudged(v) -> bool:
    """A drag read as after a roll, which no battle judges, that cannot be a move of a later phase (the phase is
    certain, or no later phase of the turn lets the unit move)."""
    if v.read_as != "after-combat" or combat_judges_retreats(v.game):
        return False
    t, c = v.tracker, v.event.counter
    i = t.current()
    return t.pinned() or (i is not None and not t.later_phase_for(i, v.side_of(c), v.class_of(c)))


@rule("HF1518", "after-combat-drag-too-long", "error",
      "a retreat or an advance goes no farther than the combat result says", events=(Moved,),
      read_as=("after-combat",))
def after_combat_drag_too_long(v) -> Optional[Verdict]:
    """A drag after a roll goes farther than any combat result retreats or advances a unit.

    ## What it checks
    Where no battle judges retreats (the combat tables have no `after_combat`), a drag read as a retreat or an
    advance after a roll whose hex distance is more than the longest retreat or advance of any result code of the
    combat tables: no reading of it as either exists.
    ## Why
    Aachen 8.3: the retreating unit "must stop its retreat the number of hexes away required by the combat
    result"; the longest there is three (D3, A3; 8.5: an advance goes along the path of retreat).
    ## Reads
    the combat tables' result codes (`key[].effect`: `retreat`, `advance`), the grid.
    ## Violation
    Aachen: the German 1-1-6 dragged 0317 -> 0817, five hexes, after a roll in the US Combat Phase.
    ## Near miss
    The same unit dragged three hexes (a D3).
    """
    ev = v.event
    if not _unjudged(v) or ev.src.hex is None or ev.dst.hex is None:
        return None
    longest = longest_after_combat(v.game)
    d = v.look.grid.distance(ev.src.hex, ev.dst.hex)
    if longest is None or d is None or d <= longest[0]:
        return None
    c = ev.counter
    return found(Finding(message=f"{v.label(c)} is dragged {ev.src} -> {ev.dst} after a roll in the "
                                 f"{v.tracker.name(v.tracker.current())}, {d} hexes: no combat result retreats or "
                                 f"advances a unit more than {longest[0]}",
                         hexes=(ev.src.hex, ev.dst.hex), units=(v.label(c),), rule=longest[1], side=v.side_of(c)))


def _leaves_first(v, piece: str, h: str, held: set) -> Optional[int]:
    """The step the unit leaves hex h at, in this phase, before every enemy there has; else None."""
    for s in steps_after(v.facts.record, v.step):
        for e in s.events:
            if v.tracker.ends_phase(e):
                return None
            p = getattr(e, "counter", None)
            gone = p is not None and (isinstance(e, Removed) or (isinstance(e, Moved) and e.dst.hex != h))
            if gone and p.piece in held:
                held.discard(p.piece)
                if not held:
                    return None
            if gone and p.piece == piece:
                return s.index
    return None


@rule("HF1519", "after-combat-drag-through-enemy", "error",
      "a retreat or an advance never enters a hex an enemy unit holds", events=(Moved,), read_as=("after-combat",))
def after_combat_drag_through_enemy(v) -> Optional[Verdict]:
    """A drag after a roll ends in a hex an enemy unit holds, and the unit goes on from it while the enemy stays.

    ## What it checks
    Where no battle judges retreats (the combat tables have no `after_combat`), a drag read as a retreat or an
    advance ending in a hex an enemy unit holds, from which the unit is dragged on (or removed) in the same phase
    before every enemy unit there has left it (where it stays to the phase's end, HF1313 says so).
    ## Why
    Aachen 8.3: "Under no circumstances may a unit retreat into or through a hex occupied by an enemy unit."
    ## Reads
    the position (the sides of the counters), the phase's later events.
    ## Violation
    Aachen: the German 0-1-6 retreats from 0409 through 0309, held by the US 2-3-7 that attacked it, to 0208.
    ## Near miss
    An attacker dragged into its defender's hex before the defender's retreat is dragged out of it.
    """
    ev = v.event
    if not _unjudged(v) or ev.dst.hex is None:
        return None
    c = ev.counter
    held = v.enemies(v.side_of(c)).get(ev.dst.hex, ())
    if not held or _leaves_first(v, c.piece, ev.dst.hex, {e.piece for e in held}) is None:
        return None
    return found(Finding(message=f"{v.label(c)} is dragged {ev.src} -> {ev.dst} after a roll in the "
                                 f"{v.tracker.name(v.tracker.current())}, into the hex of {v.label(held[0])}, and on "
                                 "from it while that unit stays: a retreat or an advance never enters a hex an "
                                 "enemy unit holds",
                         hexes=(ev.src.hex, ev.dst.hex), units=(v.label(c), v.label(held[0])),
                         rule=_retreat_rule(v), side=v.side_of(c)))


def _retreat_rule(v) -> Optional[str]:
    """The rule the combat tables cite for retreats (a retreat code's effect), else the combat rule."""
    for t in v.game.tables:
        for rc in t.key if t.kind == "combat" else ():
            e = rc.effect
            if e is not None and any(s is not None and s.retreat for s in (e.attacker, e.defender, e.designated)):
                return e.rule
    return v.game.rules.combat.rule
