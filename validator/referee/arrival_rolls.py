"""An arrival a roll decides (`terms: {kind: roll, roll: {dice, success}, on_failure}`): the unit comes in only on a
roll of its success faces, and where a failed roll eliminates it, it leaves the map. The roll may be logged before
the unit is placed or after (a drop rolled for once placed, Bulge 40.2); any roll of those dice in the arrival's
phase that succeeds is taken as its roll. Nothing here names a game.
"""
from __future__ import annotations

from typing import Optional

from ..records.record import DieRoll, Moved, Placed, Removed
from . import Finding, Verdict, found, partly, rule
from .arrivals import line_used, unit_entering
from .ledger import phase_rolls
from .lookahead import steps_after


def _rolls_after(v, dice: str, piece: str) -> tuple[list[int], bool]:
    """(totals of the rolls with these dice after the arrival in its phase, whether the unit left the map then)."""
    totals, gone = [], False
    for s in steps_after(v.facts.record, v.step):
        for e in s.events:
            if v.tracker.ends_phase(e):
                return totals, gone
            if isinstance(e, DieRoll) and e.dice == dice:
                totals.append(e.total)
            elif isinstance(e, Removed) and e.counter.piece == piece:
                gone = True
    return totals, gone


@rule("HF1409", "arrival-roll-failed", "error",
      "a reinforcement a roll decides arrives only on a roll of its success faces (on a failure it does not "
      "arrive, or is eliminated)", events=(Moved, Placed), read_as=("entry",))
def arrival_roll_failed(v) -> Optional[Verdict]:
    """A reinforcement that arrives only on a roll comes in though no roll of its phase came up.

    ## What it checks
    A unit entering the map by an arrival line whose terms are a roll with `success` faces: the rolls of those
    dice in the phase it enters in (before its entry or after, up to the phase's end). None succeeding, it came in
    all the same, or (where `on_failure` is `eliminated`) it stays on the map when the phase ends. Judged where
    the phase is certain; with no such roll in the phase, a note (its roll is not in the log).
    ## Why
    Ardennes II, German order of arrival: "Roll one die, the JgTg Bn arrives on a 5 or more. Otherwise, it does
    not."; Bulge 40.2: von der Heydte's battalion lands on a 1; "On any other roll the battalion is eliminated."
    ## Reads
    the orders of arrival's `terms` (`roll.dice`, `roll.success`, `on_failure`, `roll.rule`), the log's rolls.
    ## Violation
    Bulge: the von der Heydte battalion dropped on JJ6 in the German 17 AM Movement Phase, its roll a 3, left on
    the map.
    ## Near miss
    The same drop with its roll a 3, the battalion then deleted; or its roll a 1.
    """
    hit = unit_entering(v)
    if hit is None:
        return None
    c, h = hit
    e = line_used(v, c, h)
    t = e.terms if e is not None else None
    if t is None or not t.roll_dice or not t.roll_success:
        return None
    before = [r.roll.total for r in phase_rolls(v.ledger) if r.roll.dice == t.roll_dice]
    after, gone = _rolls_after(v, t.roll_dice, c.piece)
    totals = before + after
    faces = ", ".join(map(str, t.roll_success))
    if not totals:
        return partly(f"{v.label(c)} arrives by a roll ({t.roll_dice}: {faces}, {t.roll_rule or t.rule}); no such roll "
                      "is in its phase, so whether it came up is not judged")
    if any(x in t.roll_success for x in totals) or (t.on_failure == "eliminated" and gone):
        return None
    what = f"{v.label(c)} enters at {h} though no {t.roll_dice} roll of its phase came up {faces} " \
           f"(rolls: {', '.join(map(str, totals))})" + \
           (": on a failure it is eliminated, and it stays on the map" if t.on_failure == "eliminated" else
            ": on a failure it does not arrive")
    if not v.tracker.pinned():
        return partly(f"{what}; the phase is inferred, so its roll may lie in another ({t.roll_rule or t.rule} not "
                      "judged)")
    return found(Finding(message=what, hexes=(h,), units=(v.label(c),), rule=t.roll_rule or t.rule,
                         side=v.side_of(c)))
