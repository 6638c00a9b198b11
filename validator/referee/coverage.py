"""What the referee could not judge: each step not fully verified, with its reasons; combat."""
from __future__ import annotations

from ..record import Chat, DieRoll
from . import Finding, rule
from .combat import judge_battle


@rule("HF1901", "step-partly-verified", "info",
      "the step was judged under the cheapest reading the tree allows; see the reasons", on="end")
def step_partly_verified(ctx, m):
    for step, cov in sorted(ctx.coverage.items()):
        if cov.get("undone") or cov["not"] or not cov["partly"]:
            continue
        yield Finding("partly verified: " + "; ".join(dict.fromkeys(cov["partly"])), step=step)


@rule("HF1902", "step-not-verified", "info",
      "the referee cannot judge this step from what the tree knows; see the reasons", on="end")
def step_not_verified(ctx, m):
    for step, cov in sorted(ctx.coverage.items()):
        if cov.get("undone") or not cov["not"] or set(cov["not"]) <= set(cov.get("noted", ())):
            continue
        yield Finding("not verified: " + "; ".join(dict.fromkeys(cov["not"] + cov["partly"])), step=step)


@rule("HF1903", "step-undone", "info", "an undone step is not judged", on="end")
def step_undone(ctx, m):
    for step, cov in sorted(ctx.coverage.items()):
        if cov.get("undone"):
            yield Finding(f"undone at step {cov['undone']}; not judged", step=step)


@rule("HF1904", "combat-not-judged", "info",
      "combat results are judged by the combat referee for rolls in a combat phase", on="event", events=(DieRoll,))
def combat_not_judged(ctx, m):
    # === combat call site: the one place the referee hands a die roll to the combat judge ===
    if not isinstance(m.event, DieRoll):
        return
    side = _combat_side(ctx)
    if side is False:
        ctx.partly(m.step.index, f"die roll {m.event.dice} = {m.event.total} outside a combat phase: not judged")
        return
    following = list(_following(ctx, m.step))
    j = judge_battle(ctx.game, ctx.position, side, m.event, tuple(e for _, e in following), m.step)
    for note in j.notes:
        ctx.partly(m.step.index, note)
    if j.verdict == "violation":
        # located where the record first shows the result the table does not give (else at the roll)
        at = next((n for n, e in following if getattr(e, "counter", None) is not None
                   and e.counter.piece in j.pieces), m.step.index)
        yield Finding(j.message, hexes=tuple(j.hexes), units=_names(ctx, j.units), rule=j.rule, code=j.code, side=side,
                      step=at)
    elif j.verdict == "unverified":
        ctx.unverified(m.step.index, j.reason or j.message, noted=True)
        yield Finding(j.message, hexes=tuple(j.hexes), units=_names(ctx, j.units), rule=j.rule, code=j.code, side=side)


def _names(ctx, unit_ids) -> tuple[str, ...]:
    """Units as every other finding names them: by their printed designation."""
    return tuple(ctx.game.unit(u).name if ctx.game.unit(u) else u for u in unit_ids)


def _combat_side(ctx):
    """The attacking side of the combat phase the roll falls in; False when it cannot be one."""
    t = ctx.tracker
    i = t.current()
    if i is None:
        return None
    last = i + 1 if t.announced_at else len(t.phases)
    for j in range(i, last):
        if t.phases[j].combat:
            return t.phases[j].side
    return False


def _following(ctx, step):
    """The events after a roll (with their steps), up to the next roll, turn change or phase announcement."""
    for s in ctx.steps_after(step):
        if s.undo:
            continue
        for e in s.events:
            if isinstance(e, DieRoll) or (isinstance(e, Chat) and ctx.tracker.match_announcement(e.text) is not None):
                return
            yield s.index, e
