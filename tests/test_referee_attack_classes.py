"""A combat phase that only some movement classes attack in (`sequence_of_play[].attackers`). Aachen 4.1:
"Mobile Combat Phase: Only mobile units can attack this phase." The seeds' red team found a leg unit's attack
in it missed. Near misses: the same battle in the Combat Phase; a mobile unit attacking in the Mobile Combat
Phase."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Counter, Position, Where
from validator.positions.scenario_position import starting_position
from validator.records.record import DieRoll, GameRecord, Moved, Removed, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
LEG, MOBILE, DE = "us-1id-inf-3-3-7#7", "us-3ad-mech-2-2-12#1", "de-inf-1-1-7#3"   # DE in 1823 at the set-up
PHASES = ("us-bombardment", "us-combat", "us-mobile-movement", "us-mobile-combat")


@pytest.fixture(scope="module")
def aachen():
    return load_game(ROOT / "source" / "aachen")[0]


def _attack(game, attacker: str, to: str, phase: str) -> list[tuple]:
    """GT 1: `attacker` dragged to `to`, next to the German 1-1-7 in 1823, the marker on to `phase`, a roll of 1
    and the 1-1-7 removed."""
    pos = start = starting_position(game, game.scenario("aachen"))
    c = pos.counter(attacker)
    events = [Moved(c, pos.where(attacker), Where(hex=to))]
    events += [TurnChanged("1", p) for p in PHASES[:PHASES.index(phase) + 1]]
    events += [DieRoll("1d6", (1,), 1), Removed(pos.counter(DE), pos.where(DE))]
    record = GameRecord("hand-built", None, None, start, "1", "us-movement",
                        tuple(Step(i + 1, (e,)) for i, e in enumerate(events)))
    a = audit(game, record, "aachen")
    return [(f.code, f.step, f.rule, f.hexes, f.units, f.message) for f in a.findings if f.code in ("HF1515",)]


def test_the_mobile_combat_phases_name_their_attackers(aachen):
    assert [(p.id, p.attackers, p.attackers_rule) for p in aachen.phases if p.attackers] == [
        ("us-mobile-combat", ("mobile",), "4.1"), ("german-mobile-combat", ("mobile",), "4.1")]


def test_a_leg_unit_attacks_in_the_mobile_combat_phase(aachen):
    assert _attack(aachen, LEG, "1824", "us-mobile-combat") == [
        ("HF1515", 6, "4.1", ("1823",), ("3-3-7 infantry",),
         "3-3-7 infantry (leg) attacks 1823 in the US Mobile Combat Phase (roll 1 at step 6), in which only mobile "
         "units attack (the roll is tied to the battle against 1823: certain, the log shows losses or a retreat in "
         "1823 after the roll)")]


def test_the_same_attack_in_the_combat_phase(aachen):
    assert _attack(aachen, LEG, "1824", "us-combat") == []


def test_a_mobile_unit_attacks_in_the_mobile_combat_phase(aachen):
    assert _attack(aachen, MOBILE, "1824", "us-mobile-combat") == []


# 4.1 "Mobile units that participated in an attack during the preceding Combat Phase cannot conduct attacks this
# phase" (`not_if_attacked_in`): the red team's real log had it as a tree gap (only text)
def _twice_in_a_turn(game, first_roll: bool) -> list[tuple]:
    m, g = Counter("m", "us-3ad-mech-2-2-12", "us"), Counter("g", "de-inf-1-1-7", "german")
    start = Position.of([(m, Where(hex="2125")), (g, Where(hex="2124"))])   # the mech alone next to the German
    events = [TurnChanged("1", "us-combat")] + ([DieRoll("1d6", (3,), 3)] if first_roll else []) + [
        TurnChanged("1", "us-mobile-movement"), TurnChanged("1", "us-mobile-combat"), DieRoll("1d6", (3,), 3)]
    record = GameRecord("hand-built", None, None, start, "1", "us-bombardment",
                        tuple(Step(i + 1, (e,)) for i, e in enumerate(events)))
    a = audit(game, record, "aachen")
    return [(f.code, f.step, f.rule, f.hexes, f.message) for f in a.findings if f.code in ("HF1503", "HF1516")]


def test_a_mobile_unit_attacks_in_both_combat_phases(aachen):
    assert _twice_in_a_turn(aachen, True) == [
        ("HF1516", 5, "4.1", ("2124",),
         "2-2-12 mechanized infantry attacked at step 2 in the US Combat Phase and attacks 2124 in the US Mobile "
         "Combat Phase (roll 3 at step 5) (the roll is tied to the battle against 2124: certain, 2124 is the only "
         "hex of a defending unit next to a unit of US)")]


def test_a_mobile_unit_attacks_in_the_mobile_combat_phase_only(aachen):
    assert _twice_in_a_turn(aachen, False) == []
