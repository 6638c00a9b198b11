"""Reinforcements and removals: units enter on their printed turn at their printed entry; removed
units stay out; a unit no list places does not appear."""
from __future__ import annotations

from typing import Optional

from ..record import Moved, Placed
from . import Finding, rule
from .start import location_hexes, slots


_ENTERING = (Moved, Placed)                    # the events that can bring a unit onto the map


def _entering(m):
    """(counter, hex) when an event brings a unit onto the map from off it, else None."""
    ev = m.event
    if isinstance(ev, Moved) and ev.src.hex is None and ev.dst.hex is not None:
        return ev.counter, ev.dst.hex
    if isinstance(ev, Placed) and ev.where.hex is not None:
        return ev.counter, ev.where.hex
    return None


def _unit_entering(ctx, m):
    """(counter, hex) when a unit enters the map in a scenario's game (what the arrival rules judge)."""
    hit = _entering(m)
    return hit if hit is not None and hit[0].kind == "unit" and ctx.scenario is not None else None


def arrival_entries(ctx) -> list:
    """(key, unit, turn index, turn id, hexes or None, count, condition, rule, printed entry, side, gap,
    entry rule) per unit line; the entry rule is the entry area's where it has one."""
    if "arrival_entries" in ctx.memo:
        return ctx.memo["arrival_entries"]
    out = []
    sc = ctx.scenario
    for oi, ooa in enumerate(ctx.game.scenario_arrivals(sc) if sc else ()):
        for b in ooa.turns:
            t = ctx.game.turn(b.turn)
            for ai, a in enumerate(b.arrivals):
                hexes = location_hexes(ctx.game, a.entry)
                for p in a.units:
                    out.append(((oi, b.turn, ai, p.unit), p.unit, t.index if t else None, b.turn, hexes, p.count,
                                a.condition, ooa.rule, str(a.entry), ooa.side, a.gap, _entry_rule(ctx, a) or ooa.rule))
    ctx.memo["arrival_entries"] = out
    return out


def _entry_rule(ctx, a) -> Optional[str]:
    area = ctx.game.area(a.entry.area) if getattr(a.entry, "area", None) else None
    return area.rule if area else None


def _in_setup(ctx, uid: str) -> bool:
    if "setup_units" not in ctx.memo:
        ctx.memo["setup_units"] = {s.unit for s in slots(ctx.game, ctx.scenario)} if ctx.scenario else set()
    return uid in ctx.memo["setup_units"]


def _turn_index(ctx) -> Optional[int]:
    t = ctx.game.turn(ctx.turn) if ctx.turn else None
    return t.index if t else None


def _gap_for_side(ctx, side) -> Optional[str]:
    """A declared gap that may hide this side's unit (a set-up or arrival line printed without units)."""
    sc = ctx.scenario
    if sc is None:
        return None
    for grp in sc.setup:
        if grp.gap and grp.side == side:
            return grp.gap
    for e in arrival_entries(ctx):
        if e[10] and e[9] == side:
            return e[10]
    return None


def _best(fits: list):
    """The arrival line an entering unit most likely is: a printed entry before an unprinted one."""
    return max(fits, key=lambda e: (e[4] is not None, e[2]))


def consume(ctx, c, h: str) -> None:
    """After the rules: the arrival line this unit used (the replay calls it once per entering unit)."""
    now = _turn_index(ctx)
    if ctx.scenario is None or now is None:
        return
    due = [e for e in arrival_entries(ctx) if e[1] == c.unit and e[2] is not None and e[2] <= now
           and ctx.arrivals_used.get(e[0], 0) < e[5]]
    fits = [e for e in due if e[4] is None or h in e[4]] or due
    if fits:
        e = _best(fits)
        ctx.arrivals_used[e[0]] = ctx.arrivals_used.get(e[0], 0) + 1


@rule("HF1401", "arrival-too-early", "error",
      "bring the reinforcement in on the turn its order of arrival prints", events=_ENTERING, read_as=("entry",))
def arrival_too_early(ctx, m):
    hit = _unit_entering(ctx, m)
    if hit is None:
        return
    c, h = hit
    entries = [e for e in arrival_entries(ctx) if e[1] == c.unit]
    now = _turn_index(ctx)
    if not entries or now is None:
        return
    due = [e for e in entries if e[2] is not None and e[2] <= now and ctx.arrivals_used.get(e[0], 0) < e[5]]
    if not due and all(e[2] is not None and e[2] > now for e in entries):
        first = min(entries, key=lambda e: e[2])
        cond = next((e[6] for e in entries if e[6]), None)
        yield Finding(f"{ctx.label(c)} enters at {h} on turn {ctx.turn}; its order of arrival brings it on turn "
                      f"{first[3]}" + (f" (legal only if its condition allows it earlier: {cond})" if cond else ""),
                      hexes=(h,), units=(ctx.label(c),), rule=first[7], side=ctx.side_of(c),
                      severity="info" if cond else None,
                      help="not verified: the arrival's condition may bring it in earlier" if cond else None)


