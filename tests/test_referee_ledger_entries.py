"""The ledger's reinforcements, scenario length and victory standing on Crossing the Meuse (RULES.md 10-12).

A reinforcement dragged from its box is an entry and a move (11.2): the referee reads the drag at the
entry hex of its area that makes it cheapest, counts that hex's cost, and stops it where it entered an
enemy ZOC (6.2); it arrives only in its side's movement phase (11.1). A scenario ends with its last turn
(12.1) and the standing is counted as 10.1 says. Each rule: its violation and a legal near miss, on a real
VASSAL 3.7.9 log (tests/fixtures/vlogs/meuse_entries.vlog) where the drag's shape matters, and on
hand-built records otherwise."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.source.loader import load_game
from validator.positions.scenario_position import starting_position
from validator.positions.position import Position, Where
from validator.records.record import GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _errors(a) -> list[tuple]:
    return [(f.step, f.code, f.hexes, f.units) for f in a.findings if f.severity in ("error", "warning")]


class Record:
    """Steps on a scenario's module set-up (pieces '<unit>#1', reinforcements in their boxes)."""

    def __init__(self, game, scenario: str, turn: str = "1", phase: str = "red-movement",
                 start: Position | None = None):
        self.game, self.scenario = game, scenario
        self.start = start or starting_position(game, game.scenario(scenario))
        self.pos, self.turn, self.phase, self.steps = self.start, turn, phase, []
        self.phases = [p.id for p in game.phases]

    def piece(self, unit: str):
        return next(c for c, _ in self.pos if c.unit == unit)

    def move(self, unit: str, *hexes: str) -> int:
        for h in hexes:
            c = self.piece(unit)
            src = self.pos.where(c.piece)
            self.pos = self.pos.placed(c, Where(hex=h))
            self.steps.append(Step(len(self.steps) + 1, (Moved(c, src, Where(hex=h)),)))
        return len(self.steps)

    def drag(self, unit: str, where: Where) -> int:
        """One drag of the unit's piece, to a hex or a box."""
        c = self.piece(unit)
        src = self.pos.where(c.piece)
        self.pos = self.pos.placed(c, where)
        self.steps.append(Step(len(self.steps) + 1, (Moved(c, src, where),)))
        return len(self.steps)

    def next_phase(self, n: int = 1) -> int:
        for _ in range(n):
            i = self.phases.index(self.phase) + 1
            if i == len(self.phases):
                i, self.turn = 0, str(int(self.turn) + 1)
            self.phase = self.phases[i]
            self.steps.append(Step(len(self.steps) + 1, (TurnChanged(self.turn, self.phase),)))
        return len(self.steps)

    def audit(self, first_turn: str = "1", first_phase: str = "red-movement"):
        rec = GameRecord("hand-built", None, None, self.start, first_turn, first_phase, tuple(self.steps))
        return audit(self.game, rec, self.scenario)


# -- a real VASSAL log of reinforcements dragged from their boxes --

def test_reinforcements_dragged_from_their_boxes_on_a_real_log(meuse):
    rec = read_log(VLOGS / "meuse_entries.vlog", VLOGS / "meuse.vmod", meuse)
    a = audit(meuse, rec)
    assert _errors(a) == [
        (4, "HF1201", ("B16.04", "B12.09"), ("2nd Tank Regiment",)),
        (15, "HF1204", ("B16.10", "B16.09"), ("10th Rifle Regiment",)),
        (18, "HF1406", ("B16.16",), ("12th Rifle Regiment",))]
    by_step = {f.step: f for f in a.findings if f.severity == "error"}
    assert by_step[4].message == (
        "2nd Tank Regiment (MA 8) enters at B16.04 -> B12.09 in one phase: the cheapest path costs 17/2 MP "
        "(the map's terrain, roads and hexsides): 1/2 MP to enter B16.04 and 8 MP from there, over its "
        "movement allowance of 8")
    assert (by_step[4].rule, by_step[15].rule, by_step[18].rule) == ("4.1", "6.2", "11.1")
    assert by_step[15].message == ("10th Rifle Regiment entered the map at B16.10, in an enemy ZOC where it had "
                                   "to stop, and was dragged on to B16.09")
    assert by_step[18].message == ("12th Rifle Regiment enters at B16.16 in the Red Combat Phase of turn 2: "
                                   "reinforcements of Red arrive only in Red Movement Phase")
    # near misses: beyond the area within the allowance (step 1), exactly 8 MP with the entry (step 2), an
    # entry hex in a ZOC where the unit stops (step 16), a reinforcement held back a turn (step 21)
    assert not [f for f in a.findings if f.step in (1, 2, 16, 21)]
    assert a.coverage["fully"] == 21


