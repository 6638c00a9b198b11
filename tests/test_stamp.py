"""The run stamp of `build` and `charts`: a hit only when nothing an output depends on has changed."""
from __future__ import annotations

import os
import zipfile

import pytest
from click.testing import CliRunner

from compiler import stamp
from compiler.cli import main

RUN = CliRunner()
UP_TO_DATE = "up to date: nothing changed"
FACTORS = 'id: b1-a, name: "3-5-10 Inf Bn (A/1)", label: A/1, side: blue, nationality: bl, formation: b1, ' \
          'type: infantry, size: bn, factors: "3-5-10"'


def _build(tree, out):
    r = RUN.invoke(main, ["build", str(tree), "--out", str(out)])
    assert r.exit_code == 0, r.output
    return r.output


def _module(out):
    return out / "mini.vmod"


def _counters_entry_bytes(vmod) -> dict:
    with zipfile.ZipFile(vmod) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_no_change_build_is_a_hit_and_leaves_the_module_alone(mini, tmp_path):
    out = tmp_path / "m"
    first = _build(mini.path, out)
    assert UP_TO_DATE not in first
    before = _module(out).stat().st_mtime_ns
    second = _build(mini.path, out)
    assert UP_TO_DATE in second and f"built {_module(out)}" in second
    assert _module(out).stat().st_mtime_ns == before


def test_one_byte_of_a_units_factors_rebuilds_and_the_module_differs(mini, tmp_path):
    out = tmp_path / "m"
    _build(mini.path, out)
    old = _counters_entry_bytes(_module(out))
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    assert text.count(FACTORS) == 1
    mini.text("counters.yaml", text.replace(FACTORS, FACTORS.replace('factors: "3-5-10"', 'factors: "4-5-10"')))
    again = _build(mini.path, out)
    assert UP_TO_DATE not in again
    new = _counters_entry_bytes(_module(out))
    assert new != old
    assert any(b"4-5-10" in data for name, data in new.items() if name == "buildFile.xml")


def test_touching_a_file_without_changing_it_is_still_a_hit(mini, tmp_path):
    out = tmp_path / "m"
    _build(mini.path, out)
    f = mini.path / "counters.yaml"
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns + 10**9, st.st_mtime_ns + 10**9))
    assert UP_TO_DATE in _build(mini.path, out)


def test_a_new_file_in_the_tree_misses(mini, tmp_path):
    out = tmp_path / "m"
    _build(mini.path, out)
    (mini.path / "notes.txt").write_text("a file the loader ignores still counts as input")
    assert UP_TO_DATE not in _build(mini.path, out)


def test_hexforge_version_change_invalidates(mini, tmp_path, monkeypatch):
    out = tmp_path / "m"
    _build(mini.path, out)
    real = stamp.toolchain_digest()
    monkeypatch.setattr(stamp, "toolchain_digest", lambda: real + "-edited")
    assert UP_TO_DATE not in _build(mini.path, out)


def test_toolchain_digest_follows_hexforge_source_and_library_versions(monkeypatch, tmp_path):
    base = stamp.toolchain_digest()
    assert stamp.toolchain_digest() == base
    monkeypatch.setattr(stamp, "_library_versions", lambda: ["pillow-0.0.dist-info"])
    assert stamp.toolchain_digest() != base


def test_a_replaced_or_deleted_output_misses(mini, tmp_path):
    out = tmp_path / "m"
    _build(mini.path, out)
    _module(out).write_bytes(b"not a module")
    assert UP_TO_DATE not in _build(mini.path, out)
    assert zipfile.is_zipfile(_module(out))
    _module(out).unlink()
    assert UP_TO_DATE not in _build(mini.path, out)
    assert _module(out).is_file()


def test_source_date_epoch_is_part_of_the_key(mini, tmp_path, monkeypatch):
    out = tmp_path / "m"
    _build(mini.path, out)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    assert UP_TO_DATE not in _build(mini.path, out)


