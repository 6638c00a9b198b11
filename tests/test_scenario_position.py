"""A scenario's starting position (issue 8 items 1-3): one reading of a location, legal set-ups, a value."""
from validator.source.loader import load_game
from validator.geometry.locations import location_hexes
from validator.source.model import Location
from validator.positions.position import Counter, Position, Where
from validator.positions.scenario_position import position_of_scenario, starting_position
from validator.positions.stacking import (
    formations_mixed, may_join, nationalities_mixed, overstacked, prohibited_terrain, sides_sharing,
)

S1 = "scenarios/s1.yaml"


def _aachen():
    g, _ = load_game("source/aachen")
    return g, g.scenarios[0]


def test_aachen_3rd_armored_spread_one_per_hex_along_the_printed_ranges():
    g, sc = _aachen()
    pos = starting_position(g, sc)
    first = [pos.where(f"us-3ad-mech-2-2-12#{n}") for n in range(1, 5)]
    assert [w.hex for w in first] == ["2630", "2730", "2829", "2929"]          # 2630-3028: 4x 2-2-12
    second = [pos.where(f"us-3ad-mech-2-2-12#{n}") for n in range(5, 9)] + [pos.where("us-3ad-td-2-2-12#1")]
    assert [w.hex for w in second] == ["1934", "2033", "2133", "2232", "2332"]  # 1934 to 2431: 5 units
    # units cannot stack in Aachen: no hex of the whole set-up holds two
    assert max(len(s) for s in pos.stacks().values()) == 1
    assert overstacked(g, pos) == []


def test_the_range_is_read_once_for_every_caller():
    g, sc = _aachen()
    grp = next(x for x in sc.setup if x.location.range == ("2630", "3028"))
    assert location_hexes(g, grp.location) == ("2630", "2730", "2829", "2929", "3028")
    sp = position_of_scenario(g, sc)
    assert [(c.piece, c.where.hex) for c in sp.choices[:4]] == [
        ("us-3ad-mech-2-2-12#1", "2630"), ("us-3ad-mech-2-2-12#2", "2730"),
        ("us-3ad-mech-2-2-12#3", "2829"), ("us-3ad-mech-2-2-12#4", "2929")]
    assert all(c.where.hex in location_hexes(g, c.location) for c in sp.choices)


def test_location_readings():
    g, sc = _aachen()
    assert location_hexes(g, Location(any_of=("2105", "2205"))) == ("2105", "2205")
    assert location_hexes(g, Location(hex="2105")) == ("2105",)
    assert location_hexes(g, Location(hex="9999")) == ()                      # not on the map
    ring = location_hexes(g, Location(within=(1, "1010")))
    assert ring[0] == "1010" and sorted(ring[1:]) == sorted(g.grid.neighbours("1010"))
    a2, _ = load_game("source/ardennes2")
    unprinted = next(a for a in a2.places.areas if not a.hexes)
    assert location_hexes(a2, Location(area=unprinted.id)) is None           # hexes not printed: a holding box


def test_pieces_states_and_reinforcement_boxes():
    a2, _ = load_game("source/ardennes2")
    pos = starting_position(a2, a2.scenario("7.1"))
    assert pos.counter("de-werfer-16#1") == Counter("de-werfer-16#1", "de-werfer-16", "axis", frozenset({"dg"}))
    assert pos.where("de-werfer-16#1") == Where(hex="B35.33")
    boxes = pos.in_boxes()
    assert [c.piece for c in boxes["Allied Turn 2: Entry Area F"]] == ["us-4id-luckett#1", "us-4id-22#1"]
    assert pos.where("us-4id-luckett#1").hex is None


def test_an_area_reads_as_its_printed_hexes(mini):
    g, _ = load_game(mini.path)
    assert location_hexes(g, Location(area="E")) == ("0110", "0210")
    assert location_hexes(g, Location(any_area=("E", "Z"))) == ("0110", "0210")
    assert location_hexes(g, Location(range=("0101", "0104"))) == ("0101", "0102", "0103", "0104")


def _range_line(units, hexes=("0101", "0103")):
    return {"side": "blue", "range": list(hexes), "units": units}


def test_spread_fills_each_hex_to_the_limit_in_printed_order(mini):
    # mini stacks 2 per hex; three units on 0101-0103: two in 0101, the third in 0102, none in 0103
    mini.edit(S1, lambda d: d["setup"].append(_range_line([{"unit": "b2-a", "count": 3}])))
    g, _ = load_game(mini.path)
    pos = starting_position(g, g.scenario("s1"))
    assert [c.piece for c in pos.at("0101")] == ["b2-a#1", "b2-a#2"]
    assert [c.piece for c in pos.at("0102")] == ["b2-a#3"]
    assert pos.at("0103") == ()


