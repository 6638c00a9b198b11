"""A small hand-built `Game` for the counter and chart tests (no YAML, no loader needed).

It holds one of everything the charts draw: two sides, three nationalities, generic counters,
a unit whose reduced side is not printed, a one-step unit, an incomplete CRT and TEC, a turn
track with AM/PM turns, an order of arrival and one scenario with a play area.
"""
from __future__ import annotations

import dataclasses

from validator.geometry.hexgrid import Board, Grid
from validator.source.model import (
    CombatRule, StackingRule, ZocRule,
    DRM, TEC, Area, Arrival, Box, Deployment, Dice, Factors, Formation, Game, HexTerrain, Location, Marker,
    Nationality, OrderOfArrival, Place, Placement, Places, Removal, ResultCode, Rules, Scenario,
    SetupGroup, Side, Table, TableRow, Terrain, TerrainType, Turn, TurnBlock, Unit, VictoryHex,
)


def F(printed, names=("attack", "defense", "movement")):
    if printed is None:
        return None
    parts = printed.split("-")
    vals = {}
    for n, p in zip(names, parts):
        p = p.strip("[]")
        vals[n] = int(p) if p.isdigit() else None
    return Factors(printed, vals, printed.startswith("["))


def U(uid, side, nat, formation, type_, size, factors, reduced=None, steps=2, count=1, label=None,
      flags=(), rng=None, name=None):
    return Unit(id=uid, name=name or (f"{factors} {type_} ({label})" if label else f"{factors} {type_}"), label=label, side=side,
                nationality=nat, formation=formation, type=type_, size=size, factors=F(factors),
                movement_class="leg", range=rng, steps=steps, reduced=F(reduced), flags=tuple(flags),
                count=count, provenance="printed")


def P(uid, count=1, state=()):
    return Placement(unit=uid, printed=None, state=tuple(state), count=count)


def make(cls, **kw):
    """cls(**kw), with a neutral empty value for any required field the model gained since."""
    names = {f.name for f in dataclasses.fields(cls)}
    for f in dataclasses.fields(cls):
        if f.name in kw or f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            continue
        ann = str(f.type)
        kw[f.name] = () if ann.startswith("tuple") else {} if ann.startswith("dict") else None
    return cls(**{k: v for k, v in kw.items() if k in names})


def build_index(g: Game) -> Game:
    ix = g._index
    ix["units"] = {u.id: u for u in g.units}
    ix["formations"] = {f.id: f for f in g.formations}
    ix["sides"] = {s.id: s for s in g.sides}
    ix["turns"] = {t.id: t for t in g.turns}
    ix["areas"] = {a.id: a for a in g.places.areas}
    ix["terrain_types"] = {t.id: t for t in (g.tec.terrain if g.tec else ())}
    ix["nationalities"] = {n.id: n for s in g.sides for n in s.nationalities}
    ix["scenarios"] = {s.id: s for s in g.scenarios}
    ix["hex_terrain"] = {h.hex: h.terrain for h in g.terrain.hexes}
    return g


