"""Every code: the exact finding (code, severity, file:line, hexes, units) and a near miss that must not fire.

tests/test_checks.py's triggers (`M`) only asserted that a code appears; here each trigger's one
finding is pinned exactly, and beside it a change close to the trigger that is legal and must stay
silent, so a check that fires on everything, or on nothing, fails. The lines are found in the file
the trigger wrote (`(text, nth)`: the nth line holding the text), so they follow the fixture.
"""
from __future__ import annotations

import json

import pytest

import test_checks as base
from compiler.cli import check_tree
from validator.catalog import all_codes

S1, OOA, CTR, TAB = "scenarios/s1.yaml", "orders-of-arrival.yaml", "counters.yaml", "tables.yaml"
ERR = "errata/mini-errata.yaml"
AI, BI, CM = "3-5-10 Inf Bn (A/1)", "3-5-10 Inf Bn (B/1)", "2-2-14 Mech Bn (C/1)"

# code: (severity, file, line or (text, nth), hexes, units)
EXACT = {
    "HF001": ("error", TAB, 3, (), ()),
    "HF002": ("error", "map.yaml", ("scheme: letters", 1), (), ()),
    "HF003": ("error", "tec.yaml", 1, (), ()),
    "HF004": ("error", CTR, ("steps: two", 1), (), ()),
    "HF005": ("error", "map.yaml", 0, (), ()),
    "HF006": ("error", "tec.yaml", 1, (), ()),
    "HF101": ("error", S1, ("hex: 5A", 1), ("5A",), ()),
    "HF102": ("error", S1, ("hex: '1111'", 1), ("1111",), ()),
    "HF103": ("error", S1, ("hex: '1005'", 1), ("1005",), (CM,)),
    "HF104": ("error", "terrain.yaml", ("- between:", 1), ("0303", "0306"), ()),
    "HF105": ("error", "map.yaml", ("- board: main", 1), (), ()),
    "HF106": ("error", OOA, ("- entry:", 1), (), ()),
    "HF107": ("info", "places.yaml", ("- id: N", 1), (), ()),
    "HF108": ("warning", OOA, ("- entry:", 2), ("0101", "0504"), ()),
    "HF109": ("warning", S1, ("text: Hold Townsville.", 1), ("1005",), ()),
    "HF201": ("error", S1, ("- unit: nope", 1), (), (CM,)),
    "HF202": ("error", CTR, ("- id: b1-a", 1), (), (AI,)),
    "HF203": ("error", CTR, ("- id: b1-a", 1), (), (AI,)),
    "HF204": ("error", CTR, ("- id: b1-a", 2), (), ()),
    "HF205": ("error", S1, ("- unit: r1-a", 1), (), ("4-4-12 Pz Bn (I/1)",)),
    "HF206": ("error", S1, ("- unit: b1-a", 2), ("0202", "0302"), (AI,)),
    "HF207": ("error", OOA, ("unit: r1-b", 1), (), ("[6]-1-12 Arty Rgt (1)",)),
    "HF208": ("error", S1, ("- unit: r-inf", 1), (), ("1-1-7 infantry",)),
    "HF209": ("error", S1, ("hex: '0404'", 1, -1), ("0404",), ()),
    "HF210": ("warning", OOA, ("- unit: r-inf", 1), (), ("1-1-7 infantry",)),
    "HF211": ("warning", CTR, ("- id: cy-b", 1), (), ("1-1-8 Inf Co (Cy)",)),
    "HF301": ("warning", S1, ("- unit: b1-a", 1), (), ("3-5-8 Inf Bn (A/1)",)),
    "HF302": ("warning", S1, ("- unit: b1-a", 1), (), ("3-5-10 Mech Bn (A/1)",)),
    "HF303": ("warning", CTR, ("- id: b1-a", 1), (), (AI,)),
    "HF304": ("warning", S1, ("- unit: b1-c", 1), ("0909",), (CM,)),
    "HF401": ("error", S1, ("- side: blue", 1), ("0202",), (AI, BI, "1-1-8 Inf Co (Cy)")),
    "HF402": ("error", S1, ("- side: red", 2), ("0601",), ("1-1-8 Inf Co (Cy)", "4-4-12 Pz Bn (I/1)")),
    "HF403": ("error", S1, ("- side: blue", 2), ("0302",), (CM, "1-1-8 Inf Co (Cy)")),
    "HF404": ("warning", S1, ("- side: blue", 4), ("0302",), (CM, "3-5-10 Inf Bn (A/2)")),
    "HF405": ("error", S1, ("- side: blue", 2), ("0707",), (CM,)),
    "HF406": ("warning", OOA, ("- entry:", 2), ("0110", "0210"), ("1-1-7 infantry",)),
    "HF501": ("error", OOA, ("- turn: '9'", 1), (), ()),
    "HF502": ("error", S1, 1, (), ()),
    "HF503": ("error", OOA, ("- turn: '2'", 2), (), ()),
    "HF504": ("error", OOA, ("- turn: '2'", 1), (), ()),
    "HF505": ("warning", S1, ("- turn: '4'", 1), (), ()),
    "HF509": ("error", "game.yaml", ("name: Hover Phase", 1, -1), (), ()),
    "HF510": ("error", "game.yaml", ("- blue-move", 1, -1), (), ()),
    "HF511": ("warning", OOA, ("- entry:", 1), (), ()),
    "HF512": ("info", OOA, ("kind: trigger", 1), (), ()),
    "HF513": ("error", OOA, ("kind: airdrop", 1), (), ()),
    "HF514": ("info", OOA, ("- entry:", 2), (), ()),
    "HF515": ("error", CTR, ("id: dg", 1), (), ()),
    "HF516": ("error", "game.yaml", ("id: blue-move", 1), (), ()),
    "HF601": ("error", TAB, ("- id: crt", 1), (), ()),
    "HF602": ("error", TAB, ("- roll: '1'", 1), (), ()),
    "HF603": ("error", TAB, ("- roll: x", 1), (), ()),
    "HF604": ("error", TAB, ("- roll: 1-3", 1), (), ()),
    "HF605": ("error", TAB, ("- roll: '1'", 1), (), ()),
    "HF606": ("info", TAB, ("- id: crt", 1), (), ()),
    "HF607": ("warning", "tec.yaml", 1, (), ()),
    "HF608": ("error", "terrain.yaml", ("- swamp", 1), ("0606",), ()),
    "HF609": ("warning", "places.yaml", ("- hex: '0505'", 1), ("0505",), ()),
    "HF610": ("error", "game.yaml", ("stacking:", 1), (), ()),
    "HF611": ("warning", TAB, ("- roll: '1'", 1), (), ()),
    "HF612": ("error", TAB, ("- id: crt", 1), (), ()),
    "HF613": ("info", "tec.yaml", ("- id: lake", 1), (), ()),
    "HF614": ("error", TAB, ("- id: crt", 1), (), ()),
    "HF615": ("info", "game.yaml", ("- rule: '9.2'", 1), (), ()),
    "HF619": ("error", "tec.yaml", ("- id: ford", 1), (), ()),
    "HF620": ("error", TAB, ("- id: crt", 1), (), ()),
    "HF701": ("warning", ERR, ("- op: set", 2), (), ()),
    "HF703": ("info", ERR, ("- id: '1'", 1), (), ()),
    "HF801": ("error", ERR, ("- op: set", 1), (), ()),
    "HF901": ("warning", "game.yaml", ("- id: oob", 1), (), ()),
    "HF902": ("info", "map.yaml", ("provenance: assumed", 1), (), ()),
    "HF903": ("info", S1, 1, (), ()),
}

