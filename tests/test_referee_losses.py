"""HF1514: a unit's steps changed where no battle changes them. In Crossing the Meuse steps are lost, and
units eliminated, only by the combat results (8.6; `rules.combat.steps_by_combat_only`), and no rule restores
a step: a removal or a flip in a phase without combat, the phase recorded, is an error. Where the phase is
inferred, the tree does not say so (Aachen), or a combat phase has no roll yet, a note."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Where
from validator.positions.scenario_position import starting_position
from validator.records.record import DieRoll, GameRecord, Removed, StateChanged, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _piece(pos, unit):
    return next(c for c, _ in pos if c.unit == unit)


def _removed(pos, unit):
    c = _piece(pos, unit)
    return Removed(c, pos.where(c.piece))


def _flipped(pos, unit, state):
    c = _piece(pos, unit)
    return StateChanged(c.with_state(state), c.state, pos.where(c.piece))


def _audit(game, scenario, events, phase="red-movement", start=None):
    pos = start or starting_position(game, game.scenario(scenario))
    steps = ([Step(1, (TurnChanged("1", phase),))] if phase else []) + \
        [Step(i, (e,)) for i, e in enumerate(events, 2 if phase else 1)]
    return audit(game, GameRecord("hand-built", None, None, pos, "1", phase, tuple(steps)), scenario)


def _hf1514(a):
    return [(f.step, f.code, f.severity, f.hexes, f.units, f.rule) for f in a.findings if f.code == "HF1514"]


def _notes(a):
    return [f.message for f in a.findings if f.code == "HF1901"]


def test_a_unit_removed_in_a_movement_phase(meuse):
    pos = starting_position(meuse, meuse.scenario("1"))
    a = _audit(meuse, "1", [_removed(pos, "red-4rd-10")])
    assert _hf1514(a) == [(2, "HF1514", "error", ("B8.16",), ("10th Rifle Regiment",), "8.6")]
    (f,) = [f for f in a.findings if f.code == "HF1514"]
    assert f.message == ("10th Rifle Regiment is eliminated at B8.16 in the Red Movement Phase of turn 1, which has "
                         "no combat: steps are lost and regained, and units eliminated, only by combat results")


def test_a_reduced_unit_flipped_back_to_full(meuse):
    pos = starting_position(meuse, meuse.scenario("1"))
    reduced = pos.changed(_piece(pos, "red-4rd-10").with_state({"reduced"}))
    a = _audit(meuse, "1", [_flipped(reduced, "red-4rd-10", set())], start=reduced)
    assert [x[:3] for x in _hf1514(a)] == [(2, "HF1514", "error")]
    assert "10th Rifle Regiment regains a step at B8.16" in [f for f in a.findings if f.code == "HF1514"][0].message


def test_a_loss_after_a_roll_in_the_combat_phase_is_the_combat_rules(meuse):
    """Near miss: the flip follows a roll in the Red Combat Phase: its battle judges it, not this rule."""
    pos = starting_position(meuse, meuse.scenario("1"))
    roll = DieRoll("1d6", (4,), 4, 1, 6)
    a = _audit(meuse, "1", [roll, _flipped(pos, "blue-3id-8", {"reduced"})], phase="red-combat")
    assert _hf1514(a) == [] and not any("before any roll" in n for n in _notes(a))


def test_a_loss_in_a_combat_phase_before_any_roll_is_a_note(meuse):
    pos = starting_position(meuse, meuse.scenario("1"))
    a = _audit(meuse, "1", [_flipped(pos, "blue-3id-8", {"reduced"})], phase="red-combat")
    assert _hf1514(a) == []
    assert _notes(a) == ["partly verified: 8th Infantry Regiment loses a step at A15.03 in the Red Combat Phase "
                         "before any roll of it: a battle whose die is not in the log is not judged"]


def test_a_removal_where_the_phase_is_inferred_is_a_note(meuse):
    pos = starting_position(meuse, meuse.scenario("1"))
    a = _audit(meuse, "1", [_removed(pos, "red-4rd-10")], phase=None)
    assert _hf1514(a) == []
    assert any("10th Rifle Regiment is eliminated at B8.16" in n and "the phase is inferred" in n for n in _notes(a))


def test_where_the_tree_does_not_say_only_combat_changes_steps_a_note():
    aachen = load_game(ROOT / "source" / "aachen")[0]
    pos = starting_position(aachen, aachen.scenarios[0])
    unit = next(c for c, w in pos if c.kind == "unit" and w.hex)
    a = _audit(aachen, aachen.scenarios[0].id, [Removed(unit, pos.where(unit.piece))], phase=aachen.phases[0].id)
    assert _hf1514(a) == []
    assert any("the tree does not say that only combat results change steps" in n for n in _notes(a))