def sample_game(counter_size_in: float = 0.5625, tables_complete: bool = False, tec_complete: bool = False,
                many_units: int = 0) -> Game:
    us = Nationality("us", "US", "allied", "#5b7f3a", "#000000")
    uk = Nationality("uk", "UK", "allied", "#a07a4a", "#ffffff")
    de = Nationality("de", "German", "axis", "#8a8a8a", "#000000")
    ss = Nationality("ss", "SS", "axis", "#111111", "#ffffff")
    sides = (Side("allied", "Allied", (us, uk)), Side("axis", "German", (de, ss)))
    turns = (Turn("16 AM", 0, "1944-12-16", "AM"), Turn("16 PM", 1, "1944-12-16", "PM"),
             Turn("17 AM", 2, "1944-12-17", "AM"), Turn("17 PM", 3, "1944-12-17", "PM"))
    formations = (Formation("us-2id", "2 Inf Div", "allied", "us"),
                  Formation("de-1ss", "1 SS Pz Div", "axis", "ss"),
                  Formation("de-12vg", "12 VG Div", "axis", "de"))
    units = [
        U("us-2id-a-9", "allied", "us", "us-2id", "infantry", "bn(+)", "3-5-10", "2-3-10", label="A/9",
          flags=("exploit",)),
        U("us-2id-arty", "allied", "us", "us-2id", "artillery", "rgt", "[9]-1-16", "[5]-1-16", label="DIVARTY",
          rng=9),
        U("us-14cav", "allied", "us", None, "armored cavalry", "grp", "2-2-16", None, label="14"),
        U("us-td", "allied", "us", None, "tank destroyer", "bn", "3-2-14", "1-1-14", label="612"),
        U("uk-29", "allied", "uk", None, "armor", "bde", "6-4-12", "3-2-12", label="29"),
        U("us-eng", "allied", "us", None, "engineer", "bn", "1-2-8", steps=1, label="51"),
        U("de-1ss-pz", "axis", "ss", "de-1ss", "panzer", "bn", "6-4-12", "3-3-12", label="I/1"),
        U("de-1ss-pg", "axis", "ss", "de-1ss", "panzergrenadier", "rgt", "5-5-12", "3-3-12", label="1",
          flags=("exploit", "no-zoc")),
        U("de-12vg-inf", "axis", "de", "de-12vg", "infantry", "rgt", "3-4-8", "2-3-8", label="27"),
        U("de-nw", "axis", "de", None, "nebelwerfer", "rgt", "[8]-1-8", None, label="54"),
        U("de-fj", "axis", "de", None, "parachute", "bn", "2-3-7", None, steps=1, label="VDH"),
        U("de-inf-generic", "axis", "de", None, "infantry", "co", "1-1-7", None, steps=1, count=3),
        U("de-mystery", "axis", "de", None, "wunderwaffe", None, "9-9-9", None, steps=1, label="X"),
    ]
    for i in range(many_units):
        units.append(U(f"us-extra-{i}", "allied", "us", "us-2id", "infantry", "co", "1-1-8", "1-0-8",
                       label=f"{i + 1}/X"))
    units = tuple(units)
    markers = (Marker("dg", "DG", 10), Marker("barrage-full", "Barrage Full", None))
    crt = Table(
        id="crt", name="Combat Results Table", kind="combat", rule="3.2", dice="2d6", method="odds",
        columns=("1:2", "1:1", "2:1", "3:1"),
        rows=(TableRow("2", (2,), ("A2", "A1", "A1r1", "D1")),
              TableRow("3-4", (3, 4), ("A1", "A1r1", "D1", "D1r2")),
              TableRow("5", (5,), ("A1", "D1", "D1r1", "D2r2"))),
        rolls=(2, 6), key=(ResultCode("A#", "Attacker takes # step losses"),
                           ResultCode("D#", "Defender takes # step losses"),
                           ResultCode("r#", "Retreat # hexes")),
        separators=("/", " "), drm=(DRM(-1, "First Turn Surprise (16 AM only)", "25.5"),),
        reconstruction=None, uncertain=({"roll": "5", "column": "2:1", "note": "smudged"},),
        complete=tables_complete, extra={})
    tec = TEC(movement_classes=("leg", "mech"),
              terrain=(TerrainType("clear", "Clear", "hex", {"leg": "1", "mech": "1"}, "-", {}),
                       TerrainType("woods", "Woods", "hex", {"leg": "2", "mech": "3"}, "1 shift L",
                                   {"barrage": "5-6"}),
                       TerrainType("river", "River", "hexside", {"leg": "+2", "mech": "P"}, "x2", {})),
              notes={"1": "P = prohibited"}, complete=tec_complete,
              missing=() if tec_complete else ("City", "Ridge"))
    grid = Grid(scheme="column-row", orientation="columns", shifted="even",
                boards=(Board("", (1, 12), (1, 10)),))
    places = Places(places=(Place("bastogne", "Bastogne", ("0605",), "town", "6.0"),),
                    victory=(VictoryHex("0605", None, 1, "axis", "6.0"),),
                    areas=(Area("A", "entry", "Area A", ("1201", "1202", "1203"), "OOA"),
                           Area("B", "entry", "Area B", ("0110",), "OOA")),
                    features=(), supply_sources=())
    ooa = (OrderOfArrival("axis", "OOA", (
        TurnBlock("16 PM", "16 PM", (Arrival(Location(area="A"), "de-1ss", (P("de-1ss-pz"), P("de-1ss-pg")),
                                             None),), ()),
        TurnBlock("17 AM", "17 AM", (Arrival(Location(hex="1205"), None, (P("de-inf-generic", count=3),),
                                             "Roll one die: arrives on 5-6"),),
                  (Removal((P("de-nw"),), None, ()),)),
    ), "orders-of-arrival"),
        OrderOfArrival("allied", "OOA", (
            TurnBlock("17 AM", "17 AM", (Arrival(Location(any_of=("0101", "0110")), None, (P("uk-29"),), None),
                                         Arrival(make(Location, any_area=("A", "B")), None, (P("us-td"),), None)),
                      ()),), "orders-of-arrival"))
    scen = make(Scenario,
        id="7.1", name="Test Campaign", rule="7.1", boards=("",),
        play_area=(Box(None, (2, 10), (1, 9)),), first_turn="16 AM", last_turn="17 PM",
        setup=(SetupGroup("allied", "us-2id", Location(hex="0405"), (P("us-2id-a-9"), P("us-2id-arty", state=("dg",)))),
               SetupGroup("allied", None, Location(range=("0303", "0306")), (P("us-14cav", state=("reduced",)),)),
               SetupGroup("axis", "de-12vg", Location(hex="0905"), (P("de-12vg-inf"),)),
               SetupGroup("axis", None, Location(within=(1, "0807")), (P("de-fj"),))),
        setup_printed=True, deployments=(Deployment("axis", "A", Location(any_of=("1001", "1002")), True, None, "9.2"),),
        orders_of_arrival=("allied", "axis"), reinforcements=(), removals=(), supply_sources=(),
        victory={"rule": "6.0", "text": "Axis wins holding Bastogne.", "hexes": ["0605"]},
        special_rules=({"id": "1", "text": "Weather is clear."},))
    scen2 = make(Scenario,
        id="7.2", name="Card scenario", rule="7.2", boards=("",), play_area=None, first_turn="16 AM",
        last_turn="16 PM", setup=(), setup_printed=False, deployments=(), orders_of_arrival=(),
        reinforcements=(), removals=(), supply_sources=(), victory={}, special_rules=())
    kw = dict(
        id="sample", title="Sample Game", publisher="Test", series=None, root="/nonexistent",
        counter_size_in=counter_size_in, factor_names=("attack", "defense", "movement"), sides=sides,
        turns=turns, phases=(), dice=(Dice("2d6", 2, 6),),
        rules=Rules(stacking=StackingRule(3, "units", "3.1"), mixing_rules=(), zoc=ZocRule("standard", None),
                  combat=CombatRule("odds", "crt", None), movement_classes=("leg", "mech"), other={}),
        gaps=(), grid=grid, joins=(),
        terrain=Terrain("clear", (HexTerrain("0605", ("woods",)),), (), ()),
        places=places, tec=tec, tables=(crt,), formations=formations, units=units, markers=markers,
        orders_of_arrival=ooa, scenarios=(scen, scen2), errata=(), errata_applied=True, assumptions=(),
        files=())
    kw["rows_increase"] = "south"
    g = make(Game, **kw)
    return build_index(g)
