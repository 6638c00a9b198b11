"""Checks on what shares a hex at set-up: stacking limit, mixing rules, both sides, terrain.

Each check takes every scenario's starting position (`Context.scenario_position`) and calls the rule
functions of `validator.stacking` on it; a finding names the printed lines of the counters involved.
"""
from __future__ import annotations

from typing import Iterable

from ..locations import location_hexes
from ..position import Counter
from ..stacking import formations_mixed, nationalities_mixed, overstacked, prohibited_terrain, sides_sharing
from . import Finding, check


def _lines(sp, counters: Iterable[Counter]) -> list:
    """The printed lines the counters come from, each once, in order."""
    seen: dict[int, object] = {}
    for c in counters:
        line = sp.lines.get(c.piece)
        if line is not None:
            seen.setdefault(id(line.placement), line)
    return list(seen.values())


def _labels(ctx, lines) -> tuple[str, ...]:
    return tuple(ctx.unit_label(ln.placement.unit, ln.placement.printed) for ln in lines)


def _positions(ctx):
    for sc in ctx.game.scenarios:
        yield sc, ctx.scenario_position(sc)


@check("HF401", "overstacked", "error", "move units out of the hex until the stack is within the limit")
def overstacked_at_setup(ctx):
    g = ctx.game
    rule = g.rules.stacking.rule
    for sc, sp in _positions(ctx):
        for o in overstacked(g, sp.position):
            lines = _lines(sp, o.counters)
            yield Finding(lines[-1].group.loc,
                          f"scenario {sc.id}: {o.size} {g.rules.stacking.counts} in {o.hex}, over the stacking limit "
                          f"of {o.limit}" + (f" ({rule})" if rule else ""),
                          hexes=(o.hex,), units=_labels(ctx, lines))


@check("HF402", "both-sides-in-hex", "error", "units of both sides never share a hex at set-up")
def both_sides_in_hex(ctx):
    for sc, sp in _positions(ctx):
        for m in sides_sharing(ctx.game, sp.position):
            lines = _lines(sp, m.counters)
            yield Finding(lines[-1].group.loc, f"scenario {sc.id}: units of {' and '.join(m.what)} share {m.hex}",
                          hexes=(m.hex,), units=_labels(ctx, lines))


def _mixing(ctx, kind):
    return [r for r in ctx.game.rules.mixing_rules if r.kind == kind]


@check("HF403", "nationalities-apart", "error", "these nationalities may not stack together by the rules")
def nationalities_apart(ctx):
    for rule in _mixing(ctx, "nationalities-apart"):
        for sc, sp in _positions(ctx):
            for m in nationalities_mixed(ctx.game, sp.position, rule):
                lines = _lines(sp, m.counters)
                yield Finding(lines[-1].group.loc,
                              f"scenario {sc.id}: {' and '.join(m.what)} units share {m.hex}"
                              + (f" (forbidden by {rule.rule})" if rule.rule else ""),
                              hexes=(m.hex,), units=_labels(ctx, lines))


@check("HF404", "divisional-integrity", "warning",
       "units of different formations share the hex: mark them DG as the rules require, or separate them")
def divisional_integrity(ctx):
    g = ctx.game
    for rule in _mixing(ctx, "divisional-integrity"):
        exempt = rule.except_state or rule.penalty
        for sc, sp in _positions(ctx):
            for m in formations_mixed(g, sp.position, rule):
                lines = _lines(sp, m.counters)
                names = sorted((g.formation(f).name if g.formation(f) else f) for f in m.what)
                yield Finding(lines[-1].group.loc,
                              f"scenario {sc.id}: {', '.join(names)} share {m.hex}"
                              + (f" without {exempt.upper()}" if exempt else "")
                              + (f" ({rule.rule})" if rule.rule else ""),
                              hexes=(m.hex,), units=_labels(ctx, lines), severity=rule.severity)


@check("HF405", "prohibited-terrain", "error", "the unit may not be in this terrain; check the hex")
def prohibited_terrain_at_setup(ctx):
    for sc, sp in _positions(ctx):
        seen = set()
        for p in prohibited_terrain(ctx.game, sp.position):
            line = sp.lines.get(p.counter.piece)
            if line is None or (id(line.placement), p.hex, p.terrain.id) in seen:
                continue
            seen.add((id(line.placement), p.hex, p.terrain.id))
            label = ctx.unit_label(line.placement.unit, line.placement.printed)
            yield Finding(line.group.loc, f"scenario {sc.id}: {label} is set up in {p.terrain.name} ({p.hex}), "
                                          f"prohibited to {p.movement_class} units", hexes=(p.hex,), units=(label,))


@check("HF406", "no-room-to-place", "warning",
       "more units are placed in these hexes than stacking allows; check the counts or the hexes")
def no_room_to_place(ctx):
    """A hex range or 'X or Y' line that cannot hold its units within the stacking limit."""
    g = ctx.game
    limit = g.rules.stacking.limit
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
        hexes = location_hexes(g, location)
        if not hexes:
            continue
        n = sum(p.count for p in units)
        room = len(hexes) * limit
        if n > room:
            yield Finding(loc, f"{where}: {n} units placed in {location} ({len(hexes)} hex(es)), room for {room} "
                               f"at {limit} per hex", hexes=tuple(hexes),
                          units=tuple(ctx.unit_label(p.unit, p.printed) for p in units))
