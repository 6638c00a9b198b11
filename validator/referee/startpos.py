"""The starting position: the record's first snapshot against the scenario's set-up."""
from __future__ import annotations

from . import Finding, rule
from .markers import shown_by_markers
from .stacking import over_limit


def _match(ctx):
    """The start position's match to the set-up, when the log begins at the set-up (its first turn)."""
    mt = ctx.memo.get("start_match")
    if mt is None or not at_setup(ctx, mt.scenario):
        return None
    return mt


def at_setup(ctx, sc) -> bool:
    first = sc.first_turn or (ctx.game.turns[0].id if ctx.game.turns else None)
    return ctx.record.start_turn is None or first is None or ctx.record.start_turn == first


@rule("HF1007", "log-begins-after-setup", "info",
      "not verified: the set-up is compared only for a log that begins at the scenario's first turn", on="start")
def log_begins_after_setup(ctx, m):
    mt = ctx.memo.get("start_match")
    if mt is not None and not at_setup(ctx, mt.scenario):
        yield Finding(f"the log begins on turn {ctx.record.start_turn}, not at scenario {mt.scenario.id}'s set-up "
                      f"(turn {mt.scenario.first_turn}): the start position is not compared with it")


def _state(s) -> str:
    return ", ".join(sorted(s)) or "full strength"


@rule("HF1001", "setup-unit-missing", "error",
      "the scenario's set-up places this unit; add it to the start position", on="start")
def setup_unit_missing(ctx, m):
    mt = _match(ctx)
    if mt is None:
        return
    for s in mt.missing:
        u = ctx.game.unit(s.unit)
        yield Finding(f"{u.name if u else s.unit} ({s.side}) set up at {s.location} in scenario {mt.scenario.id} "
                      "is not in the start position", hexes=tuple(sorted(s.hexes or ()))[:6],
                      units=(u.name if u else s.unit,), rule=mt.scenario.rule, side=s.side)


@rule("HF1002", "setup-unit-extra", "error",
      "remove the unit: the scenario's set-up does not place it", on="start")
def setup_unit_extra(ctx, m):
    mt = _match(ctx)
    if mt is None:
        return
    for c, h, gap in mt.extra:
        if gap is not None:
            yield Finding(f"{ctx.label(c)} in {h} is in no set-up line; it may be the unit of the line "
                          f"{gap.location}, which the rulebook prints without its unit", hexes=(h,),
                          units=(ctx.label(c),), severity="info", rule=mt.scenario.rule, side=ctx.side_of(c),
                          help="not verified: the set-up line's unit is not printed")
        else:
            yield Finding(f"{ctx.label(c)} in {h} is not in scenario {mt.scenario.id}'s set-up", hexes=(h,),
                          units=(ctx.label(c),), rule=mt.scenario.rule, side=ctx.side_of(c))


@rule("HF1003", "setup-unit-misplaced", "error",
      "put the unit on the hex its set-up line names", on="start")
def setup_unit_misplaced(ctx, m):
    mt = _match(ctx)
    if mt is None:
        return
    for c, h, s in mt.misplaced:
        yield Finding(f"{ctx.label(c)} starts in {h}; scenario {mt.scenario.id} sets it up at {s.location}",
                      hexes=(h,), units=(ctx.label(c),), rule=mt.scenario.rule, side=ctx.side_of(c))


@rule("HF1004", "setup-unit-state", "warning",
      "set the unit up in the state its set-up line prints (reduced, DG, ...)", on="start")
def setup_unit_state(ctx, m):
    mt = _match(ctx)
    if mt is None:
        return
    shown = shown_by_markers(ctx.game, ctx.record.start)
    for c, h, s in sorted(mt.pairs, key=lambda p: (p[1], p[0].piece)):
        if frozenset(c.state) == s.state:
            continue
        lacking = s.state - frozenset(c.state)
        budget = shown.get(h)
        if not (frozenset(c.state) - s.state) and budget is not None and all(budget[x] > 0 for x in lacking):
            budget.subtract(lacking)           # a marker in the hex shows the state for this unit
            continue
        yield Finding(f"{ctx.label(c)} in {h} starts {_state(c.state)}; the set-up prints it {_state(s.state)} "
                      "(the module's pieces may not show that state, and no marker in the hex shows it)",
                      hexes=(h,), units=(ctx.label(c),), rule=mt.scenario.rule, side=ctx.side_of(c))


@rule("HF1005", "setup-overstacked", "info",
      "not the players' doing: the set-up placed these units together", on="start")
def setup_overstacked(ctx, m):
    mt = _match(ctx)
    r = ctx.game.rules
    slots = {c.piece: s for c, _, s in mt.pairs} if mt else {}
    for h, side, units, n in over_limit(ctx, ctx.record.start):
        located = [slots.get(c.piece) for c in units]
        names = tuple(ctx.label(c) for c in units)
        what = f"the start position stacks {n} {r.stacking_counts} in {h}, over the stacking limit of {r.stacking_limit}"
        if all(s is not None and not s.exact for s in located):
            where = sorted({s.location for s in located})
            yield Finding(f"{what}: the set-up places them along {', '.join(where)} and the module's set-up put "
                          f"them all in {h}", hexes=(h,), units=names, rule=r.stacking_rule, side=side)
        elif all(s is not None for s in located):
            yield Finding(f"{what}, as the scenario's set-up prints it", hexes=(h,), units=names,
                          rule=r.stacking_rule, side=side)
        else:
            yield Finding(f"{what}", hexes=(h,), units=names, rule=r.stacking_rule, side=side, severity="warning",
                          help="the set-up does not place these units together; separate them")


@rule("HF1006", "scenario-inferred", "info",
      "name the scenario with --scenario to judge the log against another one", on="start")
def scenario_inferred(ctx, m):
    mt = ctx.memo.get("start_match")
    if mt is None or not ctx.memo.get("scenario_inferred"):
        return
    yield Finding(f"scenario inferred from the start position: {mt.scenario.id} ({mt.scenario.name}), "
                  f"{len(mt.pairs)} of {mt.total} units on their set-up hexes (score {mt.score:.2f})",
                  rule=mt.scenario.rule)
