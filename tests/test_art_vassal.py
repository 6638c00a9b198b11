"""The art module in the real VASSAL 3.7.9 engine, as recorded by hand in tests/fixtures/vlogs/art/ (README.md
there): every set-up piece where VASSAL put it and on the hex it named, and real logs played on the module
read step by step as VASSAL played them and audited exactly as the same play on the drawn module.

The module is rebuilt from tests/fixtures/meuse-art (builds are reproducible: the module VASSAL loaded had
the sha256 the README gives); a build that moved a piece or renamed a hex would fail here, and the
recording would have to be made again."""
from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import main
from compiler.vassal import reader
from compiler.vassal.boxes import box_name
from compiler.vassal.build import build_module, plans_for
from compiler.vassal.vlog import read_log
from conftest import ROOT
from test_vlog_recorded import check_line, expected
from validator.source.loader import load_game

ART_TREE = ROOT / "tests" / "fixtures" / "meuse-art"
RECORDED = ROOT / "tests" / "fixtures" / "vlogs" / "art"
GOLDEN = ROOT / "tests" / "fixtures" / "audit-golden"
_SETUP = re.compile(r"^=== PREDEFINED SETUP '(?P<name>.*)' file=(?P<file>\S+) ===$")
_PIECE = re.compile(r"^  PIECE id=(?P<id>\d+) name=(?P<name>.*) map=(?P<map>.+?) pos=(?P<x>-?\d+),(?P<y>-?\d+) "
                    r"LocationName=(?P<loc>.*) CurrentBoard=(?P<board>.*)$")


@pytest.fixture(scope="module")
def game():
    return load_game(ART_TREE)[0]


@pytest.fixture(scope="module")
def module(game, tmp_path_factory) -> Path:
    return build_module(game, tmp_path_factory.mktemp("art-vassal"))


def harness() -> tuple[list[str], dict[str, dict[str, dict]]]:
    """(the harness's summary lines, set-up file -> piece id -> what VASSAL reported of it)."""
    lines = (RECORDED / "meuse_art.harness.txt").read_text(encoding="utf-8").splitlines()
    setups: dict = {}
    current = None
    for ln in lines:
        if m := _SETUP.match(ln):
            current = setups.setdefault(m.group("file"), {})
        elif m := _PIECE.match(ln):
            current[m.group("id")] = m.groupdict()       # a stacked piece is listed twice: the same facts
    return [ln for ln in lines if not ln.startswith(("#", "  "))], setups


def test_vassal_loaded_the_module_without_a_warning():
    summary, setups = harness()
    assert "engine version: 3.7.9" in summary and "warnings: 0" in summary and "bugs reported: 0" in summary
    assert sorted(setups) == ["scenario_1.vsav", "scenario_2.vsav"]


def test_every_set_up_piece_is_where_vassal_put_it_on_its_printed_hex(game, module):
    _, setups = harness()
    mod = reader.read_module(module)
    plans = {p.scenario.id: p for p in plans_for(game)}
    for s, entry in zip(game.scenarios, mod.setups):
        vassal = setups[entry["file"]]
        sg, _ = reader.read_save(reader.Archive(mod.archive.read(entry["file"])))
        layouts = reader.board_layouts(sg)
        wanted = defaultdict(list)                   # unit -> where the tree's set-up plan puts it
        for p in plans[s.id].placements:
            wanted[p.unit].append(p.hex or box_name(game, p.box))
        seen = defaultdict(list)
        for pc in sg.pieces:
            v = vassal[pc.id]
            b = pc.basic
            # the piece is where the build puts it today, and VASSAL named that point as the tree's hex
            assert (v["map"], int(v["x"]), int(v["y"])) == (b["map"], b["x"], b["y"]), pc.id
            assert mod.location_name(b["map"], layouts[b["map"]], b["x"], b["y"]) == v["loc"], pc.id
            if pc.prop("UnitId"):
                seen[pc.prop("UnitId")].append(v["loc"])
                assert v["name"] == game.unit(pc.prop("UnitId")).name
        assert {u: sorted(w) for u, w in seen.items()} == {u: sorted(w) for u, w in wanted.items()}
        assert len(vassal) == len(sg.pieces)          # VASSAL loaded every piece, and no other


LOGS = {"meuse_art_legal": "meuse_legal", "meuse_art_violations": "meuse_violations"}


@pytest.mark.parametrize("name", sorted(LOGS))
def test_each_step_reads_as_vassal_played_it(name, game, module):
    rec = read_log(RECORDED / f"{name}.vlog", module, game)
    exp = expected(f"art/{name}")
    assert [s.index for s in rec.steps] == sorted(exp.steps)
    assert rec.engine == "VASSAL 3.7.9" and rec.warnings == ()
    for n, step in exp.steps.items():
        for line in step.lines:
            check_line(rec.steps[n - 1], line, played_module=True)


def _audit(tree: Path, log: Path, vmod: Path) -> dict:
    res = CliRunner().invoke(main, ["audit", str(tree), str(log), "--module", str(vmod), "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_log_on_the_art_module_audits_exactly_as_the_same_play_on_the_drawn_module(name, module):
    art = _audit(ART_TREE, RECORDED / f"{name}.vlog", module)
    for entry in art["logs"]:
        entry["file"] = f"{LOGS[name]}.vlog"          # the same play: only the file's name differs
    drawn = json.loads((GOLDEN / f"{LOGS[name]}.json").read_text(encoding="utf-8"))   # the drawn module's audit
    assert art == drawn
    assert drawn["summary"] and drawn["logs"][0]["steps"] > 20          # near miss: a real verdict, not empty
