"""Real VASSAL 3.7.9 logs recorded by the red teams of 2 December's second session from the rulebooks, each with
its SCRIPT and EXPECTED in tests/fixtures/vlogs.

- Aachen 14.1, Excessive US Casualties: the scenario is a turn shorter for each US unit eliminated, and ends at
  once where an elimination makes the current turn the last (`last_turn_reduction`). Missed before: play after
  the shortened end drew nothing. Near misses: GT 19 played after one US loss in GT 18, and play in the phase of
  the elimination that ends the game.
- Aachen 8.5, "Advance after combat does not take place after an Ex or De result": an attacker moving into the
  hex an Ex vacated is HF1512. Before, it was read as displaced by a retreat (8.3.1), though none retreated: a
  unit is displaced only where another unit's drag after the battle entered the hex it left. Near misses in
  the same log: an advance along a D2's path of retreat, one unit a hex.
- Ardennes II 3.4: one DG marker on a stack marks every unit in it (`markers[].whole_stack`): a false warning
  for each marked stack before (HF1301, HF1311). Violations: the same stacks with no marker. A unit is DG by a
  marker only where the marker came to its hex no earlier than the unit (3.4: DG units "take their DG status with
  them (but do not give it to other units they later stack with)"); in combat a marker is still read both ways
  (the A1D1 of ardennes2_dg_attack_halved fits at full strength: no finding, as its near miss). And it moves at half
  its allowance (3.4 "Move 1/2", `rules.movement_modifiers`): 316, DG, dragged 9 hexes is HF1201 (only HF1205 at
  its full MA before); near miss: 423, not DG, 12 hexes (HF1205: only along roads). And "DG units CANNOT: ...
  Exploit" (phase `not_in_states`): a DG stack dragged in the German Exploitation Phase is HF1107 (missed before);
  near miss: Bremer, not DG, in the same phase.
- Aachen 8.0, "Players must resolve each attack prior to conducting any other attacks" (`resolve_in_order`): two
  battles rolled first, then both results: HF1517 at the first late result (before: nothing). Near miss: in
  Crossing the Meuse, which does not say so, the same order is legal (tests/test_referee_results_later.py).
- Ardennes II 3.3: a US unit dragged away in the German movement phase is a retreat before an overrun only where
  a German unit next to it moved up this phase from a hex not next to it ("Not start the Phase in a hex
  adjacent to an enemy unit"): else HF1101 (a note before). Near miss: ardennes2_overrun_retreat. And 3.2: a DG
  defender must Hold (`retreat_before_combat.hold_if`): its retreat before combat is HF1101 (a note before);
  near miss: A/9, not DG, retreating before combat in the same phase.
- A roll of dice no combat table is rolled with (Ardennes II's 1d6 barrage, the CRT taking 2d6) settles no
  battle: a unit dragged after it is not read as retreating (HF1101 in the US Barrage Phase, 3.6; a note before).
- Bulge 6.3, "Each unit moves individually ... A unit's movement is considered complete once the player begins
  moving another unit": two units dragged together, one dragged on, then the other: HF1104 (missed before).
  Near miss: the first of them dragged on alone.
- Meuse 8.3: two battles rolled first, the results shown in the other order than the rolls (no rule sets one):
  the first roll takes the other battle's results where its own do not fit (HF1501, HF1509 before); and a result
  shown in part before the next roll is finished after it (the rest of a retreat, the advance): HF1501, HF1508
  and HF1509 before. Near miss: meuse_rolls_first_short_retreat (a retreat one hex short stays HF1501).
- Meuse 3.2, 11.1: after the turn's last phase told in the chat (or with no phase ever told), a unit of the
  side that plays first moving or entering as the next turn's first player turn lets it: that turn begun untold
  (HF1101, HF1401, HF1406 before). Near miss: a Blue leg unit moving then is still HF1102 (9.1)."""
from __future__ import annotations

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit

from tests.recorded_logs import ROOT, SHARED, VLOGS, audit_recorded, load_games

