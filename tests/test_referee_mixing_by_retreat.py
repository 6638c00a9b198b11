"""Bulge 19.1.5: "American and British units may end up stacked together if forced to by a retreat, but must
separate at the first opportunity" (10.2 keeps them apart otherwise), declared as the mixing rule's
`by_retreat`. A mix a retreat made is not judged until the end of the Allied Movement Phase, their first
opportunity to part (the red team's false accusation: HF1311 at the end of the German Combat Phase).
Near misses that must fire: the mix still there when the Allied Movement Phase ends, and a mix made by a
move."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Counter, Position, Where
from validator.records.record import DieRoll, GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]

# German 79 VGD and 9 VGD regiments next to the US 1/16 in KK10; the UK 33rd Tank Brigade in KK12.
G1, G2 = Counter("g1", "de-79vgd-rgt", "german"), Counter("g2", "de-9vgd-rgt", "german")
US, UK = Counter("a1", "us-1-16", "allied"), Counter("uk", "uk-33-tank-bde", "allied")
START = Position.of([(G1, Where(hex="LL10")), (G2, Where(hex="KK9")), (US, Where(hex="KK10")), (UK, Where(hex="KK12"))])


@pytest.fixture(scope="module")
def bulge():
    return load_game(ROOT / "source" / "bulge")[0]


def _audit(game, phase: str, *events):
    steps = tuple(Step(i + 1, (e,)) for i, e in enumerate(events))
    return audit(game, GameRecord("hand-built", None, None, START, "17 PM", phase, steps), "45")


def _mixing(a) -> list[tuple]:
    return [(f.step, f.severity, f.hexes, f.rule) for f in a.findings if f.code in ("HF1311", "HF1312")]


def _drag(c, a, b):
    return Moved(c, Where(hex=a), Where(hex=b))


RETREAT = (DieRoll("1d6", (3,), 3), _drag(US, "KK10", "KK11"), _drag(US, "KK11", "KK12"))


def test_the_tree_declares_the_exception(bulge):
    (mx,) = [m for m in bulge.rules.mixing_rules if m.kind == "nationalities-apart"]
    assert (mx.rule, mx.by_retreat) == ("10.2", "19.1.5")


def test_a_retreat_onto_a_british_unit_is_not_judged_before_the_allies_can_move(bulge):
    a = _audit(bulge, "german-combat", *RETREAT, TurnChanged("17 PM", "german-engineer"),
               TurnChanged("17 PM", "allied-supply-fort"), TurnChanged("17 PM", "allied-movement"),
               _drag(US, "KK12", "KK11"), TurnChanged("17 PM", "allied-combat"))
    assert _mixing(a) == []


def test_the_mix_must_part_in_the_allied_movement_phase(bulge):
    """Near miss: the same retreat, the two still together when the Allied Movement Phase ends."""
    a = _audit(bulge, "german-combat", *RETREAT, TurnChanged("17 PM", "german-engineer"),
               TurnChanged("17 PM", "allied-supply-fort"), TurnChanged("17 PM", "allied-movement"),
               TurnChanged("17 PM", "allied-combat"))
    assert _mixing(a) == [(7, "error", ("KK12",), "10.2")]


def test_a_mix_made_by_a_move_is_an_error(bulge):
    """Near miss: the US unit moved onto the British one in the Allied Movement Phase."""
    a = _audit(bulge, "allied-movement", _drag(US, "KK10", "KK11"), _drag(US, "KK11", "KK12"),
               TurnChanged("17 PM", "allied-combat"))
    assert _mixing(a) == [(3, "error", ("KK12",), "10.2")]
