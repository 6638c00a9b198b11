"""The look-ups the referee keeps indexed or carried instead of scanning every counter give exactly what a
fresh scan gives: the position's hex index (`Position.at`, `Position.stacks`, carried from one position to the
next); what combat reads from the replay's stacks (a hex's units, the front between two sides, the markers in a
hex) and from the ledger (the pieces and hexes the phase's earlier battles used); and a side's enemies, their ZOC
and the stacks units share, carried through the moves of either side (`Lookups.carry`: a side's look-ups put
aside while another side moves are read again when asked; asked at every change, and at every fourth). Checked
at every change of real VASSAL logs with moves, flips, removals, rolls and undos (two of Ardennes II with its
498 counters, Aachen's long game, a Meuse combat with retreats and advances), and over random changes of small
positions."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from compiler.vassal.vlog import read_log
from tests.test_referee_golden import SHARED, cases
from tests.test_referee_replay_cache import _enemies, _rebuilt, _zoc
from validator.positions.position import Counter, Position, Where
from validator.source.loader import load_game

pytestmark = pytest.mark.skipif(SHARED is None, reason="shared/vassal-logs not available")

LOGS = ("ardennes2_fragment", "ardennes2_seam_and_stack", "aachen_long_game", "meuse_combat_legal")


def scanned_at(position: Position, hex_id: str) -> tuple:
    return tuple(c for c, w in position if w.hex == hex_id)


def scanned_stacks(position: Position) -> dict:
    out: dict = {}
    for c, w in position:
        if w.hex is not None:
            out.setdefault(w.hex, []).append(c)
    return {h: tuple(cs) for h, cs in out.items()}


def assert_index_fresh(position: Position, where: str) -> None:
    stacks = position.stacks()
    fresh = scanned_stacks(position)
    assert stacks == fresh and list(stacks) == list(fresh), where       # the same hexes, in the same order
    for h in fresh:
        assert position.at(h) == fresh[h], (where, h)
    assert position.at("no such hex") == ()


# -- random changes of a small position --
PIECES = [f"p{i}" for i in range(7)]
PLACES = [Where("a"), Where("b"), Where("c"), Where(box="box")]
CHANGES = st.lists(st.tuples(st.sampled_from(("placed", "removed", "changed", "ask")), st.sampled_from(PIECES),
                             st.sampled_from(PLACES), st.booleans()), max_size=60)


@settings(max_examples=300, deadline=None)
@given(start=st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(PLACES)), max_size=7), changes=CHANGES,
       indexed=st.booleans())
def test_hex_index_equals_a_scan_after_any_changes(start, changes, indexed):
    pos = Position.of((Counter(p, "u"), w) for p, w in start)
    if indexed:
        pos.at("a")                               # the index built first, then carried through every change
    for i, (what, piece, where, flag) in enumerate(changes):
        if what == "placed":
            pos = pos.placed(Counter(piece, "u"), where)
        elif what == "removed":
            pos = pos.removed(piece)
        elif what == "changed" and pos.counter(piece) is not None:
            pos = pos.changed(Counter(piece, "u", state=frozenset({"reduced"} if flag else ())))
        elif what == "ask":
            pos.stacks()                          # the hexes put in order, mid-way
        if flag or i == len(changes) - 1:
            assert_index_fresh(pos, f"change {i}")


def test_a_value_type_still():
    """Changes return new positions; the one changed from keeps its counters and its index."""
    a, b = Counter("a", "u"), Counter("b", "u")
    pos = Position.of([(a, Where("x")), (b, Where("x"))])
    assert pos.at("x") == (a, b)
    moved = pos.placed(a, Where("y"))
    assert pos.at("x") == (a, b) and pos.at("y") == ()
    assert moved.at("x") == (b,) and moved.at("y") == (a,) and list(moved.stacks()) == ["x", "y"]
    assert moved == Position.of([(b, Where("x")), (a, Where("y"))])      # equal as values, index or not


# -- every change of three real logs --
def _real(stem: str):
    game, log, vmod = next(c for c in cases() if c[1].stem == stem)
    g = load_game(f"source/{game}")[0]
    return g, read_log(log, vmod, g)


@pytest.mark.parametrize("ask_every", (1, 4), ids=("asked at every change", "asked at every 4th"))
@pytest.mark.parametrize("stem", LOGS)
def test_indexed_lookups_equal_fresh_scans_at_every_change(monkeypatch, stem, ask_every):
    from validator.referee import battles, combat, keepers, view
    from validator.referee.audit import audit
    g, record = _real(stem)
    record.start.at("")                               # the index built at the start: every position carries it
    seen = {"changes": 0, "positions": 0, "fronts": 0, "units": 0, "markers": 0, "limits": 0, "zoc": 0, "shared": 0, "carries": 0}

    change = keepers._change_position

    def checked_change(r, ev):
        change(r, ev)
        assert r.position._index is not None          # carried, not rebuilt
        assert_index_fresh(r.position, f"{stem}: {ev}")
        seen["changes"] += 1

    apply = combat._apply

    def checked_apply(position, events):
        after = apply(position, events)
        assert_index_fresh(after, f"{stem}: the position after a battle's events")
        seen["positions"] += 1
        return after

    front = combat.HexStacks.front

    def checked_front(self, side, fights, neighbours):
        out = front(self, side, fights, neighbours)
        assert sorted(out) == sorted(_scanned_front(g, self, side)), stem
        seen["fronts"] += 1
        return out

    units_at = combat._units_at

    def checked_units_at(game, position, hex_id, phasing, side, stacks=None):
        out = units_at(game, position, hex_id, phasing, side, stacks)
        assert out == units_at(game, position, hex_id, phasing, side, None), (stem, hex_id)   # the stacks: a scan
        seen["units"] += 1
        return out

    markers = combat._HexMarkers.get

    def checked_markers(self, hex_id, default=()):
        out = markers(self, hex_id, default)
        assert out == (tuple(c.unit for c in scanned_at(self._position, hex_id) if c.kind == "marker") or default)
        seen["markers"] += 1
        return out

    attacked = battles._attacked

    def checked_attacked(earlier):
        out = attacked(earlier)
        assert out == (frozenset(p for b in earlier for p in b.attackers),
                       frozenset(b.hex for b in earlier if b.hex and b.tie in ("certain", "likely"))), stem
        seen["limits"] += 1
        return out

    carry = view.Lookups.carry

    def checked_carry(self, before, after, piece, in_place):
        carry(self, before, after, piece, in_place)
        pos, cache = self._by_position
        if pos is after and cache and "counted_stacks" in cache:
            fresh = _rebuilt(self, after)
            assert {k: list(v) for k, v in cache["counted_stacks"].items()} == fresh, stem
            if "shared" in cache:                 # the stacks two or more units share, carried
                assert cache["shared"] == frozenset(k for k, v in fresh.items() if len(v) > 1), (stem, piece)
                seen["shared"] += 1
            for key, v in cache.items():         # a side's enemies and their ZOC, kept or carried: as fresh
                if key[0] == "enemies":
                    assert v == _enemies(self, after, key[1]), (stem, piece, key)
                elif key[0] == "enemy-hexes":
                    assert v == frozenset(_enemies(self, after, key[1])), (stem, piece, key)
                elif key[0] == "zoc":
                    assert v == _zoc(self, after, key[1]), (stem, piece, key)
                    seen["zoc"] += 1
            seen["carries"] += 1
            if seen["carries"] % ask_every == 0:      # asked: those put aside since are read again (`_settle`)
                for side in [s.id for s in g.sides]:
                    assert self.enemies(after, side) == _enemies(self, after, side), (stem, piece, side)
                    assert self.enemy_hexes(after, side) == frozenset(_enemies(self, after, side)), (stem, piece)
                    assert self.zoc_hexes(after, side) == _zoc(self, after, side), (stem, piece, side)

    monkeypatch.setattr(view.Lookups, "carry", checked_carry)
    monkeypatch.setattr(keepers, "_change_position", checked_change)
    monkeypatch.setattr(combat, "_apply", checked_apply)
    monkeypatch.setattr(combat.HexStacks, "front", checked_front)
    monkeypatch.setattr(combat, "_units_at", checked_units_at)
    monkeypatch.setattr(combat._HexMarkers, "get", checked_markers)
    monkeypatch.setattr(battles, "_attacked", checked_attacked)
    audit(g, record)
    assert seen["changes"] >= 4 and seen["positions"] and seen["units"] and seen["limits"] and seen["shared"], seen
    if stem == "ardennes2_fragment":
        assert seen["markers"]                       # its strength modifiers read the markers in a hex
    if stem == "aachen_long_game":
        assert seen["zoc"]                           # the enemies' ZOC carried through the other side's moves


def _scanned_front(game, stacks, side) -> list:
    """The front as `combat.defender_hexes` read it before: every occupied hex with a fighting unit of another
    known side, next to a hex with a fighting unit of `side`, each unit's hex read from a pass over them all."""
    from validator.positions.stacking import side_of
    from validator.referee.combat import _fights
    by_hex = dict(stacks.items())
    mine = {h for h, us in by_hex.items() if any(_fights(game, c) and side_of(game, c) == side for c in us)}
    return [h for h, us in by_hex.items()
            if any(_fights(game, c) and side_of(game, c) not in (None, side) for c in us)
            and any(n in mine for n in game.grid.neighbours(h))]
