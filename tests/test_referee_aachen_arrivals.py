"""Aachen 15.0: reinforcements enter "at the beginning of each respective player's Movement Phase or Mobile
Movement Phase"; "Arriving units must expend the number of movement points required to enter the hex of
arrival. They may continue to move"; "Mobile units may arrive at the beginning of the Mobile Movement Phase
instead of the Movement Phase". With 5.5 (a mobile unit that moved in the Movement Phase may not move in the
Mobile Movement Phase), an entry is a move of that phase. The seeds' red team found both missed: the tree
did not say in which phases reinforcements arrive (`arrivals` on the phases now does)."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Where
from validator.positions.scenario_position import starting_position
from validator.records.record import GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def aachen():
    return load_game(ROOT / "source" / "aachen")[0]


def _audit(game, turn: str, phase: str, *steps) -> list[tuple]:
    """Steps: a phase id (the marker moved to it) or (unit, hex) (the unit's piece dragged there)."""
    pos = start = starting_position(game, game.scenario("aachen"))
    out = []
    for s in steps:
        if isinstance(s, str):
            out.append(Step(len(out) + 1, (TurnChanged(turn, s),)))
            continue
        c = next(c for c, _ in pos if c.unit == s[0])
        src = pos.where(c.piece)
        pos = pos.placed(c, Where(hex=s[1]))
        out.append(Step(len(out) + 1, (Moved(c, src, Where(hex=s[1])),)))
    a = audit(game, GameRecord("hand-built", None, None, start, turn, phase, tuple(out)), "aachen")
    return [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")]


def test_the_phases_in_which_reinforcements_arrive(aachen):
    assert [p.id for p in aachen.phases if p.arrivals] == [
        "us-movement", "us-mobile-movement", "german-movement", "german-mobile-movement"]


def test_a_german_reinforcement_in_the_us_movement_phase(aachen):
    """The GT 4 German 2-3-7 infantry (2204) dragged in during the US Movement Phase."""
    assert _audit(aachen, "4", "us-movement", ("de-inf-2-3-7", "2204")) == [(1, "HF1406")]


def test_the_same_reinforcement_in_the_german_movement_phase(aachen):
    """Near miss: the marker moved on to the German Movement Phase first."""
    phases = ["us-bombardment", "us-combat", "us-mobile-movement", "us-mobile-combat", "german-movement"]
    assert _audit(aachen, "4", "us-movement", *phases, ("de-inf-2-3-7", "2204")) == []


def test_a_mobile_reinforcement_may_not_move_again_in_the_mobile_phase(aachen):
    """The GT 6 German 6-4-12 panzer enters at 2105 in the Movement Phase, then moves in the Mobile Movement
    Phase (5.5)."""
    steps = [("de-pz-6-4-12", "2105"), "german-bombardment", "german-combat", "german-mobile-movement",
             ("de-pz-6-4-12", "2106")]
    assert _audit(aachen, "6", "german-movement", *steps) == [(5, "HF1105")]


def test_a_mobile_reinforcement_may_arrive_in_the_mobile_phase(aachen):
    """Near miss: it enters at the Mobile Movement Phase instead, and moves on."""
    steps = ["german-bombardment", "german-combat", "german-mobile-movement", ("de-pz-6-4-12", "2105"),
             ("de-pz-6-4-12", "2106")]
    assert _audit(aachen, "6", "german-movement", *steps) == []


def test_a_leg_reinforcement_may_not_arrive_in_the_mobile_phase(aachen):
    """15.0 "Mobile units may arrive at the beginning of the Mobile Movement Phase"; 4.1 "Only mobile units can
    move during this phase": the GT 6 4-5-8 engineer (leg) entering then (the ninth red team's miss on a real
    log). Near miss: the 6-4-12 panzer above."""
    steps = ["german-bombardment", "german-combat", "german-mobile-movement", ("de-eng-4-5-8", "2105")]
    assert _audit(aachen, "6", "german-movement", *steps) == [(4, "HF1406")]
