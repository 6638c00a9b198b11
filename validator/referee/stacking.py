"""Stacking and mixing at the end of each phase (game.rules: stacking limit and counts, mixing rules).

A stack over the limit is an error only if a player made it (a unit moved or placed into it during
the log): a stack the set-up put there is reported once at the start (HF1005). Where the rules turn
an over-stack into a state (DG) instead of forbidding it, a stack that did not take it is a warning.
The log may end before a phase does: a stack over the limit at the end of the log is a warning.
An over-stack that lasts through several phase ends is one finding, naming those phases.
"""
from __future__ import annotations

from typing import Iterator
from dataclasses import dataclass, replace

from . import Finding, rule
from .markers import marker_states


def stack_size(ctx, units) -> int:
    if ctx.game.rules.stacking_counts == "steps":
        return sum(1 if "reduced" in c.state else (ctx.unit(c).steps if ctx.unit(c) else 1) for c in units)
    return len(units)


def over_limit(ctx, position):
    """(hex, side, units, size) for every stack over the limit."""
    limit = ctx.game.rules.stacking_limit
    if limit is None:
        return
    cache = ctx.of_position() if position is ctx.position else {}
    if "over_limit" not in cache:
        stacks = ctx.counted_stacks(position).items()
        if ctx.game.rules.stacking_counts != "steps":      # units counted: a stack's size is its length
            stacks = [kv for kv in stacks if len(kv[1]) > limit]
        over = [(h, side, units, n) for (h, side), units in stacks if (n := stack_size(ctx, units)) > limit]
        cache["over_limit"] = sorted(over, key=lambda o: (o[0], str(o[1])))
    yield from cache["over_limit"]


def unmarked(ctx, position, h: str, units, state: str) -> int:
    """How many of a hex's units show `state` neither on their piece nor by a marker in the hex."""
    if "marker_states" not in ctx.memo:
        ctx.memo["marker_states"] = marker_states(ctx.game)
    bare = sum(1 for c in units if state not in c.state)
    markers = sum(1 for c in position.at(h) if c.kind == "marker" and state in ctx.memo["marker_states"].get(c.unit, ()))
    return max(0, bare - markers)


def inherited(ctx, units) -> bool:
    """The stack is (part of) one stack the start position already held over the limit, still in its
    hex or moved there as one stack: the set-up's doing, not the players' (HF1005 reports it)."""
    if "start_over" not in ctx.memo:
        ctx.memo["start_over"] = {c.piece: h for h, _, us, _ in over_limit(ctx, ctx.record.start) for c in us}
    homes = {ctx.memo["start_over"].get(c.piece) for c in units}
    if len(homes) != 1 or None in homes:
        return False
    moved = {ctx.entered.get(c.piece) for c in units}
    return moved == {None} or (len(moved) == 1 and None not in moved)


def formed_at(ctx, units):
    steps = [ctx.entered[c.piece] for c in units if c.piece in ctx.entered]
    return max(steps) if steps else None


def _judge_stacks(ctx, position, at_log_end: bool):
    """Each players' stack over the limit, as a Finding whose message says what is wrong (the moment
    it was seen at is added by the callers)."""
    r = ctx.game.rules
    for h, side, units, n in over_limit(ctx, position):
        if inherited(ctx, units):
            continue
        step = formed_at(ctx, units) if at_log_end else None
        names = tuple(ctx.label(c) for c in units)
        what = f"{n} {r.stacking_counts} of {_side_name(ctx, side)} in {h}, over the stacking limit of {r.stacking_limit}"
        if r.stacking and r.stacking.penalty:
            missing = unmarked(ctx, position, h, units, r.stacking.penalty)
            if missing:
                yield Finding(f"{what}: the rules make them {r.stacking.penalty.upper()}, and "
                              f"{missing} of them are not marked so", hexes=(h,), units=names,
                              severity="warning", rule=r.stacking_rule, side=side, step=step,
                              help=f"mark the over-stacked units {r.stacking.penalty.upper()} at the end of the phase")
        else:
            yield Finding(what, hexes=(h,), units=names, rule=r.stacking_rule, side=side, step=step,
                          severity="warning" if at_log_end else None)


def _side_name(ctx, side) -> str:
    s = ctx.game.side(side) if side else None
    return s.name if s else str(side)


def _stack_key(f: Finding) -> tuple:
    return f.hexes, f.side, tuple(sorted(f.units))


@dataclass(frozen=True)
class _Open:
    """A stack over the limit (or mixed) seen at the end of one or more phases in a row, not yet reported."""
    finding: Finding
    step: int                                  # the step that ended the first of those phases
    phases: tuple[str, ...]


def _phase_name(ctx) -> str:
    i = ctx.tracker.current()
    name = ctx.tracker.name(i) if i is not None else "phase"
    return f"{name} of turn {ctx.turn}" if ctx.turn else name


