"""Path searches: the cheapest way for one movement class between hexes, and what a leg costs.

Each hex costs what the tree's map and TEC give (`costs.TerrainCosts`), the TEC's cheapest where the
tree does not say (the path is then not fully known). A search never enters a hex of `blocked`,
never goes on through a hex of `stops` (its end may be one; its start may be one: a unit may leave
the hex it started in), never enters a hex or crosses a hexside prohibited to the class, and stays in
the scenario's play area. Searches and leg costs depend only on their arguments and the game, so each
is kept (`Lookups.paths`, emptied when full: memory stays flat in the log's length) and shared by
every rule and every undo.
"""
from __future__ import annotations

import heapq
from fractions import Fraction
from typing import Callable, Optional

from .costs import TerrainCosts, terrain_costs
from .ledger import Leg

PATHS_KEPT = 4096                              # results remembered (the memo is emptied when full)
Seg = Optional[tuple[Fraction, bool]]          # a drag's cheapest (MP, every cost known), None: no way


def remember(look, key, value):
    if len(look.paths) >= PATHS_KEPT:
        look.paths.clear()
    look.paths[key] = value
    return value


Extra = Optional[tuple[frozenset, Fraction]]   # hexes whose entering costs more, and how much more


def path_cost(look, in_play, a: str, b: str, costs, blocked: frozenset = frozenset(),
              stops: frozenset = frozenset(), limit: Optional[Fraction] = None, extra: Extra = None) -> Seg:
    """The cheapest (cost, every cost known) from a to b; among equal costs a path of known costs.
    `extra`: (hexes, MP): entering one of those hexes costs that much more (a ZOC that costs, not stops)."""
    if a == b:
        return Fraction(0), True
    key = (costs.movement_class, a, b, blocked, stops, limit, extra)
    if key in look.paths:
        return look.paths[key]
    found = _search(look, in_play, a, b, costs, blocked, stops, limit, extra)
    if limit is None:                          # a whole search: its route is kept with it
        remember(look, _route_key(costs, a, b, blocked, stops, extra), route_of(found, a, b))
    return remember(look, key, (found[0], found[1]) if found else None)


def _route_key(costs, a: str, b: str, blocked: frozenset, stops: frozenset, extra: Extra) -> tuple:
    return ("route", costs.movement_class, a, b, blocked, stops, extra)


def cheapest_route(look, in_play, a: str, b: str, costs, blocked: frozenset = frozenset(),
                   stops: frozenset = frozenset(), extra: Extra = None) -> tuple[str, ...]:
    """The hexes of one cheapest path from a to b (a and b included); () if there is none. Kept, as the
    search `path_cost` made for the same arguments keeps it."""
    key = _route_key(costs, a, b, blocked, stops, extra)
    route = look.paths.get(key)
    if route is None:
        route = remember(look, key, route_of(_search(look, in_play, a, b, costs, blocked, stops, None, extra), a, b))
    return route


def free_route(look, in_play, a: str, b: str, costs) -> tuple[str, ...]:
    """`cheapest_route` with nothing blocked: the route of the search `path_cost` made (kept with it)."""
    if a == b:
        return (a,)
    key = _route_key(costs, a, b, frozenset(), frozenset(), None)
    route = look.paths.get(key)
    if route is None:
        path_cost(look, in_play, a, b, costs)
        route = look.paths.get(key)
        if route is None:                      # the memo was emptied in between
            route = cheapest_route(look, in_play, a, b, costs)
    return route


def route_of(found, a: str, b: str) -> tuple[str, ...]:
    if not found:
        return ()
    prev, route = found[2], [b]
    while route[-1] != a:
        route.append(prev[route[-1]])
    return tuple(reversed(route))


def _search(look, in_play, a, b, costs, blocked, stops, limit, extra=None):
    if a == b:
        return Fraction(0), True, {}
    return dijkstra(look.grid, in_play, terrain_costs(look.game, costs), a, b, blocked, stops, limit, extra)