# The one finding's message, for the codes where the wording carries the place or the numbers.
WORDS = {
    "HF102": "hex 1111 is off the map (board main has columns 1-10, rows 1-10)",
    "HF104": "river hexside between 0303 and 0306: the hexes are not adjacent (distance 3)",
    "HF206": "3-5-10 Inf Bn (A/1) is set up twice (0202 and 0302)",
    "HF208": "4 × 1-1-7 infantry set up, but the mix has 3",
    "HF304": "at 0909 is 10 hexes from the nearest other unit of 1st Blue Div",
    "HF401": "3 units in 0202, over the stacking limit of 2 (5.3)",
    "HF406": "5 units placed in 0110 or 0210 (2 hex(es)), room for 4 at 2 per hex",
    "HF504": "heading 'Turn 2' follows turn 3",
    "HF505": "blue reinforcements on turn 4, outside the game's turns 1-3",
    "HF601": "no row for roll(s) 4, 5, 6",
    "HF602": "roll 1: 2 cells for 3 columns (1 missing; a short row does not show under which column)",
    "HF614": "1 cell(s) hold '?' (roll 1 under 3:1)",
    "HF509": "phase x: movement class 'hover' is not one of the game's (leg, mech)",
    "HF510": "phase x: not_if_moved_in names 'blue-move', which is not an earlier phase in which units move",
    "HF511": "red arrival on turn 2: its condition is text only (Roll one die.)",
    "HF512": "red arrival on turn 2: not judged: the bridge is not printed",
    "HF513": "red arrival on turn 2: turn '9' is not on the turn track",
    "HF514": "red arrival on turn 2: its entry is printed as area E and, by 9.9, as A1.01; the audit accepts either",
    "HF515": "marker dg: removed_in names 'dg-recovery', which is not a phase of the sequence of play",
    "HF516": "phase blue-move: special move of b1-a: the roll's turn '17 AM' is not among its turns (1, 2)",
    "HF612": "die '1d10' is not declared in game.yaml (declared: 1d6)",
    "HF613": "TEC movement code 'P' has no note saying what it means: Lake (leg), Lake (mech)",
    "HF619": "TEC row ford: cancels 'stream', which is not in the TEC",
    "HF620": "the DRM 'attacked across a river' names across 'rivr', which the tree does not have",
    "HF615": "combat rule kept as text, not judged: 9.2: every unit in an enemy ZOC must attack",
}


