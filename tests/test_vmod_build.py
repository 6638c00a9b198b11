"""Build modules and read them back with the project's own reader (compiler.vassal.reader)."""
import collections
import zipfile

import pytest

from compiler.cache import Cache

from compiler.vassal import reader
from compiler.vassal.build import build_module, plans_for
from compiler.vassal.pieces import vassal_board_name
from compiler.vassal.setup import MAIN_MAP
from tests.vmod_fixtures import make_game
from tests.vmod_games import real_games

FIXTURES = {
    "mcr": lambda: make_game("map-column.row", gid="mcr"),
    "letters": lambda: make_game("letters", gid="letters"),
    "cr-rows": lambda: make_game("column-row", "rows", "odd", gid="crrows"),
}


def _games():
    out = [(k, f) for k, f in FIXTURES.items()]
    for name in sorted(real_games()):
        out.append((name, (lambda n=name: real_games()[n])))
    return out


@pytest.fixture(scope="module", params=[k for k, _ in _games()])
def built(request, tmp_path_factory):
    game = dict(_games())[request.param]()
    if game is None:
        pytest.skip(f"source/{request.param} does not load yet")
    out = tmp_path_factory.mktemp("vmod")
    path = build_module(game, out)
    return game, path, reader.read_module(path)


def test_archive_layout(built):
    game, path, mod = built
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
    names = [i.filename for i in infos]
    assert names[:2] == ["buildFile.xml", "moduledata"]
    assert all(i.date_time == (2000, 1, 1, 0, 0, 0) for i in infos)
    assert mod.metadata.findtext("VassalVersion") == "3.7.9"
    assert mod.metadata.findtext("dateSaved").isdigit()
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_every_image_exists(built):
    game, path, mod = built
    assert mod.images
    missing = [i for i in sorted(mod.images) if not mod.archive.has("images/" + i)]
    assert missing == []
    # and nothing is shipped that nothing uses
    shipped = {n[len("images/"):] for n in mod.archive.names() if n.startswith("images/")}
    assert shipped == mod.images


def test_boards_and_grids(built):
    game, path, mod = built
    main = [b for b in mod.boards if b.map == MAIN_MAP]
    assert [b.name for b in main] == [vassal_board_name(b) for b in game.grid.boards]
    assert all(b.grid is not None and b.numbering is not None for b in main)
    # every hex of every board: its centre on the joined default layout is named by its ID
    layout = mod.board_setups[MAIN_MAP]
    assert sorted(x[0] for x in layout) == sorted(vassal_board_name(b) for b in game.grid.boards)


def test_palette_pieces(built):
    game, path, mod = built
    units = {u.id: u for u in game.units}
    seen = collections.Counter()
    side_name = {s.id: s.name for s in game.sides}
    form_name = {f.id: f.name for f in game.formations}
    for s in mod.slots:
        tr = reader.expand_prototypes(s["traits"], mod.prototypes)
        props = {}
        for t in tr:
            if t["kind"] == "mark":
                props.update(t["values"])
        assert tr[-1]["kind"] == "piece"
        if "UnitId" in props:
            u = units[props["UnitId"]]
            seen[u.id] += 1
            assert props["Side"] == u.side and props["Type"] == u.type
            assert props["Formation"] == (u.formation or "")
            # grouped by side, then formation
            assert s["path"][-2:] == [side_name[u.side], form_name.get(u.formation, "Independent")
                                      if u.formation else "Independent"]
            layers = [t for t in tr if t["kind"] == "emb2"]
            assert len(layers) == (1 if u.steps >= 2 else 0)
        else:
            assert "MarkerId" in props
    assert set(seen) == set(units) and set(seen.values()) == {1}
    assert len({s["gpid"] for s in mod.slots}) == len(mod.slots)


def _expected_counts(game, plan):
    c = collections.Counter()
    for p in plan.placements:
        c[p.unit] += 1
    return c


def _source_counts(game, scenario):
    c = collections.Counter()
    for g in scenario.setup:
        for pl in g.units:
            if game.unit(pl.unit):
                c[pl.unit] += max(pl.count, 1)
    for oa in game.scenario_arrivals(scenario):
        for tb in oa.turns:
            for a in tb.arrivals:
                for pl in a.units:
                    if game.unit(pl.unit):
                        c[pl.unit] += max(pl.count, 1)
    return c


