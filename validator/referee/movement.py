"""Movement: each unit's path in a phase, from where it stood to where its drags ended.

A legal path must exist within the unit's movement allowance through the hexes each drag ended in,
on the map and in the scenario's play area, never through an enemy-held hex, and (standard ZOC)
never on through a hex in an enemy ZOC. Where the tree gives the whole map (a terrain default), each
hex costs what its terrain, the road or track joining it to the last hex and the hexside crossed
(less what a bridge cancels) cost the unit's class in the TEC (`costs.TerrainCosts`); elsewhere a hex
costs the cheapest the TEC allows (a road may be anywhere the tree does not rule it out), and a move
legal only under that reading is said so (partly verified).
"""
from __future__ import annotations

import heapq
import math
from fractions import Fraction
from typing import Callable, Optional

from ..locations import in_play
from ..record import Moved, Removed
from . import Finding, rule
from .costs import TerrainCosts, map_complete, terrain_costs
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


def _zoc_certainty(ctx) -> tuple[bool, str]:
    if "zoc_certainty" not in ctx.memo:
        ctx.memo["zoc_certainty"] = zoc_certainty(ctx.game)
    return ctx.memo["zoc_certainty"]


def _in_play(ctx) -> Optional[Callable[[str], bool]]:
    if "in_play" not in ctx.memo:
        ctx.memo["in_play"] = in_play(ctx.game, ctx.scenario) if ctx.scenario else None
    return ctx.memo["in_play"]


def path_cost(ctx, a: str, b: str, costs, blocked: frozenset = frozenset(), stops: frozenset = frozenset(),
              limit: Optional[Fraction] = None) -> Optional[tuple[Fraction, bool]]:
    """The cheapest (cost, every cost known) from a to b: never into `blocked`, never on through
    `stops` (b may be one), never into a hex or across a hexside prohibited to the class. Each hex
    costs what the tree's map and TEC give; the TEC's cheapest where the tree does not say (then
    the path is not fully known). Among equal costs a path of known costs is preferred.
    A search depends only on its arguments and the game, so every rule judging a move shares each
    one (`ctx.paths`, kept across undos)."""
    if a == b:
        return Fraction(0), True
    key = (costs.movement_class, a, b, blocked, stops, limit)
    if key in ctx.paths:
        return ctx.paths[key]
    found = _search(ctx, a, b, costs, blocked, stops, limit)
    if not blocked and not stops and limit is None:   # the free search: keep its route too (`free_route`)
        _remember(ctx, ("route", costs.movement_class, a, b), _route_of(found, a, b))
    return _remember(ctx, key, (found[0], found[1]) if found else None)


def cheapest_route(ctx, a: str, b: str, costs, blocked: frozenset = frozenset()) -> tuple[str, ...]:
    """The hexes of one cheapest path from a to b (a and b included); () if there is none."""
    return _route_of(_search(ctx, a, b, costs, blocked, frozenset(), None), a, b)


def free_route(ctx, a: str, b: str, costs) -> tuple[str, ...]:
    """`cheapest_route` with nothing blocked: the route of the search `path_cost` made (kept with it)."""
    if a == b:
        return (a,)
    route = ctx.paths.get(("route", costs.movement_class, a, b))
    if route is None:
        path_cost(ctx, a, b, costs)
        route = ctx.paths.get(("route", costs.movement_class, a, b))
        if route is None:                      # the memo was emptied in between
            route = cheapest_route(ctx, a, b, costs)
    return route


def _route_of(found, a: str, b: str) -> tuple[str, ...]:
    if not found:
        return ()
    prev, route = found[2], [b]
    while route[-1] != a:
        route.append(prev[route[-1]])
    return tuple(reversed(route))


_PATHS_KEPT = 4096                            # results remembered (the memo is emptied when full)


def _search(ctx, a, b, costs, blocked, stops, limit):
    """Dijkstra over (MP, unknown costs): (cost, all known, predecessors) at b, or None."""
    if a == b:
        return Fraction(0), True, {}
    return _dijkstra(ctx.grid, _in_play(ctx), terrain_costs(ctx.game, costs), a, b, blocked, stops, limit)


