"""Checks on hex IDs, boards, hexsides, areas and play areas."""
from __future__ import annotations

from . import Finding, check


def _example(ctx) -> str:
    return next(iter(ctx.grid.hexes()), "?")


@check("HF101", "hex-id-malformed", "error",
       "write the hex ID exactly as the map prints it")
def hex_id_malformed(ctx):
    """A hex ID the tree names that is not written in the map's hex-ID scheme.

    ## What it checks
    Every hex ID anywhere in the tree (terrain, hexsides, roads and tracks, places, victory hexes, areas,
    map features, supply sources, set-ups, deployments, arrivals) parses as an ID of the map's scheme:
    `letters` (`TT15`), `column-row` (`0409`, padded to `id_format` digits) or `map-column.row` (`B27.49`).

    ## Why
    Hex IDs are written exactly as the rulebook prints them, so a unit, a road or an arrival lands on
    the hex the player reads on the map. An ID that does not parse names no hex at all: the module could
    not place the unit and the referee could not judge a move to it.

    ## Reads
    `map.yaml` `scheme`, `id_format` (`column_digits`, `row_digits`) and board ids; every hex ID of
    every other file.

    ## Violation
    On a `column-row` map (`0101` to `1010`), a set-up line of scenarios/s1.yaml writes `hex: 5A`:

        scenarios/s1.yaml:25:8: error[HF101] set-up: '5A' is not a hex ID of this map (they look like 0101)

    ## Near miss
    `hex: "0510"` is written in the scheme and on the map: no finding. (`1111` is well formed too: it
    is HF102's, off the map, not this one.)
    """
    ex = _example(ctx)
    for h, loc, what, _ in ctx.hex_refs():
        if not ctx.grid.is_wellformed(h):
            yield Finding(loc, f"{what}: {h!r} is not a hex ID of this map (they look like {ex})", hexes=(h,),
                          help=f"this map numbers hexes like {ex} ({ctx.grid.scheme} scheme)")


@check("HF102", "hex-off-map", "error",
       "check the hex against the printed map; boards' extents are in map.yaml")
def hex_off_map(ctx):
    """A well-formed hex ID that lies on no board of the map.

    ## What it checks
    Every hex ID the tree names that is written in the map's scheme (HF101 passes) lies inside a board:
    its board exists and its column and row are within that board's `columns` and `rows`.

    ## Why
    A hex past the printed edge cannot be on the map the players use; it is a misread digit (`1111` for
    `1011`) or a board extent in map.yaml that is too small.

    ## Reads
    `map.yaml` `boards[]`: `id`, `columns`, `rows`; every hex ID of the tree.

    ## Violation
    The map is one board, columns 1-10 and rows 1-10; a set-up line says `hex: "1111"`:

        scenarios/s1.yaml:25:8: error[HF102] set-up: hex 1111 is off the map (board main has columns 1-10, rows 1-10)

    ## Near miss
    `hex: "1010"`, the board's last column and row, is on the map: no HF102 (scenario s1's play area
    ends at column 9, so it is HF103's instead).
    """
    for h, loc, what, _ in ctx.hex_refs():
        if ctx.grid.is_wellformed(h) and not ctx.grid.exists(h):
            b = ctx.grid.board(ctx.grid.board_of(h))
            where = f"board {b.id} has columns {b.columns[0]}-{b.columns[1]}, rows {b.rows[0]}-{b.rows[1]}" \
                if b else f"there is no board {ctx.grid.board_of(h)!r}"
            yield Finding(loc, f"{what}: hex {h} is off the map ({where})", hexes=(h,))


@check("HF103", "outside-play-area", "error",
       "set the unit up inside the scenario's play area, or correct the play area")
def outside_play_area(ctx):
    """A unit set up on a hex outside its scenario's play area.

    ## What it checks
    For each scenario that limits where it is played (`play_area`, or `boards` naming only some of the
    boards), every hex its set-up lines name is on one of those boards and inside the play area.

    ## Why
    A scenario's rules print the part of the map it uses; a unit set up outside it is a misread hex, or
    a play area transcribed too small. Either way the module would set up a unit the players cannot use.

    ## Reads
    `scenarios/<id>.yaml` `play_area` (column and row ranges per board), `boards`, and the `setup` lines'
    locations; `map.yaml` boards.

    ## Violation
    Scenario s1 is played on columns 1-9, rows 1-10, and sets up a unit at 1005:

        scenarios/s1.yaml:25:8: error[HF103] scenario s1: set-up hex 1005 is outside the play area

    ## Near miss
    `hex: "0910"`, the play area's last column and last row, is inside it: no finding.
    """
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
    """A hexside feature between two hexes that do not touch.

    ## What it checks
    Each `hexsides` entry of terrain.yaml names two hexes (`between`) that exist and are adjacent: the
    feature (a river, a bridge, a border) lies along the side they share.

    ## Why
    A hexside is the edge two neighbouring hexes share; between hexes apart there is no edge, so the
    river or bridge would be drawn nowhere and no move across it could be costed.

    ## Reads
    `terrain.yaml` `hexsides[].between` and `feature`; the map's grid (`map.yaml` orientation, shift).

    ## Violation
    A river `between: ["0303", "0306"]`, three hexes apart in one column:

        terrain.yaml:8:3: error[HF104] river hexside between 0303 and 0306: the hexes are not adjacent (distance 3)

    ## Near miss
    `between: ["0303", "0403"]`: neighbours in adjacent columns, a hexside: no finding.
    """
    for hs in ctx.game.terrain.hexsides:
        a, b = hs.between
        if ctx.grid.exists(a) and ctx.grid.exists(b) and not ctx.grid.adjacent(a, b):
            yield Finding(hs.loc, f"{hs.feature} hexside between {a} and {b}: the hexes are not adjacent "
                                  f"(distance {ctx.grid.distance(a, b)})", hexes=(a, b))


