"""Small hand-made `Game` objects for the module-builder tests (no YAML, no loader)."""
from __future__ import annotations

from validator.geometry.hexgrid import Board, Grid
from validator.source.model import (
    CombatRule, StackingRule, ZocRule,
    Area, Arrival, Dice, DRM, Factors, Formation, Game, Hexside, HexTerrain, Location, Marker,
    Nationality, OrderOfArrival, Path, Place, Placement, Places, ResultCode, Rules, Scenario,
    SetupGroup, Side, SupplySource, Table, TableRow, TEC, Terrain, TerrainType, Turn, TurnBlock,
    VictoryHex, MapFeature,
)


def _f(printed, names):
    vals = [int(x.strip("[]")) for x in printed.split("-")]
    return Factors(printed, dict(zip(names, vals)), printed.startswith("["))


def make_game(scheme: str = "map-column.row", orientation: str = "columns", shifted: str = "even",
              two_boards: bool = True, gid: str = "testgame", terrain_default=None,
              rows_increase: str = "south") -> Game:
    if scheme == "map-column.row":
        boards = [Board("A", (1, 8), (0, 6), (0, 0), "Map A")]
        if two_boards:
            boards.append(Board("B", (1, 8), (0, 6), (8, 0), "Map B"))
        h = lambda b, c, r: f"{b}{c}.{r:02d}"
    elif scheme == "letters":
        boards = [Board("", (1, 30), (1, 8), (0, 0), "Map")]
        from validator.geometry.hexgrid import column_letters
        h = lambda b, c, r: f"{column_letters(c)}{r}"
    else:
        boards = [Board("", (1, 9), (1, 7), (0, 0), "Map")]
        h = lambda b, c, r: f"{c:02d}{r:02d}"
    grid = Grid(scheme, orientation, shifted, tuple(boards), 2, 2)
    b0 = boards[0].id
    b1 = boards[-1].id
    names = ("attack", "defense", "movement")
    us = Nationality("us", "US", "allied", "#5b7f3a", "#000000")
    de = Nationality("de", "German", "axis", "#6f8fa8", "#000000")
    sides = (Side("allied", "Allied", (us,)), Side("axis", "German", (de,)))
    turns = (Turn("1", 0, "1944-12-16", None), Turn("2", 1, "1944-12-17", None), Turn("3", 2, None, None))
    formations = (Formation("us-2id", "2 Inf Div", "allied", "us"), Formation("de-12ss", "12 SS Pz Div", "axis", "de"))
    units = (
        _unit("us-a-9", "3-5-10 Inf Bn (A/9)", "A/9", "allied", "us", "us-2id", "infantry", "3-5-10", "2-3-10", 2, names),
        _unit("us-b-9", "3-5-10 Inf Bn (B/9)", "B/9", "allied", "us", "us-2id", "infantry", "3-5-10", None, 2, names),
        _unit("us-741", "4-3-16 Tk Bn (741)", "741", "allied", "us", None, "armor", "4-3-16", None, 1, names),
        _unit("de-i-12", "6-4-12 SS Pz Bn (I/12)", "I/12", "axis", "de", "de-12ss", "armor", "6-4-12", "3-2-12", 2, names),
        _unit("de-inf", "1-1-7 infantry", "", "axis", "de", None, "infantry", "1-1-7", None, 1, names, count=None),
    )
    markers = (Marker("dg", "DG", None),)
    hexes = [h(b0, 2, 2), h(b0, 3, 3), h(b1, 4, 4)]
    terrain = Terrain(terrain_default, (HexTerrain(hexes[0], ("woods",)), HexTerrain(hexes[1], ("city", "river"))),
                      (Hexside((h(b0, 2, 2), h(b0, 2, 3)), "river", "1"),),
                      (Path("road", (h(b0, 1, 1), h(b0, 2, 1), h(b0, 3, 2)), None),))
    if two_boards and scheme == "map-column.row":
        terrain = Terrain(terrain.default, terrain.hexes,
                          terrain.hexsides + (Hexside(("B1.03", "A8.03"), "track", "Errata 2"),), terrain.paths)
    places = Places(
        (Place("town", "St. Vith", (hexes[1],), "town", "6.0"), Place("nowhere", "Lost", (), None, None)),
        (VictoryHex(hexes[1], None, 2, "axis", "6.0"), VictoryHex(None, "town", 1, "allied", "6.0")),
        (Area("E", "entry", "Entry E", (h(b0, 1, 1), h(b0, 1, 2)), "OOA"), Area("D", "deployment", "Dep", None, None)),
        (MapFeature("fort", hexes[0], None, None, "1"),),
        (SupplySource("axis", hexes[2], None, None),))
    tec = TEC(("leg", "mech"), (TerrainType("woods", "Woods", "hex", {"leg": "2", "mech": "3"}, "-1", {}),
                                TerrainType("city", "City", "hex", {"leg": "1", "mech": "1"}, "x2", {"barrage": "5-6"})),
              {"1": "a note"}, False, ("Marsh",))
    crt = Table("crt", "Combat Results Table", "combat", "3.2", "2d6", "odds", ("1:2", "1:1", "2:1"),
                (TableRow("2", (2,), ("A2", "A1", "EX")), TableRow("3-12", tuple(range(3, 13)), ("A1", "D1", "D2"))),
                (2, 12), (ResultCode("A#", "Attacker loses # steps"),), ("/",),
                (DRM(-1, "Surprise", "25.5"),), None, (), True, {})
    oa = OrderOfArrival("axis", "OOA", (TurnBlock("2", "Turn 2", (
        Arrival(Location(area="E"), "de-12ss", (Placement("de-i-12", None, (), 1),), None),
        Arrival(Location(hex=h(b0, 8, 6)), None, (Placement("de-inf", None, (), 2),), None)), ()),
        TurnBlock("3", "Turn 3", (Arrival(Location(area="E"), None, (Placement("de-inf", None, (), 1),), None),), ())),
        "orders-of-arrival")
    s1 = _scenario("1", "Campaign", "7.1", tuple(b.id for b in boards), None, "1", "3", (
        SetupGroup("allied", "us-2id", Location(hex=hexes[0]), (
            Placement("us-a-9", "3-5-10 Inf Bn (A/9)", ("reduced",), 1),
            Placement("us-b-9", None, ("dg",), 1))),
        SetupGroup("allied", None, Location(any_of=(hexes[1], hexes[0])), (Placement("us-741", None, (), 1),)),
        SetupGroup("axis", None, Location(hex=hexes[2]), (Placement("de-inf", None, (), 3),)),
        SetupGroup("axis", None, Location(area="D", printed="Deployment D"), (Placement("de-i-12", None, (), 1),)),
    ), ("axis",), features=(MapFeature("dg", hexes[2], None, None, None), MapFeature("mystery", hexes[2], None, None, None)))
    scen = [s1]
    if two_boards and scheme == "map-column.row":
        s2 = _scenario("2", "Board B only", "7.2", ("B",), None, "1", "2", (
            SetupGroup("axis", None, Location(hex="B3.04"), (Placement("de-i-12", None, ("reduced", "dg"), 1),)),
            SetupGroup("allied", None, Location(range=("B5.05", "B5.02")), (Placement("us-741", None, (), 1),)),
            SetupGroup("allied", None, Location(any_area=("D", "E")), (Placement("us-b-9", None, (), 1),)),
        ), ())
        scen.append(s2)
    rules = Rules(stacking=StackingRule(3, "units", "3.1"), mixing_rules=(), zoc=ZocRule("standard", None),
                  combat=CombatRule("odds", "crt", None), movement_classes=("leg", "mech"), other={})
    idx = {
        "units": {u.id: u for u in units}, "formations": {f.id: f for f in formations},
        "sides": {s.id: s for s in sides}, "nationalities": {n.id: n for s in sides for n in s.nationalities},
        "turns": {t.id: t for t in turns}, "areas": {a.id: a for a in places.areas},
        "terrain_types": {t.id: t for t in tec.terrain}, "scenarios": {s.id: s for s in scen},
        "hex_terrain": {x.hex: x.terrain for x in terrain.hexes},
    }
    kw = dict(id=gid, title="Test Game", publisher="MMP", series="SCS", root=".", counter_size_in=0.5625,
              factor_names=names, sides=sides, turns=turns, phases=(),
              dice=(Dice("2d6", 2, 6), Dice("1d6", 1, 6)), rules=rules, gaps=(), grid=grid, joins=(),
              terrain=terrain, places=places, tec=tec, tables=(crt,), formations=formations, units=units,
              markers=markers, orders_of_arrival=(oa,), scenarios=tuple(scen), errata=(), errata_applied=True,
              assumptions=(), files=(), _index=idx)
    import dataclasses
    if "rows_increase" in {f.name for f in dataclasses.fields(Game)}:
        kw["rows_increase"] = rows_increase
    elif rows_increase != "south":
        import pytest
        pytest.skip("the model has no rows_increase")
    return Game(**kw)


def _scenario(sid, name, rule, boards, play_area, first, last, setup, ooa, features=()):
    import dataclasses
    kw = dict(id=sid, name=name, rule=rule, boards=boards, play_area=play_area, first_turn=first, last_turn=last,
              setup=setup, setup_printed=True, deployments=(), orders_of_arrival=ooa, reinforcements=(),
              removals=(), supply_sources=(), victory={}, special_rules=())
    if "features" in {f.name for f in dataclasses.fields(Scenario)}:
        kw["features"] = features
    return Scenario(**kw)


def _unit(uid, name, label, side, nat, form, typ, f, red, steps, names, count=1):
    return __import__("validator.source.model", fromlist=["Unit"]).Unit(
        uid, name, label, side, nat, form, typ, "bn", _f(f, names), "leg", None, steps,
        _f(red, names) if red else None, (), count, "printed")