def _remember(ctx, key, value):
    """Keep a result in `ctx.paths`, which is emptied when full (memory stays flat in the log's length)."""
    if len(ctx.paths) >= _PATHS_KEPT:
        ctx.paths.clear()
    ctx.paths[key] = value
    return value


def _dijkstra(grid, in_play, tc: TerrainCosts, a, b, blocked, stops, limit):
    """The search in whole units of 1/tc.scale MP (exactly the MP ordering: the scale is positive)."""
    scale = tc.scale
    cap = None if limit is None else limit * scale
    best = {a: (0, 0)}
    prev: dict[str, str] = {}
    heap = [(0, 0, a)]
    while heap:
        d, unknown, h = heapq.heappop(heap)
        if h == b:
            return Fraction(d) / scale, unknown == 0, prev
        if (d, unknown) > best.get(h, (d, unknown)) or (h != a and h in stops):
            continue
        for n in grid.neighbours(h):
            if n in blocked or (in_play and not in_play(n)):
                continue
            mp, known = tc.scaled(h, n)
            if mp is None:
                continue
            nd, nu = d + mp, unknown + (0 if known else 1)
            if cap is not None and nd > cap:
                continue
            if n not in best or (nd, nu) < best[n]:
                best[n] = (nd, nu)
                prev[n] = h
                heapq.heappush(heap, (nd, nu, n))
    return None


def _segments(ctx, leg: Leg, costs, **kw) -> list[Optional[tuple[Fraction, bool]]]:
    points = (leg.start,) + leg.ends
    return [path_cost(ctx, x, y, costs, **kw) for x, y in zip(points, points[1:])]


class LegCost:
    """One leg's cost for one class: each drag's cheapest (MP, every cost known) or None, and their
    total; what is asked of it is kept with it, so a leg judged again costs one look-up."""
    __slots__ = ("segs", "total", "_known", "_within", "_hexes", "_way")

    def __init__(self, segs: list):
        self.segs, self.total = segs, _total(segs)
        self._known, self._within, self._hexes, self._way = None, {}, None, False

    def free_way(self, ctx, leg: Leg, costs) -> Optional[tuple[frozenset, frozenset]]:
        """Of the cheapest way through the leg's drag ends with nothing blocked (this cost's, where it is
        the free one): (the hexes it enters, those it goes on from but the drag ends), or None if a drag
        has no way."""
        if self._way is False:
            entered: set[str] = set()
            through: set[str] = set()
            points = (leg.start,) + leg.ends
            for a, b in zip(points, points[1:]):
                route = free_route(ctx, a, b, costs)
                if not route:
                    self._way = None
                    return None
                entered.update(route[1:])
                through.update(route[1:-1])
            self._way = (frozenset(entered), frozenset(through))
        return self._way

    def known(self) -> bool:
        if self._known is None:
            self._known = _known(self.segs)
        return self._known

    def within(self, ma) -> bool:
        """The total is at most the allowance `ma`."""
        hit = self._within.get(ma)
        if hit is None:
            hit = self._within[ma] = self.total is not None and self.total <= ma
        return hit

    def hexes(self, costs) -> int:
        """How many hexes the total pays for at the class's cheapest cost a hex (the unprinted map's
        reading; the leg is costed for that one class)."""
        if self._hexes is None:
            self._hexes = int(self.total / costs.cheapest)
        return self._hexes

    def within_plain(self, ma, costs) -> bool:
        """Those hexes at the class's plain cost a hex are within the allowance `ma` (no road needed)."""
        key = ("plain", ma)
        hit = self._within.get(key)
        if hit is None:
            hit = self._within[key] = self.hexes(costs) * costs.plain <= ma
        return hit