@check("HF105", "board-join-mismatch", "error",
       "make the boards' `origin` in map.yaml agree with how the rules say they join")
def board_join_mismatch(ctx):
    """Boards whose origins in map.yaml do not join them as the rules say.

    ## What it checks
    Each printed statement of how two boards meet (`joins`: board B's column 1 meets board A's column 40)
    agrees with the boards' `origin` offsets: the two columns are next to each other on the joined play
    surface. A join naming a board map.yaml does not declare is reported too.

    ## Why
    Moves, distances, ranges and the module's board layout across a seam all come from the origins. A
    join the rules print and the origins contradict would put every hex of one board a column off.

    ## Reads
    `map.yaml` `joins[]` (`board`, `column`, `meets.board`, `meets.column`) and `boards[].origin`.

    ## Violation
    A join says board main's column 1 meets its own column 5; the origins put them 4 columns apart:

        map.yaml:13:3: error[HF105] board main column 1 should meet board main column 5, but the origins put them 4 columns apart

    ## Near miss
    Column 1 meeting column 2 (the columns are next to each other): no finding.
    """
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
    """An arrival, set-up or deployment whose area places.yaml does not declare.

    ## What it checks
    Every location given as an area (`area: E`, or one of `any_area`) in set-ups, deployments and
    arrivals names an area declared under `areas` in places.yaml.

    ## Why
    Reinforcements arriving "at Entry Area E" are placed, drawn and judged by the area's hexes; an area
    id that is not declared (a typo, or an area never transcribed) gives them no place.

    ## Reads
    `places.yaml` `areas[].id`; the `area` and `any_area` of every location in `scenarios/*.yaml` and
    `orders-of-arrival.yaml`.

    ## Violation
    An arrival of orders-of-arrival.yaml enters at `{area: Z}`, and places.yaml declares only area E:

        orders-of-arrival.yaml:7:7: error[HF106] area 'Z' is not declared in places.yaml

    ## Near miss
    The same arrival once places.yaml declares `{id: Z, kind: entry, hexes: ["0109"]}`: no finding.
    """
    g = ctx.game
    for location, loc in ctx.locations():
        for a in ((location.area,) if location.area else ()) + (location.any_area or ()):
            if g.area(a) is None:
                yield Finding(loc, f"area {a!r} is not declared in places.yaml")


@check("HF107", "area-without-hexes", "info",
       "the area's hexes are not in the source; print them in places.yaml when known")
def area_without_hexes(ctx):
    """An entry or deployment area declared without its hexes.

    ## What it checks
    Each area of places.yaml whose `hexes` are left out (the rulebook names the area but does not print
    which hexes it holds) is reported once.

    ## Why
    Nothing is made up: units that enter or deploy in such an area cannot be put on a hex, so the module
    holds them in a box and the referee cannot judge where they entered. The note says so on every run,
    until the hexes are found and printed in the tree.

    ## Reads
    `places.yaml` `areas[]`: `id`, `kind`, `hexes`.

    ## Violation
    places.yaml declares `{id: N, kind: entry, hexes: null}`:

        places.yaml:17:3: note[HF107] entry area N has no hexes in the source: units using it cannot be placed on a hex

    ## Near miss
    `{id: N, kind: entry, hexes: ["0101"]}`: the area has a hex: no finding.
    """
    for a in ctx.game.places.areas:
        if a.hexes is None:
            yield Finding(a.loc, f"{a.kind} area {a.id} has no hexes in the source: units using it cannot be "
                                 "placed on a hex")


@check("HF108", "range-not-on-a-line", "warning",
       "a printed hex range runs along a hex row or a map edge; check both ends")
def range_not_on_a_line(ctx):
    """A printed hex range whose two ends do not lie on one line of hexes.

    ## What it checks
    Each location written as a range (`range: ["0101", "0104"]`: the hexes from one end to the other)
    has both ends on one column, one row, or one straight line of hexes (the same cube coordinate).

    ## Why
    A printed range runs along a hex row or a map edge ("2630-3028"); ends that do not line up mean one
    end was misread, and the hexes between them would be a guess.

    ## Reads
    `range` locations in `scenarios/*.yaml` and `orders-of-arrival.yaml`; the map's grid.

    ## Violation
    An arrival at `range: ["0101", "0504"]`:

        orders-of-arrival.yaml:15:7: warning[HF108] hex range 0101 to 0504 is neither one column, one row nor a straight hex line

    ## Near miss
    `range: ["0101", "0104"]`, four hexes down one column: no finding.
    """
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
    """A hex a scenario names for entry, supply, victory or a marker, outside its play area.

    ## What it checks
    For a scenario with a play area, every hex its own data names besides the set-up (reinforcement
    entry hexes, map features it places, its supply sources, its victory hexes) is inside the play area.

    ## Why
    A victory hex or an entry hex outside the area the scenario is played on can never be reached; it is
    usually a misread hex or a play area transcribed too small. It is a warning, as some scenarios do
    let units enter from off their play area.

    ## Reads
    `scenarios/<id>.yaml` `play_area`, `boards`, `reinforcements` entries, `features`, `supply_sources`
    and `victory.hexes`.

    ## Violation
    Scenario s1 (columns 1-9) makes 1005 a victory hex:

        scenarios/s1.yaml:61:3: warning[HF109] scenario s1: victory hex 1005 is outside the play area

    ## Near miss
    `victory: {hexes: ["0910"]}`, the play area's corner: no finding.
    """
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
