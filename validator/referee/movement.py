"""Movement: each unit's path in a phase, from where it stood to where its drags ended.

A legal path must exist within the unit's movement allowance through the hexes each drag ended in,
on the map and in the scenario's play area, never through an enemy-held hex, and (standard ZOC)
never on through a hex in an enemy ZOC. Hex costs are the cheapest the TEC allows for the unit's
movement class (the terrain of most hexes is not printed, and a road may be anywhere the tree does
not rule it out); a move that is legal only under that reading is said so.
"""
from __future__ import annotations

import heapq
import math
from fractions import Fraction
from typing import Callable, Optional

from ..locations import in_play
from ..record import Moved, Removed
from . import Finding, rule
from .replay import Leg


def zoc_certainty(game) -> tuple[bool, str]:
    """Whether a standard ZOC's stops are certain from the tree, and if not, why."""
    r = game.rules
    if r.zoc_model != "standard":
        return False, f"the ZOC model is {r.zoc_model or 'not given'}; only standard ZOC stops are judged"
    if str(r.zoc.exerted_by if r.zoc else None) == "unknown":
        return False, "which units exert a ZOC is not printed"
    blockers = r.zoc.blocked_by if r.zoc else ()
    if blockers and game.terrain.default is None:
        return False, f"ZOC does not extend across {', '.join(blockers)} hexsides, and the map's hexsides are not printed"
    return True, ""


def _in_play(ctx) -> Optional[Callable[[str], bool]]:
    if "in_play" not in ctx.memo:
        ctx.memo["in_play"] = in_play(ctx.game, ctx.scenario) if ctx.scenario else None
    return ctx.memo["in_play"]


def _barred_sides(ctx, costs) -> set:
    key = ("barred", costs.movement_class)
    if key not in ctx.memo:
        ctx.memo[key] = {tuple(sorted(hs.between)) for hs in ctx.game.terrain.hexsides
                         if hs.feature in costs.prohibited}
    return ctx.memo[key]


def path_cost(ctx, a: str, b: str, costs, blocked: frozenset = frozenset(), stops: frozenset = frozenset(),
              limit: Optional[Fraction] = None) -> Optional[Fraction]:
    """The cheapest cost from a to b: never into `blocked`, never on through `stops` (b may be one)."""
    if a == b:
        return Fraction(0)
    grid, in_play, barred = ctx.grid, _in_play(ctx), _barred_sides(ctx, costs)
    step = costs.cheapest
    best = {a: Fraction(0)}
    heap = [(Fraction(0), a)]
    while heap:
        d, h = heapq.heappop(heap)
        if h == b:
            return d
        if d > best.get(h, d) or (h != a and h in stops):
            continue
        for n in grid.neighbours(h):
            if n in blocked or (in_play and not in_play(n)) or tuple(sorted((h, n))) in barred:
                continue
            nd = d + step
            if limit is not None and nd > limit:
                continue
            if nd < best.get(n, nd + 1):
                best[n] = nd
                heapq.heappush(heap, (nd, n))
    return None


def _segments(ctx, leg: Leg, costs, **kw) -> list[Optional[Fraction]]:
    points = (leg.start,) + leg.ends
    return [path_cost(ctx, x, y, costs, **kw) for x, y in zip(points, points[1:])]


def _total(segs) -> Optional[Fraction]:
    return None if any(s is None for s in segs) else sum(segs, Fraction(0))


def _splittable(ctx, leg: Leg, segs, ma, m) -> bool:
    """The drags could fall in two of the side's movement phases, each within the allowance."""
    c = m.event.counter
    t = ctx.tracker
    if len(segs) < 2 or t.announced_at or leg.phase is None or \
            not t.later_phase_for(leg.phase, ctx.side_of(c), ctx.class_of(c)):
        return False
    for k in range(1, len(segs)):
        a, b = _total(segs[:k]), _total(segs[k:])
        if a is not None and b is not None and a <= ma and b <= ma:
            return True
    return False


def _judged_move(m) -> bool:
    ev = m.event
    return (isinstance(ev, Moved) and ev.src.hex is not None and ev.dst.hex is not None
            and ev.counter.kind == "unit" and m.reading is not None)


