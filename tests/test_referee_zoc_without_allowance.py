"""A ZOC stop judged where the tree prints no movement factor (the Bulge's counters print none). Bulge 7.2: "A
moving unit must stop and end its movement immediately upon entering the ZOC of an enemy combat unit." A drag
that ended in an enemy ZOC and a drag after it in the same phase break that whatever the allowance: HF1204, a
warning there (the tree assumes no cliff hexside blocks the ZOC, 7.1). The seeds' red team found it missed:
"movement factor not printed; path not judged" covered the stop too. Near misses: the unit stopping there; a
unit that starts in the ZOC and leaves (7.3); a commando team (26.4, 42.15: `rules.zoc.ignored_by`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.positions.position import Counter, Position, Where
from validator.records.record import GameRecord, Moved, Step, TurnChanged
from validator.referee.audit import audit
from validator.source.loader import load_game

ROOT = Path(__file__).resolve().parents[1]
US = Counter("a1", "us-1-16", "allied")
REGT = Counter("g1", "de-79vgd-rgt", "german")
CMD = Counter("c1", "de-stielau-commando", "german")


@pytest.fixture(scope="module")
def bulge():
    return load_game(ROOT / "source" / "bulge")[0]


def _zoc(game, c: Counter, start: str, *hexes: str) -> list[tuple]:
    pos = Position.of([(US, Where(hex="KK10")), (c, Where(hex=start))])
    at, steps = start, []
    for h in hexes:
        steps.append(Step(len(steps) + 1, (Moved(c, Where(hex=at), Where(hex=h)),)))
        at = h
    steps.append(Step(len(steps) + 1, (TurnChanged("17 PM", "german-combat"),)))
    a = audit(game, GameRecord("hand-built", None, None, pos, "17 PM", "german-movement", tuple(steps)), "45")
    return [(f.code, f.severity, f.step, f.hexes, f.rule) for f in a.findings if f.code.startswith("HF12")]


def test_the_tree_prints_no_movement_factor_and_exempts_non_combat_units(bulge):
    assert bulge.unit("de-79vgd-rgt").factors is None or "movement" not in (bulge.unit("de-79vgd-rgt").factors or {})
    assert bulge.rules.zoc.ignored_by == ("non-combat",)


def test_a_regiment_dragged_on_after_entering_a_zoc(bulge):
    """MM11 -> LL10 (next to the US 1/16 in KK10) -> LL11."""
    (f,) = _zoc(bulge, REGT, "MM11", "LL10", "LL11")
    assert f == ("HF1204", "warning", 2, ("LL10", "LL11"), "7.0")


def test_a_regiment_stopping_in_the_zoc(bulge):
    assert _zoc(bulge, REGT, "MM11", "LL10") == []


def test_a_regiment_leaving_the_zoc_it_started_in(bulge):
    assert _zoc(bulge, REGT, "LL10", "LL11", "LL12") == []


def test_a_commando_team_is_not_stopped(bulge):
    assert _zoc(bulge, CMD, "MM11", "LL10", "LL11") == []
