"""Crossing the Meuse (source/meuse): the complete example game checks clean, gives every datum the
seed games cannot (terrain of every hex, every TEC and CRT cell, both counter sides), builds and prints."""
import re
from collections import deque

import pytest
import yaml
from click.testing import CliRunner

from compiler.cli import check_tree, main
from conftest import SOURCE
from validator.source.loader import load_game

TREE = SOURCE / "meuse"
HEX_TERRAIN = {"clear", "woods", "rough", "town", "city", "marsh", "water"}
CLASSES = ("leg", "mechanized")
COST = re.compile(r"\+?\d+(/\d+)?")          # "1", "+2", "1/2"


@pytest.fixture(scope="module")
def game():
    g, diags = load_game(TREE)
    assert g is not None, [str(d) for d in diags]
    return g


def test_checks_clean_with_nothing_to_report():
    _, diags = check_tree(TREE)
    assert [str(d) for d in diags] == []     # 0 errors, 0 warnings and no notes: nothing is unprinted


def test_it_says_it_is_written_for_hexforge_and_transcribes_no_rulebook(game):
    raw = yaml.safe_load((TREE / "game.yaml").read_text(encoding="utf-8"))
    assert raw["publisher"] is None and raw["rulebook"] == "RULES.md"
    assert "written for hexforge" in (TREE / "game.yaml").read_text(encoding="utf-8")
    assert not game.gaps and not game.assumptions and not game.errata


# -- the map -----------------------------------------------------------------------------------

def test_every_hex_has_a_terrain_from_the_tec(game):
    kinds = {t.id: t.kind for t in game.tec.terrain}
    hexes = list(game.grid.hexes())
    assert len(hexes) == 2 * 16 * 20
    used = set()
    for h in hexes:
        (t,) = game.hex_terrain(h)
        assert kinds[t] == "hex", h
        used.add(t)
    assert used == HEX_TERRAIN
    assert all(game.grid.exists(h.hex) for h in game.terrain.hexes)


def _reachable(game, start, blocked):
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in game.grid.neighbours(h):
            if n not in seen and game.grid.hexside(h, n) not in blocked:
                seen.add(n)
                todo.append(n)
    return seen


def _sides(game, feature):
    return {game.grid.hexside(*s.between) for s in game.terrain.hexsides if s.feature == feature}


def test_the_meuse_cuts_the_map_and_three_bridges_cross_it(game):
    river, bridges = _sides(game, "river"), _sides(game, "bridge")
    west = _reachable(game, "A1.01", river)
    assert "B16.01" not in west and "A1.20" in west and "B1.17" in west    # B1.17: the west bank on board B
    assert len(river & bridges) == 3
    assert {"A16.09", "B1.10"} in [set(s) for s in river & bridges]       # the highway bridge, on the seam
    assert "B16.01" in _reachable(game, "A1.01", river - bridges)


def test_every_road_or_track_crossing_of_water_is_bridged_and_every_bridge_carries_one(game):
    water = _sides(game, "river") | _sides(game, "stream")
    assert not (_sides(game, "river") & _sides(game, "stream"))
    steps = set()
    for p in game.terrain.paths:
        for a, b in zip(p.hexes, p.hexes[1:]):
            assert game.grid.adjacent(a, b), (p.feature, a, b)
            steps.add(game.grid.hexside(a, b))
        assert not {"water", "marsh"} & {t for h in p.hexes for t in game.hex_terrain(h)}
    assert (steps & water) == _sides(game, "bridge")
    assert _sides(game, "bridge") <= water


def test_rivers_roads_and_the_board_seam_meet(game):
    def crosses_seam(a, b):
        return {game.grid.board_of(a), game.grid.board_of(b)} == {"A", "B"}
    assert any(crosses_seam(*s) for s in _sides(game, "river"))
    assert any(crosses_seam(a, b) for p in game.terrain.paths if p.feature == "road"
               for a, b in zip(p.hexes, p.hexes[1:]))
    assert game.grid.adjacent("A16.09", "B1.10")


