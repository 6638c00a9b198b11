"""What the referee could not judge: each step not fully verified, with its reasons; combat."""
from __future__ import annotations

from ..record import DieRoll
from . import Finding, rule


@rule("HF1901", "step-partly-verified", "info",
      "the step was judged under the cheapest reading the tree allows; see the reasons", on="end")
def step_partly_verified(ctx, m):
    for step, cov in sorted(ctx.coverage.items()):
        if cov.get("undone") or cov["not"] or not cov["partly"]:
            continue
        yield Finding(f"step {step} partly verified: " + "; ".join(dict.fromkeys(cov["partly"])), step=step)


@rule("HF1902", "step-not-verified", "info",
      "the referee cannot judge this step from what the tree knows; see the reasons", on="end")
def step_not_verified(ctx, m):
    for step, cov in sorted(ctx.coverage.items()):
        if cov.get("undone") or not cov["not"]:
            continue
        yield Finding(f"step {step} not verified: " + "; ".join(dict.fromkeys(cov["not"] + cov["partly"])), step=step)


@rule("HF1903", "step-undone", "info", "an undone step is not judged", on="end")
def step_undone(ctx, m):
    for step, cov in sorted(ctx.coverage.items()):
        if cov.get("undone"):
            yield Finding(f"step {step} was undone at step {cov['undone']}; it is not judged", step=step)


@rule("HF1904", "combat-not-judged", "info",
      "combat results are judged by the combat referee where the tree has it", on="event")
def combat_not_judged(ctx, m):
    # === combat call site: the one place the referee hands a die roll to the combat judge ===
    if not isinstance(m.event, DieRoll):
        return
    try:
        from .combat import judge_battle  # written on its own branch; absent until merged
    except ImportError:
        ctx.unverified(m.step.index, f"die roll {m.event.dice} = {m.event.total}: combat is not judged "
                                     "(no combat referee in this version)")
        return
    following = tuple(e for s in ctx.steps_after(m.step) for e in s.events)
    j = judge_battle(ctx.game, ctx.position, ctx.phase_side(), m.event, following, m.step)
    if j.verdict == "violation":
        yield Finding(j.message, hexes=tuple(j.hexes), units=tuple(j.units), rule=j.rule, severity="error",
                      code=j.code)
    elif j.verdict == "unverified":
        ctx.unverified(m.step.index, j.reason or j.message)
