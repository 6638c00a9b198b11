"""Checks on what shares a hex at set-up: stacking limit, mixing rules, both sides, terrain."""
from __future__ import annotations

from collections import defaultdict

from . import Finding, check


def _stacks(ctx, sc):
    """hex -> [(group, placement, unit)] for the scenario's single-hex set-up lines."""
    stacks = defaultdict(list)
    for grp, p in ctx.setup_units(sc):
        h = grp.location.hex
        if h and ctx.grid.exists(h):
            stacks[h].append((grp, p, ctx.game.unit(p.unit)))
    return stacks


def _label(ctx, p) -> str:
    return ctx.unit_label(p.unit, p.printed)


@check("HF401", "overstacked", "error", "move units out of the hex until the stack is within the limit")
def overstacked(ctx):
    g = ctx.game
    limit = g.rules.stacking_limit
    if limit is None:
        return
    counts = g.rules.stacking_counts
    for sc in g.scenarios:
        for h, stack in sorted(_stacks(ctx, sc).items()):
            by_side = defaultdict(list)
            for grp, p, u in stack:
                by_side[grp.side].append((grp, p, u))
            for side, items in sorted(by_side.items()):
                if counts == "steps":
                    n = sum((1 if "reduced" in p.state else (u.steps if u else 1)) * p.count for _, p, u in items)
                else:
                    n = sum(p.count for _, p, _ in items)
                if n > limit:
                    yield Finding(items[-1][0].loc,
                                  f"scenario {sc.id}: {n} {counts} in {h}, over the stacking limit of {limit}"
                                  + (f" ({g.rules.stacking_rule})" if g.rules.stacking_rule else ""),
                                  hexes=(h,), units=tuple(_label(ctx, p) for _, p, _ in items))


@check("HF402", "both-sides-in-hex", "error", "units of both sides never share a hex at set-up")
def both_sides_in_hex(ctx):
    for sc in ctx.game.scenarios:
        for h, stack in sorted(_stacks(ctx, sc).items()):
            sides = sorted({grp.side for grp, _, _ in stack})
            if len(sides) > 1:
                yield Finding(stack[-1][0].loc, f"scenario {sc.id}: units of {' and '.join(sides)} share {h}",
                              hexes=(h,), units=tuple(_label(ctx, p) for _, p, _ in stack))


def _mixing(ctx, kind):
    for rule in ctx.game.rules.mixing:
        if rule.get("kind") == kind:
            yield rule


@check("HF403", "nationalities-apart", "error", "these nationalities may not stack together by the rules")
def nationalities_apart(ctx):
    for rule in _mixing(ctx, "nationalities-apart"):
        apart = set(rule.get("nationalities") or ())
        for sc in ctx.game.scenarios:
            for h, stack in sorted(_stacks(ctx, sc).items()):
                nats = {u.nationality for _, _, u in stack if u and u.nationality in apart}
                if len(nats) > 1:
                    yield Finding(stack[-1][0].loc,
                                  f"scenario {sc.id}: {' and '.join(sorted(nats))} units share {h}"
                                  + (f" (forbidden by {rule.get('rule')})" if rule.get("rule") else ""),
                                  hexes=(h,), units=tuple(_label(ctx, p) for _, p, _ in stack))


@check("HF404", "divisional-integrity", "warning",
       "units of different formations share the hex: mark them DG as the rules require, or separate them")
def divisional_integrity(ctx):
    g = ctx.game
    for rule in _mixing(ctx, "divisional-integrity"):
        exempt = rule.get("except_state") or rule.get("penalty")
        sev = rule.get("severity")
        for sc in g.scenarios:
            for h, stack in sorted(_stacks(ctx, sc).items()):
                forms = {u.formation for _, _, u in stack if u and u.formation}
                if len(forms) < 2:
                    continue
                if exempt and all(exempt in p.state for _, p, u in stack if u and u.formation):
                    continue
                names = sorted((g.formation(f).name if g.formation(f) else f) for f in forms)
                yield Finding(stack[-1][0].loc,
                              f"scenario {sc.id}: {', '.join(names)} share {h}"
                              + (f" without {exempt.upper()}" if exempt else "")
                              + (f" ({rule.get('rule')})" if rule.get("rule") else ""),
                              hexes=(h,), units=tuple(_label(ctx, p) for _, p, _ in stack), severity=sev)


@check("HF405", "prohibited-terrain", "error", "the unit may not be in this terrain; check the hex")
def prohibited_terrain(ctx):
    g = ctx.game
    if g.tec is None:
        return
    for sc in g.scenarios:
        for h, stack in sorted(_stacks(ctx, sc).items()):
            for tid in g.hex_terrain(h):
                t = g.terrain_type(tid)
                if t is None:
                    continue
                for grp, p, u in stack:
                    mc = u.movement_class if u else None
                    cell = t.movement.get(mc) if mc else None
                    if cell is not None and str(cell).strip().upper() in ("P", "NA"):
                        yield Finding(grp.loc, f"scenario {sc.id}: {_label(ctx, p)} is set up in {t.name} ({h}), "
                                               f"prohibited to {mc} units", hexes=(h,), units=(_label(ctx, p),))


def _location_hexes(ctx, location):
    if location.hex:
        return [location.hex]
    if location.any_of:
        return list(location.any_of)
    if location.range:
        return ctx.grid.line(*location.range)
    if location.within:
        return ctx.grid.within(location.within[1], location.within[0])
    if location.area:
        a = ctx.game.area(location.area)
        return list(a.hexes) if a and a.hexes else None
    return None


@check("HF406", "no-room-to-place", "warning",
       "more units are placed in these hexes than stacking allows; check the counts or the hexes")
def no_room_to_place(ctx):
    """A hex range or 'X or Y' line that cannot hold its units within the stacking limit."""
    g = ctx.game
    limit = g.rules.stacking_limit
    if not limit:
        return
    lines = []
    for sc in g.scenarios:
        lines += [(f"scenario {sc.id} set-up", grp.location, grp.units, grp.loc) for grp in sc.setup
                  if not grp.location.hex]
        for o in sc.reinforcements:
            lines += [(f"scenario {sc.id} turn {b.turn}", a.entry, a.units, a.loc) for _, b, a in ctx.arrivals_of(o)]
    for o in g.orders_of_arrival:
        lines += [(f"{o.side} turn {b.turn}", a.entry, a.units, a.loc) for _, b, a in ctx.arrivals_of(o)]
    for where, location, units, loc in lines:
        hexes = _location_hexes(ctx, location)
        if not hexes:
            continue
        n = sum(p.count for p in units)
        room = len(hexes) * limit
        if n > room:
            yield Finding(loc, f"{where}: {n} units placed in {location} ({len(hexes)} hex(es)), room for {room} "
                               f"at {limit} per hex", hexes=tuple(hexes),
                          units=tuple(ctx.unit_label(p.unit, p.printed) for p in units))
