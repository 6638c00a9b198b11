"""`hexforge charts` draws again only the files that show what changed, and carries the others from
the previous set: each incremental set must equal, byte for byte, a cold run of the changed tree."""
from __future__ import annotations

import dataclasses
import io
import json

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from conftest import copy_game
from compiler.charts import reads
from compiler.charts.build import CACHE_DIR, MANIFEST, last_run
from compiler.cli import main

RUN = CliRunner()


def charts(tree, out) -> str:
    r = RUN.invoke(main, ["charts", str(tree), "--out", str(out)])
    assert r.exit_code == 0, r.output
    return r.output


def files(out) -> dict:
    """{name: (inode, bytes)} of the set's files."""
    return {p.name: (p.stat().st_ino, p.read_bytes()) for p in sorted(out.iterdir()) if p.is_file()}


def edit(tree, rel: str, old: str, new: str) -> None:
    """Replace `old` (found exactly once) in one file, on its own line: no other value moves."""
    p = tree / rel
    text = p.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    p.write_text(text.replace(old, new), encoding="utf-8")


def incremental_equals_cold(tree, out, tmp_path, before: dict) -> set:
    """Run charts into `out` (holding the set `before`), then cold into a new folder; every file must
    be the same bytes. Returns the names drawn again; every other file is the previous one, carried."""
    charts(tree, out)
    after = files(out)
    cold_dir = tmp_path / f"cold-{len(list(tmp_path.iterdir()))}"
    charts(tree, cold_dir)
    cold = files(cold_dir)
    assert sorted(after) == sorted(cold)
    for name in cold:
        assert after[name][1] == cold[name][1], f"{name} differs from a cold run"
    drawn = {n for n, d in last_run(out).items() if d}
    assert set(last_run(out)) == set(after)
    for name in set(after) - drawn:   # carried: the very file of the previous set
        assert after[name][0] == before[name][0], name
    return drawn


@pytest.fixture
def bulge(tmp_path):
    tree = copy_game(tmp_path, "bulge").path
    out = tmp_path / "charts"
    charts(tree, out)
    return tree, out


ALL_BULGE = {"counter-sheets.pdf", "counter-sheet-1.png", "tables.pdf", "crt.png", "tec.pdf", "turn-track.pdf",
             "orders-of-arrival.pdf", "setup-45.pdf", "setup-46.pdf", "setup-47.pdf", "setup-48.pdf"}


def test_one_units_factors_change_redraws_its_sheet_and_the_one_set_up_card_it_is_on(bulge, tmp_path):
    tree, out = bulge
    assert set(files(out)) == ALL_BULGE and all(last_run(out).values())
    before = files(out)
    # the 79th VG regiments are in scenario 48 only (48.4.1), in no game-wide order of arrival
    edit(tree, "counters.yaml", "type: infantry, size: rgt, factors: null, movement_class: other, count: 3, "
         "rule: \"48.4.1\", note: \"'The three regiments of the 79th",
         "type: infantry, size: rgt, factors: \"3-3-4\", movement_class: other, count: 3, "
         "rule: \"48.4.1\", note: \"'The three regiments of the 79th")
    drawn = incremental_equals_cold(tree, out, tmp_path, before)
    assert drawn == {"counter-sheets.pdf", "counter-sheet-1.png", "setup-48.pdf"}
    assert files(out)["counter-sheets.pdf"][1] != before["counter-sheets.pdf"][1]


def test_a_unit_in_no_scenario_redraws_only_the_counter_sheets(bulge, tmp_path):
    tree, out = bulge
    before = files(out)
    # 1/16 is named by rule 36.2 only: in no set-up, no reinforcements, no order of arrival
    edit(tree, "counters.yaml", 'label: "1/16", side: allied, nationality: us, formation: us-1id, type: infantry, '
         'size: rgt, factors: null,', 'label: "1/16", side: allied, nationality: us, formation: us-1id, type: infantry, '
         'size: rgt, factors: "5-5-4",')
    assert incremental_equals_cold(tree, out, tmp_path, before) == {"counter-sheets.pdf", "counter-sheet-1.png"}


