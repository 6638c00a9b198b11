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


@rule("HF1514", "step-change-outside-combat", "error",
      "units lose or regain steps, or are eliminated, only by a battle's result; take the change back",
      events=(Removed, StateChanged))
def step_change_outside_combat(v) -> Optional[Verdict]:
    """A unit is eliminated, loses a step or regains one outside every combat phase.

    ## What it checks
    A unit on the map removed, flipped to its reduced side or back to full in a phase that has no combat,
    where `rules.combat.steps_by_combat_only` says only combat results change steps and the phase is
    certain (the turn marker or a chat names it); with no roll earlier in that phase (what follows a roll
    may be its result: the combat rules judge it, HF1507 where the phase has no combat). A note where the
    tree does not say so or the phase is inferred, and for a change in a combat phase before any roll of
    it (a battle whose die is not in the log): the step is not fully verified.
    ## Why
    Meuse 8.6: a unit loses steps by the combat results, and is eliminated when a reduced unit loses one
    or its retreat is blocked; no rule restores a step or removes a unit otherwise.
    ## Reads
    `rules.combat.steps_by_combat_only`, `sequence_of_play[].combat`, the turn tracker's phase.
    ## Violation
    Meuse: Red 10th Rifle Regiment removed from B8.16 in the Red Movement Phase of turn 1; or, reduced,
    flipped back to full in the Red Movement Phase of turn 3.
    ## Near miss
    The same unit flipped to reduced after a roll in the Red Combat Phase (a D1 against it: the combat
    rules judge it); a DG marker's state changed.
    """
    what = step_change(v)
    if what is None or _after_a_roll(v):
        return None                                # a roll's: the combat rules, or HF1507, judge it
    phase = v.tracker.phase()
    c, h = v.event.counter, v.event.where.hex
    if phase is not None and phase.combat:
        return partly(f"{v.label(c)} {what} at {h} in the {v.tracker.name(v.tracker.current())} before any roll of "
                      "it: a battle whose die is not in the log is not judged")
    rule_no = v.game.rules.combat.steps_by_combat_only
    where = f"the {v.tracker.name(v.tracker.current())}" if phase is not None else "a phase not known"
    if rule_no is None or not v.tracker.pinned():
        why = ("the tree does not say that only combat results change steps" if rule_no is None
               else "the phase is inferred: it may be a combat phase")
        return partly(f"{v.label(c)} {what} at {h} in {where}, outside a combat phase: whether a rule allows it "
                      f"is not judged ({why})")
    return found(Finding(message=f"{v.label(c)} {what} at {h} in {where} of turn {v.turn}, which has no combat: "
                                 "steps are lost and regained, and units eliminated, only by combat results",
                         hexes=(h,), units=(v.label(c),), rule=rule_no, side=v.side_of(c)))
