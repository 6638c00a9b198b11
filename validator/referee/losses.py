"""A unit's steps changed where no battle changes them: outside every combat phase. Inside one, the combat
rules judge each loss against its battle (HF1501, HF1508); a roll outside one with a loss after it is
HF1507's. Nothing here names a game."""
from __future__ import annotations

from typing import Optional

from ..records.record import Removed, StateChanged
from . import Finding, Verdict, found, partly, rule
from .combat import REDUCED


def step_change(v) -> Optional[str]:
    """What the event does to a unit on the map: "is eliminated", "loses a step", "regains a step", else None."""
    ev = v.event
    if ev.counter.kind != "unit" or ev.where is None or ev.where.hex is None:
        return None
    if isinstance(ev, Removed):
        return "is eliminated"
    if (REDUCED in ev.counter.state) == (REDUCED in ev.old_state):
        return None                                # another state (a marker's, DG): not a step
    return "loses a step" if REDUCED in ev.counter.state else "regains a step"


def _after_a_roll(v) -> bool:
    """A roll fell earlier in this phase: what follows it may be its result (the combat rules, or HF1507
    where the phase has no combat, judge it)."""
    return bool(v.ledger.rolls) and v.ledger.rolls[-1].step > v.ledger.phase_end_step


def _roll_judged(v) -> bool:
    """HF1507 judges what follows a roll in this phase: the tree bars combat outside the combat phases and the
    phase is certain."""
    return v.game.rules.combat.combat_phases_only is not None and v.tracker.pinned()


def _rule_for(v, what: str) -> Optional[str]:
    """The tree's rule that only combat results make this change (a flip to reduced: either datum)."""
    cb = v.game.rules.combat
    return cb.steps_by_combat_only or (cb.step_losses_by_combat_only if what == "loses a step" else None)


@rule("HF1514", "step-change-outside-combat", "error",
      "units lose or regain steps, or are eliminated, only by a battle's result; take the change back",
      events=(Removed, StateChanged))
def step_change_outside_combat(v) -> Optional[Verdict]:
    """A unit is eliminated, loses a step or regains one outside every combat phase.

    ## What it checks
    A unit on the map removed, flipped to its reduced side or back to full in a phase that has no combat,
    where the tree says only combat results make that change (`rules.combat.steps_by_combat_only`; for a flip
    to reduced, `step_losses_by_combat_only` too) and the phase is certain (the turn marker or a chat names
    it). After a roll in that phase, the roll's result may be the change: HF1507 judges it where the tree bars
    combat outside the combat phases; else a flip to reduced under `step_losses_by_combat_only` is still
    judged here (no roll outside combat takes a step), and any other change is a note. A note too where the
    tree does not say so or the phase is inferred, and for a change in a combat phase before any roll of it
    (a battle whose die is not in the log): the step is not fully verified.
    ## Why
    Meuse 8.6: a unit loses steps by the combat results, and is eliminated when a reduced unit loses one
    or its retreat is blocked; no rule restores a step or removes a unit otherwise. Ardennes II 3.5:
    "Barrages do not inflict step losses directly".
    ## Reads
    `rules.combat.steps_by_combat_only`, `step_losses_by_combat_only`, `combat_phases_only`,
    `sequence_of_play[].combat`, the turn tracker's phase.
    ## Violation
    Meuse: Red 10th Rifle Regiment removed from B8.16 in the Red Movement Phase of turn 1; or, reduced,
    flipped back to full in the Red Movement Phase of turn 3. Ardennes II: I/3 flipped to reduced after a
    barrage roll in the US Barrage Phase of turn 1.
    ## Near miss
    The same unit flipped to reduced after a roll in the Red Combat Phase (a D1 against it: the combat
    rules judge it); a DG marker's state changed.
    """
    what = step_change(v)
    if what is None:
        return None
    phase, t = v.tracker.phase(), v.tracker
    c, h = v.event.counter, v.event.where.hex
    where = f"the {t.name(t.current())}" if phase is not None else "a phase not known"
    rule_no = _rule_for(v, what)
    if _after_a_roll(v):
        if phase is None or phase.combat or _roll_judged(v):
            return None                            # a roll's: the combat rules, or HF1507, judge it
        if rule_no is None or what != "loses a step" or v.game.rules.combat.step_losses_by_combat_only is None:
            return partly(f"{v.label(c)} {what} at {h} after a roll in {where}, which has no combat: whether "
                          "a rule allows it is not judged")
    elif phase is not None and phase.combat:
        return partly(f"{v.label(c)} {what} at {h} in {where} before any roll of it: a battle whose die is not "
                      "in the log is not judged")
    if rule_no is None or not t.pinned():
        why = ("the tree does not say that only combat results change steps" if rule_no is None
               else "the phase is inferred: it may be a combat phase")
        return partly(f"{v.label(c)} {what} at {h} in {where}, outside a combat phase: whether a rule allows it "
                      f"is not judged ({why})")
    after = " after a roll" if _after_a_roll(v) else ""
    only = ("steps are lost and regained, and units eliminated, only by combat results"
            if v.game.rules.combat.steps_by_combat_only else "only combat results take steps")
    return found(Finding(message=f"{v.label(c)} {what} at {h}{after} in {where} of turn {v.turn}, which has no "
                                 f"combat: {only}",
                         hexes=(h,), units=(v.label(c),), rule=rule_no, side=v.side_of(c)))
