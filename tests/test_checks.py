"""Every check code: a small tree that triggers it, and the clean tree that does not."""
import pytest

from compiler.cli import check_tree
from validator.checks import all_checks


def codes(tree, as_printed=False):
    _, diags = check_tree(tree.path, as_printed=as_printed)
    return diags


def _setup(d, hex_):
    return next(g for g in d["setup"] if g.get("hex") == hex_)


def _unit(d, uid):
    return next(u for u in d["units"] if u["id"] == uid)


def _crt(d):
    return d["tables"][0]


S1 = "scenarios/s1.yaml"
M = {}  # code -> (file, mutation) or callable(tree)


def case(code, rel=None):
    def reg(fn):
        M[code] = (rel, fn)
        return fn
    return reg


# -- reading and schema ------------------------------------------------------------------------
case("HF001")(lambda t: t.text("tables.yaml", "tables: [\n  {id: crt\n"))
case("HF002")(lambda t: t.text("map.yaml", (t.path / "map.yaml").read_text() + "scheme: letters\n"))
case("HF003")(lambda t: t.text("tec.yaml", ""))
case("HF004", "counters.yaml")(lambda d: _unit(d, "b1-a").update(steps="two"))
case("HF005")(lambda t: (t.path / "map.yaml").unlink())
case("HF006")(lambda t: t.text("tec.yaml", b"\x89PNG\r\n\x1a\n\x00\x00binary"))
# -- hexes -------------------------------------------------------------------------------------
case("HF101", S1)(lambda d: _setup(d, "0302").update(hex="5A"))
case("HF102", S1)(lambda d: _setup(d, "0302").update(hex="1111"))
case("HF103", S1)(lambda d: _setup(d, "0302").update(hex="1005"))
case("HF104", "terrain.yaml")(lambda d: d["hexsides"][0].update(between=["0303", "0306"]))
case("HF105", "map.yaml")(lambda d: d.update(joins=[{"board": "main", "column": 1, "meets": {"board": "main", "column": 5}}]))
case("HF106", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][0]["arrivals"][0].update(entry={"area": "Z"}))
case("HF107", "places.yaml")(lambda d: d["areas"].append({"id": "N", "kind": "entry", "hexes": None}))
case("HF108", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][1]["arrivals"][0].update(entry={"range": ["0101", "0504"]}))
# -- units -------------------------------------------------------------------------------------
case("HF109", S1)(lambda d: d["victory"].update(hexes=["1005"]))
case("HF201", S1)(lambda d: _setup(d, "0302")["units"][0].update(unit="nope"))
case("HF202", "counters.yaml")(lambda d: _unit(d, "b1-a").update(formation="b9"))
case("HF203", "counters.yaml")(lambda d: _unit(d, "b1-a").update(nationality="xx"))
case("HF204", "counters.yaml")(lambda d: d["units"].append(dict(_unit(d, "b1-a"))))
case("HF205", S1)(lambda d: _setup(d, "0302")["units"].append({"unit": "r1-a"}))
case("HF206", S1)(lambda d: _setup(d, "0302")["units"].append({"unit": "b1-a", "printed": "3-5-10 Inf Bn (A/1)"}))
case("HF207", S1)(lambda d: d["setup"].append({"side": "red", "hex": "0909", "units": [{"unit": "r1-b"}]}))
case("HF208", S1)(lambda d: _setup(d, "0808")["units"][1].update(count=4))
case("HF209", S1)(lambda d: d["setup"].append({"side": "blue", "hex": "0404", "units": []}))
case("HF210", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][1]["arrivals"][0]["units"][0].update(count=None))
case("HF211", "counters.yaml")(lambda d: d["units"].append(dict(_unit(d, "cy-a"), id="cy-b")))
case("HF301", S1)(lambda d: _setup(d, "0202")["units"][0].update(printed="3-5-8 Inf Bn (A/1)"))
case("HF302", S1)(lambda d: _setup(d, "0202")["units"][0].update(printed="3-5-10 Mech Bn (A/1)"))
case("HF303", "counters.yaml")(lambda d: _unit(d, "b1-a").update(factors="2-7"))


def _scatter(t):
    t.edit("game.yaml", lambda d: d["rules"].update(other={"formation_radius": 3}))

    def m(d):
        g = _setup(d, "0202")
        b = g["units"].pop()
        d["setup"].append({"side": "blue", "hex": "0203", "units": [b]})
        _setup(d, "0302").update(hex="0909")
    t.edit(S1, m)


