"""The bundled games: corrected data checks clean; as printed, the checker finds the real defects."""
import json
from collections import Counter

import pytest

from compiler.cli import check_tree
from conftest import SOURCE, copy_game
from validator.loader import load_game

GAMES = ["aachen", "bulge", "ardennes2"]


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