def _apply(tree, rel, fn):
    if rel is None:
        fn(tree)
    else:
        tree.edit(rel, fn)


def _line(tree, rel, where) -> int:
    if isinstance(where, int):
        return where
    text, nth, *offset = where
    hits = [i for i, line in enumerate((tree.path / rel).read_text(encoding="utf-8").splitlines(), 1)
            if text in line]
    assert len(hits) >= nth, f"{rel} has {len(hits)} line(s) with {text!r}"
    return hits[nth - 1] + (offset[0] if offset else 0)


def _found(tree, code, as_printed=False):
    _, diags = check_tree(tree.path, as_printed=as_printed)
    return [d for d in diags if d.code == code]


def test_every_check_code_has_an_exact_case_and_a_near_miss():
    from test_art_checks import ART_CODES       # the art checks: exact findings and near misses there
    codes = {c for c, x in all_codes().items() if x.kind in ("read", "check")} - ART_CODES
    assert codes - set(EXACT) - {"HF007", "HF702"} == set()      # HF007, HF702: their own tests below
    assert codes - set(NEAR) - {"HF007", "HF702"} == set()


@pytest.mark.parametrize("code", sorted(EXACT))
def test_exact_finding(mini, code):
    rel, fn = base.M[code]
    _apply(mini, rel, fn)
    sev, file, where, hexes, units = EXACT[code]
    (d,) = _found(mini, code)
    assert (d.severity, d.loc.file, d.loc.line, d.hexes, d.units) == (sev, file, _line(mini, file, where),
                                                                      hexes, units), d.message
    assert WORDS.get(code, "") in d.message and d.help


# -- near misses: close to the trigger, legal, silent ---------------------------------------------

def _text_edit(rel, old, new):
    def fn(tree):
        text = (tree.path / rel).read_text(encoding="utf-8")
        assert old in text
        tree.text(rel, text.replace(old, new, 1))
    return fn


def _arrival(d, i=1):
    return d["orders_of_arrival"][0]["turns"][i]["arrivals"][0]


