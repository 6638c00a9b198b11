"""Real VASSAL 3.7.9 logs of Crossing the Meuse recorded by the second red team (2 December) from RULES.md,
each with its SCRIPT and EXPECTED (what should be found at each step) in tests/fixtures/vlogs: the drag
shapes only real logs have (moves in several drags, stack drags, undo twice, re-rolls, the marker moved
back, reinforcements dragged straight from their boxes, exploitation, ZOC, two-hex and two-unit attacks,
games saved and continued). Each log's errors and warnings, exactly, as its EXPECTED says; the legal logs
none."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit
from validator.referee.chain import Previous, ends
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"

FOUND = {
    "meuse_blue_stack_battle": [],
    "meuse_box_tidy": [],
    "meuse_double_undo": [],
    "meuse_drags_chain_a": [],
    "meuse_race_legal": [],
    "meuse_three_stack_drag": [],
    "meuse_turn2_start": [],
    "meuse_drag_violations": [(4, "HF1201"), (6, "HF1204"), (9, "HF1201"), (16, "HF1512"), (18, "HF1102")],
    "meuse_race_violations": [(4, "HF1201"), (10, "HF1504"), (14, "HF1509"), (15, "HF1301")],
    "meuse_exploit_zoc": [(8, "HF1204")],
    "meuse_twice_one_log": [(6, "HF1504")],
    "meuse_enemy_hex_and_box": [(4, "HF1202")],      # near miss: Eng/4 back to its box, in a turn later (11.1)
    "meuse_undo_reroll": [(10, "HF1505")],
    # the third red team's (2 December): MR 3/1, alone next to A16.11, attacks it, then joins the battle on A15.10
    # (8.1: at most once a phase); the near misses: Tk 1/1 takes that battle's A1, and the battle without the first
    "meuse_attack_twice": [(23, "HF1503")],
    "meuse_attack_twice_dr": [(25, "HF1503")],
    "meuse_attack_once_a1": [],
    "meuse_attack_once_dr": [],
}


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _judged(a) -> list[tuple]:
    return [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize("name", sorted(FOUND))
def test_what_each_log_breaks(meuse, name):
    rec = read_log(VLOGS / f"{name}.vlog", VLOGS / "meuse.vmod", meuse)
    assert _judged(audit(meuse, rec)) == FOUND[name]


def test_the_drag_chain_continues_without_a_finding(meuse):
    """meuse_drags_chain_b continues meuse_drags_chain_a (turn 1, Blue Movement Phase): legal, chained or alone."""
    a = read_log(VLOGS / "meuse_drags_chain_a.vlog", VLOGS / "meuse.vmod", meuse)
    b = read_log(VLOGS / "meuse_drags_chain_b.vlog", VLOGS / "meuse.vmod", meuse)
    assert _judged(audit(meuse, b, "1", Previous("meuse_drags_chain_a.vlog", ends(a), a))) == []
    assert _judged(audit(meuse, b, "1")) == []


def test_a_stack_dragged_at_once_is_judged_unit_by_unit(meuse):
    """meuse_drag_violations: a stack dragged over Tk 1/1's allowance names Tk 1/1 only (step 9), and a stack
    dragged in the exploitation phase names its leg unit only (step 18, 9.1)."""
    rec = read_log(VLOGS / "meuse_drag_violations.vlog", VLOGS / "meuse.vmod", meuse)
    units = {f.step: f.units for f in audit(meuse, rec).findings if f.severity == "error"}
    assert (units[9], units[18]) == (("1st Tank Regiment",), ("12th Rifle Regiment",))
