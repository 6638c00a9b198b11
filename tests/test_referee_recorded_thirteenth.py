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
"""
from __future__ import annotations

import pytest

from tests.recorded_logs import audit_recorded, load_games


# (game, log) -> [(step, code, hexes)] of its errors and warnings
FOUND = {
    ("ardennes2", "ardennes2_one_step_unit_eliminated"): [],
    ("ardennes2", "ardennes2_us_half_reconciliation"): [(7, "HF1101", ("B29.48", "B28.47"))],
    ("ardennes2", "ardennes2_one_step_unit_eliminated_on_a1"): [(9, "HF1501", ("B30.48", "B29.49"))],
}


@pytest.fixture(scope="module")
def games():
    return load_games()


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    a = audit_recorded(games, game_name, log)
    assert [(f.step, f.code, f.hexes) for f in a.findings if f.severity in ("error", "warning")] == \
        FOUND[(game_name, log)]


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
