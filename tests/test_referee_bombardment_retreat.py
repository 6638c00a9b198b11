"""Aachen 8.1.5: "Conduct retreat after bombardment using the procedures outlined in 8.3" (5.2: "Advance and
retreat may take place during a Bombardment Phase"); 8.1: "Friendly ground units do not participate in a
bombardment in any way, including advance after combat". Declared as the Bombardment Phases' `retreats`: after a
roll in one, the bombarded side's drags are read as a retreat (not judged: the bombardment's strengths are the
support fire markers', which the tree does not print), the bombarding side's are moves out of sequence. The
seeds' red team found the retreat accused (HF1101 at each drag)."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.scenario_position import starting_position
from validator.records.record import DieRoll, GameRecord, Moved, Step, TurnChanged
from validator.positions.position import Where
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
US, DE = "us-1id-inf-3-3-7#7", "de-inf-1-1-7#3"      # 1925 and 1823 at the set-up


@pytest.fixture(scope="module")
def aachen():
    return load_game(ROOT / "source" / "aachen")[0]


def _audit(game, *steps) -> list[tuple]:
    """From the US Movement Phase of GT 1: the US 3-3-7 to 1824, next to the German 1-1-7 in 1823, the marker to
    the US Bombardment Phase, a roll, then `steps`: (piece, hex) drags."""
    pos = start = starting_position(game, game.scenario("aachen"))
    out = []

    def drag(piece: str, to: str) -> None:
        nonlocal pos
        c = pos.counter(piece)
        src = pos.where(piece)
        pos = pos.placed(c, Where(hex=to))
        out.append((Moved(c, src, Where(hex=to)),))

    drag(US, "1824")
    out.append((TurnChanged("1", "us-bombardment"),))
    out.append((DieRoll("1d6", (1,), 1),))
    for piece, to in steps:
        drag(piece, to)
    record = GameRecord("hand-built", None, None, start, "1", "us-movement",
                        tuple(Step(i + 1, e) for i, e in enumerate(out)))
    a = audit(game, record, "aachen")
    return [(f.step, f.code, f.hexes) for f in a.findings if f.severity in ("error", "warning")]


def test_the_bombardment_phases_declare_their_retreats(aachen):
    assert [(p.id, p.retreats_rule) for p in aachen.phases if p.retreats_rule] == [
        ("us-bombardment", "8.1.5"), ("german-bombardment", "8.1.5")]
    assert not any(p.combat for p in aachen.phases if p.retreats_rule)


def test_the_bombarded_unit_retreats_two_hexes(aachen):
    assert _audit(aachen, (DE, "1822"), (DE, "1821")) == []


def test_the_bombarding_side_does_not_advance(aachen):
    """Near miss: the same retreat, then the US 3-3-7 into the vacated hex (8.1: no advance after a bombardment)."""
    assert _audit(aachen, (DE, "1822"), (DE, "1821"), (US, "1823")) == [(6, "HF1101", ("1824", "1823"))]