def test_a_crt_cell_change_redraws_the_tables_and_their_preview_and_nothing_else(bulge, tmp_path):
    tree, out = bulge
    before = files(out)
    edit(tree, "tables.yaml", '"DE / AA2", "DE / AA2", "? / AA3"]', '"DE / AA2", "DE / AA2", "DE / AA3"]')
    drawn = incremental_equals_cold(tree, out, tmp_path, before)
    assert drawn == {"tables.pdf", "crt.png"}
    old, new = _text(before["tables.pdf"][1]), _text(files(out)["tables.pdf"][1])
    assert "? / AA3?1" in old and "DE / AA3?1" in new and "? / AA3?1" not in new   # the cell, with its note mark


def _text(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)


def test_a_change_that_does_not_reach_the_model_keeps_every_file(bulge, tmp_path):
    tree, out = bulge
    before = files(out)
    with open(tree / "counters.yaml", "a", encoding="utf-8") as f:
        f.write("# a comment at the end: the run stamp misses, the model is the same\n")
    r = charts(tree, out)
    lines = r.splitlines()
    assert "up to date" not in r and "wrote " not in r
    assert sum(ln.startswith("kept ") for ln in lines) == len(ALL_BULGE) and lines[-1].endswith("11 kept from the last set")
    assert not any(last_run(out).values())
    assert files(out) == before


def test_a_chart_changed_on_disk_or_a_damaged_manifest_is_drawn_again(bulge, tmp_path):
    tree, out = bulge
    before = files(out)
    (out / "tec.pdf").write_bytes(b"%PDF-1.4 edited by hand")
    edit(tree, "counters.yaml", "# --- Allied: US ---", "# --- Allied: U.S. ---")   # a miss of the stamp
    drawn = incremental_equals_cold(tree, out, tmp_path, before)
    assert drawn == {"tec.pdf"}
    (out / CACHE_DIR / MANIFEST).write_text("{not json")
    edit(tree, "counters.yaml", "# --- Allied: U.S. ---", "# --- Allied: US ---")
    assert incremental_equals_cold(tree, out, tmp_path, files(out)) == ALL_BULGE


def test_the_orders_of_arrival_are_redrawn_only_for_a_unit_they_list(mini, tmp_path):
    out = tmp_path / "charts"
    charts(mini.path, out)
    # b1-a is set up in s1 and in no order of arrival
    edit(mini.path, "counters.yaml", 'factors: "3-5-10", movement_class: leg, steps: 2, reduced: "1-2-10"',
         'factors: "4-5-10", movement_class: leg, steps: 2, reduced: "1-2-10"')
    drawn = incremental_equals_cold(mini.path, out, tmp_path, files(out))
    assert drawn == {"counter-sheets.pdf", "counter-sheet-1.png", "setup-s1.pdf"}
    # r1-b arrives on turn 2 by the red order of arrival (and so is in s1's holding boxes)
    before = files(out)
    edit(mini.path, "counters.yaml", 'name: "[6]-1-12 Arty Rgt (1)"', 'name: "[6]-1-12 Artillery Rgt (1)"')
    drawn = incremental_equals_cold(mini.path, out, tmp_path, before)
    assert drawn == {"counter-sheets.pdf", "setup-s1.pdf", "orders-of-arrival.pdf"}
    # the name is not on the counter: the sheet drawn again is the same bytes, so its preview is kept
    assert files(out)["counter-sheets.pdf"][1] == before["counter-sheets.pdf"][1]