def test_the_entry_hex_read_is_the_cheapest_of_the_area(meuse):
    """Tk 1/1 ends its drag at B11.14, beyond red-centre: entering at B16.10 (1 MP) or B16.11 (1/2 MP, a road
    hex) and moving on costs 5 MP at the cheapest: within 8, no finding (the false accusation of issue 16)."""
    r = Record(meuse, "2")
    r.move("red-1ad-1tk", "B11.14")
    assert _errors(r.audit()) == []


def test_a_reinforcement_that_cannot_have_come_from_its_area(meuse):
    """Blue 30/12 (MA 4), due on turn 2 of scenario 1 at blue-centre (A1.08, A1.09), dragged to A1.03: no
    path from the area reaches it within 4 MP."""
    r = Record(meuse, "1")
    r.next_phase(9)                                       # turn 2, Blue Movement Phase
    step = r.move("blue-12id-30", "A1.03")
    (f,) = [f for f in r.audit().findings if f.severity == "error"]
    assert (f.step, f.code, f.rule, f.hexes) == (step, "HF1402", "11.2", ("A1.03", "A1.08", "A1.09"))
    assert f.message == ("30th Infantry Regiment enters at A1.03; its order of arrival (turn 2) brings it in at "
                         "area blue-centre, and no path from a hex of that area reaches A1.03 within its movement "
                         "allowance of 4 (the cheapest way from it costs 6 MP, entering at A1.08)")


def test_a_reinforcement_one_hex_beyond_its_area_is_legal(meuse):
    r = Record(meuse, "1")
    r.next_phase(9)
    r.move("blue-12id-30", "A2.08")                      # entry at A1.08 (1 MP) then one clear hex
    assert _errors(r.audit()) == []


def test_a_reinforcement_from_its_own_area_half_an_mp_too_far_is_over_its_allowance(meuse):
    """Red 4th Engineers (MA 4, red-centre B16.10-B16.11) dragged from its box to B8.10 along the N4: 1/2 MP
    for the road hex B16.11 and 4 MP for the eight road hexes after it. It came in at its own area (nothing
    nearer another entry area): the fault is the allowance (4.1), not the entry (11.2)."""
    r = Record(meuse, "1")
    r.next_phase(6)                                       # turn 2, Red Movement Phase
    step = r.move("red-4rd-eng", "B8.10")
    assert _errors(r.audit()) == [(step, "HF1201", ("B16.11", "B8.10"), ("4th Engineer Battalion",))]
    r = Record(meuse, "1")
    r.next_phase(6)
    r.move("red-4rd-eng", "B9.11")                        # near miss: one road hex less, 4 MP
    assert _errors(r.audit()) == []


def test_a_reinforcement_in_the_wrong_phase_is_that_fault_alone(meuse):
    """Brought on in the Red Combat Phase (11.1) from its own area one hex on (B16.11, then B15.11): the
    phase is wrong, where it entered is not (its way in is costed as in its movement phase)."""
    r = Record(meuse, "1")
    r.next_phase(7)                                       # turn 2, Red Combat Phase
    step = r.move("red-4rd-eng", "B15.11")
    assert _errors(r.audit()) == [(step, "HF1406", ("B15.11",), ("4th Engineer Battalion",))]
    r = Record(meuse, "1")
    r.next_phase(7)
    step = r.move("red-4rd-eng", "B15.17")                # at red-south's edge, nearer it than red-centre
    assert [x[1] for x in _errors(r.audit())] == ["HF1402", "HF1406"]


# -- the scenario's length (12.1) --