def _mp(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _leg_text(leg: Leg) -> str:
    return " -> ".join((leg.start,) + leg.ends)


def _rule_no(ctx) -> Optional[str]:
    p = ctx.tracker.phase()
    return p.rule if p else None


def _mark_reported(ctx, piece: str, leg: Leg) -> None:
    ctx.legs[piece] = Leg(leg.start, leg.ends, leg.phase, True)


@rule("HF1201", "move-beyond-allowance", "error",
      "a unit spends at most its movement allowance in a phase; split the move or pick a nearer hex")
def move_beyond_allowance(ctx, m):
    if not _judged_move(m):
        return
    ev = m.event
    c = ev.counter
    if m.reading[1] == "combat":
        ctx.partly(m.step.index, f"{ctx.label(c)} {ev.src} -> {ev.dst} after a die roll in a combat phase is "
                                 "read as a retreat or an advance after combat; its length is not verified")
        return
    leg = ctx.legs[c.piece]
    ma, costs = ctx.allowance(c), ctx.class_costs(c)
    if ma is None or costs.cheapest is None:
        ctx.partly(m.step.index, f"{ctx.label(c)}: movement " +
                   ("factor not printed" if ma is None else "costs not printed in the TEC") + "; path not judged")
        return
    ctx.partly(m.step.index, f"terrain not printed: the TEC's cheapest cost ({_mp(costs.cheapest)} MP per hex) assumed")
    certain, why = zoc_certainty(ctx.game)
    if ctx.game.rules.zoc_model not in (None, "none", "standard"):
        ctx.partly(m.step.index, why)
    if leg.reported:
        return
    segs = _segments(ctx, leg, costs)
    total = _total(segs)
    if total is not None and total <= ma:
        return
    if total is not None and _splittable(ctx, leg, segs, ma, m):
        yield Finding(f"{ctx.label(c)} moves {_leg_text(leg)} ({_mp(total)} MP at least, MA {ma}): legal only if "
                      "its drags fell in two movement phases", severity="info", hexes=(leg.start, ev.dst.hex),
                      units=(ctx.label(c),), rule=_rule_no(ctx))
        return
    _mark_reported(ctx, c.piece, leg)
    hexes = int(total / costs.cheapest) if total is not None else None
    what = (f"{hexes} hexes cost at least {_mp(total)} MP even at the cheapest {_mp(costs.cheapest)} MP per hex"
            if total is not None else "no path on the map joins them")
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)} in one phase: {what}, over its movement "
                  f"allowance of {ma}", hexes=(leg.start, ev.dst.hex), units=(ctx.label(c),), rule=_rule_no(ctx))


@rule("HF1202", "move-onto-enemy", "error", "a unit never enters a hex held by an enemy unit")
def move_onto_enemy(ctx, m):
    if not _judged_move(m) or m.reading[1] == "combat":
        return
    ev = m.event
    side = ctx.side_of(ev.counter)
    held = ctx.enemies(side, exclude=ev.counter.piece).get(ev.dst.hex)
    if not held:
        return
    names = ", ".join(f"{ctx.game.side(ctx.side_of(h)).name if ctx.game.side(ctx.side_of(h)) else ctx.side_of(h)} "
                      f"{ctx.label(h)}" for h in held)
    left = _enemy_leaves(ctx, m, {h.piece for h in held})
    sev = "warning" if left else None
    leg = ctx.legs.get(ev.counter.piece)
    if leg is not None and not left:
        _mark_reported(ctx, ev.counter.piece, leg)      # the paths to it are beside the point
    tail = f"; the enemy left the hex at step {left} (an overrun or a combat result?)" if left else ""
    yield Finding(f"{ctx.label(ev.counter)} moves {ev.src} -> {ev.dst}, a hex held by {names}{tail}",
                  hexes=(ev.dst.hex,), units=(ctx.label(ev.counter),) + tuple(ctx.label(h) for h in held),
                  severity=sev, rule=_rule_no(ctx))


def _enemy_leaves(ctx, m, pieces: set) -> Optional[int]:
    for s in ctx.steps_after(m.step):
        for e in s.events:
            if getattr(e, "counter", None) is not None and e.counter.piece in pieces:
                if isinstance(e, Removed) or (isinstance(e, Moved) and e.dst.hex != m.event.dst.hex):
                    return s.index
    return None


def _zoc_hexes(ctx, side, exclude: str) -> frozenset:
    out = set()
    for h in ctx.enemies(side, exclude=exclude):
        out.update(ctx.grid.neighbours(h))
    return frozenset(out)