case("HF304")(_scatter)
# -- stacking ----------------------------------------------------------------------------------
case("HF401", S1)(lambda d: _setup(d, "0202")["units"].append({"unit": "cy-a"}) or
                  d["setup"].remove(next(g for g in d["setup"] if g.get("hex") == "0601")))


def _red_onto_blue(d):
    d["setup"].append({"side": "red", "hex": "0601", "units": [{"unit": "r1-a"}]})   # onto the blue Cy company
    _setup(d, "0808")["units"].pop(0)


case("HF402", S1)(_red_onto_blue)
case("HF403", S1)(lambda d: _setup(d, "0302")["units"].append({"unit": "cy-a"}) or
                  d["setup"].remove(next(g for g in d["setup"] if g.get("hex") == "0601")))


def _mixed(d, state=()):
    d["reinforcements"] = []
    d["setup"].append({"side": "blue", "hex": "0302", "units": [{"unit": "b2-a", "state": list(state)}]})
    _setup(d, "0302")["units"][0]["state"] = list(state)


case("HF404", S1)(lambda d: _mixed(d))
case("HF405", S1)(lambda d: _setup(d, "0302").update(hex="0707"))
# -- turns -------------------------------------------------------------------------------------
case("HF406", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][1]["arrivals"][0]["units"][0].update(count=5))
case("HF501", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][0].update(turn="9"))
case("HF502", S1)(lambda d: d.update(first_turn="5", last_turn="1"))
case("HF503", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][1].update(turn="2"))
case("HF504", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"].reverse())
case("HF505", S1)(lambda d: d.update(last_turn="3"))
case("HF509", "game.yaml")(lambda d: d["sequence_of_play"].append({"id": "x", "name": "Hover Phase", "moves": ["hover"]}))
case("HF510", "game.yaml")(lambda d: d["sequence_of_play"].append(  # blue-move moves nothing
    {"id": "x", "name": "Mobile Phase", "moves": "all", "not_if_moved_in": {"phases": ["blue-move"], "rule": "5.5"}}))
case("HF515", "counters.yaml")(lambda d: d["markers"][0].update(removed_in={"phases": ["dg-recovery"], "rule": "3.4"}))
case("HF516", "game.yaml")(lambda d: d["sequence_of_play"][0].update(special_moves=[
    {"units": ["b1-a"], "turns": ["1", "2"], "rule": "9.9",
     "roll": {"dice": "1d6", "rule": "9.9", "success": {"17 AM": [1]}}}]))
case("HF514", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][0]["arrivals"][0].update(
    also_printed=[{"entry": {"hex": "A1.01"}, "rule": "9.9"}]))
case("HF511", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][0]["arrivals"][0].update(
    condition="Roll one die."))
case("HF512", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][0]["arrivals"][0].update(
    terms={"kind": "trigger", "judged": False, "why": "the bridge is not printed"}))
case("HF513", "orders-of-arrival.yaml")(lambda d: d["orders_of_arrival"][0]["turns"][0]["arrivals"][0].update(
    terms={"kind": "airdrop", "turn": {"exactly": "9"}}))
# -- tables ------------------------------------------------------------------------------------
case("HF601", "tables.yaml")(lambda d: _crt(d)["rows"].pop())
case("HF612", "tables.yaml")(lambda d: _crt(d).update(dice="1d10"))
case("HF602", "tables.yaml")(lambda d: _crt(d)["rows"][0]["results"].pop())
case("HF603", "tables.yaml")(lambda d: _crt(d)["rows"].append({"roll": "x", "results": ["A1", "A1", "A1"]}))
case("HF604", "tables.yaml")(lambda d: _crt(d)["rows"][1].update(roll="1-3"))
case("HF605", "tables.yaml")(lambda d: _crt(d)["rows"][0]["results"].__setitem__(0, "Q1"))
case("HF611", "tables.yaml")(lambda d: _crt(d)["rows"][0]["results"].__setitem__(2, "? / D1"))
case("HF614", "tables.yaml")(lambda d: _crt(d)["rows"][0]["results"].__setitem__(2, "?"))
case("HF606", "tables.yaml")(lambda d: _crt(d).update(uncertain=[{"roll": "1", "column": "2:1", "note": "smudged"}]))
case("HF607", "tec.yaml")(lambda d: d.update(complete=False, missing=["Swamp"]))
case("HF613", "tec.yaml")(lambda d: d["notes"].pop("P"))
case("HF608", "terrain.yaml")(lambda d: d["hexes"].update({"0606": ["swamp"]}))
case("HF609", "places.yaml")(lambda d: d["victory"][0].update(value=None))
case("HF610", "game.yaml")(lambda d: d["rules"]["combat"].update(table="crt2"))
case("HF615", "game.yaml")(lambda d: d["rules"]["combat"].update(
    unjudged=[{"rule": "9.2", "text": "every unit in an enemy ZOC must attack"}]))