def _turn6_blue_exploitation(meuse, scenario: str) -> Record:
    return Record(meuse, scenario, turn="6", phase="blue-exploitation")


def test_play_after_the_scenarios_last_turn(meuse):
    r = _turn6_blue_exploitation(meuse, "1")
    r.next_phase()                                        # turn 7, Red Movement Phase: scenario 1 ends with 6
    step = r.move("red-4rd-12", "B8.14")
    r.move("red-4rd-12", "B8.15")
    r.next_phase()
    found = [f for f in r.audit("6", "blue-exploitation").findings if f.code == "HF1701"]
    assert [(f.step, f.rule, f.units) for f in found] == [(step, "12.1", ("12th Rifle Regiment",))]   # once
    assert found[0].message == ("12th Rifle Regiment moves in turn 7, after scenario 1's last turn 6: play after "
                                "it does not count")


def test_a_game_closed_by_moving_the_marker_past_the_last_turn_is_no_fault(meuse):
    """How a VASSAL game ends: the marker moved on from turn 6's last phase, nothing played after it."""
    r = _turn6_blue_exploitation(meuse, "1")
    r.next_phase()
    r.next_phase()
    audit = r.audit("6", "blue-exploitation")
    assert [f for f in audit.findings if f.code == "HF1701"] == []
    assert audit.result["decided"] and audit.result["winner"] == "blue"     # Red holds no 7 VP


def test_turn_seven_of_the_eight_turn_scenario_is_legal(meuse):
    r = _turn6_blue_exploitation(meuse, "2")
    r.next_phase()
    assert [f for f in r.audit("6", "blue-exploitation").findings if f.code == "HF1701"] == []


# -- the victory standing (10.1, 12.1) --

def test_a_victory_hex_taken_by_entering_it_stays_taken(meuse):
    """Red Tk 1/1 enters Val-Saint-Omble (B1.10, 1 VP) only after Blue's Rec/2 leaves it, then goes on:
    the hex stays Red's (10.1: control changes when a unit of the other side enters it)."""
    r = Record(meuse, "1")
    r.next_phase(3)                                       # Blue Movement Phase
    r.move("blue-2lm-rec", "A15.09")
    r.next_phase(3)                                       # turn 2, Red Movement Phase
    r.move("red-1ad-1tk", "B2.10", "B1.10")
    r.next_phase(2)                                       # Red Exploitation Phase
    r.move("red-1ad-1tk", "A16.09")
    a = r.audit()
    assert a.result["hexes"]["B1.10"] == "red" and a.result["points"] == {"red": 1, "blue": 0}
    assert a.result["decided"] is False and a.result["winner"] is None
    (f,) = [f for f in a.findings if f.code == "HF1702"]
    assert (f.step, f.hexes, f.rule) == (None, ("B1.10",), "12.1")
    assert f.message == ("victory standing: not decided by the log (it ends in turn 2; the scenario ends with turn "
                         "6): Red 1 VP; Red needs 7 at the end")


def test_a_victory_hex_every_legal_way_goes_through_is_taken(meuse):
    """Red Tk 1/1 dragged in one drag from B2.09 to A16.09, across the Meuse: a mechanized unit crosses only
    by the Montvaux bridge, from Val-Saint-Omble (B1.10, 1 VP, empty since Blue's Rec/2 left it): every way
    enters it, so it is Red's (10.1)."""
    def drag(*hexes):
        r = Record(meuse, "1")
        r.next_phase(3)
        r.move("blue-2lm-rec", "A15.09")
        r.next_phase(3)
        r.move("red-1ad-1tk", "B2.10", *hexes)
        return r.audit()
    a = drag("A16.09")
    assert a.result["hexes"]["B1.10"] == "red" and a.result["points"] == {"red": 1, "blue": 0}
    assert [f for f in a.findings if f.severity in ("error", "warning")] == []
    # near miss: to A16.10, where a way by B1.11 avoids B1.10 within the allowance: Blue's still
    a = drag("A16.10")
    assert a.result["hexes"]["B1.10"] == "blue" and a.result["points"] == {"red": 0, "blue": 0}