FOUND = {                                   # log -> its errors and warnings (step, code, hexes)
    ("aachen", "aachen_excessive_casualties_end"): [(29, "HF1701", ("1934", "2032"))],
    ("aachen", "aachen_excessive_casualties_shortened"): [(34, "HF1701", ("1823", "1822"))],
    ("aachen", "aachen_rolls_first"): [(10, "HF1517", ("1823",))],
    ("aachen", "aachen_advance_after_exchange"): [(13, "HF1512", ("1824", "1823")), (25, "HF1512", ("1527", "1627"))],
    ("bulge", "bulge_stack_drag_then_each"): [
        (7, "HF1104", ("UU9", "UU11")), (14, "HF1101", ("UU10", "UU12")), (22, "HF1101", ("PP18", "PP19")),
        (25, "HF1101", ("UU11", "VV11"))],
    ("meuse", "meuse_chat_no_turn2_red_move"): [],
    ("meuse", "meuse_rolls_first_other_order"): [],
    ("meuse", "meuse_result_finished_after_next_roll"): [],
    ("meuse", "meuse_chat_no_turn2_entry"): [],
    ("meuse", "meuse_chat_last_phase_leg_moves"): [(41, "HF1102", ("A15.03", "A14.03"))],
    ("ardennes2", "ardennes2_dg_marker_stacks"): [     # the two long drags: legal only along roads (2.1)
        (4, "HF1205", ("B34.33", "B34.38")), (5, "HF1205", ("B33.46", "B34.40")),
        (14, "HF1301", ("B38.47",)), (14, "HF1311", ("B34.38",))],
    ("ardennes2", "ardennes2_dg_attack_halved"): [],     # a DG marker may be another unit's: both strengths tried
    ("ardennes2", "ardennes2_dg_attack_halved_near_miss"): [],
    ("ardennes2", "ardennes2_dg_must_hold"): [
        (7, "HF1502", ("B26.50",)), (16, "HF1101", ("B34.39", "B39.40")), (16, "HF1101", ("B34.39", "B39.40")),
        (17, "HF1101", ("B33.40", "B34.39"))],
    ("ardennes2", "ardennes2_dg_moves_half"): [
        (2, "HF1201", ("B35.05", "B35.14")), (3, "HF1205", ("B33.06", "B33.18")),
        (15, "HF1205", ("B21.19", "B18.16")), (15, "HF1205", ("B21.19", "B18.16"))],
    ("ardennes2", "ardennes2_dg_exploit"): [(7, "HF1108", ("B26.52", "B24.52", "B27.53")),
                                            (14, "HF1107", ("B22.19", "B24.18")), (14, "HF1107", ("B22.19", "B24.18"))],
    ("ardennes2", "ardennes2_dg_stack_joined"): [
        (4, "HF1205", ("B24.16", "B36.16")), (5, "HF1205", ("B38.38", "B38.32")), (6, "HF1205", ("B37.40", "B38.32")),
        (7, "HF1205", ("B37.40", "B38.20")), (8, "HF1201", ("B34.39", "B34.50")), (10, "HF1205", ("B36.39", "B36.31")),
        (12, "HF1205", ("B38.38", "B38.22")), (15, "HF1109", ("B35.37",)), (16, "HF1109", ("B35.37",)),
        (21, "HF1101", ("B34.39", "B39.39"))],
    ("ardennes2", "ardennes2_barrage_roll_then_move"): [(6, "HF1101", ("B29.05", "B28.05")),
                                                        (11, "HF1101", ("B40.49", "B38.49")),
                                                        (17, "HF1108", ("B26.52", "B24.52", "B27.53"))],
    ("ardennes2", "ardennes2_retreat_without_overrun"): [(3, "HF1101", ("B26.52", "B25.52")),
                                                         (5, "HF1101", ("B26.50", "B21.50"))],
}


@pytest.fixture(scope="module")
def games():
    return load_games()


def _audit(games, game_name, log):
    return audit_recorded(games, game_name, log, "1" if game_name == "meuse" else None)


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    a = _audit(games, game_name, log)
    assert [(f.step, f.code, f.hexes) for f in a.findings if f.severity in ("error", "warning")] == \
        FOUND[(game_name, log)]


def test_the_game_ends_at_once_when_the_current_turn_becomes_the_last(games):
    a = _audit(games, "aachen", "aachen_excessive_casualties_end")
    (f,) = [f for f in a.findings if f.code == "HF1701"]
    assert f.rule == "14.1" and f.turn == "19"
    assert "ended at once, at the elimination of step 26 (1 US unit(s) eliminated: the last turn would be turn 19)" \
        in f.message


def test_one_us_loss_in_gt18_leaves_gt19_to_play(games):
    a = _audit(games, "aachen", "aachen_excessive_casualties_shortened")
    (f,) = [f for f in a.findings if f.code == "HF1701"]
    assert (f.step, f.turn, f.rule) == (34, "20", "14.1")
    assert "after scenario aachen's last turn 19 (turn 20 less 1 for the US units eliminated)" in f.message


