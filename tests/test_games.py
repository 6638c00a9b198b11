"""The bundled games: corrected data checks clean; as printed, the checker finds the real defects."""
from collections import Counter

import pytest

from compiler.cli import check_tree
from conftest import SOURCE, copy_game
from validator.source.loader import load_game

GAMES = ["aachen", "bulge", "ardennes2", "meuse"]


def _game(name, as_printed=False):
    if not (SOURCE / name / "game.yaml").exists():
        pytest.skip(f"source/{name} is not in this checkout")
    g, diags = load_game(SOURCE / name, apply_errata=not as_printed)
    assert g is not None, [str(d) for d in diags]
    return g


def _findings(name, as_printed=False):
    _, diags = check_tree(SOURCE / name, as_printed=as_printed)
    return diags


def setup_counts(game, scenario_id):
    sc = game.scenario(scenario_id)
    c = Counter()
    for grp in sc.setup:
        c[grp.side] += sum(p.count for p in grp.units)
    return dict(c)


@pytest.mark.parametrize("name", GAMES)
def test_corrected_tree_has_no_errors(name):
    _game(name)
    errors = [f"{d.loc}: [{d.code}] {d.message}" for d in _findings(name) if d.severity == "error"]
    assert errors == []


# -- Aachen ------------------------------------------------------------------------------------

def test_aachen_unit_counts_printed_and_corrected():
    assert setup_counts(_game("aachen", as_printed=True), "aachen") == {"german": 11, "us": 30}
    assert setup_counts(_game("aachen"), "aachen") == {"german": 10, "us": 32}


def test_aachen_as_printed_findings():
    got = {(d.code, d.loc.file, tuple(d.hexes)) for d in _findings("aachen", as_printed=True)}
    # the 183/Fus. counter printed as 2-7 (fixed by the errata)
    assert any(code == "HF303" and f == "counters.yaml" for code, f, _ in got)
    # missed by the errata: the German set-up line 0411 names no unit; the GT 13 panzer has no count;
    # three German units enter at "3014 or 3016" with a stacking limit of one
    assert ("HF901", "game.yaml", ()) in got
    assert any(code == "HF210" for code, _, _ in got)
    assert ("HF406", "scenarios/aachen.yaml", ("3014", "3016")) in got
    # the 183/Fus. counter the errata corrects is in no list at all
    assert any(d.code == "HF211" and d.units == ("183/Fus.",) for d in _findings("aachen", as_printed=True))


def test_aachen_errata_all_apply():
    assert not [d for d in _findings("aachen") if d.code == "HF801"]


# -- planted errors in a copy of a real tree ---------------------------------------------------

def test_planted_two_units_in_one_aachen_hex(tmp_path):
    t = copy_game(tmp_path, "aachen")

    def plant(d):
        grp = next(g for g in d["setup"] if g.get("hex") == "0203")
        grp["hex"] = "0205"                           # onto the 2-3-7 already at 0205
    t.edit("scenarios/aachen.yaml", plant)
    _, diags = check_tree(t.path)
    (d,) = [d for d in diags if d.code == "HF401"]
    assert d.severity == "error" and d.hexes == ("0205",) and d.loc.file == "scenarios/aachen.yaml"


def test_planted_off_map_hex_in_aachen(tmp_path):
    t = copy_game(tmp_path, "aachen")
    t.edit("scenarios/aachen.yaml", lambda d: next(g for g in d["setup"] if g.get("hex") == "0932").update(hex="3140"))
    _, diags = check_tree(t.path)
    (d,) = [d for d in diags if d.code == "HF102"]
    assert d.severity == "error" and d.hexes == ("3140",)


# -- Ardennes II -------------------------------------------------------------------------------

ARD2_PRINTED = {"7.1": {"allied": 58, "axis": 134}, "7.2": {"allied": 58, "axis": 134},
                "7.3": {"allied": 23, "axis": 54}, "7.4": {"allied": 22, "axis": 33},
                "7.5": {"allied": 15, "axis": 24}, "7.6": {"allied": 48, "axis": 32}}


def test_ardennes2_unit_counts_per_scenario_and_side():
    g = _game("ardennes2", as_printed=True)
    assert {s.id: setup_counts(g, s.id) for s in g.scenarios} == ARD2_PRINTED
    corrected = _game("ardennes2")
    want = dict(ARD2_PRINTED, **{"7.2": {"allied": 56, "axis": 134}})  # errata 7.2-2: 99 and 526 are reinforcements
    assert {s.id: setup_counts(corrected, s.id) for s in corrected.scenarios} == want


def test_ardennes2_orders_of_arrival_as_printed():
    g = _game("ardennes2", as_printed=True)
    by_side = {o.side: o for o in g.orders_of_arrival}
    assert [b.turn for b in by_side["axis"].turns] == ["2", "6", "4", "6", "7", "8", "10", "11", "13", "14"]
    assert sum(p.count for b in by_side["allied"].turns for a in b.arrivals for p in a.units) == 195
    assert sum(p.count for b in by_side["axis"].turns for a in b.arrivals for p in a.units) == 92
    fixed = {o.side: o for o in _game("ardennes2").orders_of_arrival}
    assert [b.turn for b in fixed["axis"].turns][:3] == ["2", "3", "4"]