def _leg_cost(ctx, leg: Leg, costs, blocked: frozenset = frozenset(), stops: frozenset = frozenset()) -> LegCost:
    """The leg's `LegCost` never into `blocked`, never on through `stops`; shared by the rules judging
    the same move (and the same leg again)."""
    key = ("leg", costs.movement_class, leg.start, leg.ends, blocked, stops)
    hit = ctx.paths.get(key)
    if hit is None:
        hit = _remember(ctx, key, LegCost(_segments(ctx, leg, costs, blocked=blocked, stops=stops)))
    return hit


def _known(segs) -> bool:
    return all(s is not None and s[1] for s in segs)


def _total(segs) -> Optional[Fraction]:
    return None if any(s is None for s in segs) else sum((s[0] for s in segs), Fraction(0))


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


def _mp(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _leg_text(leg: Leg) -> str:
    return " -> ".join((leg.start,) + leg.ends)


def _rule_no(ctx) -> Optional[str]:
    """The movement rule the tree names, else the rule of the phase the move is made in."""
    if ctx.game.rules.movement_rule:
        return ctx.game.rules.movement_rule
    p = ctx.tracker.phase()
    return p.rule if p else None


def _combat_judges_retreats(game) -> bool:
    """Every combat table says how retreats and advances go (`after_combat`): the combat referee judges
    the moves after a roll, so their length is verified there."""
    tables = [t for t in game.tables if t.kind == "combat"]
    return bool(tables) and all(t.after_combat is not None for t in tables)


def _mark_reported(ctx, piece: str, leg: Leg) -> None:
    ctx.legs[piece] = Leg(leg.start, leg.ends, leg.phase, True)


class _Move:
    """A unit's map move read as made in a movement phase, as the movement rules read it: what they
    all judge it with, worked out once per event (`_facts`). `judgeable`: the path can be costed (a
    movement factor, TEC costs for the class); `barred`: (hex, TEC row) where a drag ended in terrain
    prohibited to the class, else None; `cost`: the leg's cost with nothing blocked (None where it is
    not judgeable)."""
    __slots__ = ("ctx", "c", "side", "ma", "costs", "leg", "judgeable", "barred", "cost", "_enemy", "_zoc")

    def __init__(self, ctx, m):
        c = self.c = m.event.counter
        self.ctx, self.side, self.ma, self.costs = ctx, ctx.side_of(c), ctx.allowance(c), ctx.class_costs(c)
        self.leg: Leg = ctx.legs[c.piece]                   # the replay extended it for this drag
        self.judgeable = self.ma is not None and self.costs.cheapest is not None
        self.barred = _prohibited_end(ctx, self.costs, self.leg)
        self.cost: Optional[LegCost] = _leg_cost(ctx, self.leg, self.costs) if self.judgeable else None
        self._enemy = self._zoc = None

    @property
    def reported(self) -> bool:
        """A violation of this leg was reported already (by an earlier rule, maybe at this event)."""
        return self.ctx.legs[self.c.piece].reported

    def enemy(self) -> frozenset:
        """The hexes enemy units hold, but the one this drag ends in (HF1202 judges entering it)."""
        if self._enemy is None:
            dst = self.leg.ends[-1]
            held = self.ctx.enemy_hexes(self.side)
            self._enemy = held.difference((dst,)) if dst in held else held
        return self._enemy

    def zoc(self) -> frozenset:
        if self._zoc is None:
            self._zoc = _zoc_hexes(self.ctx, self.side)
        return self._zoc

    def free_way_avoids(self, blocked: frozenset, stops: frozenset = frozenset()) -> bool:
        """The cheapest way through the drag ends, found with nothing blocked, is within the allowance,
        enters no hex of `blocked` and goes on through no hex of `stops`: a search kept from those finds
        it too (none cheaper can exist), so the move is legal under them without searching again."""
        if not self.cost.within(self.ma):
            return False
        way = self.cost.free_way(self.ctx, self.leg, self.costs)
        return way is not None and blocked.isdisjoint(way[0]) and stops.isdisjoint(way[1])


def _facts(ctx, m) -> Optional[_Move]:
    """The move's `_Move`, made at the first rule that asks for it at this event; None unless the event
    is a unit's map move read as made in a movement phase."""
    seen, facts = ctx.judging
    if seen is not m:
        facts = _Move(ctx, m) if m.read_as == "move" else None
        ctx.judging = (m, facts)
    return facts


@rule("HF1201", "move-beyond-allowance", "error",
      "a unit spends at most its movement allowance in a phase; split the move or pick a nearer hex",
      events=(Moved,), read_as=("move", "after-combat"))
def move_beyond_allowance(ctx, m):
    ev = m.event
    c = ev.counter
    if m.read_as == "after-combat":
        if not _combat_judges_retreats(ctx.game):
            ctx.partly(m.step.index, f"{ctx.label(c)} {ev.src} -> {ev.dst} after a die roll in a combat phase is "
                                     "read as a retreat or an advance after combat; its length is not verified")
        return
    mv = _facts(ctx, m)
    if mv is None:
        return
    leg, ma, costs = mv.leg, mv.ma, mv.costs
    if not mv.judgeable:
        ctx.partly(m.step.index, f"{ctx.label(c)}: movement " +
                   ("factor not printed" if ma is None else "costs not printed in the TEC") + "; path not judged")
        return
    if ctx.game.rules.zoc_model not in (None, "none", "standard"):
        ctx.partly(m.step.index, _zoc_certainty(ctx)[1])
    if mv.reported or mv.barred is not None:
        return
    lc = mv.cost
    segs, total = lc.segs, lc.total
    if lc.within(ma):
        if not lc.known():
            ctx.partly(m.step.index, _cheapest_assumed(ctx, costs))
        return
    if total is not None and _splittable(ctx, leg, segs, ma, m):
        yield Finding(f"{ctx.label(c)} moves {_leg_text(leg)} ({_mp(total)} MP at least, MA {ma}): legal only if "
                      "its drags fell in two movement phases", severity="info", hexes=(leg.start, ev.dst.hex),
                      units=(ctx.label(c),), rule=_rule_no(ctx))
        return
    _mark_reported(ctx, c.piece, leg)
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)} in one phase: {_cost_text(ctx, costs, total)}, "
                  f"over its movement allowance of {ma}", hexes=(leg.start, ev.dst.hex), units=(ctx.label(c),),
                  rule=_rule_no(ctx))