case("HF619", "tec.yaml")(lambda d: d["terrain"].append(
    {"id": "ford", "name": "Ford", "kind": "hexside", "cancels": ["stream"]}))
case("HF620", "tables.yaml")(lambda d: _crt(d).update(
    drm=[{"value": 1, "when": "attacked across a river", "if": {"across": ["rivr"]}}]))
# -- errata and gaps ---------------------------------------------------------------------------
case("HF701", "errata/mini-errata.yaml")(lambda d: d["items"].append(
    {"id": "2", "wording": "no-op", "patches": [{"op": "set", "file": S1, "path": ["first_turn"], "from": "1", "to": "1"}]}))
case("HF703", "errata/mini-errata.yaml")(lambda d: d.update(kind="editorial"))
case("HF801", "errata/mini-errata.yaml")(lambda d: d["items"][0]["patches"][0].update(**{"from": "0707"}))
case("HF901", "game.yaml")(lambda d: d.update(gaps=[{"id": "oob", "what": "Order of battle card", "rule": "3.4"}]))
case("HF902", "map.yaml")(lambda d: d["boards"][0].update(provenance="assumed", note="extent not printed"))
case("HF903", S1)(lambda d: d.update(setup_printed=False))


AS_PRINTED_ONLY = {"HF702"}  # tested by test_errata_not_applied_is_reported_as_printed


def test_every_registered_check_has_a_case():
    from test_art_checks import ART_CODES   # the art checks' cases, on a tree with art (test_art_checks.py)
    assert set(all_checks()) - set(M) - AS_PRINTED_ONLY - ART_CODES == set()


def test_clean_tree_has_no_findings(mini):
    assert [(d.code, d.message) for d in codes(mini)] == []


@pytest.mark.parametrize("code", sorted(M))
def test_check_triggers(mini, code):
    rel, fn = M[code]
    if rel is None:
        fn(mini)
    else:
        mini.edit(rel, fn)
    found = [d for d in codes(mini) if d.code == code]
    assert found, f"{code} not reported"
    for d in found:
        assert d.loc.file, f"{code} finding has no file"
        assert d.message and d.help


def test_errata_not_applied_is_reported_as_printed(mini):
    assert [d.code for d in codes(mini, as_printed=True)] == ["HF702"]


def test_empty_entry_standing_for_a_declared_gap_is_not_an_error(mini):
    mini.edit("game.yaml", lambda d: d.update(gaps=[{"id": "oob", "what": "reinforcement list"}]))
    mini.edit(S1, lambda d: d["setup"].append({"side": "blue", "hex": "0404", "units": [], "gap": "oob"}))
    assert [d.code for d in codes(mini)] == ["HF901"]


def test_divisional_integrity_exempts_dg(mini):
    mini.edit(S1, lambda d: _mixed(d, state=["dg"]))
    assert not [d for d in codes(mini) if d.code == "HF404"]


def test_stacking_finding_names_hex_and_units(mini):
    mini.edit(S1, M["HF401"][1])
    (d,) = [d for d in codes(mini) if d.code == "HF401"]
    assert d.hexes == ("0202",)
    assert "3-5-10 Inf Bn (A/1)" in d.units and len(d.units) == 3
    assert d.loc.file == S1 and d.loc.line > 0


def test_erratum_moves_unit_and_as_printed_keeps_it(mini):
    from validator.source.loader import load_game
    g, _ = load_game(mini.path)
    sc = g.scenario("s1")
    assert {grp.location.hex for grp in sc.setup if grp.side == "red"} == {"0809"}
    g2, _ = load_game(mini.path, apply_errata=False)
    assert {grp.location.hex for grp in g2.scenario("s1").setup if grp.side == "red"} == {"0808"}


def test_finding_from_patched_value_points_at_erratum(mini):
    mini.edit("errata/mini-errata.yaml", lambda d: d["items"][0]["patches"][0].update(to="1111"))
    (d,) = [d for d in codes(mini) if d.code == "HF102"]
    assert d.loc.file == "errata/mini-errata.yaml"