@rule("HF1402", "arrival-wrong-entry", "error",
      "bring the reinforcement in at the entry hex or area its order of arrival prints",
      events=_ENTERING, read_as=("entry",))
def arrival_wrong_entry(ctx, m):
    hit = _unit_entering(ctx, m)
    if hit is None:
        return
    c, h = hit
    now = _turn_index(ctx)
    due = [e for e in arrival_entries(ctx) if e[1] == c.unit and e[2] is not None and now is not None
           and e[2] <= now and ctx.arrivals_used.get(e[0], 0) < e[5]]
    if not due:
        return
    fits = [e for e in due if e[4] is None or h in e[4]]
    if fits:
        e = _best(fits)
        if e[4] is None:
            ctx.partly(m.step.index, f"{ctx.label(c)}: the hexes of entry {e[8]} are not printed")
        if e[6]:
            ctx.partly(m.step.index, f"{ctx.label(c)}: arrival condition not verified ({e[6]})")
        return
    e = min(due, key=lambda e: e[2])
    yield Finding(f"{ctx.label(c)} enters at {h}; its order of arrival (turn {e[3]}) brings it in at {e[8]}",
                  hexes=(h,) + tuple(sorted(e[4] or ()))[:4], units=(ctx.label(c),), rule=e[11], side=ctx.side_of(c))


@rule("HF1403", "unit-from-nowhere", "error",
      "only units of the scenario's set-up and orders of arrival enter play", events=_ENTERING, read_as=("entry",))
def unit_from_nowhere(ctx, m):
    hit = _unit_entering(ctx, m)
    if hit is None:
        return
    c, h = hit
    if c.piece in ctx.removed or _in_setup(ctx, c.unit) or any(e[1] == c.unit for e in arrival_entries(ctx)):
        return
    gap = _gap_for_side(ctx, ctx.side_of(c))
    if gap:
        yield Finding(f"{ctx.label(c)} enters at {h} but is in no set-up or order of arrival of scenario "
                      f"{ctx.scenario.id}; it may stand for a line printed without its units (gap {gap})",
                      hexes=(h,), units=(ctx.label(c),), severity="info", side=ctx.side_of(c),
                      help="not verified: a declared gap may hide this unit")
        return
    yield Finding(f"{ctx.label(c)} enters at {h} but is in no set-up or order of arrival of scenario "
                  f"{ctx.scenario.id}", hexes=(h,), units=(ctx.label(c),), side=ctx.side_of(c))


@rule("HF1404", "removed-unit-returns", "warning",
      "a unit removed from play comes back only where the rules allow it (replacements)",
      events=_ENTERING, read_as=("entry",))
def removed_unit_returns(ctx, m):
    hit = _entering(m)
    if hit is None:
        return
    c, h = hit
    if c.piece in ctx.removed:
        step, _, where = ctx.removed[c.piece]
        yield Finding(f"{ctx.label(c)}, removed from {where} at step {step}, comes back at {h}", hexes=(h,),
                      units=(ctx.label(c),), side=ctx.side_of(c))


@rule("HF1405", "arrival-beyond-count", "error",
      "bring in only as many of a unit as its orders of arrival print by this turn",
      events=_ENTERING, read_as=("entry",))
def arrival_beyond_count(ctx, m):
    hit = _unit_entering(ctx, m)
    if hit is None:
        return
    c, h = hit
    now = _turn_index(ctx)
    entries = [e for e in arrival_entries(ctx) if e[1] == c.unit]
    if not entries or now is None or c.piece in ctx.removed or _in_setup(ctx, c.unit):
        return
    due = [e for e in entries if e[2] is not None and e[2] <= now]
    if due and all(ctx.arrivals_used.get(e[0], 0) >= e[5] for e in due):
        yield Finding(f"{ctx.label(c)} enters at {h}: its orders of arrival bring {sum(e[5] for e in due)} by "
                      f"turn {ctx.turn}, and as many have entered already", hexes=(h,), units=(ctx.label(c),),
                      rule=due[0][7], side=ctx.side_of(c))
