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
    """A unit id in a set-up, arrival or removal that counters.yaml does not have.

    ## What it checks
    Every unit line of every scenario's set-up, reinforcements and removals, and of the orders of
    arrival, names a unit id of the counter manifest.

    ## Why
    The manifest is where a unit's factors, side and counter art come from; a line naming an unknown id
    (a typo, or a counter not yet transcribed) could be neither printed, placed in the module nor judged.

    ## Reads
    `counters.yaml` `units[].id`; the `unit` of every line in `scenarios/*.yaml` and
    `orders-of-arrival.yaml`.

    ## Violation
    Scenario s1's set-up line at 0302 names `unit: nope`:

        scenarios/s1.yaml:27:5: error[HF201] scenario s1 set-up: unit id 'nope' is not in counters.yaml

    ## Near miss
    A new unit `b1-d` added to counters.yaml, then set up at 0302: no finding.
    """
    for _, p, _, where in _placements(ctx):
        if ctx.game.unit(p.unit) is None:
            yield Finding(p.loc, f"{where}: unit id {p.unit!r} is not in counters.yaml",
                          units=(p.printed or p.unit,))


@check("HF202", "unknown-formation", "error", "declare the formation in counters.yaml `formations`")
def unknown_formation(ctx):
    """A formation counters.yaml does not declare, named by a unit, a set-up heading or an arrival.

    ## What it checks
    Every `formation` of a unit, of a scenario's set-up heading and of an arrival is declared under
    `formations` in counters.yaml.

    ## Why
    Formations group the counter palette and sheets, name the divisions on set-up cards, and are what
    divisional integrity and the formation-distance check compare; an undeclared one is a typo or a
    missing entry.

    ## Reads
    `counters.yaml` `formations[].id`, `units[].formation`; `formation` of `setup` headings and
    arrivals in `scenarios/*.yaml` and `orders-of-arrival.yaml`.

    ## Violation
    Unit b1-a says `formation: b9`; only b1, b2 and r1 are declared:

        counters.yaml:15:3: error[HF202] unit 3-5-10 Inf Bn (A/1): formation 'b9' is not declared

    ## Near miss
    `formation: b2`, a declared formation: no finding.
    """
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
    """A side or nationality that game.yaml does not declare.

    ## What it checks
    Every unit's `side` and `nationality`, every formation's side, every set-up heading's side and
    every order of arrival's side is declared in game.yaml (`sides[].id`, `sides[].nationalities[].id`).

    ## Why
    Sides decide who moves in which phase and who may stack together; nationalities decide counter
    colours and the nationality mixing rules. An undeclared one has no colour, no phase and no rules.

    ## Reads
    `game.yaml` `sides[]` and their `nationalities[]`; `side` and `nationality` in `counters.yaml`,
    `scenarios/*.yaml` and `orders-of-arrival.yaml`.

    ## Violation
    Unit b1-a says `nationality: xx`:

        counters.yaml:15:3: error[HF203] unit 3-5-10 Inf Bn (A/1): nationality 'xx' is not declared

    ## Near miss
    Unit b2-a with `nationality: cy` (declared under side blue): no finding.
    """
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
    """Two entries of one kind with the same id.

    ## What it checks
    Ids are unique within their kind: units, markers, formations, turns, scenarios, areas, places,
    tables, TEC terrain rows, nationalities and sides.

    ## Why
    Everything downstream finds an entry by its id (a set-up line by unit id, a phase by turn id); with
    two entries of one id the second would silently stand for the first.

    ## Reads
    The `id` of every unit and marker (`counters.yaml`), formation, turn (`game.yaml` `turns`),
    scenario, area and place (`places.yaml`), table (`tables.yaml`), TEC row (`tec.yaml`), side and
    nationality (`game.yaml`).

    ## Violation
    counters.yaml lists unit b1-a a second time:

        counters.yaml:96:3: error[HF204] unit id 'b1-a' is used twice (first at line 15)

    ## Near miss
    The copy renamed `b1-a2`: two units, two ids: no finding.
    """
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
    """A unit listed under the other side, or a unit whose formation is the other side's.

    ## What it checks
    Every unit line under a side (a set-up heading's `side`, an order of arrival's `side`) names a unit
    of that side; every unit's formation belongs to the unit's own side.

    ## Why
    Who may move a unit, which phase it acts in and whose reinforcement it is follow the side it is
    listed under; a unit under the wrong side is a line copied into the wrong list.

    ## Reads
    `counters.yaml` `units[].side`, `units[].formation`, `formations[].side`; the `side` of set-up
    headings and orders of arrival.

    ## Violation
    Red's 4-4-12 Pz Bn is added to a blue set-up line:

        scenarios/s1.yaml:29:5: error[HF205] scenario s1 set-up: 4-4-12 Pz Bn (I/1) belongs to side red but is listed for blue

    ## Near miss
    A new blue unit added to the same blue line: no finding.
    """
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
    """A one-of-a-kind counter set up twice in one scenario.

    ## What it checks
    Within each scenario's set-up, a unit whose counter mix is one counter (`count: 1`, the default for
    a named unit) appears on one line only. Generic counters (`count` above 1) are HF208's.

    ## Why
    There is one counter of the 3-5-10 Inf Bn (A/1); two set-up lines naming it are a misread line or a
    line copied into the wrong hex, and the module cannot put one counter on two hexes.

    ## Reads
    `scenarios/<id>.yaml` `setup[].units[].unit`; `counters.yaml` `units[].count`.

    ## Violation
    Scenario s1 sets A/1 up at 0202 and again at 0302:

        scenarios/s1.yaml:29:5: error[HF206] scenario s1: 3-5-10 Inf Bn (A/1) is set up twice (0202 and 0302)

    ## Near miss
    B/1 moved from 0202 to 0302 (taken off its first line): each counter set up once: no finding.
    """
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
    """A one-of-a-kind counter that arrives twice, or arrives although it is already set up.

    ## What it checks
    For each scenario, every unit of one counter arrives at most once in the reinforcements it uses
    (its own and the game's orders of arrival it names), and not at all if its set-up places it.

    ## Why
    A counter enters play once; arriving twice, or arriving while it stands on the map, is a unit copied
    into two turns or into both the set-up and the orders of arrival.

    ## Reads
    `scenarios/<id>.yaml` `setup`, `reinforcements` and `orders_of_arrival`; `orders-of-arrival.yaml`;
    `counters.yaml` `units[].count`.

    ## Violation
    Scenario s1 sets up the Arty Rgt at 0909; the red order of arrival also brings it on turn 2:

        orders-of-arrival.yaml:9:17: error[HF207] scenario s1: [6]-1-12 Arty Rgt (1) arrives on turn 2 but is already set up at 0909

    ## Near miss
    The Pz Bn (set up at 0808, arriving on no turn) moved to 0909: no finding.
    """
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
    """More generic counters set up than the counter mix has.

    ## What it checks
    For each scenario, the set-up's total `count` of a generic unit (one whose manifest `count` is above
    1: "3 × 1-1-7 infantry") is at most the number of counters in the mix.

    ## Why
    A set-up cannot use counters the game does not have: the count was misread, or the manifest's count
    is wrong.

    ## Reads
    `counters.yaml` `units[].count`; `scenarios/<id>.yaml` `setup[].units[].count`.

    ## Violation
    The mix has 3 counters of 1-1-7 infantry; scenario s1 sets up 4:

        scenarios/s1.yaml:39:5: error[HF208] scenario s1: 4 × 1-1-7 infantry set up, but the mix has 3

    ## Near miss
    `count: 3`, exactly the mix: no finding.
    """
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
    """A set-up line or arrival with a place but no unit.

    ## What it checks
    Every set-up line of a scenario, every arrival of its reinforcements and of the orders of arrival
    names at least one unit, unless it stands for a declared gap (`gap:` naming an entry of
    `game.yaml` `gaps`).

    ## Why
    A printed line with a hex and no unit is a unit lost in transcription. Where the rulebook itself
    leaves it out, the tree says so with `gap:` and the gap is reported (HF901) instead.

    ## Reads
    `units` and `gap` of `scenarios/*.yaml` set-up lines and arrivals and of `orders-of-arrival.yaml`;
    `game.yaml` `gaps[].id`.

    ## Violation
    Scenario s1 gains a blue set-up line at 0404 with `units: []`:

        scenarios/s1.yaml:41:3: error[HF209] scenario s1: set-up line at 0404 names no unit

    ## Near miss
    The same line with a unit, or with `units: []` and `gap: oob` where game.yaml declares the gap
    `oob`: no finding.
    """
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
    """A list line whose number of counters is not printed.

    ## What it checks
    Every unit line whose `count` is left out (`count: null`: the list prints a unit without saying how
    many) in set-ups, arrivals and removals is reported.

    ## Why
    A count the rulebook does not print is not made up: the line is placed with one counter and the
    warning says to read the number off the counter sheet.

    ## Reads
    `count` of the unit lines in `scenarios/*.yaml` and `orders-of-arrival.yaml`.

    ## Violation
    The red turn 3 arrival lists 1-1-7 infantry with `count: null`:

        orders-of-arrival.yaml:20:9: warning[HF210] orders of arrival, red turn 3: no count printed for 1-1-7 infantry

    ## Near miss
    `count: 1` (or the key left out for a named unit, which means one): no finding.
    """
    for _, p, _, where in _placements(ctx):
        if not p.count_printed:
            yield Finding(p.loc, f"{where}: no count printed for {ctx.unit_label(p.unit, p.printed)}",
                          units=(ctx.unit_label(p.unit, p.printed),))