def _flow_tables(t):
    t.text(TAB, "tables: [\n  " + json.dumps(t.data(TAB)["tables"][0]) + "\n]\n")


def _radius(t, r):
    t.edit("game.yaml", lambda d: d["rules"].update(other={"formation_radius": r}))


def _scatter_within(t):
    base._scatter(t)
    _radius(t, 12)                       # the unit at 0909 is 10 hexes away: within 12


def _new_unit(d):
    d["units"].append({"id": "b1-d", "name": "1-1-8 Inf Co (D/1)", "side": "blue", "nationality": "bl",
                       "formation": "b1", "type": "infantry", "factors": "1-1-8", "movement_class": "leg"})


def _place_new_unit(t):
    t.edit(CTR, _new_unit)
    t.edit(S1, lambda d: base._setup(d, "0302")["units"].append({"unit": "b1-d"}))


NEAR = {
    "HF001": (None, _flow_tables),
    "HF002": (None, _text_edit("map.yaml", "scheme: column-row", "scheme: column-row\n# scheme: letters")),
    "HF003": (None, _text_edit("tec.yaml", "movement_classes:", "# terrain effects\nmovement_classes:")),
    "HF004": (CTR, lambda d: base._unit(d, "b1-a").update(steps=2)),
    "HF005": (None, lambda t: (t.path / "tec.yaml").unlink()),             # optional: its absence is no HF005
    "HF006": (None, _text_edit("tec.yaml", "name: Clear", "name: Clear – Ünbebaut ½")),
    "HF101": (S1, lambda d: base._setup(d, "0302").update(hex="0510")),
    "HF102": (S1, lambda d: base._setup(d, "0302").update(hex="1010")),    # the map's last column: on it
    "HF103": (S1, lambda d: base._setup(d, "0302").update(hex="0910")),    # the play area's corner
    "HF104": ("terrain.yaml", lambda d: d["hexsides"][0].update(between=["0303", "0403"])),
    "HF105": ("map.yaml", lambda d: d.update(joins=[{"board": "main", "column": 1, "meets": {"board": "main", "column": 2}}])),
    "HF106": (None, lambda t: (t.edit("places.yaml", lambda d: d["areas"].append({"id": "Z", "kind": "entry", "hexes": ["0109"]})),
                               t.edit(OOA, lambda d: _arrival(d, 0).update(entry={"area": "Z"})))),
    "HF107": ("places.yaml", lambda d: d["areas"].append({"id": "N", "kind": "entry", "hexes": ["0101"]})),
    "HF108": (OOA, lambda d: _arrival(d).update(entry={"range": ["0101", "0104"]})),
    "HF109": (S1, lambda d: d["victory"].update(hexes=["0910"])),
    "HF201": (None, _place_new_unit),
    "HF202": (CTR, lambda d: base._unit(d, "b1-a").update(formation="b2")),
    "HF203": (CTR, lambda d: base._unit(d, "b2-a").update(nationality="cy")),   # declared, and alone
    "HF204": (CTR, lambda d: d["units"].append(dict(base._unit(d, "b1-a"), id="b1-a2"))),
    "HF205": (None, _place_new_unit),                                          # a blue unit under blue
    "HF206": (S1, lambda d: base._setup(d, "0302")["units"].append({"unit": "b1-b", "printed": BI})
              or base._setup(d, "0202")["units"].pop(1)),                   # moved, not doubled
    "HF207": (S1, lambda d: d["setup"].append({"side": "red", "hex": "0909", "units": [{"unit": "r1-a"}]})
              or base._setup(d, "0808")["units"].pop(0)),
    "HF208": (S1, lambda d: base._setup(d, "0808")["units"][1].update(count=3)),   # exactly the mix
    "HF209": (None, lambda t: (t.edit(CTR, _new_unit), t.edit(S1, lambda d: d["setup"].append(
        {"side": "blue", "hex": "0404", "units": [{"unit": "b1-d"}]})))),
    "HF210": (OOA, lambda d: _arrival(d)["units"][0].update(count=1)),
    "HF211": (None, _place_new_unit),
    "HF301": (S1, lambda d: base._setup(d, "0202")["units"][0].update(printed="3-5-10 Inf Bn (A/1)")),
    "HF302": (S1, lambda d: base._setup(d, "0202")["units"][0].update(printed=None)),
    "HF303": (CTR, lambda d: base._unit(d, "b1-a").update(factors="2-7-9")),
    "HF304": (None, _scatter_within),
    "HF401": (S1, lambda d: base._setup(d, "0202")["units"].pop()),            # 1 of 2
    "HF402": (S1, lambda d: d["setup"].append({"side": "red", "hex": "0602", "units": [{"unit": "r1-a"}]})
              or base._setup(d, "0808")["units"].pop(0)),                    # next to the blue company
    "HF403": (None, _place_new_unit),                                          # bl joins bl in 0302
    "HF404": (S1, lambda d: base._mixed(d, state=["dg"])),
    "HF405": (S1, lambda d: base._setup(d, "0302").update(hex="0505")),        # woods: costly, not prohibited
    "HF406": (OOA, lambda d: _arrival(d)["units"][0].update(count=3)),
    "HF501": (OOA, lambda d: d["orders_of_arrival"][0]["turns"][0].update(turn="1")),
    "HF502": (S1, lambda d: d.update(first_turn="3", last_turn="3")),
    "HF503": (OOA, lambda d: d["orders_of_arrival"][0]["turns"][1].update(turn="4", printed="Turn 4")),
    "HF504": (OOA, lambda d: d["orders_of_arrival"][0]["turns"][1].update(turn="5", printed="Turn 5")),
    "HF505": (S1, lambda d: d.update(last_turn="4")),                         # arrival on the last turn
    "HF509": ("game.yaml", lambda d: d["sequence_of_play"].append(                # a class the game has
        {"id": "x", "name": "Hover Phase", "moves": ["mech"]})),
    "HF510": ("game.yaml", lambda d: (d["sequence_of_play"][0].update(moves="all"),   # blue-move now moves
                                      base.M["HF510"][1](d))),
    "HF511": (OOA, lambda d: _arrival(d, 0).update(condition="Roll one die.",          # the same, with its terms
                                                   terms={"kind": "roll", "roll": {"dice": "1d6", "success": [6]}})),
    "HF512": (OOA, lambda d: _arrival(d, 0).update(terms={"kind": "trigger", "why": "the bridge is not printed"})),
    "HF513": (OOA, lambda d: _arrival(d, 0).update(terms={"kind": "airdrop", "turn": {"exactly": "2"}})),
    "HF514": (OOA, lambda d: _arrival(d, 0).update(also_printed=[])),            # printed one way only
    "HF515": (CTR, lambda d: d["markers"][0].update(removed_in={"phases": ["red-move"], "rule": "3.4"})),  # a phase
    "HF516": ("game.yaml", lambda d: (base.M["HF516"][1](d),                      # the roll's turn is one of its
                                      d["sequence_of_play"][0]["special_moves"][0]["roll"].update(success={"1": [1]}))),
    "HF601": (TAB, lambda d: base._crt(d)["rows"][2].update(roll="4-6")),
    "HF602": (TAB, lambda d: base._crt(d)["rows"][0]["results"].__setitem__(2, "D2")),
    "HF603": (TAB, lambda d: base._crt(d)["rows"][2].update(roll="4, 5 or 6")),
    "HF604": (TAB, lambda d: base._crt(d)["rows"][1].update(roll="2-3")),
    "HF605": (TAB, lambda d: base._crt(d)["rows"][0]["results"].__setitem__(0, "A2")),
    "HF606": (TAB, lambda d: base._crt(d).update(note="smudged but read")),
    "HF607": ("tec.yaml", lambda d: d.update(complete=True, missing=[])),
    "HF608": ("terrain.yaml", lambda d: d["hexes"].update({"0606": ["woods"]})),
    "HF609": ("places.yaml", lambda d: d["victory"][0].update(value=0)),
    "HF610": ("game.yaml", lambda d: d["rules"]["combat"].update(table="crt")),
    "HF611": (TAB, lambda d: base._crt(d)["rows"][0]["results"].__setitem__(2, "DE / D1")),
    "HF612": (None, lambda t: (t.edit("game.yaml", lambda d: d["dice"].append(      # another name, declared
        {"name": "D6", "count": 1, "sides": 6})), t.edit(TAB, lambda d: base._crt(d).update(dice="D6")))),
    "HF613": ("tec.yaml", lambda d: d["notes"].update(P="Not allowed.")),        # reworded, still explained
    "HF614": (TAB, lambda d: base._crt(d)["rows"][0]["results"].__setitem__(2, "?")
              or base._crt(d).update(complete=False, missing=["roll 1, 3:1"])),
    "HF615": ("game.yaml", lambda d: d["rules"]["combat"].update(                # the limit as data, no text
        attack_once={"rule": "9.2"})),
    "HF619": ("tec.yaml", lambda d: d["terrain"].append(                        # cancels a row the TEC has
        {"id": "ford", "name": "Ford", "kind": "hexside", "cancels": ["river"]})),
    "HF620": (TAB, lambda d: base._crt(d).update(drm=[                              # names the tree's river
        {"value": 1, "when": "attacked across a river", "if": {"across": ["river"], "attacker_type": ["infantry"]}}])),
    "HF701": (ERR, lambda d: d["items"].append({"id": "2", "wording": "turn 2", "patches": [
        {"op": "set", "file": S1, "path": ["first_turn"], "from": "1", "to": "2"}]})),
    "HF703": (ERR, lambda d: d.update(kind="official")),
    "HF801": (ERR, lambda d: d["items"][0]["patches"][0].update(**{"from": "0808"})),
    "HF901": ("game.yaml", lambda d: d.update(gaps=[])),
    "HF902": ("map.yaml", lambda d: d["boards"][0].update(provenance="printed")),
    "HF903": (S1, lambda d: d.update(setup_printed=True)),
}