def _red_on(meuse, hexes: dict) -> Position:
    """Scenario 1's set-up with Red units moved onto victory hexes (a log that begins on turn 6)."""
    pos = starting_position(meuse, meuse.scenario("1"))
    for unit, h in hexes.items():
        c = next(c for c, _ in pos if c.unit == unit)
        pos = pos.placed(c, Where(hex=h))
    return pos


def test_the_scenario_decided_when_the_log_passes_its_last_turn(meuse):
    start = _red_on(meuse, {"red-1ad-1tk": "A14.10", "red-1ad-2tk": "A15.11", "red-1ad-3mr": "A9.09",
                            "red-1ad-rec": "A5.03"})        # 2 + 2 + 2 + 1 = 7 VP: Red's target
    r = Record(meuse, "1", turn="6", phase="blue-exploitation", start=start)
    r.next_phase()
    a = r.audit("6", "blue-exploitation")
    assert a.result["decided"] is True and a.result["winner"] == "red" and a.result["points"]["red"] == 7
    assert a.result["text"] == ("Red wins: Red 7 VP (Red needs 7) (control of the victory hexes before the log "
                                "began is taken from who stood on them)")


def test_one_point_short_blue_wins(meuse):
    start = _red_on(meuse, {"red-1ad-1tk": "A14.10", "red-1ad-2tk": "A15.11", "red-1ad-3mr": "A9.09"})
    r = Record(meuse, "1", turn="6", phase="blue-exploitation", start=start)
    r.next_phase()
    a = r.audit("6", "blue-exploitation")
    assert (a.result["winner"], a.result["points"]["red"]) == ("blue", 6)
    assert a.result["text"].startswith("Blue wins: Red 6 VP (Red needs 7)")


def test_a_game_without_victory_terms_as_data_gives_no_standing():
    aachen = load_game(ROOT / "source" / "aachen")[0]
    shared = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs"))
                   if p.exists()), None)
    if shared is None:
        pytest.skip("shared/vassal-logs not available")
    a = audit(aachen, read_log(shared / "aachen_legal.vlog", shared / "aachen.vmod", aachen))
    assert a.result is None and not [f for f in a.findings if f.code == "HF1702"]


# -- the reason that is true (issue 16: a river crossing told it passed an enemy hex) --

def test_a_mechanized_unit_dragged_across_an_unbridged_river_is_told_the_hexside(meuse):
    """Red Tk 2/1 (mechanized, MA 8) B2.09 -> A16.09 straight across the Meuse: the river hexside B1.09|A16.09
    is prohibited to it (7.3); the way over the Montvaux bridge passes B1.10, held by Blue Rec/2 (4.4)."""
    r = Record(meuse, "1")
    r.move("red-1ad-2tk", "B2.09", "A16.09")
    (f,) = [f for f in r.audit().findings if f.severity == "error"]
    assert (f.step, f.code, f.hexes) == (2, "HF1203", ("B11.11", "A16.09"))
    assert f.message == (
        "2nd Tank Regiment (MA 8) moves B11.11 -> B2.09 -> A16.09: every path within its allowance passes "
        "through an enemy-held hex (the cheapest way runs through B1.10, held by 2nd Light Mechanised "
        "Reconnaissance Squadron); avoiding enemy-held hexes the cheapest way costs 49/2 MP; the straight way "
        "crosses the river (the meuse) hexside B1.09|A16.09, prohibited to mechanized units (7.3)")


def test_over_the_allowance_names_the_river_the_straight_way_would_cross(meuse):
    r = Record(meuse, "1")
    r.move("red-1ad-2tk", "B2.09")
    r.next_phase(2)                                       # Red Exploitation Phase: a second allowance
    step = r.move("red-1ad-2tk", "B2.08", "A16.07")
    (f,) = [f for f in r.audit().findings if f.severity == "error"]
    assert (f.step, f.code) == (step, "HF1201")
    assert f.message.endswith("over its movement allowance of 8; the straight way crosses the river (the meuse) "
                              "hexside B1.08|A16.07, prohibited to mechanized units (7.3)")