def _reported(ctx, code: str, o: _Open, still: bool) -> Finding:
    """One finding for a stack that stayed wrong through the ends of `o.phases`. A report of the same
    stack made before an undo took back the step that ended it is withdrawn (this one replaces it)."""
    f = o.finding
    if ctx.findings_at(o.step):
        ctx.findings = [x for x in ctx.findings if not (x.code == code and x.step == o.step
                                                        and x.hexes == f.hexes and sorted(x.units) == sorted(f.units))]
    ends = o.phases[0] if len(o.phases) == 1 else ", the ".join(o.phases[:-1]) + " and the " + o.phases[-1]
    tail = f" at the end of the {ends}" + (", and still when the log ends" if still else "")
    return replace(f, message=f.message + tail, step=o.step, code=code)


def _carry(ctx, m, key: str, code: str, found) -> Iterator[Finding]:
    """At a phase end: the stacks found wrong now join those wrong at the previous phase ends; each one
    no longer found is reported once, naming every phase end it lasted through. The memo entry is
    replaced, never changed in place, so an undo restores it."""
    was, now = ctx.memo.get(key, {}), {}
    phase = _phase_name(ctx)
    for f in found:
        k = _stack_key(f)
        o = was.get(k)
        now[k] = _Open(o.finding, o.step, o.phases + (phase,)) if o else _Open(f, m.step.index, (phase,))
    for k, o in was.items():
        if k not in now:
            yield _reported(ctx, code, o, still=False)
    ctx.memo[key] = now


def _close_at_log_end(ctx, key: str, code: str, still_found) -> Iterator[Finding]:
    """When the log ends: the stacks still carried are reported (saying whether they are still wrong)."""
    was = ctx.memo.get(key, {})
    still = {_stack_key(f) for f in still_found}
    for k, o in was.items():
        yield _reported(ctx, code, o, still=k in still)


@rule("HF1301", "overstacked-at-phase-end", "error",
      "at the end of each phase no hex holds more units than the stacking limit", on="phase-end")
def overstacked_at_phase_end(ctx, m):
    yield from _carry(ctx, m, "open_stacks", "HF1301", _judge_stacks(ctx, m.before, at_log_end=False))


@rule("HF1302", "overstacked-at-log-end", "warning",
      "move units out of the hex before the phase ends", on="end")
def overstacked_at_log_end(ctx, m):
    was = ctx.memo.get("open_stacks", {})
    yield from _close_at_log_end(ctx, "open_stacks", "HF1301", _judge_stacks(ctx, ctx.position, at_log_end=False))
    for f in _judge_stacks(ctx, ctx.position, at_log_end=True):
        if (f.step or 0) <= ctx.memo.get("phase_end_step", 0) or _stack_key(f) in was:
            continue                           # judged at the end of its phase already
        yield replace(f, message=f"{f.message} when the log ends (the phase's end is not in the log)")


def _shared_hexes(ctx, position) -> list:
    """((hex, side), units) of every hex two or more units of one side share (what can mix), by hex."""
    shared = [kv for kv in ctx.counted_stacks(position).items() if len(kv[1]) > 1]
    return sorted(shared, key=lambda kv: (kv[0][0], str(kv[0][1])))


def _mixing_findings(ctx, position, at_log_end: bool):
    for mx in ctx.game.rules.mixing:
        kind = mx.get("kind")
        for (h, side), units in _shared_hexes(ctx, position):
            if inherited(ctx, units) or not any(c.piece in ctx.entered for c in units):
                continue
            if at_log_end and (formed_at(ctx, units) or 0) <= ctx.memo.get("phase_end_step", 0):
                continue
            names = tuple(ctx.label(c) for c in units)
            if kind == "nationalities-apart":
                nats = sorted({ctx.unit(c).nationality for c in units if ctx.unit(c)} & set(mx.get("nationalities") or ()))
                if len(nats) > 1:
                    yield Finding(f"units of {' and '.join(nats)} share {h}" + (" when the log ends" if at_log_end
                                                                                 else ""), hexes=(h,), units=names, rule=mx.get("rule"),
                                  severity="warning" if at_log_end else None, side=side)
            elif kind == "divisional-integrity":
                forms = sorted({ctx.unit(c).formation for c in units if ctx.unit(c) and ctx.unit(c).formation})
                pen = mx.get("penalty")
                if len(forms) > 1 and pen and unmarked(ctx, position, h, units, pen):
                    yield Finding(f"units of {len(forms)} formations ({', '.join(forms)}) share {h}: the rules make "
                                  f"them {pen.upper()}, and they are not all marked so", hexes=(h,), units=names,
                                  rule=mx.get("rule"), severity="warning", side=side,
                                  help=f"mark the stack {pen.upper()} at the end of the phase, or separate it")


@rule("HF1311", "mixing-at-phase-end", "error",
      "separate units the mixing rules keep apart before the phase ends", on="phase-end")
def mixing_at_phase_end(ctx, m):
    yield from _carry(ctx, m, "open_mixes", "HF1311", _mixing_findings(ctx, m.before, at_log_end=False))


@rule("HF1312", "mixing-at-log-end", "warning",
      "separate units the mixing rules keep apart before the phase ends", on="end")
def mixing_at_log_end(ctx, m):
    was = ctx.memo.get("open_mixes", {})
    yield from _close_at_log_end(ctx, "open_mixes", "HF1311", _mixing_findings(ctx, ctx.position, at_log_end=False))
    for f in _mixing_findings(ctx, ctx.position, at_log_end=True):
        if _stack_key(f) not in was:
            yield f
