"""Logs that are not a whole game from its set-up: a game played over several logs (by e-mail, `--chain`),
each saved where the last stopped. Three false accusations the second red team found on real VASSAL 3.7.9
logs, each with a near miss that must still fire:
- a log that begins in turn 1 after a phase in which units move is not the set-up (HF1007, a note; HF1003
  only for a log that begins before any such phase);
- a log that ends at a combat roll does not show its result (HF1590, a note; HF1501 where the log goes on
  into the next phase with no result);
- a log that begins in a combat phase may settle a roll made before it (its first losses and drags are
  notes, not HF1101; in a movement phase they stay HF1101)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.vassal.vlog import read_log
from validator.positions.position import Counter, Position, Where
from validator.positions.scenario_position import starting_position
from validator.records.record import DieRoll, GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.referee.chain import Previous, ends
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
VLOGS = ROOT / "tests" / "fixtures" / "vlogs"
VMOD = VLOGS / "meuse.vmod"


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _log(meuse, name):
    return read_log(VLOGS / f"{name}.vlog", VMOD, meuse)


def _judged(a) -> list[tuple]:
    return [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")]


def _codes(a, *codes) -> list[tuple]:
    return [(f.step, f.code, f.severity) for f in a.findings if f.code in codes]


def test_a_log_begun_after_red_moved_is_not_compared_with_the_set_up(meuse):
    a = audit(meuse, _log(meuse, "meuse_midturn1_start"), "1")
    assert _judged(a) == []
    (f,) = [f for f in a.findings if f.code == "HF1007"]
    assert f.message == ("the log begins in the Red Combat Phase of turn 1, after units could move, not at scenario "
                         "1's set-up (turn 1): the start position is not compared with it")


def test_a_log_begun_in_the_first_phase_is_compared_with_the_set_up(meuse):
    """Near miss: a log that begins in turn 1's Red Movement Phase is compared with the set-up; a Red unit off
    its hex by more than its allowance takes it is HF1003 (12/4, MA 4, from B8.13 to B2.13), one its
    allowance may have taken there before logging began is a warning (Tk 2/1 to B2.09, 8 MP by the road: legal
    only if the log began mid-phase), and a Blue unit off its hex is HF1003 (Blue does not move in that phase)."""
    pos = starting_position(meuse, meuse.scenario("1"))
    def moved(unit, h):
        return next(c for c, _ in pos if c.unit == unit), Where(hex=h)
    start = pos
    for unit, h in (("red-4rd-12", "B2.13"), ("red-1ad-2tk", "B2.09"), ("blue-3id-8", "A14.03")):
        start = start.placed(*moved(unit, h))
    rec = GameRecord("hand-built", None, None, start, "1", "red-movement", ())
    got = sorted((f.severity, f.hexes) for f in audit(meuse, rec, "1").findings if f.code == "HF1003")
    assert got == [("error", ("A14.03",)), ("error", ("B2.13",)), ("warning", ("B2.09",))]


def test_a_log_that_ends_at_the_roll_shows_no_result_and_is_not_accused(meuse):
    a = audit(meuse, _log(meuse, "meuse_chain_combat_a"), "1")
    assert _judged(a) == []
    (f,) = [f for f in a.findings if f.code == "HF1590"]
    assert (f.step, f.message) == (5, "combat roll 3: the log ends at the roll, so its result is not in it (a game "
                                      "played over several logs applies it in the next)")


def test_a_roll_with_no_result_before_the_next_phase_is_an_error(meuse):
    """Near miss: the same log with the marker moved on to the Red Exploitation Phase after the roll: 5:1 on
    a 3 is D1/DR, and nothing was applied."""
    rec = _log(meuse, "meuse_chain_combat_a")
    rec = GameRecord(rec.source, rec.module, rec.engine, rec.start, rec.start_turn, rec.start_phase,
                     rec.steps + (Step(6, (TurnChanged("1", "red-exploitation"),)),))
    assert (5, "HF1501") in _judged(audit(meuse, rec, "1"))


def test_the_next_log_settles_the_roll_without_an_accusation(meuse):
    a, b = _log(meuse, "meuse_chain_combat_a"), _log(meuse, "meuse_chain_combat_b")
    alone, chained = audit(meuse, b, "1"), audit(meuse, b, "1", Previous("a.vlog", ends(a), a))
    for x, why in ((alone, "after a roll made before the log began (its battle is not in this log)"),
                   (chained, "after the roll in the log before, whose battle the referee could not judge")):
        assert _judged(x) == []
        reasons = {s["step"]: " ".join(s["reasons"]) for s in x.coverage["steps"]}
        assert why in reasons[2]


def test_a_log_begun_in_a_movement_phase_may_not_move_the_other_side(meuse):
    """Near miss: a Blue unit dragged in a log that begins in turn 3's Red Movement Phase is HF1101."""
    blue = Counter("b7", "blue-3id-7", "blue")
    start = Position.of([(blue, Where(hex="B14.14")), (Counter("r1", "red-1ad-1tk", "red"), Where(hex="B13.14"))])
    rec = GameRecord("hand-built", None, None, start, "3", "red-movement",
                     (Step(1, (Moved(blue, Where(hex="B14.14"), Where(hex="B15.14")),)),))
    assert _judged(audit(meuse, rec, "1")) == [(1, "HF1101")]


# -- a phase over two logs (--chain): what a referee keeps on paper goes on into the next log --

def _chained(meuse, a: str, b: str):
    first, second = _log(meuse, a), _log(meuse, b)
    return audit(meuse, second, "1", Previous(f"{a}.vlog", ends(first), first))


def test_a_movement_phase_over_two_logs_keeps_what_each_unit_spent(meuse):
    """Log a: Tk 2/1 stops in B1.10's ZOC at B2.09 (6.2), 12/4 spends 1 MP; log b, the same phase: Tk 2/1
    dragged on (HF1204), 12/4 spends 4 more (5 of 4: HF1201)."""
    a = _chained(meuse, "meuse_chain_midphase_a", "meuse_chain_midphase_b")
    assert _judged(a) == [(2, "HF1204"), (3, "HF1201")]
    (f,) = [f for f in a.findings if f.code == "HF1201"]
    assert f.message.startswith("12th Rifle Regiment (MA 4) moves B8.13 -> B7.14 -> B4.13 in one phase")


def test_alone_the_second_log_cannot_know_it(meuse):
    """Near miss: log b alone begins mid-phase, its units off their set-up hexes where their allowance may
    have taken them (HF1003 warnings, no error): nothing holds them to what log a spent."""
    a = audit(meuse, _log(meuse, "meuse_chain_midphase_b"), "1")
    assert _judged(a) == [(0, "HF1003")] * 3
    assert [f.severity for f in a.findings if f.code == "HF1003"] == ["warning"] * 3


def test_a_hex_attacked_in_each_of_two_logs_of_one_phase(meuse):
    a = _chained(meuse, "meuse_chain_twice_a", "meuse_chain_twice_b")
    assert _judged(a) == [(2, "HF1504")]
    (f,) = [f for f in a.findings if f.code == "HF1504"]
    assert "after the roll in the log before" in f.message


def test_logs_split_at_a_phase_change_carry_nothing(meuse):
    """Near miss: the game saved as the Red Combat Phase began; log b's battles are its own."""
    assert _judged(_chained(meuse, "meuse_chain_at_combat_a", "meuse_chain_at_combat_b")) == []
