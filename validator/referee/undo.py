"""Which step each VASSAL Undo takes back, read once from the record.

VASSAL's Undo takes back the latest undoable step; the record shows the undo as a step of its own
whose events are the inverse changes (the move back). The step it takes back is the latest one not
yet taken back that touches the same pieces, or, for an undo that moves nothing, the latest that moved
nothing (a roll or a chat line); an undo reaches back at most `DEPTH` steps. The replay, the dice
rules and every look ahead past a roll read the same answer from here.
"""
from __future__ import annotations

from ..records.record import GameRecord, Moved, Placed, Removed, StateChanged, Step

DEPTH = 200
_PIECE_EVENTS = (Moved, Placed, Removed, StateChanged)
_KEPT: dict = {}


def pieces(step: Step) -> frozenset:
    return frozenset(e.counter.piece for e in step.events if isinstance(e, _PIECE_EVENTS))


def undone_by(record: GameRecord) -> dict[int, int]:
    """Undo step -> the step it takes back (undos that match none are left out). Kept per record."""
    hit = _KEPT.get(id(record))
    if hit is not None and hit[0] is record:
        return hit[1]
    out: dict[int, int] = {}
    live: list[tuple[int, frozenset]] = []
    for s in record.steps:
        if not s.undo:
            live.append((s.index, pieces(s)))
            if len(live) > DEPTH:
                del live[0]
            continue
        want = pieces(s)
        at = next((i for i in range(len(live) - 1, -1, -1) if live[i][1] == want), None)
        if at is not None:
            out[s.index] = live.pop(at)[0]
    if len(_KEPT) > 8:
        _KEPT.clear()
    _KEPT[id(record)] = (record, out)
    return out
