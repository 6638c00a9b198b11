"""Checks on units, formations and sides: references, duplicates, values as printed."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

from . import Finding, check


def _ooa_lines(ctx, o, sc, where: str):
    for _, b, a in ctx.arrivals_of(o):
        for p in a.units:
            yield sc, p, o.side, f"{where}, {o.side} turn {b.turn}"
    for b in o.turns:
        for r in b.removals:
            for p in r.units + r.except_:
                yield sc, p, o.side, f"{where}, {o.side} turn {b.turn} removal"


def _placements(ctx):
    """(scenario or None, placement, owning side, where it is listed) for every unit line in the tree."""
    g = ctx.game
    for o in g.orders_of_arrival:
        yield from _ooa_lines(ctx, o, None, "orders of arrival")
    for sc in g.scenarios:
        for grp, p in ctx.setup_units(sc):
            yield sc, p, grp.side, f"scenario {sc.id} set-up"
        for o in sc.reinforcements:
            yield from _ooa_lines(ctx, o, sc, f"scenario {sc.id} reinforcements")
        for r in sc.removals:
            for p in r.units + r.except_:
                yield sc, p, None, f"scenario {sc.id} removal"


@check("HF201", "unknown-unit", "error", "add the unit to counters.yaml, or fix the unit id")
def unknown_unit(ctx):
    for _, p, _, where in _placements(ctx):
        if ctx.game.unit(p.unit) is None:
            yield Finding(p.loc, f"{where}: unit id {p.unit!r} is not in counters.yaml",
                          units=(p.printed or p.unit,))


@check("HF202", "unknown-formation", "error", "declare the formation in counters.yaml `formations`")
def unknown_formation(ctx):
    g = ctx.game
    for u in g.units:
        if u.formation and g.formation(u.formation) is None:
            yield Finding(u.loc, f"unit {u.name}: formation {u.formation!r} is not declared", units=(u.name,))
    for sc in g.scenarios:
        for grp in sc.setup:
            if grp.formation and g.formation(grp.formation) is None:
                yield Finding(grp.loc, f"scenario {sc.id}: set-up heading formation {grp.formation!r} is not declared")
    for o in g.orders_of_arrival + tuple(r for sc in g.scenarios for r in sc.reinforcements):
        for _, _, a in ctx.arrivals_of(o):
            if a.formation and g.formation(a.formation) is None:
                yield Finding(a.loc, f"arrival formation {a.formation!r} is not declared")


@check("HF203", "unknown-side-or-nationality", "error", "use a side/nationality id from game.yaml")
def unknown_side(ctx):
    g = ctx.game
    for u in g.units:
        if g.side(u.side) is None:
            yield Finding(u.loc, f"unit {u.name}: side {u.side!r} is not declared in game.yaml", units=(u.name,))
        if u.nationality and g.nationality(u.nationality) is None:
            yield Finding(u.loc, f"unit {u.name}: nationality {u.nationality!r} is not declared", units=(u.name,))
    for f in g.formations:
        if g.side(f.side) is None:
            yield Finding(f.loc, f"formation {f.name}: side {f.side!r} is not declared")
    for sc in g.scenarios:
        for grp in sc.setup:
            if g.side(grp.side) is None:
                yield Finding(grp.loc, f"scenario {sc.id}: set-up side {grp.side!r} is not declared")
    for o in g.orders_of_arrival + tuple(r for sc in g.scenarios for r in sc.reinforcements):
        if g.side(o.side) is None:
            yield Finding(o.loc, f"order of arrival side {o.side!r} is not declared")


@check("HF204", "duplicate-id", "error", "ids must be unique within their kind; rename one")
def duplicate_id(ctx):
    g = ctx.game
    kinds = {
        "unit": [(u.id, u.loc) for u in g.units],
        "marker": [(m.id, m.loc) for m in g.markers],
        "formation": [(f.id, f.loc) for f in g.formations],
        "turn": [(t.id, t.loc) for t in g.turns],
        "scenario": [(s.id, s.loc) for s in g.scenarios],
        "area": [(a.id, a.loc) for a in g.places.areas],
        "place": [(p.id, p.loc) for p in g.places.places],
        "table": [(t.id, t.loc) for t in g.tables],
        "terrain": [(t.id, t.loc) for t in (g.tec.terrain if g.tec else ())],
        "nationality": [(n.id, n.loc) for s in g.sides for n in s.nationalities],
        "side": [(s.id, s.loc) for s in g.sides],
    }
    for kind, pairs in kinds.items():
        seen = {}
        for i, loc in pairs:
            if i in seen:
                yield Finding(loc, f"{kind} id {i!r} is used twice (first at line {seen[i].line})")
            else:
                seen[i] = loc


@check("HF205", "side-mismatch", "error", "a unit is listed only under its own side")
def side_mismatch(ctx):
    g = ctx.game
    for _, p, side, where in _placements(ctx):
        u = g.unit(p.unit)
        if u and side and u.side != side:
            yield Finding(p.loc, f"{where}: {ctx.unit_label(p.unit, p.printed)} belongs to side {u.side} "
                                 f"but is listed for {side}", units=(ctx.unit_label(p.unit, p.printed),))
    for u in g.units:
        f = g.formation(u.formation) if u.formation else None
        if f and f.side != u.side:
            yield Finding(u.loc, f"unit {u.name} is {u.side} but its formation {f.name} is {f.side}", units=(u.name,))


@check("HF206", "unit-placed-twice", "error", "each counter is set up once; remove the duplicate line")
def unit_placed_twice(ctx):
    for sc in ctx.game.scenarios:
        seen = {}
        for grp, p in ctx.setup_units(sc):
            u = ctx.game.unit(p.unit)
            if u is None or (u.count or 0) != 1:
                continue  # generic counters are checked against the counter mix (HF208)
            if p.unit in seen:
                first = seen[p.unit]
                yield Finding(p.loc, f"scenario {sc.id}: {ctx.unit_label(p.unit, p.printed)} is set up twice "
                                     f"({first[0]} and {grp.location})",
                              hexes=tuple(x for x in (first[0], grp.location.hex) if x),
                              units=(ctx.unit_label(p.unit, p.printed),))
            else:
                seen[p.unit] = (str(grp.location), p.loc)


def _scenario_arrivals(ctx, sc):
    for o in ctx.game.scenario_arrivals(sc):
        for _, b, a in ctx.arrivals_of(o):
            for p in a.units:
                yield b, a, p


@check("HF207", "unit-arrives-twice", "error",
       "a counter enters play once: remove the second arrival or the set-up line")
def unit_arrives_twice(ctx):
    for sc in ctx.game.scenarios:
        placed = {p.unit: str(grp.location) for grp, p in ctx.setup_units(sc)}
        arrived = {}
        for b, a, p in _scenario_arrivals(ctx, sc):
            u = ctx.game.unit(p.unit)
            if u is None or (u.count or 0) != 1:
                continue
            label = ctx.unit_label(p.unit, p.printed)
            if p.unit in placed:
                yield Finding(p.loc, f"scenario {sc.id}: {label} arrives on turn {b.turn} but is already set up "
                                     f"at {placed[p.unit]}", units=(label,))
            elif p.unit in arrived:
                yield Finding(p.loc, f"scenario {sc.id}: {label} arrives twice (turns {arrived[p.unit]} "
                                     f"and {b.turn})", units=(label,))
            else:
                arrived[p.unit] = b.turn


@check("HF208", "counter-mix-exceeded", "error",
       "more counters are placed than the counter mix holds; check the counts")
def counter_mix_exceeded(ctx):
    for sc in ctx.game.scenarios:
        used = Counter()
        where = {}
        for grp, p in ctx.setup_units(sc):
            used[p.unit] += p.count
            where.setdefault(p.unit, p.loc)
        for uid, n in sorted(used.items()):
            u = ctx.game.unit(uid)
            if u and u.count is not None and u.count > 1 and n > u.count:
                yield Finding(where[uid], f"scenario {sc.id}: {n} × {u.name} set up, but the mix has {u.count}",
                              units=(u.name,))


@check("HF209", "empty-entry", "error",
       "a printed line with a hex but no unit: find the missing unit, remove the line, "
       "or name the declared gap it stands for (`gap:`)")
def empty_entry(ctx):
    gaps = {gp.id for gp in ctx.game.gaps}
    for sc in ctx.game.scenarios:
        for grp in sc.setup:
            if not grp.units and grp.gap not in gaps:
                yield Finding(grp.loc, f"scenario {sc.id}: set-up line at {grp.location} names no unit",
                              hexes=grp.location.hex_refs())
        for o in sc.reinforcements:
            for _, b, a in ctx.arrivals_of(o):
                if not a.units and a.gap not in gaps:
                    yield Finding(a.loc, f"scenario {sc.id}: turn {b.turn} arrival at {a.entry} names no unit")
    for o in ctx.game.orders_of_arrival:
        for _, b, a in ctx.arrivals_of(o):
            if not a.units and a.gap not in gaps:
                yield Finding(a.loc, f"{o.side} turn {b.turn}: arrival at {a.entry} names no unit")


@check("HF210", "count-not-printed", "warning",
       "the list gives no number of counters for this line; find it on the counter sheet")
def count_not_printed(ctx):
    for _, p, _, where in _placements(ctx):
        if not p.count_printed:
            yield Finding(p.loc, f"{where}: no count printed for {ctx.unit_label(p.unit, p.printed)}",
                          units=(ctx.unit_label(p.unit, p.printed),))


@check("HF211", "unit-never-used", "warning",
       "the counter is in the manifest but no set-up or order of arrival uses it: check the lists")
def unit_never_used(ctx):
    g = ctx.game
    used = {p.unit for _, p, _, _ in _placements(ctx)}
    used |= {u.get("unit") for sc in g.scenarios for r in sc.special_rules for u in r.get("units") or ()
             if isinstance(u, dict)}
    used |= {f.unit for f in g.places.features if f.unit}
    # where a set-up is not printed, an unused counter is expected, not a defect
    severity = "info" if any(not sc.setup_printed for sc in g.scenarios) else None
    for u in g.units:
        if u.id not in used:
            yield Finding(u.loc, f"unit {u.name} is in the manifest but in no set-up, arrival or removal",
                          units=(u.name,), severity=severity)


_FACTORS_HEAD = re.compile(r"^\s*(?:\d+\s*[×x]\s*)?(\S+)\s*(.*)$")


@lru_cache(maxsize=4096)  # a unit's name is read once per line that lists it
def _split_printed(printed: str):
    """'3-5-10 Inf Bn(+) (A/9)' -> ('3-5-10', 'Inf Bn(+) (A/9)')."""
    m = _FACTORS_HEAD.match(printed)
    return (m.group(1), m.group(2).strip()) if m else (None, printed)


def _norm(s: str) -> str:
    return " ".join(s.replace("( ", "(").replace(" )", ")").split()).lower()


_LAST_GROUP = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")


@lru_cache(maxsize=4096)
def _designation(text: str) -> tuple[str, frozenset]:
    """'Inf Bn(+) (A/26, B/26)' -> ('inf bn(+)', {'a/26', 'b/26'}): the kind and the printed IDs."""
    t = _norm(text)
    m = _LAST_GROUP.match(t)
    if not m:
        return t, frozenset()
    return m.group(1), frozenset(x.strip() for x in m.group(2).split(",") if x.strip())


@check("HF301", "values-differ", "warning",
       "the same unit must carry the same values everywhere; check the counter and correct the list")
def values_differ(ctx):
    g = ctx.game
    for _, p, _, where in _placements(ctx):
        u = g.unit(p.unit)
        if not (u and p.printed and u.factors):
            continue
        fac, _ = _split_printed(p.printed)
        if fac and fac != u.factors.printed and re.match(r"^[\[\(]?\d", fac):
            yield Finding(p.loc, f"{where}: {u.name} printed as {fac} here, {u.factors.printed} in the "
                                 f"counter manifest", units=(p.printed,))


@check("HF302", "designation-differs", "warning",
       "the unit's type or ID reads differently here than in the counter manifest; check which is right")
def designation_differs(ctx):
    g = ctx.game
    for _, p, _, where in _placements(ctx):
        u = g.unit(p.unit)
        if not (u and p.printed):
            continue
        kind, ids = _designation(_split_printed(p.printed)[1])
        ukind, uids = _designation(_split_printed(u.name)[1])
        # a list line may print several units of one kind at once: "Inf Bn(+) (A/26, B/26)"
        if kind != ukind or not uids <= ids:
            yield Finding(p.loc, f"{where}: printed as {p.printed!r}, the manifest says {u.name!r}",
                          units=(p.printed,))


@check("HF303", "factors-unreadable", "warning",
       "the factors should read as the game's counters do (game.yaml `factors`)")
def factors_unreadable(ctx):
    g = ctx.game
    n = len(g.factor_names)
    for u in g.units:
        for side, f in (("front", u.factors), ("reduced", u.reduced)):
            if f is None:
                continue
            parts = f.printed.split("-")
            if len(parts) != n or any(v is None for v in f.values.values()):
                yield Finding(u.loc, f"unit {u.name}: {side} factors {f.printed!r} do not read as "
                                     f"{'-'.join(g.factor_names)}", units=(u.name,))


@check("HF304", "formation-scattered", "warning",
       "check the hex: the unit is set up far from every other unit of its formation")
def formation_scattered(ctx):
    g = ctx.game
    limit = int(g.rules.other.get("formation_radius", 8))
    for sc in g.scenarios:
        by_formation = defaultdict(list)
        for grp, p in ctx.setup_units(sc):
            u = g.unit(p.unit)
            if u and u.formation and grp.location.hex and ctx.grid.exists(grp.location.hex):
                by_formation[u.formation].append((grp, p))
        for fid, members in sorted(by_formation.items()):
            hexes = {grp.location.hex for grp, _ in members}
            if len(hexes) < 3:
                continue
            for grp, p in members:
                h = grp.location.hex
                nearest = min(ctx.grid.distance(h, o) for o in hexes if o != h) if len(hexes) > 1 else 0
                if nearest > limit:
                    f = g.formation(fid)
                    label = ctx.unit_label(p.unit, p.printed)
                    yield Finding(p.loc, f"scenario {sc.id}: {label} at {h} is {nearest} hexes from the nearest "
                                         f"other unit of {f.name if f else fid}", hexes=(h,), units=(label,))
