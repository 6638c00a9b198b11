"""Real VASSAL 3.7.9 logs and hand-written records of the session of 3 December (evening), each log with its SCRIPT
and EXPECTED in tests/fixtures/vlogs, each record in tests/fixtures/records.

- Bulge 5.2.4 ("Combat results for each battle are applied immediately after the battle is resolved"), where the
  combat tables do not say how retreats go: a unit that no battle of the roll can take in (no enemy unit next to
  it, 9.5 letting a battle take in several hexes) moving after the roll in the German Combat Phase the turn marker
  shows is HF1508 (before: "read as a retreat or an advance after combat", a note). Near misses: the defender
  retreating and the attacker advancing; the same move with no phase told (it may be the German Movement Phase's);
  a unit next to another Allied unit (it may have attacked it in the same battle).
- Meuse, chat as players write it (the fifteenth red team): a line naming only the next turn ("Turn 2", "GT 2",
  "Day 1 PM", "Turn 2 begins") begins it with its first phase, 3.2 (before: the turn's moves HF1101, its
  reinforcement HF1401 and HF1406, all false); "we finish turn 3 tomorrow" is a remark. "Red exploits", "Red
  exploiting", "T1 Red exploitation", "Red mechanized exploitation" name the Red Exploitation Phase (before: the
  exploitation move charged to the movement phase, a false HF1201; and a leg unit moving after such a line was
  missed, HF1102 now). "end of Red movement" ends the phase as "... done" does (a false HF1101 before).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.recorded_logs import ROOT, audit_recorded, load_games, severe
from validator.records.record_yaml import record_from_yaml
from validator.referee.audit import audit

RECORDS = ROOT / "tests" / "fixtures" / "records"

FOUND = {
    ("bulge", "bulge_combat_bystander_moves"): [
        (11, "HF1508", ("UU9", "UU8", "QQ5"), ("Panzer Brigade 150",))],
    ("bulge", "bulge_combat_defender_retreats"): [],
    ("meuse", "meuse_chat_turn_alone"): [],
    ("meuse", "meuse_chat_turn_alone_blue_moves"): [
        (6, "HF1101", ("A10.09", "A11.09"), ("2nd Light Mechanised Tank Battalion",))],
    ("meuse", "meuse_chat_red_exploits"): [],
    ("meuse", "meuse_chat_red_exploits_leg"): [(4, "HF1102", ("B7.13", "B6.13"), ("12th Rifle Regiment",))],
    ("meuse", "meuse_chat_end_of_movement"): [],
}


@pytest.fixture(scope="module")
def games():
    return load_games()


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    assert severe(games, game_name, log, units=True) == FOUND[(game_name, log)]


def test_a_bystander_s_move_after_a_roll_names_the_battle_it_was_not_in(games):
    a = audit_recorded(games, "bulge", "bulge_combat_bystander_moves")
    (f,) = [f for f in a.findings if f.code == "HF1508"]
    assert f.message.startswith("Panzer Brigade 150 in UU9 moves UU9 -> UU8 after the roll, though it was not in the "
                                "battle against QQ5 (the roll is tied to the battle against QQ5: certain")
    assert f.side == "german" and f.phase is not None


def _record_findings(games, name: str) -> list:
    rec = record_from_yaml((RECORDS / f"{name}.yaml").read_text(), f"{name}.yaml")
    a = audit(games["bulge"], rec)
    return [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize("name", ["bulge_bystander_phase_untold", "bulge_bystander_next_to_enemy"])
def test_a_move_after_a_roll_that_may_be_legal_is_no_error(games, name):
    assert _record_findings(games, name) == []