@check("HF211", "unit-never-used", "warning",
       "the counter is in the manifest but no set-up or order of arrival uses it: check the lists")
def unit_never_used(ctx):
    """A counter in the manifest that no set-up, arrival, removal or map feature uses.

    ## What it checks
    Every unit of counters.yaml is named by some set-up line, arrival, removal, a scenario's special
    rule or a map feature. Where a scenario's set-up is not printed the finding is a note, as unused
    counters are then expected.

    ## Why
    A counter no list uses is usually a line missing from a set-up or an order of arrival (or a counter
    transcribed twice under two ids).

    ## Reads
    `counters.yaml` `units`; every unit line of `scenarios/*.yaml` and `orders-of-arrival.yaml`,
    `special_rules[].units`, `places.yaml` `features[].unit`, `setup_printed`.

    ## Violation
    A second Cyanian company `cy-b` is added to counters.yaml and placed nowhere:

        counters.yaml:96:3: warning[HF211] unit 1-1-8 Inf Co (Cy) is in the manifest but in no set-up, arrival or removal

    ## Near miss
    A new unit added and set up at 0302: no finding.
    """
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
    """A unit printed in a list with other factors than its counter.

    ## What it checks
    Where a list line prints the unit (`printed: "3-5-8 Inf Bn (A/1)"`), the factors it starts with are
    the manifest's factors for that unit.

    ## Why
    The same unit must carry the same values everywhere; a list printing 3-5-8 where the counter shows
    3-5-10 is a misprint in one of them, and the players would not know which to use.

    ## Reads
    `printed` of the unit lines; `counters.yaml` `units[].factors`.

    ## Violation
    Scenario s1 prints A/1 as `3-5-8 Inf Bn (A/1)`; the counter is 3-5-10:

        scenarios/s1.yaml:20:5: warning[HF301] scenario s1 set-up: 3-5-10 Inf Bn (A/1) printed as 3-5-8 here, 3-5-10 in the counter manifest

    ## Near miss
    `printed: "3-5-10 Inf Bn (A/1)"`, the counter's own factors: no finding.
    """
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
    """A unit printed in a list with another type or ID than its counter.

    ## What it checks
    Where a list line prints the unit, the text after its factors (the kind, "Inf Bn(+)", and the IDs in
    its last brackets, "(A/26, B/26)") reads as the manifest's name for the unit; a line may name
    several units of one kind at once.

    ## Why
    A line printing "Mech Bn" for an infantry battalion, or another battalion's ID, means the line or the
    unit id was transcribed wrong.

    ## Reads
    `printed` of the unit lines; `counters.yaml` `units[].name`.

    ## Violation
    Scenario s1 prints A/1 as `3-5-10 Mech Bn (A/1)`; the manifest says `3-5-10 Inf Bn (A/1)`:

        scenarios/s1.yaml:20:5: warning[HF302] scenario s1 set-up: printed as '3-5-10 Mech Bn (A/1)', the manifest says '3-5-10 Inf Bn (A/1)'

    ## Near miss
    The line with no `printed` text (nothing to compare): no finding.
    """
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
    """A counter's factors that do not read as the game's factors.

    ## What it checks
    Every unit's front and reduced factors split into as many numbers as game.yaml's `factors` names
    (`attack-defense-movement`), each readable as a value.

    ## Why
    Stacking by steps, combat odds and movement allowances are read from the factors; "2-7" on a
    three-factor counter leaves one of them unknown.

    ## Reads
    `game.yaml` `factors`; `counters.yaml` `units[].factors` and `reduced`.

    ## Violation
    Unit b1-a's factors are `2-7` in a game whose counters print attack-defense-movement:

        counters.yaml:15:3: warning[HF303] unit 3-5-10 Inf Bn (A/1): front factors '2-7' do not read as attack-defense-movement

    ## Near miss
    `factors: 2-7-9`, three factors: no finding.
    """
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
    """A unit set up far from every other unit of its formation.

    ## What it checks
    For each scenario and each formation with units on at least three distinct hexes at set-up, each of
    its units is within `rules.other.formation_radius` hexes (default 8) of another hex of that
    formation.

    ## Why
    Divisions set up together; one battalion many hexes from the rest of its division is most often a
    misread hex ID (0909 for 0303).

    ## Reads
    `game.yaml` `rules.other.formation_radius`; the set-up hexes of `scenarios/*.yaml`; `counters.yaml`
    `units[].formation`.

    ## Violation
    With `formation_radius: 3`, 1st Blue Div stands at 0202, 0203 and, for C/1, 0909:

        scenarios/s1.yaml:25:5: warning[HF304] scenario s1: 2-2-14 Mech Bn (C/1) at 0909 is 10 hexes from the nearest other unit of 1st Blue Div

    ## Near miss
    The same set-up with `formation_radius: 12`: C/1 is 10 hexes away, within it: no finding.
    """
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
