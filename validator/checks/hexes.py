"""Checks on hex IDs, boards, hexsides, areas and play areas."""
from __future__ import annotations

from . import Finding, check


def _example(ctx) -> str:
    return next(iter(ctx.grid.hexes()), "?")


@check("HF101", "hex-id-malformed", "error",
       "write the hex ID exactly as the map prints it")
def hex_id_malformed(ctx):
    ex = _example(ctx)
    for h, loc, what, _ in ctx.hex_refs():
        if not ctx.grid.is_wellformed(h):
            yield Finding(loc, f"{what}: {h!r} is not a hex ID of this map (they look like {ex})", hexes=(h,),
                          help=f"this map numbers hexes like {ex} ({ctx.grid.scheme} scheme)")


@check("HF102", "hex-off-map", "error",
       "check the hex against the printed map; boards' extents are in map.yaml")
def hex_off_map(ctx):
    for h, loc, what, _ in ctx.hex_refs():
        if ctx.grid.is_wellformed(h) and not ctx.grid.exists(h):
            b = ctx.grid.board(ctx.grid.board_of(h))
            where = f"board {b.id} has columns {b.columns[0]}-{b.columns[1]}, rows {b.rows[0]}-{b.rows[1]}" \
                if b else f"there is no board {ctx.grid.board_of(h)!r}"
            yield Finding(loc, f"{what}: hex {h} is off the map ({where})", hexes=(h,))


@check("HF103", "outside-play-area", "error",
       "set the unit up inside the scenario's play area, or correct the play area")
def outside_play_area(ctx):
    for sc in ctx.game.scenarios:
        in_play = ctx.in_play(sc)
        if in_play is None:
            continue
        for grp in sc.setup:
            for h in grp.location.hex_refs():
                if ctx.grid.exists(h) and not in_play(h):
                    yield Finding(grp.location.loc, f"scenario {sc.id}: set-up hex {h} is outside the play area",
                                  hexes=(h,), units=tuple(ctx.unit_label(p.unit, p.printed) for p in grp.units))


@check("HF104", "hexside-not-adjacent", "error",
       "a hexside lies between two adjacent hexes; check both IDs")
def hexside_not_adjacent(ctx):
    for hs in ctx.game.terrain.hexsides:
        a, b = hs.between
        if ctx.grid.exists(a) and ctx.grid.exists(b) and not ctx.grid.adjacent(a, b):
            yield Finding(hs.loc, f"{hs.feature} hexside between {a} and {b}: the hexes are not adjacent "
                                  f"(distance {ctx.grid.distance(a, b)})", hexes=(a, b))


@check("HF105", "board-join-mismatch", "error",
       "make the boards' `origin` in map.yaml agree with how the rules say they join")
def board_join_mismatch(ctx):
    for j in ctx.game.joins:
        a, b = ctx.grid.board(j["board"]), ctx.grid.board(j["meets"]["board"])
        if a is None or b is None:
            yield Finding(j["loc"], f"join names an unknown board ({j['board']} / {j['meets']['board']})")
            continue
        ca = a.origin[0] + j["column"]
        cb = b.origin[0] + j["meets"]["column"]
        if abs(ca - cb) != 1:
            yield Finding(j["loc"], f"board {a.id} column {j['column']} should meet board {b.id} column "
                                    f"{j['meets']['column']}, but the origins put them {abs(ca - cb)} columns apart")


@check("HF106", "unknown-area", "error",
       "declare the area in places.yaml `areas`, or fix its id")
def unknown_area(ctx):
    g = ctx.game
    for location, loc in ctx.locations():
        for a in ((location.area,) if location.area else ()) + (location.any_area or ()):
            if g.area(a) is None:
                yield Finding(loc, f"area {a!r} is not declared in places.yaml")


@check("HF107", "area-without-hexes", "info",
       "the area's hexes are not in the source; print them in places.yaml when known")
def area_without_hexes(ctx):
    for a in ctx.game.places.areas:
        if a.hexes is None:
            yield Finding(a.loc, f"{a.kind} area {a.id} has no hexes in the source: units using it cannot be "
                                 "placed on a hex")


@check("HF108", "range-not-on-a-line", "warning",
       "a printed hex range runs along a hex row or a map edge; check both ends")
def range_not_on_a_line(ctx):
    for location, loc in ctx.locations():
        if not location.range:
            continue
        a, b = location.range
        if not (ctx.grid.exists(a) and ctx.grid.exists(b)):
            continue
        ha, hb = ctx.grid.parse(a), ctx.grid.parse(b)
        ca, cb = ctx.grid.cube(a), ctx.grid.cube(b)
        straight = ha.column == hb.column or ha.row == hb.row or any(x == y for x, y in zip(ca, cb))
        if not straight:
            yield Finding(loc, f"hex range {a} to {b} is neither one column, one row nor a straight hex line",
                          hexes=(a, b))


@check("HF109", "scenario-hex-outside-play-area", "warning",
       "a hex the scenario names for entry, supply, victory or a marker lies outside its play area: check it")
def scenario_hex_outside_play_area(ctx):
    for sc in ctx.game.scenarios:
        in_play = ctx.in_play(sc)
        if in_play is None:
            continue
        named = [(h, a.entry.loc, f"turn {b.turn} entry") for o in sc.reinforcements
                 for _, b, a in ctx.arrivals_of(o) for h in a.entry.hex_refs()]
        named += [(f.hex, f.loc, f.kind) for f in sc.features]
        named += [(h, s.get("loc", sc.loc), f"{s.get('side')} supply source") for s in sc.supply_sources
                  for h in s.get("hexes") or ()]
        named += [(h, sc.victory.get("loc", sc.loc), "victory hex") for h in (sc.victory or {}).get("hexes") or ()]
        for h, loc, what in named:
            if ctx.grid.exists(h) and not in_play(h):
                yield Finding(loc, f"scenario {sc.id}: {what} {h} is outside the play area", hexes=(h,))
