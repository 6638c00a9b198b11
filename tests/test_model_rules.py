"""Rule parameters are typed in the model with their rule numbers, or the schema rejects them (issue 8 item 4)."""
from fractions import Fraction

import pytest

from compiler.cli import check_tree
from validator.source.loader import load_game
from validator.source.tec import read_cost

NOTES = {"P": "Prohibited.", "na": "Not Allowed.", "ot": "Use Other Terrain in the hex.",
         "b": "Mechanized units may only enter or leave dense-forest hexes by road."}


@pytest.mark.parametrize("cell, kind, mp, notes", [
    ("2 MP", "mp", Fraction(2), ()),
    ("1", "mp", Fraction(1), ()),
    ("1/2", "mp", Fraction(1, 2), ()),
    ("½", "mp", Fraction(1, 2), ()),
    ("1½", "mp", Fraction(3, 2), ()),
    ("+2 MP", "added", Fraction(2), ()),
    ("+1", "added", Fraction(1), ()),
    ("1 MP (b)", "mp", Fraction(1), ("b",)),
])
def test_numbers_read_as_movement_points(cell, kind, mp, notes):
    c = read_cost(cell, NOTES)
    assert (c.kind, c.mp, c.notes, c.code) == (kind, mp, notes, None)


def test_codes_take_their_meaning_from_the_tec_notes():
    p, na, ot = read_cost("P", NOTES), read_cost("na", NOTES), read_cost("ot", NOTES)
    assert (p.kind, p.code, p.meaning) == ("prohibited", "P", "Prohibited.")
    assert (na.kind, na.meaning) == ("prohibited", "Not Allowed.")
    assert (ot.kind, ot.meaning, ot.prohibited) == ("code", "Use Other Terrain in the hex.", False)
    b = read_cost("(b)", NOTES)
    assert (b.kind, b.code, b.meaning, b.notes) == ("code", "b", NOTES["b"], ("b",))


def test_a_code_the_notes_do_not_explain_is_not_prohibited():
    # near miss: the same "P" without a note saying what it means is an unexplained code, not a prohibition
    p = read_cost("P", {})
    assert (p.kind, p.code, p.meaning) == ("code", "P", None)
    dg = read_cost("DG", NOTES)
    assert (dg.kind, dg.code, dg.meaning) == ("code", "DG", None)


def test_a_word_printed_in_full_says_what_it_means():
    c = read_cost("Prohibited", {})
    assert (c.kind, c.meaning) == ("prohibited", "Prohibited")
    assert read_cost("Special", {}).kind == "code"


def test_bundled_tecs_read_into_costs():
    bulge, _ = load_game("source/bulge")
    cliff = bulge.terrain_type("cliff")
    assert cliff.costs["mechanized"].prohibited and cliff.rule == "TEC, 6.9"
    assert bulge.terrain_type("air-interdiction").costs["other"].kind == "added"
    forest = bulge.terrain_type("dense-forest").costs["mechanized"]
    assert (forest.kind, forest.code) == ("code", "b") and forest.meaning.startswith("Mechanized units may only")
    a2, _ = load_game("source/ardennes2")
    assert a2.terrain_type("road").costs["mech"].mp == Fraction(1, 2)
    assert a2.terrain_type("open").costs == {"leg": read_cost("2", {}), "mech": read_cost("3", {})}
    jam = a2.terrain_type("traffic-jam").costs["leg"]
    assert (jam.kind, jam.code, jam.meaning) == ("code", "DG", None)   # the chart's notes do not explain DG
    aachen, _ = load_game("source/aachen")
    assert aachen.terrain_type("road").costs["leg"].mp == Fraction(1, 2)