def _cheapest_assumed(ctx, costs) -> str:
    key = ("cheapest_assumed", costs.movement_class)
    if key not in ctx.memo:
        ctx.memo[key] = ("terrain not printed for every hex or hexside of the path: the TEC's "
                         f"cheapest cost ({_mp(costs.cheapest)} MP per hex) assumed there")
    return ctx.memo[key]


def _cost_text(ctx, costs, total: Optional[Fraction]) -> str:
    if total is None:
        return "no path on the map joins them"
    if map_complete(ctx.game):
        return f"the cheapest path costs {_mp(total)} MP (the map's terrain, roads and hexsides)"
    hexes = int(total / costs.cheapest)
    return f"{hexes} hexes cost at least {_mp(total)} MP even at the cheapest {_mp(costs.cheapest)} MP per hex"


def _prohibited_end(ctx, costs, leg: Leg):
    """(hex, TEC row) where one of the leg's drags ended in a hex whose terrain is prohibited to the
    unit's class, as the tree gives it; None if none did (or the terrain is not known)."""
    key = ("barred", costs.movement_class, leg.ends)
    if key not in ctx.paths:
        return _remember(ctx, key, next((hit for hit in (_prohibited_hex(ctx, costs, h) for h in leg.ends)
                                         if hit is not None), None))
    return ctx.paths[key]


@rule("HF1206", "move-into-prohibited-terrain", "error",
      "a unit never enters a hex whose terrain the TEC prohibits to its movement class",
      events=(Moved,), read_as=("move", "after-combat", "unread", "entry"))