def test_a_turn_date_change_redraws_the_turn_track_and_what_else_reads_the_turns(mini, tmp_path):
    out = tmp_path / "charts"
    charts(mini.path, out)
    edit(mini.path, "game.yaml", '{id: "3", date: "1944-12-18"}', '{id: "3", date: "1944-12-21"}')
    drawn = incremental_equals_cold(mini.path, out, tmp_path, files(out))
    assert "turn-track.pdf" in drawn and "18 Dec 1944" not in _text(files(out)["turn-track.pdf"][1])
    assert not drawn & {"counter-sheets.pdf", "tables.pdf", "tec.pdf"}


def test_an_interrupted_incremental_run_keeps_the_set_and_the_next_run_is_right(mini, tmp_path, monkeypatch):
    import compiler.charts.build as build
    out = tmp_path / "charts"
    charts(mini.path, out)
    before = files(out)
    manifest = (out / CACHE_DIR / MANIFEST).read_bytes()
    edit(mini.path, "counters.yaml", 'name: "[6]-1-12 Arty Rgt (1)"', 'name: "[6]-1-12 Artillery Rgt (1)"')

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt
    monkeypatch.setattr(build.aids, "build_ooa", interrupted)
    r = RUN.invoke(main, ["charts", str(mini.path), "--out", str(out)])
    assert r.exit_code == 130
    assert files(out) == before and (out / CACHE_DIR / MANIFEST).read_bytes() == manifest
    monkeypatch.undo()
    assert "orders-of-arrival.pdf" in incremental_equals_cold(mini.path, out, tmp_path, before)


# -- what a drawing reads -------------------------------------------------------------------------

def test_the_watched_game_notes_attributes_and_look_ups_and_widens_an_unknown_argument(mini):
    from validator.source.loader import load_game
    game, _ = load_game(mini.path)
    sc = game.scenarios[0]
    seen = reads.Watched(game, (sc,))
    assert seen.title == game.title and seen.unit("b1-a") is game.unit("b1-a")
    seen.scenario_arrivals(sc)
    assert seen.reads == [["attr", "title"], ["call", "unit", [{"v": "b1-a"}], {}],
                          ["call", "scenario_arrivals", [{"input": 0}], {}]]
    other = reads.Watched(game)
    other.scenario_arrivals(sc)          # not one of its inputs: keyed on the whole game
    assert other.reads == [reads.WHOLE_GAME]
    with pytest.raises(AttributeError):
        seen.title = "x"


def test_the_digest_follows_what_was_read_and_nothing_else(mini):
    from validator.source.loader import load_game
    game, _ = load_game(mini.path)
    read = [["call", "unit", [{"v": "b1-a"}], {}], ["attr", "title"]]
    base = reads.digest(game, read)
    ix = dict(game._index)
    ix["units"] = {**ix["units"], "b1-b": dataclasses.replace(game.unit("b1-b"), name="other")}
    assert reads.digest(dataclasses.replace(game, _index=ix), read) == base       # b1-b was not read
    ix["units"] = {**ix["units"], "b1-a": dataclasses.replace(game.unit("b1-a"), name="other")}
    assert reads.digest(dataclasses.replace(game, _index=ix), read) != base       # b1-a was
    assert reads.digest(dataclasses.replace(game, title="T2"), read) != base
    assert reads.digest(game, [["attr", "no_such_field"]]) != reads.digest(game, [["attr", "title"]])
    assert reads.fingerprint({"b", "a"}) == reads.fingerprint({"a", "b"})
    assert reads.fingerprint(("a", "b")) != reads.fingerprint(("b", "a"))


def test_the_manifest_records_each_files_reads(mini, tmp_path):
    out = tmp_path / "charts"
    charts(mini.path, out)
    m = json.loads((out / CACHE_DIR / MANIFEST).read_text())["files"]
    assert ["attr", "tables"] in m["tables.pdf"]["reads"] and ["attr", "units"] not in m["tables.pdf"]["reads"]
    assert ["attr", "units"] in m["counter-sheets.pdf"]["reads"]
    assert ["call", "unit", [{"v": "b1-a"}], {}] in m["setup-s1.pdf"]["reads"]
