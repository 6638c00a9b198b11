"""An undo puts back the look-ups of the position it restores (`Lookups.kept` with each step's snapshot,
`Lookups.restore`) instead of making them afresh from every counter: they must be what a fresh scan of that
position gives, although the replay went on from it (moves of either side, their look-ups put aside and read
again) before the undo. Checked at every undo of the real logs with undos, and of each game's real logs played
on one after another (bench/game_logs.py, 1 250 steps), whatever the number of counters (an audit keeps them
from `view.KEEP_FROM` counters on)."""
from __future__ import annotations

import sys

import pytest

from compiler.audit.read import read_any
from compiler.audit.setup import AuditSetup, loaded
from tests.test_referee_golden import ROOT, SHARED, cases
from tests.test_referee_replay_cache import _enemies, _rebuilt, _zoc
from validator.referee import view
from validator.referee.audit import audit

pytestmark = pytest.mark.skipif(SHARED is None, reason="shared/vassal-logs not available")


def _long_logs(tmp_path) -> list:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from game_logs import games, write_long_log
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return [(name, write_long_log(g, 2500, tmp_path / f"{name}.vlog"), g.module) for name, g in games().items()]


def test_look_ups_put_back_by_an_undo_are_fresh(monkeypatch, tmp_path):
    monkeypatch.setattr(view, "KEEP_FROM", 0)
    restore = view.Lookups.restore
    seen = {"undos": 0, "kept": 0}

    def checked(self, position, cache):
        restore(self, position, cache)
        seen["undos"] += 1
        if cache is None:
            return
        seen["kept"] += 1
        if "counted_stacks" in cache:
            assert {k: list(v) for k, v in self.counted_stacks(position).items()} == _rebuilt(self, position)
        if "shared" in cache:
            assert self.shared(position) == frozenset(k for k, v in _rebuilt(self, position).items() if len(v) > 1)
        for side in {key[1] for key in cache if isinstance(key, tuple)}:
            assert self.enemies(position, side) == _enemies(self, position, side), side
            assert self.enemy_hexes(position, side) == frozenset(_enemies(self, position, side)), side
            assert self.zoc_hexes(position, side) == _zoc(self, position, side), side

    monkeypatch.setattr(view.Lookups, "restore", checked)
    logs = [c for c in cases() if "undo" in c[1].stem or "long" in c[1].stem] + _long_logs(tmp_path)
    undo_steps = 0
    for game_id, log, vmod in logs:
        game, mod = loaded(AuditSetup(ROOT / "source" / game_id, False, vmod, None, True))
        record = read_any(game, log, mod)
        undo_steps += sum(1 for s in record.steps if s.undo)
        audit(game, record)
    # every undo of the logs was checked (each puts a position back once), and there are enough of them
    assert seen["undos"] == undo_steps >= 40, (seen, undo_steps)
    assert seen["kept"] >= 0.9 * seen["undos"], seen


def test_look_ups_kept_for_an_undo_stay_those_of_their_position(monkeypatch):
    """A side's look-ups read again after the other side moved (`_settle`) are made anew: the position
    before, kept for an undo, still holds its own (a unit of one side moves twice, the other side's enemies,
    enemy hexes and ZOC asked after each move, then the first position put back)."""
    game_id, log, vmod = next(c for c in cases() if c[1].stem == "aachen_long_game")
    game, mod = loaded(AuditSetup(ROOT / "source" / game_id, False, vmod, None, True))
    start = read_any(game, log, mod).start
    monkeypatch.setattr(view, "KEEP_FROM", 0)
    look = view.Lookups(game)
    sides = sorted({look.side_of(c) for c, w in start if c.kind == "unit" and w.hex} - {None})
    assert len(sides) == 2
    mover = next(c for c, w in start if c.kind == "unit" and w.hex and look.side_of(c) == sides[0])
    other = sides[1]
    look.counted_stacks(start)
    asked = (look.enemies(start, other), look.enemy_hexes(start, other), look.zoc_hexes(start, other))
    fresh = (_enemies(look, start, other), frozenset(_enemies(look, start, other)), _zoc(look, start, other))
    assert asked == fresh and fresh[0]
    kept = look.kept(start)
    position = start
    away = [h for h in game.grid.neighbours(start.where(mover.piece).hex) if not start.at(h)][:2]
    assert len(away) == 2
    for h in away:                               # the mover's side moves, the other side's look-ups are asked
        after = position.placed(mover, type(start.where(mover.piece))(h))
        look.carry(position, after, mover.piece, False)
        position = after
        assert look.enemies(position, other) == _enemies(look, position, other)
        assert look.zoc_hexes(position, other) == _zoc(look, position, other)
    look.restore(start, kept)
    assert (look.enemies(start, other), look.enemy_hexes(start, other), look.zoc_hexes(start, other)) == fresh
    assert {k: list(v) for k, v in look.counted_stacks(start).items()} == _rebuilt(look, start)


def test_only_a_map_of_many_counters_has_its_look_ups_kept():
    """On a small map the look-ups are made afresh after an undo (cheaper than carrying them on); Ardennes II's
    498 counters keep theirs."""
    for stem, many in (("aachen_long_game", False), ("ardennes2_fragment", True)):
        game_id, log, vmod = next(c for c in cases() if c[1].stem == stem)
        game, mod = loaded(AuditSetup(ROOT / "source" / game_id, False, vmod, None, True))
        start = read_any(game, log, mod).start
        look = view.Lookups(game)
        look.counted_stacks(start)
        assert (look.kept(start) is not None) == many == (len(start) >= view.KEEP_FROM), stem