def _errors(name, as_printed):
    return {(d.code, d.loc.file, d.hexes) for d in _findings(name, as_printed) if d.severity == "error"}


def test_ardennes2_as_printed_defects_the_errata_fixed_are_found():
    got = _errors("ardennes2", as_printed=True)
    assert ("HF503", "orders-of-arrival.yaml", ()) in got        # second German "Turn 6" (errata: Turn 3)
    assert ("HF504", "orders-of-arrival.yaml", ()) in got        # ... so Turn 4 follows Turn 6
    assert ("HF103", "scenarios/7.2.yaml", ("A35.53",)) in got   # 99 and 526 outside the Map B play area
    assert ("HF103", "scenarios/7.2.yaml", ("A38.44",)) in got
    assert ("HF103", "scenarios/7.3.yaml", ("B40.27",)) in got   # I/12 outside 7.3's area (errata: B34.45)
    assert ("HF402", "scenarios/7.4.yaml", ("B22.38",)) in got   # Arty 174 on a German unit (errata: B20.34)
    warned = {(d.code, d.hexes) for d in _findings("ardennes2", True) if d.code == "HF304"}
    assert ("HF304", ("B40.27",)) in warned and ("HF304", ("B35.30",)) in warned  # 7.1 moves in the errata
    # counters erratum: the JgTg Bn (653) counter reads 6-8-6 where the lists print 6-8-8 (the countersheet
    # itself is not in the rulebook, so only the erratum can tell)
    assert _game("ardennes2", as_printed=True).unit("de-jgtg-653").factors.printed == "6-8-8"
    assert _game("ardennes2").unit("de-jgtg-653").factors.printed == "6-8-6"


def test_ardennes2_as_printed_defects_the_errata_missed_are_found():
    got = _errors("ardennes2", as_printed=True)
    # 7.3: "(A/117, B/117, B/119, B/119, A/120, B/120)": B/119 twice, A/119 missing
    assert any(code == "HF207" and f == "scenarios/7.3.yaml" for code, f, _ in got)
    all_ = _findings("ardennes2", as_printed=False)
    stale = [d for d in all_ if d.code == "HF801"]
    assert len(stale) == 1 and "A40.25" in stale[0].message          # the 7.6 erratum names a hex never printed
    assert any(d.code == "HF609" for d in all_)                       # Hotton has no VP value
    assert any(d.code == "HF602" for d in all_)                       # CRT row "4" has 9 cells for 10 columns
    assert any(d.code == "HF301" and "[7]-1-8" in d.message for d in all_)  # 3 Arm Div DIVARTY [7]-1-8 vs [7]-1-16
    assert any(d.code == "HF703" for d in all_)                        # the editorial A/119 correction is shown
    assert any(d.code == "HF109" and d.hexes == ("A29.00",) for d in all_)  # 7.6 supply hex outside its area


def test_ardennes2_seam_track_links_adjacent_hexes():
    g = _game("ardennes2")
    assert g.grid.adjacent("A40.10", "B1.11")


def test_planted_errors_in_a_copy_of_ardennes2(tmp_path):
    t = copy_game(tmp_path, "ardennes2")

    def plant(d):
        first = d["setup"][0]
        first["units"].append(dict(first["units"][0]))             # a unit listed twice
        d["setup"][1]["hex"] = "B41.10"                             # off the map (columns 1-40)
    t.edit("scenarios/7.1.yaml", plant)
    _, diags = check_tree(t.path)
    errs = {d.code: d for d in diags if d.severity == "error"}
    assert errs["HF102"].hexes == ("B41.10",) and errs["HF102"].loc.file == "scenarios/7.1.yaml"
    assert errs["HF206"].loc.file == "scenarios/7.1.yaml"


# -- The Battle of the Bulge -------------------------------------------------------------------

def test_bulge_places_what_the_rules_place():
    g = _game("bulge")
    assert {s.id: setup_counts(g, s.id) for s in g.scenarios} == {
        "45": {"allied": 5, "german": 2}, "46": {"allied": 5, "german": 2},
        "47": {"allied": 5, "german": 2}, "48": {"allied": 5, "german": 11}}
    assert all(not s.setup_printed for s in g.scenarios)
    feats = {(f.kind, f.hex) for f in g.places.features}
    assert {("blown-bridge", "MM24"), ("blown-bridge", "TT31"), ("blown-bridge", "WW33"), ("fort", "VV33")} <= feats
    ip = {(f.hex) for f in g.places.features if f.kind == "improved-position"}
    assert ip == {"QQ5", "PP18", "NN20", "OO29"}


def test_bulge_turn_track_and_crt():
    g = _game("bulge")
    assert g.turns[0].id == "16 AM" and g.turns[-1].id == "2 PM" and len(g.turns) == 36
    crt = next(t for t in g.tables if t.id == g.rules.combat.table)
    assert len(crt.columns) == 14 and all(len(r.results) == 14 for r in crt.rows)
    assert {r for row in crt.rows for r in row.rolls} == set(range(-1, 9))
    assert crt.uncertain  # the staggered print leaves cells the reconstruction is unsure of


def test_bulge_reports_what_is_not_printed():
    diags = _findings("bulge")
    assert sum(d.code == "HF903" for d in diags) == 4     # every scenario's set-up is on unprinted cards
    assert any(d.code == "HF901" and "Order of" in d.message for d in diags)