@rule("HF1203", "path-through-enemy", "error", "units never move through hexes held by enemy units")
def path_through_enemy(ctx, m):
    if not _judged_move(m) or m.reading[1] == "combat":
        return
    c = m.event.counter
    leg, ma, costs = ctx.legs.get(c.piece), ctx.allowance(c), ctx.class_costs(c)
    if leg is None or leg.reported or ma is None or costs.cheapest is None:
        return
    enemy = frozenset(ctx.enemies(ctx.side_of(c), exclude=c.piece)) - {m.event.dst.hex}
    segs = _segments(ctx, leg, costs, blocked=enemy)
    total = _total(segs)
    if total is not None and total <= ma:
        return
    if total is not None and _splittable(ctx, leg, segs, ma, m):
        return
    _mark_reported(ctx, c.piece, leg)
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)}: every path within its allowance passes "
                  "through an enemy-held hex", hexes=(leg.start, m.event.dst.hex), units=(ctx.label(c),),
                  rule=_rule_no(ctx))


@rule("HF1204", "path-through-enemy-zoc", "error",
      "a unit entering an enemy ZOC stops there; go around the ZOC or end the move in it")
def path_through_enemy_zoc(ctx, m):
    if not _judged_move(m) or m.reading[1] == "combat":
        return
    c = m.event.counter
    leg, ma, costs = ctx.legs.get(c.piece), ctx.allowance(c), ctx.class_costs(c)
    if leg is None or leg.reported or ma is None or costs.cheapest is None or ctx.game.rules.zoc_model != "standard":
        return
    side = ctx.side_of(c)
    enemy = frozenset(ctx.enemies(side, exclude=c.piece)) - {m.event.dst.hex}
    zoc = _zoc_hexes(ctx, side, c.piece)
    certain, why = zoc_certainty(ctx.game)
    rule_no = ctx.game.rules.zoc.rule if ctx.game.rules.zoc else None
    stopped = [h for h in leg.ends[:-1] if h in zoc]
    if stopped:
        _mark_reported(ctx, c.piece, leg)
        yield Finding(f"{ctx.label(c)} ended a drag in {stopped[0]}, in an enemy ZOC where it had to stop, and "
                      f"was dragged on to {m.event.dst}" + ("" if certain else f" (legal only if no enemy unit "
                                                             f"there exerts a ZOC: {why})"),
                      hexes=(stopped[0], m.event.dst.hex), units=(ctx.label(c),), rule=rule_no,
                      severity=None if certain else "info", help=None if certain else
                      "not verified: the tree does not say enough to judge this ZOC stop")
        return
    segs = _segments(ctx, leg, costs, blocked=enemy, stops=zoc)
    total = _total(segs)
    if total is not None and total <= ma:
        return
    if total is not None and _splittable(ctx, leg, segs, ma, m):
        return
    if certain:
        _mark_reported(ctx, c.piece, leg)
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)}: every path within its allowance goes on "
                  "through a hex in an enemy ZOC" + ("" if certain else f" (legal only if those enemy units "
                                                      f"exert no ZOC: {why})"),
                  hexes=(leg.start, m.event.dst.hex), units=(ctx.label(c),), rule=rule_no,
                  severity=None if certain else "info",
                  help=None if certain else "not verified: the tree does not say enough to judge this ZOC stop")


@rule("HF1205", "move-legal-only-by-road", "warning",
      "check the map: this move is legal only along roads (or the cheapest terrain) the tree does not print")
def move_legal_only_by_road(ctx, m):
    if not _judged_move(m) or m.reading[1] == "combat":
        return
    c = m.event.counter
    leg, ma, costs = ctx.legs.get(c.piece), ctx.allowance(c), ctx.class_costs(c)
    if leg is None or leg.reported or ma is None or costs.cheapest is None or costs.plain is None \
            or costs.plain <= costs.cheapest:
        return
    total = _total(_segments(ctx, leg, costs))
    if total is None:
        return
    hexes = int(total / costs.cheapest)
    if hexes * costs.plain <= ma:
        return
    need = math.ceil((hexes * costs.plain - ma) / (costs.plain - costs.cheapest))
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)}, {hexes} hexes: {_mp(total)} MP at the cheapest, "
                  f"legal only if at least {need} of them are entered at {_mp(costs.cheapest)} MP (road); "
                  f"at {_mp(costs.plain)} MP a hex it would cost {_mp(hexes * costs.plain)} MP",
                  hexes=(leg.start, m.event.dst.hex), units=(ctx.label(c),), rule=costs.cheapest_rule or _rule_no(ctx))