def move_into_prohibited_terrain(ctx, m):
    """A move, a retreat or advance, or an entry onto the map that ends in such a hex (where the tree's
    map says so and no road or track leads into it)."""
    ev = m.event
    if not (isinstance(ev, Moved) and ev.dst.hex is not None and ev.counter.kind == "unit"):
        return
    c = ev.counter
    mv = _facts(ctx, m)
    leg = mv.leg if mv is not None else None
    if mv is not None and mv.reported:
        return
    hit = mv.barred if mv is not None else _prohibited_hex(ctx, ctx.class_costs(c), ev.dst.hex)
    if hit is None:
        return
    h, row = hit
    cls = ctx.class_of(c)
    if leg is not None:
        _mark_reported(ctx, c.piece, leg)
        how, start = f"moves {_leg_text(leg)}", leg.start
    elif ev.src.hex is None:
        how, start = f"enters the map at {h}", None
    else:
        how, start = f"moves {ev.src} -> {ev.dst} (after a combat roll: a retreat or an advance)", ev.src.hex
    yield Finding(f"{ctx.label(c)} ({cls}) {how}: {h} is {row.name.lower()}, prohibited to {cls} units",
                  hexes=((start,) if start else ()) + (h,), units=(ctx.label(c),), rule=row.rule or _rule_no(ctx))


def _prohibited_hex(ctx, costs, h: str):
    row = terrain_costs(ctx.game, costs).prohibited_hex(h)
    return (h, row) if row is not None else None


@rule("HF1202", "move-onto-enemy", "error", "a unit never enters a hex held by an enemy unit",
      events=(Moved,), read_as=("move",))
def move_onto_enemy(ctx, m):
    mv = _facts(ctx, m)
    if mv is None:
        return
    ev = m.event
    held = ctx.enemies(mv.side).get(ev.dst.hex)
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


def _zoc_hexes(ctx, side) -> frozenset:
    """The hexes next to those enemy units hold (one set per position and side)."""
    cache = ctx.of_position()
    key = ("zoc", side)                            # a side's look-up: carried as `Replay.enemies` is
    if key not in cache:
        out: set[str] = set()
        neighbours = ctx.grid.neighbours
        for h in ctx.enemies(side):
            out.update(neighbours(h))
        cache[key] = frozenset(out)
    return cache[key]


@rule("HF1203", "path-through-enemy", "error", "units never move through hexes held by enemy units",
      events=(Moved,), read_as=("move",))
def path_through_enemy(ctx, m):
    mv = _facts(ctx, m)
    if mv is None or not mv.judgeable or mv.reported or mv.barred is not None:
        return
    c, leg, ma, costs = mv.c, mv.leg, mv.ma, mv.costs
    enemy = mv.enemy()
    if mv.free_way_avoids(enemy):
        return
    lc = _leg_cost(ctx, leg, costs, blocked=enemy) if enemy else mv.cost
    if lc.within(ma):
        return
    segs, total = lc.segs, lc.total
    if total is not None and _splittable(ctx, leg, segs, ma, m):
        return
    _mark_reported(ctx, c.piece, leg)
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)}: every path within its allowance passes "
                  "through an enemy-held hex", hexes=(leg.start, m.event.dst.hex), units=(ctx.label(c),),
                  rule=_rule_no(ctx))


@rule("HF1204", "path-through-enemy-zoc", "error",
      "a unit entering an enemy ZOC stops there; go around the ZOC or end the move in it",
      events=(Moved,), read_as=("move",))
