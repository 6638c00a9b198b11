"""Real VASSAL 3.7.9 logs of Aachen and Crossing the Meuse recorded by the ninth and tenth red teams
(2 December) from the rulebooks and RULES.md, each with its SCRIPT and EXPECTED in tests/fixtures/vlogs.

- Aachen 14.0: a set-up pile dragged whole within its range, then each unit placed again, before the log names
  a phase: placements, not moves (an HF1301, an HF1204 and an HF1205 before). Aachen 4.1: a mobile unit's
  attacks in both combat phases (HF1516), a leg unit's in the Mobile Combat Phase (HF1515); 8.1.5 a retreat
  after a bombardment, and the bombarding side's advance (HF1101).
- Meuse 3.2, the turn read from the chat and the marker: where the players move the marker, a chat naming
  another phase does not move it (only where the marker stands at the turn's last phase may a chat begin the
  next turn ahead of it); "OK, Blue movement phase now" announces; "Red combat phase? Not yet" does not; "Turn
  3 Red Combat Phase" typed in turn 2's Red Movement Phase is turn 2's combat phase; a chat past the last
  turn ends the game (HF1701 for play after it, no victory hex taken); the track taken back from its wrap
  lets play go on."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
SHARED = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs"))
               if (p / "aachen.vmod").is_file()), None)
FOUND = {                                   # log -> (scenario, its errors and warnings (step, code))
    ("aachen", "aachen_setup_spread"): (None, []),
    ("aachen", "aachen_mobile_combat_attacks"): (None, [(8, "HF1516"), (25, "HF1515")]),
    ("aachen", "aachen_bombardment_advance"): (None, [(6, "HF1101")]),
    ("meuse", "meuse_chat_ahead_of_moved_marker"): ("1", [(12, "HF1102")]),
    ("meuse", "meuse_chat_ok_now"): ("1", []),
    ("meuse", "meuse_chat_turn_typo"): ("1", [(22, "HF1401")]),
    ("meuse", "meuse_chat_turn_ahead_of_marker"): ("1", [(9, "HF1401")]),
    ("meuse", "meuse_chat_game_end_s1"): ("1", [(8, "HF1701")]),
    ("meuse", "meuse_chat_game_end_s2"): ("2", [(6, "HF1701")]),
    ("meuse", "meuse_marker_round_and_back"): ("2", []),
    ("meuse", "meuse_chat_question"): ("1", []),
}


@pytest.fixture(scope="module")
def games():
    return {g: load_game(ROOT / "source" / g)[0] for g in ("aachen", "meuse")}


def _audit(games, game_name, log, scenario):
    module = VLOGS / "meuse.vmod" if game_name == "meuse" else (SHARED / "aachen.vmod" if SHARED else None)
    if module is None:
        pytest.skip("the Aachen module is in shared/vassal-logs")
    game = games[game_name]
    return audit(game, read_log(VLOGS / f"{log}.vlog", module, game), scenario)


@pytest.mark.parametrize("game_name, log", sorted(FOUND))
def test_what_each_log_breaks(games, game_name, log):
    scenario, found = FOUND[(game_name, log)]
    a = _audit(games, game_name, log, scenario)
    assert [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")] == found


@pytest.mark.parametrize("log, scenario, red", [("meuse_chat_game_end_s1", "1", 1), ("meuse_chat_game_end_s2", "2", 0)])
def test_the_chat_past_the_last_turn_ends_the_game(games, log, scenario, red):
    a = _audit(games, "meuse", log, scenario)
    assert (a.result["decided"], a.result["winner"], a.result["points"]["red"]) == (True, "blue", red)
