"""Real VASSAL 3.7.9 logs recorded in 2 December's fourth session from the rulebooks, each with its SCRIPT and
EXPECTED in tests/fixtures/vlogs.

- Ardennes II 1.2: "A unit with only one step available or remaining is sent to the Dead Pile upon taking a step
  loss", and which units are single-step only the countersheet shows (counters.yaml default_steps_unsure). A
  full-strength unit removed for one step lost (A1D1) may have been one: a note saying so, not a violation (a
  false HF1502 before, "fits only if row 4's missing cell is not under 7:1+"). Near miss: the same battle on a
  roll that gives the defender no loss (A1): the removal is HF1501 however many steps the unit had.
- Ardennes II 2.1: each player turn has a "US Half Reconciliation" phase; the chat naming it in the US turn is the
  US turn's (before: the German turn's of the next turn, so turn 2 began there and the German moves of the real
  turn 2 were HF1101 "in the US Supply", false). Near miss: a US move in that phase, which has no movement, is
  HF1101, located in turn 1.
- Ardennes II 1.2, "When starting a Phase adjacent to any enemy unit ... The unit cannot Exploit or Overrun": A/9,
  next to 751 since the set-up, moves in the US Exploitation Phase: HF1108 (missed before). Near miss: 5 Fus, no
  enemy next to it, moves in the same phase.
- Meuse 10.1 across a chain: a game in two logs (meuse_victory_way_not_shown split where VASSAL saved it). The
  second log's victory hexes start as the first log's replay left them, open ones included: "Red 8-9 VP", no
  winner certain, as in the one log (before: the chain read only the drags' ends, "Blue wins: Red 7 VP").
"""
from __future__ import annotations

import pytest

from tests.recorded_logs import audit_recorded, load_games, severe


# (game, log) -> [(step, code, hexes)] of its errors and warnings
FOUND = {
    ("ardennes2", "ardennes2_one_step_unit_eliminated"): [],
    ("ardennes2", "ardennes2_us_half_reconciliation"): [(7, "HF1101", ("B29.48", "B28.47"))],
    ("ardennes2", "ardennes2_exploit_from_enemy_adjacent"): [(11, "HF1108", ("B27.49", "B26.48", "B28.49"))],
    ("ardennes2", "ardennes2_exploit_from_enemy_adjacent_near"): [],
    ("ardennes2", "ardennes2_one_step_unit_eliminated_on_a1"): [(9, "HF1501", ("B30.48", "B29.49"))],
}


@pytest.fixture(scope="module")
def games():
    return load_games()


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    assert severe(games, game_name, log) == FOUND[(game_name, log)]


def test_a_unit_removed_for_one_step_may_have_had_one(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_one_step_unit_eliminated")
    (note,) = [f for f in a.findings if f.code == "HF1590"]
    assert note.step == 8 and note.hexes[0] == "B30.48"
    assert "fits only if a unit removed had one step" in note.message
    assert "default_steps_unsure" in note.message


def test_a_unit_removed_where_the_result_takes_no_step_is_still_a_violation(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_one_step_unit_eliminated_on_a1")
    (f,) = [f for f in a.findings if f.code == "HF1501"]
    assert f.rule == "3.2" and "defender: needs no loss, shows 1 of 1 unit(s) removed" in f.message
    assert "one step" not in f.message


def test_a_sure_unit_removed_for_one_step_is_not_excused():
    """The one-step reading is for units whose steps the tree is unsure of only: a unit whose `steps` is printed,
    or a tree without default_steps_unsure, keeps its steps."""
    from validator.referee.combat import SideOutcome, side_fit
    from validator.source.model import SideEffect
    one = [(SideEffect(steps="1"), None)]
    sure = SideOutcome(("p",), 2, 2, 1, 0)
    unsure = SideOutcome(("p",), 2, 2, 1, 0, unsure_removed=(1,))
    two = SideOutcome(("p", "q"), 4, 4, 2, 0, unsure_removed=(1, 1))
    assert side_fit(one, sure)[0] == "no"
    assert side_fit(one, unsure)[0] == "unknown"
    assert side_fit(one, two)[0] == "no"            # two units removed: two steps lost at the least


def test_a_phase_named_in_both_player_turns_is_the_current_turns(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_us_half_reconciliation")
    (f,) = [f for f in a.findings if f.code == "HF1101"]
    assert (f.turn, f.side, f.phase) == ("1", "allied", "us-half")
    began = [f.step for f in a.findings if "the chat begins turn 2" in f.message]
    assert began == [10]                               # the German Movement & Barrage of turn 2, not step 6


def test_a_chained_log_keeps_the_victory_hexes_the_log_before_left_open(games):
    from compiler.vassal.vlog import read_log
    from validator.referee.audit import audit
    from validator.referee.chain import Previous, ends
    from tests.recorded_logs import VLOGS
    game, module = games["meuse"], VLOGS / "meuse.vmod"
    first, second = (read_log(VLOGS / f"meuse_victory_chain_{n}.vlog", module, game) for n in (1, 2))
    a = audit(game, second, "2", Previous("meuse_victory_chain_1.vlog", ends(first), first))
    whole = audit(game, read_log(VLOGS / "meuse_victory_way_not_shown.vlog", module, game), "2")
    assert a.result["winner"] is None and a.result["points_range"] == whole.result["points_range"]
    assert "B2.17 is Red's if 1st Reconnaissance Battalion's drag at step 1 or 17 of meuse_victory_chain_1.vlog" \
        in a.result["text"]
    assert not [f for f in a.findings if f.severity in ("error", "warning")]


def test_a_unit_that_began_the_exploitation_next_to_an_enemy_may_not_move(games):
    a = audit_recorded(games, "ardennes2", "ardennes2_exploit_from_enemy_adjacent")
    (f,) = [f for f in a.findings if f.code == "HF1108"]
    assert (f.rule, f.turn, f.phase, f.side) == ("1.2", "1", "us-exploit", "allied")
    assert f.units == ("3-5-10 Inf Bn(+) (A/9)", "2-3-8 Inf Rgt (751)")
