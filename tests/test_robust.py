"""Trees that pass the schema's old holes: each is now a located error at check time, or works.

No traceback, no hang, nothing half-written (issue 8, item 7).
"""
import dataclasses
import json
import os
import zipfile

import pytest
from click.testing import CliRunner

from compiler.cli import check_tree, main
from conftest import MINI

S1 = "scenarios/s1.yaml"


def findings(tree, code):
    _, diags = check_tree(tree.path)
    return [d for d in diags if d.code == code]


def only(tree, code):
    """The tree's one finding of `code`; and no other error, so nothing else explains the failure."""
    _, diags = check_tree(tree.path)
    errors = [d for d in diags if d.severity == "error"]
    assert [d.code for d in errors] == [code], [(d.code, str(d.loc), d.message) for d in errors]
    return errors[0]


def _line_of(tree, rel, needle):
    lines = (tree.path / rel).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


# -- control characters ------------------------------------------------------------------------

@pytest.mark.parametrize("escape, cp", [(r"\x01", "U+0001"), (r"\u001b", "U+001B"), (r"\uFFFE", "U+FFFE"),
                                        (r"\x85", "U+0085")])
def test_a_control_character_in_a_string_is_a_located_error(mini, escape, cp):
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    mini.text("counters.yaml", text.replace('name: "3-5-10 Inf Bn (B/1)"', f'name: "3-5-10 Inf{escape}Bn (B/1)"'))
    d = only(mini, "HF007")
    assert (d.loc.file, d.loc.line) == ("counters.yaml", _line_of(mini, "counters.yaml", escape))
    assert cp in d.message


def test_a_raw_control_character_is_located_too(mini):
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    mini.text("counters.yaml", text.replace("label: B/1", "label: B\x1b/1"))
    d = only(mini, "HF007")
    assert (d.loc.file, d.loc.line) == ("counters.yaml", _line_of(mini, "counters.yaml", "\x1b"))


def test_tabs_newlines_and_printed_unicode_are_not_control_characters(mini):
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    mini.text("counters.yaml", text.replace('name: "3-5-10 Inf Bn (B/1)"', r'name: "3-5-10 Inf\tBn\n(B/1) – Ü ½"'))
    assert findings(mini, "HF007") == []


# -- ids that would share an archive entry -----------------------------------------------------

def test_two_markers_with_one_id_are_a_duplicate_id(mini):
    mini.edit("counters.yaml", lambda d: d["markers"].append({"id": "dg", "name": "DG again", "count": 2}))
    d = only(mini, "HF204")
    assert "marker id 'dg'" in d.message
    assert (d.loc.file, d.loc.line) == ("counters.yaml", _line_of(mini, "counters.yaml", "DG again") - 1)


def test_two_markers_with_distinct_ids_are_not(mini):
    mini.edit("counters.yaml", lambda d: d["markers"].append({"id": "dg2", "name": "DG again", "count": 2}))
    assert findings(mini, "HF204") == []


def test_unit_ids_the_file_name_folds_alike_build_to_distinct_entries(mini, tmp_path):
    from compiler.vassal.build import build_module
    from validator.source.loader import load_game
    base = {"side": "red", "nationality": "rd", "type": "infantry", "factors": "1-1-7", "movement_class": "leg"}
    mini.edit("counters.yaml", lambda d: d["units"].extend([{"id": "de/inf", "name": "slash", **base},
                                                            {"id": "de+inf", "name": "plus", **base},
                                                            {"id": "de_inf", "name": "underscore", **base}]))
    game, diags = load_game(mini.path)
    assert game is not None and not [d for d in diags if d.severity == "error"]
    vmod = build_module(game, tmp_path / "out")
    with zipfile.ZipFile(vmod) as z:
        names = z.namelist()
    units = [n for n in names if n.startswith("images/unit_de")]
    assert len(units) == len(set(units)) == 3, units
    assert "images/unit_de_inf_front.png" in names      # an id already safe keeps its name


# -- bounds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [10 ** 30, 200_000, 1000])
def test_a_counter_count_is_bounded(mini, count):
    mini.edit("counters.yaml", lambda d: d["units"][-1].update(count=count))
    d = only(mini, "HF004")
    assert d.loc.file == "counters.yaml" and "999" in d.message


def test_a_count_at_the_bound_is_accepted(mini):
    mini.edit("counters.yaml", lambda d: d["units"][-1].update(count=999))
    _, diags = check_tree(mini.path)
    assert [d for d in diags if d.code == "HF004"] == []


def test_a_within_distance_is_bounded(mini):
    def far(d):
        arrival = d["orders_of_arrival"][0]["turns"][1]["arrivals"][0]
        for k in ("hex", "any_of", "range", "area", "any_area", "within"):
            arrival["entry"].pop(k, None)
        arrival["entry"]["within"] = {"distance": 4000, "of": "0505"}
    mini.edit("orders-of-arrival.yaml", far)
    d = only(mini, "HF004")
    assert d.loc.file == "orders-of-arrival.yaml" and "99" in d.message


@pytest.mark.parametrize("radius", ["abc", [1], True, -1])
def test_formation_radius_of_the_wrong_type_is_a_schema_error(mini, radius):
    text = (mini.path / "game.yaml").read_text(encoding="utf-8")
    mini.text("game.yaml", text.replace("rules:\n", f"rules:\n  other: {{formation_radius: {json.dumps(radius)}}}\n"))
    d = only(mini, "HF004")
    assert (d.loc.file, d.loc.line) == ("game.yaml", _line_of(mini, "game.yaml", "formation_radius"))


