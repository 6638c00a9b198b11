"""A position's stacking order is kept as ranks beside its mapping once a counter in it moves (no entry taken
out and put back: `Position.placed`). Whatever the changes, it reads as the order of a plain mapping whose
moved entry goes to its end: iteration, boxes, a hex's counters and the stacks, with and without the hex index
built first."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from validator.positions.position import Counter, Position, Where

PIECES = [f"p{i}" for i in range(6)]
PLACES = [Where("a"), Where("b"), Where(box="box"), Where(box="other")]
CHANGES = st.lists(st.tuples(st.sampled_from(("placed", "removed", "changed", "ask")), st.sampled_from(PIECES),
                             st.sampled_from(PLACES), st.booleans()), max_size=50)


def _reference(model: dict, op: str, piece: str, where: Where, flag: bool) -> dict:
    out = dict(model)
    if op == "placed":
        out.pop(piece, None)
        out[piece] = (where, Counter(piece, "u", state=frozenset({"r"}) if flag else frozenset()))
    elif op == "removed":
        out.pop(piece, None)
    elif op == "changed" and piece in out:
        w, c = out[piece]
        out[piece] = (w, c.with_state({"r"} if flag else ()))
    return out


@settings(max_examples=400, deadline=None)
@given(start=st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(PLACES)), max_size=6), changes=CHANGES,
       indexed=st.booleans())
def test_order_is_that_of_a_mapping_moving_its_entry_to_the_end(start, changes, indexed):
    pos = Position.of((Counter(p, "u"), w) for p, w in start)
    model = {c.piece: (w, c) for c, w in pos}
    if indexed:
        pos.at("a")
    for op, piece, where, flag in changes:
        if op == "placed":
            pos = pos.placed(Counter(piece, "u", state=frozenset({"r"}) if flag else frozenset()), where)
        elif op == "removed":
            pos = pos.removed(piece)
        elif op == "changed" and pos.counter(piece) is not None:
            pos = pos.changed(pos.counter(piece).with_state({"r"} if flag else ()))
        elif op == "ask":
            pos.stacks() if flag else list(pos)
        model = _reference(model, op, piece, where, flag)
        assert [(c, w) for c, w in pos] == [(c, w) for w, c in model.values()]
        assert pos == Position(dict(model)) and len(pos) == len(model)
        boxes: dict = {}
        for w, c in model.values():
            if w.hex is None:
                boxes.setdefault(w.box or "", []).append(c)
        assert pos.in_boxes() == {b: tuple(cs) for b, cs in boxes.items()}
        hexes: dict = {}
        for w, c in model.values():
            if w.hex is not None:
                hexes.setdefault(w.hex, []).append(c)
        assert pos.stacks() == {h: tuple(cs) for h, cs in hexes.items()} and list(pos.stacks()) == list(hexes)
        for h in ("a", "b"):
            assert pos.at(h) == tuple(hexes.get(h, ()))
