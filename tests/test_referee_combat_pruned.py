"""The battle search's shortcut gives the judgement the whole search gives. Once one defender hex's best
reading of an unnamed battle fits or may fit, another hex can change the verdict only by a reading that fits
outright, so it is searched for such readings alone (`_Tally.legal_only`: readings breaking a limit, and those
whose every modified roll reaches no printed, certain, likely cell, are left untried) and searched again in
full where it becomes the best. Checked on every combat roll of every real log, and of each game's real logs
played on one after another (bench/game_logs.py, 1 250 steps: the same rolls in the positions the logs before
them left): each judged both ways, the two judgements equal, field for field (readings kept, reasons, notes,
tie, faults)."""
from __future__ import annotations

import sys

import pytest

from compiler.audit.read import read_any
from compiler.audit.setup import AuditSetup, loaded
from tests.test_referee_golden import ROOT, SHARED, cases
from validator.referee import battles, combat
from validator.referee.audit import audit

pytestmark = pytest.mark.skipif(SHARED is None, reason="shared/vassal-logs not available")


def _logs(tmp_path) -> list[tuple[str, object, object]]:
    """(game, log, module): every real log, then each game's real logs played on (1 250 steps)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from game_logs import games, write_long_log
    finally:
        sys.path.remove(str(ROOT / "bench"))
    long = [(name, write_long_log(g, 1250, tmp_path / f"{name}.vlog"), g.module) for name, g in games().items()]
    return cases() + long


def test_every_roll_is_judged_as_the_whole_search_judges_it(monkeypatch, tmp_path):
    searched = combat._search
    judge = combat.judge_battle
    shortcuts = []

    def whole(b, hex_id, legal_only=False):
        return searched(b, hex_id)

    def counted(b, hex_id, legal_only=False):
        shortcuts.append(legal_only)
        return searched(b, hex_id, legal_only)

    def both_ways(*args, **kwargs):
        monkeypatch.setattr(combat, "_search", counted)
        j = judge(*args, **kwargs)
        monkeypatch.setattr(combat, "_search", whole)
        assert judge(*args, **kwargs) == j
        return j

    monkeypatch.setattr(battles, "judge_battle", both_ways)
    rolls = 0
    for game_id, log, vmod in _logs(tmp_path):
        game, mod = loaded(AuditSetup(ROOT / "source" / game_id, False, vmod, None, True))
        record = read_any(game, log, mod)
        audit(game, record)
        rolls += sum(1 for s in record.steps for e in s.events if type(e).__name__ == "DieRoll")
    assert rolls > 300
    assert shortcuts.count(True) >= 100, "few battles took the shortcut: the test shows little"
