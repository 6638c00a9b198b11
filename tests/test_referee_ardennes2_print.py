"""Ardennes II as printed, where the red team found false accusations.

A defender's retreat before combat (Ardennes II 3.2: "Before determining the odds, the Defending player
must choose to either Hold or Retreat ... The Defending stack must Retreat 5 hexes. There is no CRT roll ...
The Attacker can Advance after Combat"; 3.3: overruns, during movement, alike), declared in the tree as
`rules.combat.retreat_before_combat`. Its drags, with no roll, are read as that retreat and the advance
after it: notes, never HF1101 (the false accusation the red team found). Near misses that must still fire:
a unit of the other side that stands next to no enemy, and an attacker dragged far from any hex a retreat
left. And the vdH drop zone, printed "w/i 1 of B17.29" by 4.1 and "w/i 1 B17.49" by the order of arrival: the
referee accepts either (`also_printed`), check says the print disagrees (HF514)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.positions.position import Where
from validator.positions.scenario_position import starting_position
from validator.records.record import GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
SHARED = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs"))
               if (p / "ardennes2.vmod").is_file()), None)


@pytest.fixture(scope="module")
def ardennes2():
    return load_game(ROOT / "source" / "ardennes2")[0]


def _record(game, phase: str, *drags: tuple[str, str]) -> GameRecord:
    """Drags (unit, hex) from scenario 7.1's set-up on turn 1, in `phase` (step 1: the marker moved to it from
    the phase before, so that the log does not begin in a combat phase, where a roll before it may stand)."""
    pos = start = starting_position(game, game.scenario("7.1"))
    ids = [p.id for p in game.phases]
    steps = [Step(1, (TurnChanged("1", phase),))]
    for unit, h in drags:
        c = next(c for c, _ in pos if c.unit == unit)
        src = pos.where(c.piece)
        pos = pos.placed(c, Where(hex=h))
        steps.append(Step(len(steps) + 1, (Moved(c, src, Where(hex=h)),)))
    return GameRecord("hand-built", None, None, start, "1", ids[ids.index(phase) - 1], tuple(steps))


def _judged(a) -> list[tuple]:
    return [(f.step, f.code, f.severity, f.hexes) for f in a.findings if f.severity in ("error", "warning")]


RETREAT = [("us-2id-a-9", h) for h in ("B26.48", "B25.48", "B24.47", "B23.47", "B22.46")]


def test_the_tree_declares_the_retreat_before_combat(ardennes2):
    rbc = ardennes2.rules.combat.retreat_before_combat
    assert (rbc.rule, rbc.hexes, rbc.overrun) == ("3.2", 5, "3.3")


@pytest.mark.skipif(SHARED is None, reason="the shared Ardennes II module is not available")
def test_a_real_log_of_a_retreat_before_combat_and_the_advance_is_legal(ardennes2):
    record = read_log(VLOGS / "ardennes2_retreat_before_combat.vlog", SHARED / "ardennes2.vmod", ardennes2)
    a = audit(ardennes2, record)
    assert _judged(a) == []
    reasons = {s["step"]: " ".join(s["reasons"]) for s in a.coverage["steps"] if s.get("reasons")}
    for step in range(3, 8):
        assert "is read as a retreat before combat (the defender's choice instead of a roll, 3.2: 5 hexes)" in reasons[step]
    assert "2-3-8 Inf Rgt (751) B28.49 -> B27.49 is read as an advance after a retreat before combat" in reasons[8]


def test_in_the_combat_phase_the_retreat_and_the_advance_are_notes(ardennes2):
    a = audit(ardennes2, _record(ardennes2, "de-combat", *RETREAT, ("de-326vg-751", "B27.49")), "7.1")
    assert _judged(a) == []


def test_an_overrun_retreat_in_the_movement_phase_is_a_note(ardennes2):
    """3.3: an overrun's defender chooses Hold or Retreat as in 3.2, during the attacker's movement: 753 moves
    up from B27.51 (not next to A/9) to B27.50, and A/9 retreats."""
    a = audit(ardennes2, _record(ardennes2, "de-move", ("de-326vg-753", "B27.50"), *RETREAT), "7.1")
    assert _judged(a) == []


def test_no_overrun_by_a_unit_that_began_the_phase_next_to_it(ardennes2):
    """Near miss: the same retreat with no German unit moved up: 751, next to A/9 since the set-up, may not
    overrun it (3.3 "Not start the Phase in a hex adjacent to an enemy unit"): the drag is HF1101."""
    a = audit(ardennes2, _record(ardennes2, "de-move", *RETREAT), "7.1")
    assert [(s, c) for s, c, _, _ in _judged(a)][:1] == [(2, "HF1101")]


def test_a_defender_next_to_no_enemy_may_not_retreat(ardennes2):
    """Near miss: A/9 first dragged away (a retreat), then the Belgian 5th Fusiliers (B12.45), next to no
    German unit."""
    a = audit(ardennes2, _record(ardennes2, "de-combat", *RETREAT, ("be-inf-5-fus", "B12.46")), "7.1")
    assert [(s, c) for s, c, _, _ in _judged(a)] == [(7, "HF1101")]


def test_an_attacker_far_from_the_retreat_may_not_move(ardennes2):
    """Near miss: a German unit dragged in the combat phase from a hex next to no hex a retreat left."""
    a = audit(ardennes2, _record(ardennes2, "de-combat", *RETREAT, ("de-326vg-752", "B26.53")), "7.1")
    assert [(s, c) for s, c, _, _ in _judged(a)] == [(7, "HF1101")]


# -- the vdH drop zone: the rulebook prints it twice (4.1: "w/i 1 of B17.29"; the OOA: "w/i 1 B17.49") --

def _dropped(game, h: str):
    start = starting_position(game, game.scenario("7.1"))
    c = next(c for c, _ in start if c.unit == "de-fj-vdh")
    step = Step(1, (Moved(c, start.where(c.piece), Where(hex=h)),))
    return audit(game, GameRecord("hand-built", None, None, start, "2", "de-move", (step,)), "7.1")


def test_check_reports_the_entry_printed_twice(ardennes2):
    from validator.checks import run_checks
    notes = [d for d in run_checks(ardennes2) if d.code == "HF514"]
    assert [(d.loc.file, d.message) for d in notes] == [
        ("orders-of-arrival.yaml", "axis arrival on turn 2: its entry is printed as w/i 1 B17.49 and, by 4.1, as "
                                   "w/i 1 B17.29; the audit accepts either"),
        ("scenarios/7.3.yaml", "axis arrival on turn 2: its entry is printed as w/i 1 B17.49 and, by 4.1, as "
                               "w/i 1 B17.29; the audit accepts either")]


@pytest.mark.parametrize("h", ["B17.28", "B17.48"])
def test_vdh_may_drop_by_either_printing(ardennes2, h):
    assert [f.code for f in _dropped(ardennes2, h).findings if f.severity in ("error", "warning")] == []


def test_vdh_dropped_far_from_both_is_an_error(ardennes2):
    """Near miss: B17.39 is ten hexes from both drop zones (4 MP at most)."""
    (f,) = [f for f in _dropped(ardennes2, "B17.39").findings if f.severity == "error"]
    assert (f.code, f.step, f.hexes[0]) == ("HF1402", 1, "B17.39")