def test_setups(built):
    game, path, mod = built
    plans = {p.scenario.id: p for p in plans_for(game)}
    assert len(mod.setups) == len(game.scenarios)
    for s, entry in zip(game.scenarios, mod.setups):
        sg, meta = reader.read_save(reader.Archive(mod.archive.read(entry["file"])))
        assert meta is not None and meta.findtext("VassalVersion") == "3.7.9"
        layouts = reader.board_layouts(sg)
        # the turn track starts on the scenario's first turn (TurnTracker0, ListTurnLevel state)
        turn_cmds = [c for c in sg.others if c.startswith("TURNTurnTracker0\t")]
        ft = game.turn(s.first_turn) if s.first_turn else None
        if ft is not None:
            from compiler.vassal.encoding import decode
            state = decode(decode(turn_cmds[0], "\t")[1], "|")
            level = decode(state[1], ";")
            assert int(level[0]) == ft.index
            # with a sequence of play the phase sub-level starts on the first phase; without, no sub-level
            assert (decode(level[4], ";")[0] == "0") if game.phases else len(level) == 4
        else:
            assert turn_cmds == []
        assert sorted(b for b, _, _ in layouts[MAIN_MAP]) == sorted(
            vassal_board_name(b) for b in game.grid.boards if not s.boards or b.id in s.boards)
        by_id = {p.id: p for p in sg.pieces}
        # stacks: every piece in exactly one stack, at the piece's own position
        in_stack = collections.Counter()
        for st in sg.stacks:
            for i in st["ids"]:
                in_stack[i] += 1
                b = by_id[i].basic
                assert (b["map"], b["x"], b["y"]) == (st["map"], st["x"], st["y"])
        assert set(in_stack) == set(by_id) and set(in_stack.values()) == {1}
        units = collections.Counter()
        plan = plans[s.id]
        wanted = collections.defaultdict(list)
        for p in plan.placements:
            wanted[p.unit].append(p)
        placed = collections.defaultdict(list)
        gpid_of = {}
        for sl in mod.slots:
            for t in sl["traits"]:
                if t["kind"] == "mark" and "UnitId" in t["values"]:
                    gpid_of[t["values"]["UnitId"]] = sl["gpid"]
        for pc in sg.pieces:
            uid = pc.prop("UnitId")
            b = pc.basic
            loc = mod.location_name(b["map"], layouts[b["map"]], b["x"], b["y"])
            if uid is None:
                assert pc.prop("MarkerId") is not None
                continue
            units[uid] += 1
            assert b["gpid"] == gpid_of[uid]
            layer = [t for t in pc.traits if t["kind"] == "emb2"]
            placed[uid].append((loc, bool(layer and layer[0]["level"] == 1)))
        assert units == _expected_counts(game, plan) == _source_counts(game, s)
        for uid, ps in wanted.items():
            exp = sorted((p.hex if p.hex else _box_name(game, p.box), p.reduced) for p in ps)
            assert sorted(placed[uid]) == exp, uid
        # a unit set up on a single printed hex stands on that hex by VASSAL's own naming rule
        for p in plan.placements:
            if p.how == "hex":
                assert (p.source_hex, p.reduced) in placed[p.unit]
        # markers the scenario puts on the map
        for mid, hx in plan.features:
            assert any(pc.prop("MarkerId") == mid and mod.location_name(
                pc.basic["map"], layouts[pc.basic["map"]], pc.basic["x"], pc.basic["y"]) == hx for pc in sg.pieces)
        # markers of a printed state share the unit's stack
        for p in plan.placements:
            for m in p.markers:
                where = p.hex if p.hex else _box_name(game, p.box)
                assert any(pc.prop("MarkerId") == m and mod.location_name(
                    pc.basic["map"], layouts[pc.basic["map"]], pc.basic["x"], pc.basic["y"]) == where
                    for pc in sg.pieces)


def _box_name(game, key):
    from compiler.vassal.boxes import box_name
    return box_name(game, key)


def test_placed_pieces_carry_their_prototypes_expanded(built):
    """As VASSAL's PieceCloner does for a palette piece: no UsePrototype in a save, so a placed unit's
    Side and Type properties answer without a Refresh Counters (seen with the engine itself)."""
    game, path, mod = built
    for s, entry in zip(game.scenarios, mod.setups):
        sg, _ = reader.read_save(reader.Archive(mod.archive.read(entry["file"])))
        for p in sg.pieces:
            assert not [t for t in p.traits if t["kind"] == "prototype"], p.traits
            uid = p.prop("UnitId")
            if uid is not None:
                u = game.unit(uid)
                assert (p.prop("Side"), p.prop("Type")) == (u.side, u.type)
            else:
                assert p.prop("MarkerId") is not None