# -- the charts of the rules -------------------------------------------------------------------

def test_tec_gives_both_classes_a_cost_for_every_terrain(game):
    tec = game.tec
    assert tec.complete and not tec.missing and tec.movement_classes == CLASSES
    assert "P" in tec.notes
    for t in tec.terrain:
        for mc in CLASSES:
            cell = t.movement[mc]
            assert cell == "P" or COST.fullmatch(cell), (t.id, mc, cell)
            if t.kind == "hexside" and cell != "P":
                assert cell.startswith("+"), (t.id, cell)   # a hexside adds to the cost of the hex entered
    prohibited = {(t.id, mc) for t in tec.terrain for mc in CLASSES if t.movement[mc] == "P"}
    assert prohibited == {("marsh", "mechanized"), ("water", "leg"), ("water", "mechanized"), ("river", "mechanized")}
    assert game.terrain_type("bridge").cancels == ("river", "stream")


def test_crt_has_a_readable_result_in_every_cell(game):
    (crt,) = game.tables
    assert crt.complete and crt.method == "odds" and crt.dice == "1d6" and crt.rolls == (0, 8)
    assert [r for row in crt.rows for r in row.rolls] == list(range(0, 9))
    codes = {k.code for k in crt.key}
    assert codes == {"AE", "A1", "AR", "NE", "EX", "DR", "D1", "DE"}
    for row in crt.rows:
        assert len(row.results) == len(crt.columns) == 8
        for cell in row.results:
            assert cell and set(cell.split("/")) <= codes, (row.roll, cell)
    assert sorted(d.value for d in crt.drm) == [-1, 1, 1]
    # the odds table gets better for the attacker along a row and down a column
    rank = {"AE": 0, "A1": 1, "AR": 2, "NE": 3, "DR": 4, "EX": 5, "D1": 6, "D1/DR": 7, "DE": 8}
    for row in crt.rows:
        assert [rank[c] for c in row.results] == sorted(rank[c] for c in row.results)
    for j in range(len(crt.columns)):
        col = [rank[row.results[j]] for row in crt.rows]
        assert col == sorted(col)


def test_every_counter_has_a_full_and_a_reduced_side(game):
    assert len(game.units) == 19
    for u in game.units:
        assert u.steps == 2 and u.movement_class in CLASSES and u.count == 1
        full, reduced = u.factors.values, u.reduced.values
        assert all(isinstance(full[k], int) and isinstance(reduced[k], int) for k in game.factor_names), u.id
        assert reduced["attack"] < full["attack"] and reduced["movement"] == full["movement"]


def test_sequence_of_play_has_a_mechanized_only_exploitation_phase(game):
    assert [(p.side, p.moves, p.combat) for p in game.phases] == [
        ("red", ("all",), False), ("red", None, True), ("red", ("mechanized",), False),
        ("blue", ("all",), False), ("blue", None, True), ("blue", ("mechanized",), False)]
    assert [p.id for p in game.phases if p.moves == ("mechanized",)] == ["red-exploitation", "blue-exploitation"]
    assert [p.rule for p in game.phases] == ["3.2", "3.2", "9.1", "3.2", "3.2", "9.1"]
    r = game.rules
    assert (r.stacking.limit, r.stacking.counts, r.zoc.model, r.combat.method, r.combat.table) == (
        2, "units", "standard", "odds", "crt")


def test_two_scenarios_with_arrivals_at_entry_areas_over_six_to_eight_turns(game):
    assert [(s.id, s.first_turn, s.last_turn) for s in game.scenarios] == [("1", "1", "6"), ("2", "1", "8")]
    for s in game.scenarios:
        placed = [p.unit for g in s.setup for p in g.units]
        arriving = [p.unit for o in game.scenario_arrivals(s) for b in o.turns for a in b.arrivals for p in a.units]
        assert sorted(placed + arriving) == sorted(u.id for u in game.units), s.id   # every counter, once
        for o in game.scenario_arrivals(s):
            for b in o.turns:
                for a in b.arrivals:
                    area = game.area(a.entry.area)
                    assert area.kind == "entry" and area.hexes and all(h.startswith(("A1.", "B16.")) for h in area.hexes)
    values = {v.hex: v.value for v in game.places.victory}
    assert sum(values.values()) == 14 and all(game.hex_terrain(h)[0] in ("town", "city") for h in values)
    assert all(set(s.victory["hexes"]) == set(values) for s in game.scenarios)