@pytest.mark.parametrize("code", sorted(NEAR))
def test_near_miss_stays_silent(mini, code):
    rel, fn = NEAR[code]
    _apply(mini, rel, fn)
    assert [(str(d.loc), d.message) for d in _found(mini, code)] == []


def test_near_misses_keep_the_tree_free_of_errors(mini, tmp_path):
    """The near misses are legal trees (not errors of another kind that hide the code)."""
    import shutil
    from conftest import MINI, Tree
    allowed = {"HF102": {"HF103"},      # the map's last column lies outside the play area
               "HF208": {"HF401"}}      # 1 + 3 units in 0808, as in the trigger
    bad = {}
    for code, (rel, fn) in sorted(NEAR.items()):
        dst = tmp_path / code
        shutil.copytree(MINI, dst)
        tree = Tree(dst)
        _apply(tree, rel, fn)
        _, diags = check_tree(dst)
        errors = {d.code for d in diags if d.severity == "error"} - allowed.get(code, set())
        if errors:
            bad[code] = sorted(errors)
    assert bad == {}


# -- HF007 and HF702 ------------------------------------------------------------------------------

def test_hf007_exact(mini):
    _text_edit(CTR, 'name: "3-5-10 Inf Bn (B/1)"', r'name: "3-5-10 Inf\x01Bn (B/1)"')(mini)
    (d,) = _found(mini, "HF007")
    line = _line(mini, CTR, (r"\x01", 1))
    column = (mini.path / CTR).read_text(encoding="utf-8").splitlines()[line - 1].index('"3-5-10 Inf') + 1
    assert (d.severity, d.loc.file, d.loc.line, d.loc.column) == ("error", CTR, line, column)   # the string