def test_reproducible_and_cached(tmp_path):
    g = make_game()
    a = build_module(g, tmp_path / "a")
    b = build_module(g, tmp_path / "b")
    assert a.read_bytes() == b.read_bytes()
    cache_files = sorted((tmp_path / "a" / ".cache").iterdir())
    assert Cache(tmp_path / "a" / ".cache").keys()
    mtimes = [p.stat().st_mtime_ns for p in cache_files]
    c = build_module(g, tmp_path / "a")
    assert c.read_bytes() == b.read_bytes()
    # nothing new to cache: the pack and its index are not even rewritten
    assert [p.stat().st_mtime_ns for p in sorted((tmp_path / "a" / ".cache").iterdir())] == mtimes


def test_no_change_rebuild_returns_the_module_and_replays_warnings(tmp_path):
    g = make_game()
    w1, w2 = [], []
    a = build_module(g, tmp_path, warnings=w1)
    before = a.stat().st_mtime_ns
    assert build_module(g, tmp_path, warnings=w2) == a and a.stat().st_mtime_ns == before
    assert w1 and w2 == w1                              # the problems are still reported
    original = a.read_bytes()
    a.write_bytes(b"not a module")                     # someone touched the output: build again
    build_module(g, tmp_path)
    assert a.read_bytes() == original


def test_fixture_specific_placements(tmp_path):
    g = make_game()
    plans = {p.scenario.id: p for p in plans_for(g)}
    hows = {(p.unit, p.how) for p in plans["1"].placements}
    assert ("us-741", "any_of") in hows
    assert ("de-i-12", "area:box") in hows           # area D lists no hexes
    assert ("de-i-12", "arrival") in hows
    assert {(p.unit, p.how) for p in plans["2"].placements} == {
        ("de-i-12", "hex"), ("us-741", "range"), ("us-b-9", "any_area:box")}   # D has no hexes
    assert plans["1"].features == [("dg", "B4.04")]
    assert any("mystery" in x for x in plans["1"].problems)
    red = [p for p in plans["2"].placements if p.unit == "de-i-12"][0]
    assert red.reduced and red.markers == ("dg",)


