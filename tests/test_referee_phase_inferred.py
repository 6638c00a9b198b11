"""How the referee reads the phases a record leaves open or sets back.

A record that names no phase (a module without the tracker's phase level, a hand-written record): the
referee infers the phases, and a unit moved twice may have moved in two movement phases (Meuse 3.2, 9.1: a
mechanized unit moves again in its exploitation phase). A ZOC stop lasts for the rest of the phase (6.2) and a
unit that starts its move in a ZOC may leave it (6.3), so a unit that stopped in a ZOC and was dragged on
is legal if the stop ended one phase's move: a note, not an error. Where the phase is recorded, the same
drags are the error.

A turn marker set back to a phase of the same turn already played is read as that phase resumed, its moves
so far counted (the reading cheapest for the player: a second Red Movement Phase in one turn breaks 3.2)."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Where
from validator.positions.scenario_position import starting_position
from validator.records.record import DieRoll, GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _record(game, drags, phase=None):
    """Scenario 1's set-up, then one drag a step (a phase id instead: the turn marker moves to it in turn 1);
    `phase`: the turn marker records it first."""
    pos = starting_position(game, game.scenario("1"))
    steps = [Step(1, (TurnChanged("1", phase),))] if phase else []
    for unit, to in drags:
        if to is None:
            steps.append(Step(len(steps) + 1, (TurnChanged("1", unit),)))
            continue
        c = next(c for c, _ in pos if c.unit == unit)
        src = pos.where(c.piece)
        pos = pos.placed(c, Where(hex=to))
        steps.append(Step(len(steps) + 1, (Moved(c, src, Where(hex=to)),)))
    return GameRecord("hand-built", None, None, starting_position(game, game.scenario("1")), "1", phase,
                      tuple(steps))


# Red 1st Reconnaissance (MA 10) over the Hautrive bridge to A16.02 (10 MP), next to Blue's 8th Infantry in
# A15.03; 10th Rifles moves; the reconnaissance battalion goes back to B10.05 (10 MP): its exploitation move.
DRAGS = [("red-1ad-rec", "A16.02"), ("red-4rd-10", "B4.17"), ("red-1ad-rec", "B10.05")]


def _zoc(a):
    return [(f.step, f.code, f.severity, f.hexes, f.units) for f in a.findings if f.code == "HF1204"]


def test_a_zoc_stop_and_a_later_drag_on_may_be_two_phases(meuse):
    a = audit(meuse, _record(meuse, DRAGS), "1")
    assert [f for f in a.findings if f.severity in ("error", "warning")] == []
    assert _zoc(a) == [(3, "HF1204", "info", ("A16.02", "B10.05"), ("1st Reconnaissance Battalion",))]
    (f,) = [f for f in a.findings if f.code == "HF1204"]
    assert f.message == ("1st Reconnaissance Battalion ended a drag in A16.02, in an enemy ZOC, and was dragged on "
                         "to B10.05: legal only if its drags fell in two movement phases")


# Red 2nd Tank (MA 8) along the N4 to B2.09 (4 1/2 MP), next to Blue's 2nd Light Mechanised Reconnaissance in
# B1.10, then one hex on to B3.09: 5 1/2 MP, within its allowance in one phase.
ON = [("red-1ad-2tk", "B2.09"), ("red-1ad-2tk", "B3.09")]


def test_a_zoc_stop_and_one_hex_on_in_a_recorded_movement_phase_is_the_error(meuse):
    a = audit(meuse, _record(meuse, ON, "red-movement"), "1")
    assert _zoc(a) == [(3, "HF1204", "error", ("B2.09", "B3.09"), ("2nd Tank Regiment",))]
    # near miss: the same drags in a record that names no phase
    assert _zoc(audit(meuse, _record(meuse, ON), "1")) == [
        (2, "HF1204", "info", ("B2.09", "B3.09"), ("2nd Tank Regiment",))]


def test_two_zoc_stops_are_not_two_phases(meuse):
    """Stopped in the ZOC at A16.02 twice and dragged on each time: one split excuses one stop only."""
    drags = [("red-1ad-rec", "A16.02"), ("red-4rd-10", "B4.17"), ("red-1ad-rec", "B1.03"),
             ("red-1ad-rec", "A16.02"), ("red-1ad-rec", "B1.03")]
    found = _zoc(audit(meuse, _record(meuse, drags), "1"))
    assert [x[:3] for x in found] == [(3, "HF1204", "info"), (4, "HF1204", "info"), (5, "HF1204", "error")]
    assert found[-1][3:] == (("A16.02", "B1.03"), ("1st Reconnaissance Battalion",))


# Red 10th Rifles (MA 4) B8.16 -> B2.18 (4 MP); the marker goes through the combat, exploitation and Blue
# movement phases and back to the Red Movement Phase of turn 1; then B2.18 -> B2.20 (2 MP more).
BACK = [("red-4rd-10", "B2.18"), ("red-combat", None), ("red-exploitation", None), ("blue-movement", None),
        ("red-movement", None), ("red-4rd-10", "B2.20")]


def test_a_marker_set_back_resumes_the_phase_and_its_moves_count(meuse):
    a = audit(meuse, _record(meuse, BACK, "red-movement"), "1")
    assert [(f.step, f.code, f.hexes, f.units) for f in a.findings if f.severity == "error"] == [
        (7, "HF1201", ("B8.16", "B2.20"), ("10th Rifle Regiment",))]
    (note,) = [f for f in a.findings if f.step == 6 and f.severity == "info"]
    assert note.message == ("partly verified: the turn marker goes back to the Red Movement Phase of turn 1: read "
                            "as that phase resumed (its moves so far count)")


def test_a_marker_set_back_and_a_move_within_what_is_left_is_legal(meuse):
    drags = [("red-4rd-10", "B4.17")] + BACK[1:5] + [("red-4rd-10", "B3.17")]   # 2 MP, then 1 more
    a = audit(meuse, _record(meuse, drags, "red-movement"), "1")
    assert [f for f in a.findings if f.severity in ("error", "warning")] == []


def test_a_drag_after_a_roll_in_no_judged_battle_is_not_counted_verified(meuse):
    """No phase recorded: Red moves, a roll no battle can be read for (no Red unit next to a Blue one), then
    Blue's 8th Infantry goes five hexes. Read as after the roll, the drag is in no battle the referee could judge:
    it says so, where it used to count the step as fully verified."""
    pos = starting_position(meuse, meuse.scenario("1"))
    c = next(c for c, _ in pos if c.unit == "red-4rd-10")
    b = next(c for c, _ in pos if c.unit == "blue-3id-8")
    steps = (Step(1, (Moved(c, pos.where(c.piece), Where(hex="B4.17")),)),
             Step(2, (DieRoll("1d6", (3,), 3, 1, 6),)),
             Step(3, (Moved(b, pos.where(b.piece), Where(hex="A10.03")),)))
    a = audit(meuse, GameRecord("hand-built", None, None, pos, "1", None, steps), "1")
    assert a.coverage["steps"][2] == {"step": 3, "status": "partly", "reasons": [
        "8th Infantry Regiment A15.03 -> A10.03 is read as a retreat or an advance after the roll at step 2, whose "
        "battle the referee could not judge: the move is not judged"]}
    # near miss: the retreat of the defender of a judged battle is the combat rules' (verified there)


def test_a_retreat_of_a_judged_battle_is_verified(meuse):
    """Near miss, on a real VASSAL 3.7.9 log: Rec/2's retreat B1.10 -> A16.09 -> A15.09 after battle 1 and Tk
    1/1's advance (steps 10-12) are the battle's, judged by the combat rules: fully verified."""
    from compiler.vassal.vlog import read_log
    vlogs = ROOT / "tests" / "fixtures" / "vlogs"
    rec = read_log(vlogs / "meuse_combat_legal.vlog", vlogs / "meuse.vmod", meuse)
    steps = {s["step"]: s for s in audit(meuse, rec).coverage["steps"]}
    assert [steps[n]["status"] for n in (10, 11, 12)] == ["full", "full", "full"]