def test_rules_are_typed_with_their_rule_numbers():
    a2, _ = load_game("source/ardennes2")
    z = a2.rules.zoc
    assert (z.model, z.rule, z.post_min_steps, z.post_spacing, z.max_bonds_per_post) == ("bonds", "1.2", 2, 2, 2)
    assert (a2.rules.combat.method, a2.rules.combat.table, a2.rules.combat.rule) == ("odds", "crt", "3.2")
    (mix,) = a2.rules.mixing_rules
    assert (mix.kind, mix.penalty, mix.rule) == ("divisional-integrity", "dg", "3.1")
    assert (a2.rules.stacking.limit, a2.rules.stacking.counts, a2.rules.stacking.rule) == (3, "units", "3.1")
    bulge, _ = load_game("source/bulge")
    assert bulge.rules.zoc.rule == "7.0" and bulge.rules.combat.rule == "8.2, 17.1"
    assert bulge.rules.mixing_rules[0].nationalities == ("us", "uk")
    crt = next(t for t in bulge.tables if t.id == "crt")
    assert [(d.value, d.side, d.rule) for d in crt.drm[:2]] == [(-1, "german", "25.5"), (-1, "german", "17.2.4")]
    assert crt.die is not None and (crt.die.count, crt.die.sides) == (1, 6)


@pytest.mark.parametrize("rules", [
    {"stacking": {"limit": 2, "counts": "strength"}},
    {"stacking": {"limit": 2, "per": "hex"}},
    {"zoc": {"model": "locking"}},
    {"zoc": {"model": "bonds", "bond_length": 2}},
    {"combat": {"method": "odds", "table": "crt", "ratio_rounding": "down"}},
    {"mixing": [{"kind": "sides-apart"}]},
])
def test_schema_rejects_parameters_the_model_does_not_type(mini, rules):
    mini.edit("game.yaml", lambda d: d["rules"].update(rules))
    _, diags = check_tree(mini.path)
    assert [d.code for d in diags if d.severity == "error"] == ["HF004"]
    assert diags[0].loc.file == "game.yaml"


def test_schema_accepts_the_typed_bond_parameters(mini):
    # near miss: the same kind of edit with typed keys is accepted and read
    mini.edit("game.yaml", lambda d: d["rules"].update(
        zoc={"model": "bonds", "rule": "1.2", "post_min_steps": 2, "post_spacing": 2, "max_bonds_per_post": 2}))
    g, diags = load_game(mini.path)
    assert g is not None and not [d for d in diags if d.severity == "error"]
    assert g.rules.zoc.max_bonds_per_post == 2 and g.rules.zoc.rule == "1.2"


def test_a_table_naming_an_undeclared_die_is_reported_not_skipped(mini):
    mini.edit("tables.yaml", lambda d: d["tables"][0].update(dice="2d6"))
    _, diags = check_tree(mini.path)
    (d,) = [d for d in diags if d.code == "HF612"]
    assert "die '2d6' is not declared" in d.message and "1d6" in d.message
    assert d.loc.file == "tables.yaml"
    # near miss: declare it and the table is checked against the declared 2d6 (rolls 2-12 missing)
    mini.edit("game.yaml", lambda g: g["dice"].append({"name": "2d6", "count": 2, "sides": 6}))
    _, diags = check_tree(mini.path)
    assert not [d for d in diags if d.code == "HF612"]
    (d601,) = [d for d in diags if d.code == "HF601"]
    assert "7, 8, 9, 10, 11, 12" in d601.message


def test_a_prohibition_without_its_note_is_reported_not_dropped(mini):
    # the lake's "P" reads as a prohibition only while the TEC's notes say so (HF405 fires on it) ...
    mini.edit("scenarios/s1.yaml", lambda d: d["setup"][1].update(hex="0707"))
    _, diags = check_tree(mini.path)
    assert [d.code for d in diags if d.code in ("HF405", "HF613")] == ["HF405"]
    # ... without the note it is an unexplained code, and that is said, not silently skipped
    mini.edit("tec.yaml", lambda d: d["notes"].pop("P"))
    _, diags = check_tree(mini.path)
    (d,) = [d for d in diags if d.code == "HF613"]
    assert d.message == "TEC movement code 'P' has no note saying what it means: Lake (leg), Lake (mech)"
    assert not [d for d in diags if d.code == "HF405"]