def path_through_enemy_zoc(ctx, m):
    if ctx.game.rules.zoc_model != "standard":
        return
    mv = _facts(ctx, m)
    if mv is None or not mv.judgeable or mv.reported or mv.barred is not None:
        return
    c, leg, ma, costs, side = mv.c, mv.leg, mv.ma, mv.costs, mv.side
    enemy, zoc = mv.enemy(), mv.zoc()
    if not zoc:
        return                                  # no enemy unit on the map: nothing to stop in
    stopped = [h for h in leg.ends[:-1] if h in zoc]
    if not stopped and mv.free_way_avoids(enemy, zoc):
        return
    certain, why = _zoc_certainty(ctx)
    rule_no = ctx.game.rules.zoc.rule if ctx.game.rules.zoc else None
    if stopped:
        _mark_reported(ctx, c.piece, leg)
        yield Finding(f"{ctx.label(c)} ended a drag in {stopped[0]}, in an enemy ZOC where it had to stop, and "
                      f"was dragged on to {m.event.dst}" + ("" if certain else f" (legal only if no enemy unit "
                                                             f"there exerts a ZOC: {why})"),
                      hexes=(stopped[0], m.event.dst.hex), units=(ctx.label(c),), rule=rule_no,
                      severity=None if certain else "info", help=None if certain else
                      "not verified: the tree does not say enough to judge this ZOC stop")
        return
    lc = _leg_cost(ctx, leg, costs, blocked=enemy, stops=zoc)
    if lc.within(ma):
        return
    segs, total = lc.segs, lc.total
    if total is not None and _splittable(ctx, leg, segs, ma, m):
        return
    if certain:
        _mark_reported(ctx, c.piece, leg)
    passed = _zoc_passed(ctx, leg, costs, enemy, zoc)
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)}: every path within its allowance goes on "
                  "through a hex in an enemy ZOC" + _passed_text(ctx, side, c, passed) +
                  ("" if certain else f" (legal only if those enemy units exert no ZOC: {why})"),
                  hexes=(leg.start,) + passed + (m.event.dst.hex,), units=(ctx.label(c),), rule=rule_no,
                  severity=None if certain else "info",
                  help=None if certain else "not verified: the tree does not say enough to judge this ZOC stop")


def _zoc_passed(ctx, leg: Leg, costs, enemy: frozenset, zoc: frozenset) -> tuple[str, ...]:
    """The enemy-ZOC hexes a cheapest way through the leg's drag ends passes on through."""
    points = (leg.start,) + leg.ends
    out: list[str] = []
    for x, y in zip(points, points[1:]):
        route = cheapest_route(ctx, x, y, costs, blocked=enemy)
        out.extend(h for h in route[1:-1] if h in zoc and h not in out)
    return tuple(out)


def _passed_text(ctx, side, c, passed: tuple[str, ...]) -> str:
    if not passed:
        return ""
    h = passed[0]
    by = [ctx.label(e) for x, es in ctx.enemies(side).items() if x in ctx.grid.neighbours(h) for e in es]
    return f"; the cheapest way goes on through {h}" + (f", in the ZOC of {', '.join(sorted(by))}" if by else "")


@rule("HF1205", "move-legal-only-by-road", "warning",
      "check the map: this move is legal only along roads (or the cheapest terrain) the tree does not print",
      events=(Moved,), read_as=("move",))
def move_legal_only_by_road(ctx, m):
    if map_complete(ctx.game):
        return                                 # where the map is given, its roads are costed exactly
    mv = _facts(ctx, m)
    if mv is None or mv.cost is None or not mv.costs.road_saves or mv.reported:
        return
    c, leg, ma, costs = mv.c, mv.leg, mv.ma, mv.costs
    lc = mv.cost
    total = lc.total
    if total is None:
        return
    if lc.within_plain(ma, costs):
        return
    hexes = lc.hexes(costs)
    need = math.ceil((hexes * costs.plain - ma) / (costs.plain - costs.cheapest))
    yield Finding(f"{ctx.label(c)} (MA {ma}) moves {_leg_text(leg)}, {hexes} hexes: {_mp(total)} MP at the cheapest, "
                  f"legal only if at least {need} of them are entered at {_mp(costs.cheapest)} MP (road); "
                  f"at {_mp(costs.plain)} MP a hex it would cost {_mp(hexes * costs.plain)} MP",
                  hexes=(leg.start, m.event.dst.hex), units=(ctx.label(c),), rule=costs.cheapest_rule or _rule_no(ctx))