def test_a_leg_unit_may_cross_the_river_where_a_mechanized_one_may_not(meuse):
    """Near miss: leg units pay +2 MP for a river hexside (7.3). Red 12/4 (leg, MA 4) B8.13 -> ... is far; a
    Blue leg unit next to the river crossing it: 7/3 A15.10 -> A16.10 is not a river crossing, so use
    8/3 A15.03 -> A16.03 (river hexside A15.03|A16.03: clear 1 + 2 = 3 MP of 4)."""
    r = Record(meuse, "1")
    r.next_phase(3)                                       # Blue Movement Phase
    r.move("blue-3id-8", "A16.03")
    assert _errors(r.audit()) == []


def test_a_chained_log_keeps_the_victory_hexes_taken_in_the_log_before(meuse, tmp_path):
    """meuse_legal's Red tank enters Val-Saint-Omble (B1.10) and leaves it for A16.09: the next log of the
    chain starts with B1.10 empty, and still Red's (10.1), not the scenario's Blue."""
    from dataclasses import replace as dc_replace
    from validator.referee.chain import Previous, ends
    rec = read_log(VLOGS / "meuse_legal.vlog", VLOGS / "meuse.vmod", meuse)
    e = ends(rec)
    nxt = dc_replace(rec, source="turn2.yaml", start=e.end, start_turn=e.end_turn, start_phase=e.end_phase, steps=())
    chained = audit(meuse, nxt, "1", Previous("meuse_legal.vlog", e, rec))
    assert chained.result["hexes"]["B1.10"] == "red" and chained.result["points"]["red"] == 1
    alone = audit(meuse, nxt, "1")                       # on its own: taken from who stands on the hexes
    assert alone.result["hexes"]["B1.10"] == "blue" and "taken from who stood on them" in alone.result["text"]


# -- a reinforcement held back after all (11.1: "A player may hold a reinforcement back") --

def _back_to(r: Record, unit: str, box: str) -> int:
    return r.drag(unit, Where(box=box))


def _enter(r: Record, unit: str, h: str) -> int:
    return r.drag(unit, Where(hex=h))


def test_a_reinforcement_taken_back_to_its_box_may_enter_later(meuse):
    """Red 4th Engineer Battalion (due turn 2) dragged in at B16.10, then back into its box, enters on turn 3:
    no HF1405 (the red team's real log m2_enemy_hex_and_box did this)."""
    r = Record(meuse, "1")
    r.next_phase(6)                                       # turn 2, Red Movement Phase
    box = r.pos.where(r.piece("red-4rd-eng").piece).box
    _enter(r, "red-4rd-eng", "B16.10")
    _back_to(r, "red-4rd-eng", box)
    r.next_phase(6)                                       # turn 3, Red Movement Phase
    _enter(r, "red-4rd-eng", "B13.11")
    assert _errors(r.audit()) == []


def test_a_reinforcement_put_in_another_box_has_entered(meuse):
    """Near miss: the same unit dragged into another box (the eliminated pile, say) has arrived: its second
    entry is one more than its order of arrival brings (HF1405)."""
    r = Record(meuse, "1")
    r.next_phase(6)
    _enter(r, "red-4rd-eng", "B16.10")
    _back_to(r, "red-4rd-eng", "Eliminated")
    r.next_phase(6)
    step = _enter(r, "red-4rd-eng", "B13.11")
    assert [(s, code) for s, code, _, _ in _errors(r.audit())] == [(step, "HF1405")]


def test_a_stack_wrong_for_many_phases_names_its_first_and_last(meuse):
    """HF1301 for three Red units in B10.11 through eight phase ends names the first two and the last, and how
    many between (a long game's stack would otherwise list thousands)."""
    r = Record(meuse, "1")
    r.move("red-1ad-2tk", "B10.11")                       # joins Tk 1/1 and MR 3/1 there: 3 of 2
    r.next_phase(8)
    (f,) = [f for f in r.audit().findings if f.code == "HF1301"]
    assert f.message.endswith(
        "at the end of the Red Movement Phase of turn 1, the Red Combat Phase of turn 1 and 5 later phases to the "
        "Red Combat Phase of turn 2, and still when the log ends")
