"""What the referee could not judge: each step not fully verified, with its reasons.

These rules run when the log ends and read the coverage the replay recorded from every other rule's
verdicts (the reasons a step was judged under an assumption, or not at all).
"""
from __future__ import annotations

from typing import Optional

from . import Finding, Verdict, found, rule


@rule("HF1901", "step-partly-verified", "info",
      "the step was judged under the cheapest reading the tree allows; see the reasons", on="end")
def step_partly_verified(v) -> Optional[Verdict]:
    """A step judged under an assumption: legal under the cheapest reading the tree allows.

    ## What it checks
    Every step some rule could verify only by assuming what the tree does not print (the TEC's
    cheapest cost where the map's terrain is not printed, a phase inferred, a condition not judged).
    ## Why
    The first law: say what you could not fully judge. A player reads these to know what to check by
    hand.
    ## Reads
    every rule's verdicts.
    ## Violation
    (a note) Aachen: a 3-hex move "partly verified: terrain not printed for every hex ... the TEC's
    cheapest cost (1 MP per hex) assumed there".
    ## Near miss
    The same move in Meuse, whose map the tree prints: fully verified, no note.
    """
    return found(*(Finding(message="partly verified: " + "; ".join(dict.fromkeys(cov["partly"])), step=step)
                   for step, cov in sorted(v.coverage.items())
                   if not (cov.get("undone") or cov["not"] or not cov["partly"])))


@rule("HF1902", "step-not-verified", "info",
      "the referee cannot judge this step from what the tree knows; see the reasons", on="end")
def step_not_verified(v) -> Optional[Verdict]:
    """A step the referee could not judge from what the tree holds.

    ## What it checks
    Every step some rule could not judge at all (and no finding of its own says so already).
    ## Why
    The first law: say what you could not judge, with the reason.
    ## Reads
    every rule's verdicts.
    ## Violation
    (a note) an undo that matches no earlier step.
    ## Near miss
    A step every rule judged.
    """
    return found(*(Finding(message="not verified: " + "; ".join(dict.fromkeys(cov["not"] + cov["partly"])), step=step)
                   for step, cov in sorted(v.coverage.items())
                   if not (cov.get("undone") or not cov["not"] or set(cov["not"]) <= set(cov.get("noted", ())))))


@rule("HF1903", "step-undone", "info", "an undone step is not judged", on="end")
def step_undone(v) -> Optional[Verdict]:
    """A step VASSAL's Undo took back later in the log.

    ## What it checks
    Every step an undo took back: its findings are withdrawn and it is not judged.
    ## Why
    An undone step did not happen in the game; the step that replaces it is judged instead.
    ## Reads
    the record's undo steps.
    ## Violation
    (a note) a move undone at the next step.
    ## Near miss
    A move that stays.
    """
    return found(*(Finding(message=f"undone at step {cov['undone']}; not judged", step=step)
                   for step, cov in sorted(v.coverage.items()) if cov.get("undone")))