def test_formation_radius_as_a_number_is_accepted(mini):
    mini.edit("game.yaml", lambda d: d["rules"].update(other={"formation_radius": 3}))
    _, diags = check_tree(mini.path)
    assert [d for d in diags if d.severity == "error"] == []


@pytest.mark.parametrize("sid", ["../../../tmp/x", "/etc/x", ".hidden", "a b", ""])
def test_scenario_ids_have_the_unit_id_pattern(mini, sid):
    mini.edit(S1, lambda d: d.update(id=sid))
    d = only(mini, "HF004")
    assert d.loc.file == S1


# -- source files that are not regular files in the tree ---------------------------------------

def _replace(tree, rel, make):
    p = tree.path / rel
    p.unlink()
    make(p)


SECRET = "top-secret-content-of-the-target"


@pytest.mark.parametrize("kind, words", [
    ("outside-link", "outside the game tree"), ("dangling-link", "dangling"),
    ("directory", "directory"), ("fifo", "FIFO")])
def test_a_source_file_that_is_not_a_regular_file_in_the_tree_is_refused(mini, tmp_path, kind, words):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(f"id: [{SECRET}\n", encoding="utf-8")
    make = {"outside-link": lambda p: p.symlink_to(outside),
            "dangling-link": lambda p: p.symlink_to(tmp_path / "nothing.yaml"),
            "directory": lambda p: p.mkdir(),
            "fifo": lambda p: os.mkfifo(p)}[kind]
    _replace(mini, "tec.yaml", make)
    _, diags = check_tree(mini.path)      # a FIFO would block here if it were opened for reading
    errors = [d for d in diags if d.severity == "error"]
    assert [(d.code, d.loc.file) for d in errors] == [("HF006", "tec.yaml")]
    assert words in errors[0].message
    assert all(SECRET not in (d.message + (d.help or "")) for d in diags)


def test_a_scenario_file_that_is_a_directory_is_refused(mini):
    (mini.path / "scenarios" / "s2.yaml").mkdir()
    d = only(mini, "HF006")
    assert d.loc.file == "scenarios/s2.yaml"


def test_a_link_inside_the_tree_is_read(mini):
    (mini.path / "tec-real.yaml.txt").write_bytes((mini.path / "tec.yaml").read_bytes())
    _replace(mini, "tec.yaml", lambda p: p.symlink_to("tec-real.yaml.txt"))
    _, diags = check_tree(mini.path)
    assert [d for d in diags if d.severity == "error"] == []


def test_a_tree_reached_through_a_link_is_read(mini, tmp_path):
    link = tmp_path / "via-link"
    link.symlink_to(mini.path)
    _, diags = check_tree(link)
    assert [d for d in diags if d.severity == "error"] == []


# -- interruption ------------------------------------------------------------------------------

def _interrupt(*_a, **_k):
    raise KeyboardInterrupt


def test_ctrl_c_exits_130(mini, monkeypatch, tmp_path):
    import compiler.charts.build as charts
    monkeypatch.setattr(charts.aids, "build_tec", _interrupt)
    r = CliRunner().invoke(main, ["charts", str(mini.path), "--out", str(tmp_path / "c")])
    assert r.exit_code == 130
    assert "interrupted" in r.output


def test_an_interrupted_charts_run_leaves_no_partial_set(mini, monkeypatch, tmp_path):
    import compiler.charts.build as charts
    from validator.source.loader import load_game
    game, _ = load_game(mini.path)
    where = tmp_path / "outs"
    out = where / "charts"
    monkeypatch.setattr(charts.aids, "build_tec", _interrupt)
    with pytest.raises(KeyboardInterrupt):
        charts.build_charts(game, out)
    assert os.listdir(where) == []                    # no set, no temporary folder
    monkeypatch.undo()
    first = charts.build_charts(game, out)               # a whole set ...
    before = {p.name: p.read_bytes() for p in first}
    monkeypatch.setattr(charts.aids, "build_ooa", _interrupt)
    retitled = dataclasses.replace(game, title=game.title + " (2nd edition)")   # every chart to draw again
    with pytest.raises(KeyboardInterrupt):
        charts.build_charts(retitled, out)               # ... survives an interrupted second run intact
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [".cache"]   # the face cache, kept with its set
    assert os.listdir(where) == ["charts"]


def test_charts_refuse_to_replace_a_folder_holding_other_files(mini, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    r = CliRunner().invoke(main, ["charts", str(mini.path), "--out", str(out)])
    assert r.exit_code == 2 and "not charts" in r.output
    assert (out / "notes.txt").read_text() == "keep me" and os.listdir(out) == ["notes.txt"]


def test_charts_refuse_an_out_path_that_is_a_file(mini, tmp_path):
    out = tmp_path / "file.pdf"
    out.write_bytes(b"%PDF mine")
    r = CliRunner().invoke(main, ["charts", str(mini.path), "--out", str(out)])
    assert r.exit_code == 2 and "it is a file, not a folder" in r.output
    assert out.read_bytes() == b"%PDF mine"


def test_charts_replace_a_previous_set_whole(mini, tmp_path):
    out = tmp_path / "outs" / "c"
    for _ in range(2):
        r = CliRunner().invoke(main, ["charts", str(mini.path), "--out", str(out)])
        assert r.exit_code == 0, r.output
    assert os.listdir(out.parent) == ["c"]
    assert "counter-sheets.pdf" in os.listdir(out)


def test_mini_is_the_clean_baseline():
    _, diags = check_tree(MINI)
    assert [d for d in diags if d.severity == "error"] == []
