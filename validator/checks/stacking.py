"""Checks on what shares a hex at set-up: stacking limit, mixing rules, both sides, terrain.

Each check takes every scenario's starting position (`Context.scenario_position`) and calls the rule
functions of `validator.positions.stacking` on it; a finding names the printed lines of the counters involved.
"""
from __future__ import annotations

from typing import Iterable

from ..geometry.locations import location_hexes
from ..positions.position import Counter
from ..positions.stacking import formations_mixed, nationalities_mixed, overstacked, prohibited_terrain, sides_sharing
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
    """More units of one side in a hex at set-up than the stacking limit allows.

    ## What it checks
    Each scenario's starting position (set-up lines placed as the module places them, a location that
    is not one hex spread within the limit): no hex holds more of one side's units than
    `rules.stacking.limit`, counted in units or in steps (`counts: steps`: a reduced unit is one step).
    Markers never count.

    ## Why
    The rules' stacking limit holds at set-up as at the end of every phase; a set-up over it is a
    misread hex or count, and a module set up from it would start the game illegal.

    ## Reads
    `game.yaml` `rules.stacking` (`limit`, `counts`, `rule`); `scenarios/*.yaml` set-ups;
    `counters.yaml` `units[].steps`.

    ## Violation
    With `limit: 2`, scenario s1 puts the Cyanian company into 0202 beside A/1 and B/1:

        scenarios/s1.yaml:16:3: error[HF401] scenario s1: 3 units in 0202, over the stacking limit of 2 (5.3)

    ## Near miss
    The set-up as it is, A/1 and B/1 in 0202: two units, exactly the limit: no finding.
    """
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
    """Units of both sides set up in one hex.

    ## What it checks
    In each scenario's starting position, no hex holds units of two sides.

    ## Why
    Opposing units never share a hex; a set-up that puts them together has a misread hex, and the game
    could not start from it. There is no rule parameter: it always holds.

    ## Reads
    `scenarios/*.yaml` set-ups; the units' `side` in `counters.yaml`.

    ## Violation
    A red unit set up in 0601, on the blue Cyanian company:

        scenarios/s1.yaml:39:3: error[HF402] scenario s1: units of blue and red share 0601

    ## Near miss
    The red unit in 0602, next to the company: adjacent, not sharing: no finding.
    """
    for sc, sp in _positions(ctx):
        for m in sides_sharing(ctx.game, sp.position):
            lines = _lines(sp, m.counters)
            yield Finding(lines[-1].group.loc, f"scenario {sc.id}: units of {' and '.join(m.what)} share {m.hex}",
                          hexes=(m.hex,), units=_labels(ctx, lines))


def _mixing(ctx, kind):
    return [r for r in ctx.game.rules.mixing_rules if r.kind == kind]


@check("HF403", "nationalities-apart", "error", "these nationalities may not stack together by the rules")
def nationalities_apart(ctx):
    """Units of nationalities the rules keep apart set up in one hex.

    ## What it checks
    For each mixing rule of kind `nationalities-apart`, no hex of a scenario's starting position holds
    units of two of its nationalities.

    ## Why
    Some rules forbid allies to stack (Ardennes II 19.1.5: US and UK units); a set-up that stacks them
    is a misread hex.

    ## Reads
    `game.yaml` `rules.mixing[]` with `kind: nationalities-apart` (`nationalities`, `rule`);
    `counters.yaml` `units[].nationality`; `scenarios/*.yaml` set-ups.

    ## Violation
    With `{kind: nationalities-apart, nationalities: [bl, cy]}`, the Cyanian company joins the
    Blueland Mech Bn in 0302:

        scenarios/s1.yaml:24:3: error[HF403] scenario s1: bl and cy units share 0302 (forbidden by 5.4)

    ## Near miss
    A second Blueland unit joins the Mech Bn in 0302: one nationality: no finding.
    """
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
    """Units of different formations set up in one hex without the state the rules require.

    ## What it checks
    For each mixing rule of kind `divisional-integrity`, no hex of a scenario's starting position holds
    units of two formations (units without a formation are independents and mix freely) unless they are
    in the rule's exempting state (`except_state`, or the `penalty` state, e.g. `dg`).

    ## Why
    Where the rules let divisions mix only at a cost (Ardennes II 3.1: mixed stacks are DG), a set-up
    that mixes them must show that state; otherwise the hex or the state was misread. It is a warning
    by default (the rule's own `severity` may say otherwise).

    ## Reads
    `game.yaml` `rules.mixing[]` with `kind: divisional-integrity` (`except_state`, `penalty`,
    `severity`, `rule`); `counters.yaml` `units[].formation`; set-up lines' `state`.

    ## Violation
    A 2nd Blue Div battalion set up in 0302 with the 1st Blue Div's Mech Bn, neither DG:

        scenarios/s1.yaml:42:3: warning[HF404] scenario s1: 1st Blue Div, 2nd Blue Div share 0302 without DG (5.5)

    ## Near miss
    Both set up with `state: [dg]`: no finding.
    """
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
    """A unit set up in terrain the TEC prohibits to its movement class.

    ## What it checks
    In each scenario's starting position, no unit stands in a hex whose terrain's TEC movement cell for
    the unit's movement class is a prohibition ("P" with a note "Prohibited.").

    ## Why
    A unit may never be in terrain it cannot enter; set up there it is a misread hex.

    ## Reads
    `tec.yaml` `terrain[].movement` and `notes`; `terrain.yaml` `default` and `hexes`;
    `counters.yaml` `units[].movement_class`; `scenarios/*.yaml` set-ups.

    ## Violation
    The Mech Bn set up in 0707, a lake (`movement: {leg: P, mech: P}`):

        scenarios/s1.yaml:24:3: error[HF405] scenario s1: 2-2-14 Mech Bn (C/1) is set up in Lake (0707), prohibited to mech units

    ## Near miss
    Set up in 0505, woods: costly to enter (3 MP for mech) but not prohibited: no finding.
    """
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
    """A line placing more units in its hexes than the stacking limit lets them hold.

    ## What it checks
    Each set-up line, arrival and order-of-arrival line whose location is more than one hex (`any_of`,
    a range, an area) names no more units than its hexes hold at the stacking limit (hexes times
    `rules.stacking.limit`).

    ## Why
    Such a line cannot be placed legally however its units are spread: the count or the hexes were
    misread. It is a warning, since the placer then spreads the rest into a holding box and says so.

    ## Reads
    `game.yaml` `rules.stacking.limit`; the `count` of units and the hexes of locations in
    `scenarios/*.yaml`, `orders-of-arrival.yaml` and `places.yaml` areas.

    ## Violation
    The red turn 3 arrival brings 5 infantry into `any_of: ["0110", "0210"]` at a limit of 2:

        orders-of-arrival.yaml:15:7: warning[HF406] red turn 3: 5 units placed in 0110 or 0210 (2 hex(es)), room for 4 at 2 per hex

    ## Near miss
    4 infantry, exactly the room (2 hexes times 2): no finding.
    """
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