def test_no_us_loss_the_game_runs_its_twenty_turns(games):
    """Near miss: the same log with the US unit's deletion left out (only the German one eliminated): GT 20 is
    still the scenario's, and its play draws no HF1701."""
    import dataclasses
    from validator.records.record import Removed
    if SHARED is None:
        pytest.skip("the Aachen module is in shared/vassal-logs")
    game = games["aachen"]
    rec = read_log(VLOGS / "aachen_excessive_casualties_shortened.vlog", SHARED / "aachen.vmod", game)
    steps = tuple(s for s in rec.steps if not any(isinstance(e, Removed) and e.counter.side == "us" for e in s.events))
    assert len(steps) == len(rec.steps) - 1
    a = audit(game, dataclasses.replace(rec, steps=steps), None)
    assert [f for f in a.findings if f.code == "HF1701"] == []


@pytest.mark.parametrize("log", ["meuse_chat_no_turn2_red_move", "meuse_chat_no_turn2_entry"])
def test_the_next_turn_begun_untold_is_said(games, log):
    a = _audit(games, "meuse", log)
    (f,) = [f for f in a.findings if f.step == 41 and f.code == "HF1901"]
    assert (f.turn, f.phase) == ("2", "red-movement")
    assert "read as turn 2 begun untold" in f.message


def test_a_turn_with_nothing_told(games):
    """The red team's hand record of a whole turn with no turn event, no start phase and no phase named, then
    turn 2's reinforcement: no error or warning (HF1401, HF1406 and HF1509 before)."""
    from validator.records.record_yaml import record_from_yaml
    path = ROOT / "tests" / "fixtures" / "records" / "meuse_untold_turn.yaml"
    a = audit(games["meuse"], record_from_yaml(path.read_text(), str(path)), "1")
    assert [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")] == []
    assert any("read as turn 2 begun untold" in f.message for f in a.findings if f.step == 38)


def test_a_dg_units_allowance_is_halved_and_said(games):
    a = _audit(games, "ardennes2", "ardennes2_dg_moves_half")
    (f,) = [f for f in a.findings if f.code == "HF1201"]
    assert f.units == ("3-4-8 Inf Rgt (316)",) and "(MA 4: 8 x 1/2 while DG, 3.4)" in f.message


def test_a_refused_retreat_before_combat_says_why(games):
    a = _audit(games, "ardennes2", "ardennes2_dg_must_hold")
    held = [f for f in a.findings if f.step == 16]
    assert [f.units for f in held] == [("4-5-8 Inf Rgt (27)",), ("1-2-8 Pio Bn (12)",)]
    assert all(f.message.endswith("(not a retreat before combat: a DG defender must Hold (3.2))") for f in held)
    assert {f.rule for f in held} == {"3.2"}                     # the rule that refuses the retreat, not the phase's
    b = _audit(games, "ardennes2", "ardennes2_retreat_without_overrun")
    assert all("(not a retreat before an overrun: no enemy next to it moved up this phase from a hex not next to "
               "it (3.3) and not DG (3.3))" in f.message and f.rule == "3.3" for f in b.findings if f.code == "HF1101")


def test_a_unit_joining_a_dg_stack_is_not_dg(games):
    """The seventeenth red team's false accusation: Holz (not DG, MA 10) joins Knittel's DG stack and goes on,
    10 MP in all: judged at its full allowance (HF1205 only: roads assumed), not at 5 (HF1201 before)."""
    a = _audit(games, "ardennes2", "ardennes2_dg_stack_joined")
    assert [(f.step, f.code) for f in a.findings if f.severity == "error" and "Holz" in f.message] == []
    assert any("Holz) (MA 10)" in f.message for f in a.findings if f.step == 7)


def test_the_rolls_are_tied_to_the_battles_their_values_fit(games):
    from validator.referee.replay import replay
    game = games["meuse"]
    rec = read_log(VLOGS / "meuse_rolls_first_other_order.vlog", VLOGS / "meuse.vmod", game)
    r = replay(game, rec, game.scenario("1"))
    assert [(b.step, b.roll.total, b.hex, b.result) for b in r.ledger.battles] == [
        (7, 3, "B1.17", "AR"), (8, 6, "B1.10", "DE")]
