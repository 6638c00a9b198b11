"""Bulge 10.1: "Stacking is limited to three combat units per hex. Game-aid counters and non-combat units do not
count toward this limit." Declared as `rules.stacking.uncounted: [non-combat]`: the Einheit Stielau commando team
(counters.yaml flags it non-combat) stacks with three regiments at a phase end without HF1301 (the seeds red
team's false accusation); the near miss, a fourth regiment, is over the limit."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Counter, Position, Where
from validator.records.record import GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
R1, R2 = Counter("r1", "de-79vgd-rgt", "german"), Counter("r2", "de-9vgd-rgt", "german")
R3, R4 = Counter("r3", "de-167vgd-rgt", "german"), Counter("r4", "de-79vgd-rgt", "german")
CMD = Counter("c1", "de-stielau-commando", "german")


@pytest.fixture(scope="module")
def bulge():
    return load_game(ROOT / "source" / "bulge")[0]


def _over(game, mover: Counter) -> list[tuple]:
    start = Position.of([(R1, Where(hex="LL10")), (R2, Where(hex="LL10")), (R3, Where(hex="LL10")),
                         (mover, Where(hex="MM10"))])
    steps = (Step(1, (Moved(mover, Where(hex="MM10"), Where(hex="LL10")),)),
             Step(2, (TurnChanged("17 PM", "german-combat"),)))
    a = audit(game, GameRecord("hand-built", None, None, start, "17 PM", "german-movement", steps), "45")
    return [(f.code, f.step, f.hexes, f.rule, f.message) for f in a.findings if f.code in ("HF1301", "HF1302")]


def test_the_tree_declares_non_combat_units_uncounted(bulge):
    assert bulge.rules.stacking.uncounted == ("non-combat",)
    assert "non-combat" in bulge.unit("de-stielau-commando").flags


def test_a_commando_team_joins_three_regiments(bulge):
    assert _over(bulge, CMD) == []


def test_a_fourth_regiment_is_over_the_limit(bulge):
    assert _over(bulge, R4) == [
        ("HF1301", 2, ("LL10",), "10.1", "4 units of German in LL10, over the stacking limit of 3 at the end of the "
                                         "German Movement Phase of turn 17 PM, and still when the log ends")]
