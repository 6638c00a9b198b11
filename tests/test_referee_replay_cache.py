"""The replay's caches give what a fresh look-up gives: the stacks (and a side's enemies and their ZOC)
carried from one position to the next (`Lookups.carry`) equal those rebuilt from every counter, at
every change of a real VASSAL log with moves, removals, flips and undos; the undo stack is bounded."""
from __future__ import annotations

import pytest

from compiler.vassal.vlog import read_log
from tests.test_referee_golden import SHARED, cases
from validator.source.loader import load_game
from validator.referee import replay as replay_mod
from validator.referee import undo as undo_mod
from validator.referee import view as view_mod
from validator.referee.audit import audit

pytestmark = pytest.mark.skipif(SHARED is None, reason="shared/vassal-logs not available")


def _rebuilt(look, position) -> dict:
    fresh: dict = {}
    for c, w in position:
        if c.kind == "unit" and w.hex:
            fresh.setdefault((w.hex, look.side_of(c)), []).append(c)
    return fresh


def _enemies(look, position, side) -> dict:
    out: dict = {}
    for c, w in position:
        s = look.side_of(c)
        if c.kind == "unit" and w.hex and s is not None and side is not None and s != side:
            out.setdefault(w.hex, []).append(c)
    return {h: tuple(cs) for h, cs in out.items()}


def _zoc(look, position, side) -> frozenset:
    return frozenset(n for h in _enemies(look, position, side) for n in look.grid.neighbours(h))


@pytest.mark.parametrize("game,log,vmod", [c for c in cases() if c[1].stem in
                                           ("aachen_stacks_undo", "aachen_long_game", "meuse_legal")],
                         ids=lambda x: getattr(x, "name", x))
def test_carried_stacks_equal_rebuilt(monkeypatch, game, log, vmod):
    g = load_game(f"source/{game}")[0]
    record = read_log(log, vmod, g)
    carried, carried_sides = [], []
    original = view_mod.Lookups.carry

    def checked(self, before, after, piece, in_place):
        original(self, before, after, piece, in_place)
        pos, cache = self._by_position
        if pos is after and cache and "counted_stacks" in cache:
            carried.append(piece)
            stacks = cache["counted_stacks"]       # each hex's units in the position's order
            assert {k: list(v) for k, v in stacks.items()} == _rebuilt(self, after), (log.name, piece)
            for key, v in cache.items():           # a side's look-ups carried over: as fresh ones
                if key[0] in ("enemies", "enemy-hexes"):
                    assert v == (_enemies(self, after, key[1]) if key[0] == "enemies" else
                                 frozenset(_enemies(self, after, key[1]))), (log.name, piece, key)
                    carried_sides.append(key)
                elif key[0] == "zoc":
                    assert v == _zoc(self, after, key[1]), (log.name, piece, key)

    monkeypatch.setattr(view_mod.Lookups, "carry", checked)
    audit(g, record)
    assert carried                                 # the carried path did run
    if game == "aachen":
        assert carried_sides


def test_undo_stack_is_bounded(monkeypatch):
    """Only the latest UNDO_DEPTH steps stay undoable: with none kept, every undo of the log matches
    nothing (and says so); with the default, each takes back its step."""
    game, log, vmod = next(c for c in cases() if c[1].stem == "aachen_stacks_undo")
    g = load_game(f"source/{game}")[0]
    record = read_log(log, vmod, g)
    undos = [s.index for s in record.steps if s.undo]
    assert undos

    def unmatched(ctx):
        return [s for s, c in ctx.coverage.items() if any("matches no earlier step" in r for r in c["not"])]

    ctx = replay_mod.replay(g, record, None)
    assert unmatched(ctx) == [] and sum(1 for c in ctx.coverage.values() if c.get("undone")) == len(undos)
    monkeypatch.setattr(undo_mod, "DEPTH", 0)
    monkeypatch.setattr(undo_mod, "_KEPT", {})
    assert sorted(unmatched(replay_mod.replay(g, record, None))) == undos


@pytest.mark.parametrize("game,log,vmod", cases(), ids=lambda x: getattr(x, "name", x))
def test_free_route_shortcut_changes_no_verdict(monkeypatch, game, log, vmod):
    """HF1203 and HF1204 skip their searches where the cheapest free way already avoids the enemy
    hexes and ZOC (`MoveReading.free_way_avoids`); with the shortcut off, every real log's audit is the same."""
    from tests.test_referee_golden import audit_json
    from validator.referee import movement
    with_shortcut = audit_json(game, log, vmod)
    calls = []
    monkeypatch.setattr(movement.MoveReading, "free_way_avoids", lambda self, *a: calls.append(a) and False)
    assert audit_json(game, log, vmod) == with_shortcut
    if game in ("aachen", "meuse") and "legal" in log.stem:
        assert calls                                   # moves with enemies on the map asked it