def test_reader_refuses_entities():
    with pytest.raises(reader.ReadError):
        reader.parse_xml(b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')


def test_reader_refuses_lying_entry(tmp_path):
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", b"x" * 100)
    a = reader.Archive(buf.getvalue())
    a.infos["savedGame"].file_size = 10      # a header that under-declares the size
    with pytest.raises(Exception):
        a.read("savedGame")


def test_cache_keeps_only_what_the_last_build_used(tmp_path):
    import dataclasses
    g = make_game()
    build_module(g, tmp_path)
    before = Cache(tmp_path / ".cache").keys()
    u0 = g.units[0]
    g2 = dataclasses.replace(g, units=(dataclasses.replace(u0, name=u0.name + " x"),) + g.units[1:])
    g2._index.update(g._index)
    g2._index["units"] = {u.id: u for u in g2.units}
    build_module(g2, tmp_path)
    after = Cache(tmp_path / ".cache").keys()
    assert len(list((tmp_path / ".cache").glob("pack-*.bin"))) == 1     # the old pack is gone
    assert after != before                        # counter artwork keyed on the unit data was redone
    assert {p.name for p in tmp_path.iterdir() if p.suffix == ".vmod"} == {"testgame.vmod"}
    # boards do not depend on units: reused
    assert len(after & before) >= 2


def test_marker_matching_for_states_and_features():
    from types import SimpleNamespace as NS
    from compiler.vassal.setup import _marker_for
    g = NS(markers=[NS(id="dg", name="DG", states=()), NS(id="bridge-blown", name="Bridge Blown / Bridge Tested", states=()),
                    NS(id="barrage-full", name="Barrage (Full)", states=()), NS(id="barrage-half", name="Barrage (Half)", states=())])
    assert _marker_for(g, "dg") == "dg"
    assert _marker_for(g, "blown-bridge") == "bridge-blown"
    assert _marker_for(g, "barrage") is None          # two candidates: not guessed
    assert _marker_for(g, "improved-position") is None
    g.markers.append(NS(id="fort", name="Fort markers", states=("improved-position",)))
    assert _marker_for(g, "improved-position") == "fort"   # declared by the marker


def _main_map_units(game, mod, entry):
    """(location name -> [UnitId]) for the unit pieces a set-up puts on the main map."""
    sg, _ = reader.read_save(reader.Archive(mod.archive.read(entry["file"])))
    layouts = reader.board_layouts(sg)
    out = collections.defaultdict(list)
    for pc in sg.pieces:
        b = pc.basic
        if pc.prop("UnitId") is not None and b["map"] == MAIN_MAP:
            out[mod.location_name(b["map"], layouts[b["map"]], b["x"], b["y"])].append(pc.prop("UnitId"))
    return out


def test_module_setups_are_legal_positions(built):
    """No set-up puts more units in a hex than stacking allows (units count equally in every bundled game)."""
    game, path, mod = built
    limit = game.rules.stacking.limit
    if limit is None or game.rules.stacking.counts != "units":
        pytest.skip("no unit-count stacking limit")
    for s, entry in zip(game.scenarios, mod.setups):
        over = {h: us for h, us in _main_map_units(game, mod, entry).items() if len(us) > limit}
        assert over == {}, s.id


def test_aachen_3rd_armored_stands_one_per_hex_along_its_printed_ranges(tmp_path):
    game = real_games().get("aachen")
    if game is None:
        pytest.skip("source/aachen does not load")
    notes = []
    path = build_module(game, tmp_path, notes=notes)
    mod = reader.read_module(path)
    at = _main_map_units(game, mod, mod.setups[0])
    mech = "us-3ad-mech-2-2-12"
    assert [h for h in ("2630", "2730", "2829", "2929", "3028") if at.get(h)] == ["2630", "2730", "2829", "2929"]
    assert all(at[h] == [mech] for h in ("2630", "2730", "2829", "2929"))
    assert [at.get(h) for h in ("1934", "2033", "2133", "2232", "2332", "2431")] == [
        [mech], [mech], [mech], [mech], ["us-3ad-td-2-2-12"], None]
    # the build says where it put every unit of a location that is not a single hex
    assert notes[0] == ("scenario aachen: placed 2-2-12 mechanized infantry (us-3ad-mech-2-2-12#1) at 2630 "
                        "for set-up location 2630–3028")
    assert [n.split(" at ")[1].split(" ")[0] for n in notes] == [
        "2630", "2730", "2829", "2929", "1934", "2033", "2133", "2232", "2332"]
    again = []
    build_module(game, tmp_path, notes=again)                 # a no-change rebuild repeats them
    assert again == notes


def test_build_prints_its_choices(mini, tmp_path):
    from click.testing import CliRunner
    from compiler.cli import main

    def edit(d):
        d["reinforcements"] = []                              # b2-a sets up instead of arriving
        d["setup"] = [g for g in d["setup"] if g.get("hex") != "0601"]   # and the Cy company joins it
        d["setup"].append({"side": "blue", "range": ["0104", "0106"], "printed_location": "0104-0106",
                           "units": [{"unit": "b2-a", "printed": "A/2"}, {"unit": "cy-a", "printed": "Cy"}]})
    mini.edit("scenarios/s1.yaml", edit)
    r = CliRunner().invoke(main, ["build", str(mini.path), "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    placed = [ln for ln in r.output.splitlines() if ln.startswith("note: scenario s1: placed")]
    # stacking allows two, but Blueland and Cyania units never stack (5.4): the Cy company goes on to 0105
    assert placed == ["note: scenario s1: placed A/2 (b2-a#1) at 0104 for set-up location 0104-0106",
                      "note: scenario s1: placed Cy (cy-a#1) at 0105 for set-up location 0104-0106"]
    # near miss: single-hex lines are not choices and are not reported
    assert not [ln for ln in r.output.splitlines() if "0202" in ln]


def test_turn_tracker_lists_turns_then_phases(built):
    game, path, mod = built
    T = "VASSAL.build.module.turn."
    [tracker] = mod.root.iter(T + "TurnTracker")
    [turns] = tracker.findall(T + "ListTurnLevel")
    from compiler.vassal.labels import phase_labels, turn_label
    from compiler.vassal.encoding import decode
    assert decode(turns.get("list"), ",") == [turn_label(t) for t in game.turns]
    phases = turns.findall(T + "ListTurnLevel")
    if not game.phases:
        assert phases == [] and tracker.get("turnFormat") == "Turn $level1$"
        return
    [phase] = phases
    labels = decode(phase.get("list"), ",")
    assert labels == phase_labels(game) and len(set(labels)) == len(labels) == len(game.phases)
    assert tracker.get("turnFormat") == "Turn $level1$ - $level2$"