def test_spread_avoids_enemy_hexes_and_prohibited_terrain(mini):
    # 0202 holds two blue units (full); 0707 is a lake (P: Prohibited.); 0809 holds red (erratum)
    mini.edit(S1, lambda d: d["setup"].append(
        {"side": "blue", "any_of": ["0202", "0707", "0809", "0909"], "units": [{"unit": "b2-a"}]}))
    g, _ = load_game(mini.path)
    sp = position_of_scenario(g, g.scenario("s1"))
    assert sp.position.where("b2-a#1") == Where(hex="0909")
    assert sp.problems == ()


def test_a_location_that_cannot_hold_its_units_uses_a_holding_box(mini):
    mini.edit(S1, lambda d: d["setup"].append(
        {"side": "blue", "any_of": ["0202", "0707"], "printed_location": "0202 or 0707", "units": [{"unit": "b2-a"}]}))
    g, _ = load_game(mini.path)
    sp = position_of_scenario(g, g.scenario("s1"))
    assert sp.position.where("b2-a#1") == Where(box="Blue Set-up: 0202 or 0707")
    assert sp.problems == ("b2-a: no hex of 0202 or 0707 can hold it; placed in a holding box",)
    assert sp.boxes["Blue Set-up: 0202 or 0707"].turn is None


def _pos(*items):
    return Position.of((Counter(f"{u}#{i}", u, side, frozenset(st)), Where(hex=h))
                       for i, (u, side, h, st) in enumerate(items))


def test_rules_are_functions_of_a_position(mini):
    g, _ = load_game(mini.path)
    three = _pos(("b1-a", "blue", "0202", ()), ("b1-b", "blue", "0202", ()), ("b1-c", "blue", "0202", ()))
    (o,) = overstacked(g, three)
    assert (o.hex, o.side, o.size, o.limit) == ("0202", "blue", 3, 2)
    assert overstacked(g, three.removed("b1-c#2")) == []                     # at the limit: legal
    both = _pos(("b1-a", "blue", "0303", ()), ("r1-a", "red", "0303", ()))
    assert [(m.hex, m.what) for m in sides_sharing(g, both)] == [("0303", ("blue", "red"))]
    apart = g.rules.mixing_rules[0]
    mixed = _pos(("b1-a", "blue", "0404", ()), ("cy-a", "blue", "0404", ()))
    assert [(m.hex, m.what) for m in nationalities_mixed(g, mixed, apart)] == [("0404", ("bl", "cy"))]
    div = g.rules.mixing_rules[1]
    forms = _pos(("b1-a", "blue", "0404", ()), ("b2-a", "blue", "0404", ()))
    assert [m.what for m in formations_mixed(g, forms, div)] == [("b1", "b2")]
    dg = _pos(("b1-a", "blue", "0404", ("dg",)), ("b2-a", "blue", "0404", ("dg",)))
    assert formations_mixed(g, dg, div) == []
    lake = _pos(("b1-a", "blue", "0707", ()))
    assert [(p.hex, p.terrain.id, p.movement_class) for p in prohibited_terrain(g, lake)] == [("0707", "lake", "leg")]
    assert prohibited_terrain(g, _pos(("b1-a", "blue", "0505", ()))) == []  # woods: 2 MP
    assert not may_join(g, tuple(c for c, _ in three), Counter("x", "b2-a", "blue"), "0202")
    assert may_join(g, (Counter("y", "b1-a", "blue"),), Counter("x", "b2-a", "blue"), "0202")


def test_checks_judge_the_spread_position(mini):
    # near miss of HF401: the same three units on a range are spread legally, on one hex they overstack
    from compiler.cli import check_tree
    mini.edit(S1, lambda d: d["setup"].append(_range_line([{"unit": "b2-a", "count": 3}],
                                                          ("0104", "0106"))))
    _, diags = check_tree(mini.path)
    assert not [d for d in diags if d.code == "HF401"]
    mini.edit(S1, lambda d: d["setup"][-1].pop("range") and d["setup"][-1].update(hex="0104"))
    _, diags = check_tree(mini.path)
    (d,) = [d for d in diags if d.code == "HF401"]
    assert d.hexes == ("0104",) and "3 units in 0104" in d.message