def test_default_output_directory_is_found_before_loading(mini, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        r = RUN.invoke(main, ["build", str(mini.path)])
        assert r.exit_code == 0, r.output
    assert UP_TO_DATE in r.output and (tmp_path / "build" / "mini" / ".cache" / "build.stamp").is_file()


def test_a_tree_with_errors_writes_no_stamp_and_is_refused_every_time(mini, tmp_path):
    mini.text("counters.yaml", (mini.path / "counters.yaml").read_text(encoding="utf-8") + "\nbogus_field: 1\n")
    out = tmp_path / "m"
    for _ in range(2):
        r = RUN.invoke(main, ["build", str(mini.path), "--out", str(out)])
        assert r.exit_code == 1 and UP_TO_DATE not in r.output
    assert not (out / ".cache" / "build.stamp").exists()


def test_charts_hit_on_no_change_and_miss_on_paper_or_data_change(mini, tmp_path):
    out = tmp_path / "c"

    def charts(paper="a4"):
        r = RUN.invoke(main, ["charts", str(mini.path), "--out", str(out), "--paper", paper])
        assert r.exit_code == 0, r.output
        return r.output
    first = charts()
    assert UP_TO_DATE not in first
    second = charts()
    assert UP_TO_DATE in second
    assert [ln for ln in second.splitlines() if ln.startswith("wrote ")] == \
        [ln for ln in first.splitlines() if ln.startswith("wrote ")]
    assert UP_TO_DATE not in charts("letter")
    assert UP_TO_DATE in charts("letter")
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    mini.text("counters.yaml", text.replace(FACTORS, FACTORS.replace('factors: "3-5-10"', 'factors: "4-5-10"')))
    assert UP_TO_DATE not in charts("letter")


@pytest.mark.parametrize("damage", ["", "{}", '{"key": 1}', "not json"])
def test_a_damaged_stamp_is_a_miss_not_an_error(mini, tmp_path, damage):
    out = tmp_path / "m"
    _build(mini.path, out)
    (out / ".cache" / "build.stamp").write_text(damage)
    assert UP_TO_DATE not in _build(mini.path, out)
    assert UP_TO_DATE in _build(mini.path, out)


def test_after_one_units_factors_change_only_its_counter_images_are_redrawn(mini, tmp_path):
    from compiler.cache import Cache
    from compiler.vassal import pieces
    from validator.source.loader import load_game
    out = tmp_path / "m"
    _build(mini.path, out)
    before_keys = Cache(out / ".cache").keys()
    before = _counters_entry_bytes(_module(out))
    text = (mini.path / "counters.yaml").read_text(encoding="utf-8")
    mini.text("counters.yaml", text.replace(FACTORS, FACTORS.replace('factors: "3-5-10"', 'factors: "4-5-10"')))
    _build(mini.path, out)
    game, _ = load_game(mini.path)
    unit = next(u for u in game.units if u.id == "b1-a")
    faces = [fn for fn in pieces.unit_images(unit) if fn]
    assert len(Cache(out / ".cache").keys() - before_keys) == len(faces) == 2
    after = _counters_entry_bytes(_module(out))
    changed = {n for n in after if n.startswith("images/") and after[n] != before.get(n)}
    # both faces are redrawn; only the front shows the attack factor (the back prints the reduced values)
    assert changed == {"images/" + faces[0]}


def test_every_output_shaping_library_is_found_for_the_toolchain_key():
    found = " ".join(stamp._library_versions())
    for lib in stamp.LIBRARIES:
        assert f"{lib}-" in found, lib


@pytest.mark.parametrize("text, expected", [("id: mini\n", "mini"), ("id: ../up\n", None), ("id: [a]\n", None),
                                            ("id: 'a: b\n", None), ("title: no id\n", None)])
def test_game_id_for_the_default_output_directory(tmp_path, text, expected):
    (tmp_path / "game.yaml").write_text(text)
    assert stamp.game_id(tmp_path) == expected