def _rules_sections() -> set[str]:
    text = (TREE / "RULES.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\*\*(\d+\.\d+)\b", text, re.M)) | set(re.findall(r"^## (\d+\.0)\b", text, re.M))


def _rule_values(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "rule" or k.endswith("_rule"):      # rule, movement_rule, rounding_rule
                yield v
            else:
                yield from _rule_values(v)
    elif isinstance(node, list):
        for v in node:
            yield from _rule_values(v)


def test_every_rule_number_in_the_tree_is_a_section_of_rules_md():
    sections = _rules_sections()
    cited = set()
    for f in sorted(TREE.rglob("*.yaml")):
        cited |= set(_rule_values(yaml.safe_load(f.read_text(encoding="utf-8"))))
    assert cited and cited <= sections, sorted(cited - sections)
    assert {"4.1", "5.1", "6.2", "7.3", "7.4", "8.5", "8.6", "9.1", "10.1", "11.2"} <= cited


# -- build and print ---------------------------------------------------------------------------

def test_builds_a_module_with_both_sides_of_every_counter(tmp_path):
    from compiler.vassal import reader
    r = CliRunner().invoke(main, ["build", str(TREE), "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    mod = reader.read_module(tmp_path / "meuse.vmod")
    sides = {}
    for s in mod.slots:
        tr = reader.expand_prototypes(s["traits"], mod.prototypes)
        uid = next((t["values"]["UnitId"] for t in tr if t["kind"] == "mark" and "UnitId" in t["values"]), None)
        if uid:
            (layer,) = [t for t in tr if t["kind"] == "emb2"]
            sides[uid] = layer["images"]
    assert set(sides) == {u.id for u in load_game(TREE)[0].units}
    for uid, images in sides.items():
        assert images == [f"unit_{uid}_front.png", f"unit_{uid}_back.png"]
        assert all(mod.archive.has("images/" + i) for i in images)
    assert sorted(b.name for b in mod.boards if b.grid) == ["A", "B"]
    assert [s["name"] for s in mod.setups] == ["1 The Bridges at Montvaux", "2 Race for the Meuse"]


def _pixels_near(img, rgb, tol=6) -> int:
    return sum(n for n, px in img.getcolors(1 << 20) if all(abs(a - b) <= tol for a, b in zip(px[:3], rgb)))


def test_charts_print_and_the_set_up_maps_show_the_terrain(tmp_path):
    import pypdfium2
    from compiler.render.boards import terrain_colour
    r = CliRunner().invoke(main, ["charts", str(TREE), "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert {p.name for p in tmp_path.iterdir() if p.name != ".cache"} == {     # .cache: the run stamp
        "counter-sheets.pdf", "counter-sheet-1.png", "tables.pdf", "crt.png", "tec.pdf", "turn-track.pdf",
        "orders-of-arrival.pdf", "setup-1.pdf", "setup-2.pdf"}
    page = pypdfium2.PdfDocument(str(tmp_path / "setup-1.pdf"))[0].render(scale=1.5).to_pil().convert("RGB")
    for t in ("woods", "water", "rough"):
        assert _pixels_near(page, terrain_colour(t)) > 500, t


def test_set_up_maps_leave_unprinted_terrain_uncoloured():
    from compiler.charts.setup import UNKNOWN_PLOT_FILL, HexMap
    aachen, _ = load_game(SOURCE / "aachen")           # no hex terrain printed (default: null)
    plot = HexMap(aachen, aachen.scenarios[0], 400, 400, [], [])
    assert [rgb for rgb, _ in plot._by_terrain_colour(sorted(plot.play))] == [UNKNOWN_PLOT_FILL]