def dijkstra(grid, in_play: Optional[Callable[[str], bool]], tc: TerrainCosts, a, b, blocked, stops, limit,
             extra: Extra = None):
    """Dijkstra over (MP, unknown costs) in whole units of 1/tc.scale MP (exactly the MP ordering: the
    scale is positive): (cost, all known, predecessors) at b, or None."""
    scale = tc.scale
    cap = None if limit is None else limit * scale
    dear, more = (extra[0], extra[1] * scale) if extra else (frozenset(), 0)
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
            nd, nu = d + mp + (more if n in dear else 0), unknown + (0 if known else 1)
            if cap is not None and nd > cap:
                continue
            if n not in best or (nd, nu) < best[n]:
                best[n] = (nd, nu)
                prev[n] = h
                heapq.heappush(heap, (nd, nu, n))
    return None


def total(segs) -> Optional[Fraction]:
    return None if any(s is None for s in segs) else sum((s[0] for s in segs), Fraction(0))


def known(segs) -> bool:
    return all(s is not None and s[1] for s in segs)


class LegCost:
    """One leg's cost for one class: each drag's cheapest (MP, every cost known) or None, and their
    total; for a reinforcement, the entry hex of the cheapest reading and what entering it cost (the
    first of `segs`). What is asked of it is kept with it, so a leg judged again costs one look-up."""
    __slots__ = ("segs", "total", "entry", "_known", "_within", "_hexes", "_way")

    def __init__(self, segs: list, entry: Optional[str] = None):
        self.segs, self.total, self.entry = segs, total(segs), entry
        self._known, self._within, self._hexes, self._way = None, {}, None, False

    def free_way(self, look, in_play, leg: Leg, costs) -> Optional[tuple[frozenset, frozenset]]:
        """Of the cheapest way through the leg's drag ends with nothing blocked: (the hexes it enters,
        those it goes on from but the drag ends), or None if a drag has no way (or the leg is an
        entry's, whose way is worked out with its entry hex)."""
        if self._way is False:
            points = leg.points()
            if leg.start is None:
                self._way = None
                return None
            entered: set[str] = set()
            through: set[str] = set()
            for a, b in zip(points, points[1:]):
                route = free_route(look, in_play, a, b, costs)
                if not route:
                    self._way = None
                    return None
                entered.update(route[1:])
                through.update(route[1:-1])
            self._way = (frozenset(entered), frozenset(through))
        return self._way

    def known(self) -> bool:
        if self._known is None:
            self._known = known(self.segs)
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


def leg_cost(look, in_play, leg: Leg, costs, blocked: frozenset = frozenset(),
             stops: frozenset = frozenset(), extra: Extra = None) -> LegCost:
    """The leg's `LegCost` never into `blocked`, never on through `stops`, entering `extra`'s hexes at
    their extra cost; a reinforcement's at its cheapest entry hex (entering one in `stops` ends its move
    there: 11.2, 6.2)."""
    key = ("leg", costs.movement_class, leg.start, leg.ends, leg.entry.hexes if leg.entry else None, blocked, stops,
           extra)
    hit = look.paths.get(key)
    if hit is None:
        if leg.start is not None:
            points = leg.points()
            segs = [path_cost(look, in_play, x, y, costs, blocked, stops, extra=extra)
                    for x, y in zip(points, points[1:])]
            hit = LegCost(segs)
        else:
            hit = _entry_leg_cost(look, in_play, leg, costs, blocked, stops, extra)
        remember(look, key, hit)
    return hit


def _entry_leg_cost(look, in_play, leg: Leg, costs, blocked, stops, extra: Extra = None) -> LegCost:
    """A reinforcement's leg read at the entry hex that makes it cheapest: entering the hex costs its
    terrain, or its road's or track's cost (`TerrainCosts.entry_cost`), then the drags as any leg."""
    tc = terrain_costs(look.game, costs)
    best: Optional[LegCost] = None
    for e in sorted(leg.entry.hexes or ()):
        if e in blocked or (in_play and not in_play(e)):
            continue
        if e in stops and any(h != e for h in leg.ends):
            continue                           # entered in an enemy ZOC: it stops there
        first = tc.entry_cost(e)
        if first.mp is None:
            continue
        points = (e,) + leg.ends
        dear = extra[1] if extra and e in extra[0] else 0
        segs = [(Fraction(first.mp) + dear, first.known)] + [
            path_cost(look, in_play, x, y, costs, blocked, stops, extra=extra) for x, y in zip(points, points[1:])]
        cand = LegCost(segs, entry=e)
        if cand.total is not None and (best is None or best.total is None or
                                       (cand.total, not cand.known()) < (best.total, not best.known())):
            best = cand
    return best if best is not None else LegCost([None], entry=None)
