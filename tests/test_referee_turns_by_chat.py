"""The turn a game is in, from real VASSAL 3.7.9 logs of Crossing the Meuse (the fifth red team's, 2 December,
from RULES.md: each log's SCRIPT and EXPECTED are in tests/fixtures/vlogs).

- 3.2: after Blue's Exploitation Phase comes the next turn's Red Movement Phase. Where the players tell the
  phases only in the chat ("Turn 2 Red Movement Phase", "Red Movement phase, GT 2", or no turn at all), that
  line begins the next turn: before, the audit stayed in turn 1 and accused every later move and entry (48
  errors on three turns). The same three turns told by the marker and by the chat give the same five
  violations, at the same plays.
- A chat naming the next turn before the marker catches up; the marker then moving to the phase the chat named
  ends no phase.
- 12.2 (turns 1 to 8): VASSAL's turn track goes round from Turn 8 to Turn 1; that is the game's end, not turn 1
  again: the standing is decided, and play after it is HF1701 and takes no hex."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
FIVE_CHAT = [(23, "HF1201"), (25, "HF1401"), (43, "HF1201"), (50, "HF1204"), (62, "HF1301")]
FOUND = {
    "meuse_chat_next_turn": [],
    "meuse_chat_next_turn_gt": [],
    "meuse_chat_ahead_of_marker": [],
    "meuse_chat_three_turns": FIVE_CHAT,
    "meuse_chat_three_turns_unnumbered": FIVE_CHAT,
    "meuse_marker_three_turns": [(s - 1, c) for s, c in FIVE_CHAT],     # the chat log has one line more first
    "meuse_marker_goes_round": [],
    "meuse_play_after_marker_goes_round": [(59, "HF1701")],
}


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _audit(meuse, name):
    return audit(meuse, read_log(VLOGS / f"{name}.vlog", VLOGS / "meuse.vmod", meuse), "2")


@pytest.mark.parametrize("name", sorted(FOUND))
def test_what_each_log_breaks(meuse, name):
    a = _audit(meuse, name)
    assert [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")] == FOUND[name]


def test_the_chat_begins_turn_2(meuse):
    a = _audit(meuse, "meuse_chat_next_turn")
    assert a.result["text"].startswith("not decided by the log (it ends in turn 2;")
    assert any("the chat begins turn 2 (Red Movement Phase)" in x for c in a.coverage["steps"] if c["step"] == 10
               for x in c["reasons"])


def test_the_marker_going_round_ends_the_game(meuse):
    for name in ("meuse_marker_goes_round", "meuse_play_after_marker_goes_round"):
        a = _audit(meuse, name)
        assert (a.result["decided"], a.result["winner"], a.result["points"]["red"]) == (True, "blue", 2), name
    (f,) = [f for f in _audit(meuse, "meuse_play_after_marker_goes_round").findings if f.code == "HF1701"]
    assert "after the turn marker went round at step 58 (the end of the turn track)" in f.message