def test_hf702_exact_and_its_near_miss(mini):
    (d,) = _found(mini, "HF702", as_printed=True)
    assert (d.severity, d.loc.file) == ("info", ERR)
    assert _found(mini, "HF702") == []                  # the errata applied: nothing to say


# -- behaviours pinned (issue 8, item 9) ----------------------------------------------------------

def test_arrival_on_the_last_turn_is_inside_the_game(mini):
    mini.edit(S1, lambda d: d.update(last_turn="4"))                         # blue arrives on turn 4
    assert _found(mini, "HF505") == []
    mini.edit(S1, lambda d: d.update(last_turn="3"))
    (d,) = _found(mini, "HF505")
    assert "turn 4, outside the game's turns 1-3" in d.message


def test_hf406_with_exactly_as_many_units_as_room(mini):
    mini.edit(OOA, lambda d: _arrival(d)["units"][0].update(count=4))        # 2 hexes x limit 2 = 4
    assert _found(mini, "HF406") == []
    mini.edit(OOA, lambda d: _arrival(d)["units"][0].update(count=5))
    (d,) = _found(mini, "HF406")
    assert "5 units placed in 0110 or 0210 (2 hex(es)), room for 4" in d.message


def _patch(**p):
    return lambda d: d["items"][0].update(patches=[p])


