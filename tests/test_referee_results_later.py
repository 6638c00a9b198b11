"""Every battle rolled first, the results applied after (RULES.md 8.3, 8.6, 8.7 ask each battle's roll and
result, not that one battle's result comes before the next roll): each roll takes its own battle's losses,
retreats and advances from the events after the last roll (`battles.results_after`). Before, the first rolls
were judged as showing no result (HF1501) and the last as taking every other battle's units (HF1508, HF1509):
four false errors on meuse_combat_legal.vlog's three battles reordered so. Near miss: the same log with battle
1's defender retreating one hex of its two, still caught, at its step, against its own battle."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.records.record_yaml import record_from_yaml
from validator.referee.audit import audit
from validator.referee.replay import replay
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "fixtures" / "records"


@pytest.fixture(scope="module")
def meuse():
    return load_game(ROOT / "source" / "meuse")[0]


def _audit(game, name: str):
    path = RECORDS / f"{name}.yaml"
    return audit(game, record_from_yaml(path.read_text(), str(path)), "1")


def test_every_battle_rolled_first_then_every_result(meuse):
    a = _audit(meuse, "meuse_rolls_first")
    assert [(f.step, f.code) for f in a.findings if f.severity in ("error", "warning")] == []
    assert not [f for f in a.findings if f.code == "HF1901"]        # each drag judged with its own battle
    path = RECORDS / "meuse_rolls_first.yaml"
    r = replay(meuse, record_from_yaml(path.read_text(), str(path)), meuse.scenario("1"))
    assert [(b.step, b.hex, b.tie, b.result, b.results_after) for b in r.ledger.battles] == [
        (8, "B1.10", "certain", "D1/DR", 12), (10, "B1.17", "certain", "DR", 12),
        (12, "A15.03", "certain", "A1", None)]     # the attacker that lost its step stands next to A15.03 alone
    first, second, _ = r.ledger.battles
    assert first.retreats == (("1007", (("A16.09", 17), ("A15.09", 18))),) and first.advances[0][0] == "1008"
    assert second.retreats[0][0] == "1004" and second.advances == (("1013", (("B1.17", 15),)),)


def test_a_short_retreat_among_results_applied_late(meuse):
    a = _audit(meuse, "meuse_rolls_first_short_retreat")
    errors = [f for f in a.findings if f.severity in ("error", "warning")]
    assert [(f.step, f.code, f.hexes[:1]) for f in errors] == [(16, "HF1501", ("B1.10",))]
    assert "retreated 1 hex(es) (B1.10 -> A16.09), D1/DR needs exactly 2" in errors[0].message