def test_errata_selector_matching_two_entries_does_not_apply(mini):
    mini.edit(S1, lambda d: d["setup"].append({"side": "red", "hex": "0808", "units": [{"unit": "r1-b"}]}))
    mini.edit("orders-of-arrival.yaml", lambda d: d["orders_of_arrival"][0]["turns"].pop(0))
    (d,) = _found(mini, "HF801")
    assert d.severity == "error" and d.loc.file == ERR
    assert "matches 2 entries, not exactly one" in d.message
    mini.edit(ERR, lambda d: d["items"][0]["patches"][0]["path"][1].update(side="red", hex="0808"))
    assert "matches 2 entries" in _found(mini, "HF801")[0].message         # still two: never the first


def test_errata_remove_whose_from_does_not_match_is_reported_and_not_applied(mini):
    from validator.source.loader import load_game
    sel = {"side": "red", "hex": "0808"}
    mini.edit(ERR, _patch(op="remove", file=S1, path=["setup", sel, "units", 1],
                          **{"from": {"unit": "r1-a"}}))                    # index 1 holds r-inf
    (d,) = _found(mini, "HF801")
    assert "no longer has {'unit': 'r1-a'}" in d.message
    mini.edit(ERR, _patch(op="remove", file=S1, path=["play_area", 0, "columns", 0], **{"from": 2}))
    (d,) = _found(mini, "HF801")
    assert "is 1, not 2" in d.message
    game, _ = load_game(mini.path)
    assert game is None or game.scenario("s1").play_area[0]   # nothing was removed on a mismatch
    mini.edit(ERR, _patch(op="remove", file=S1, path=["setup", sel, "units", 1],
                          **{"from": {"unit": "r-inf"}}))                   # the near miss: it matches
    assert _found(mini, "HF801") == []
    game, _ = load_game(mini.path)
    (red,) = [g for g in game.scenario("s1").setup if g.side == "red"]
    assert [p.unit for p in red.units] == ["r1-a"]


def test_editorial_errata_are_applied_first(mini):
    """An official erratum written against the editorially corrected data finds what it expects."""
    mini.text("errata/a-official.yaml", json.dumps({
        "id": "pub", "title": "Publisher's errata", "source": "tests", "date": "2024-02-01", "items": [
            {"id": "1", "wording": "The Pz Bn sets up in 0810.", "patches": [
                {"op": "set", "file": S1, "path": ["setup", {"side": "red", "hex": "0809"}, "hex"],
                 "from": "0809", "to": "0810"}]}]}))
    mini.edit(ERR, lambda d: d.update(kind="editorial"))  # sorts after a-official.yaml by name
    from validator.source.loader import load_game
    game, diags = load_game(mini.path)
    assert [d for d in diags if d.code == "HF801"] == []
    assert {g.location.hex for g in game.scenario("s1").setup if g.side == "red"} == {"0810"}
    mini.edit(ERR, lambda d: d.update(kind="official"))   # near miss: both official, file order
    (d,) = [d for d in load_game(mini.path)[1] if d.code == "HF801"]
    assert d.loc.file == "errata/a-official.yaml"
    assert "selector {'side': 'red', 'hex': '0809'} matches 0 entries" in d.message
