"""Looking ahead in a record: the steps after one, as the game came to be (undos and the steps they take
back left out), up to the next turn change. What a roll's battle is read from (who lost what after it),
and whether an enemy leaves a hex a unit moved onto."""
from __future__ import annotations

from typing import Iterable, Optional

from ..records.record import GameRecord, Moved, Removed, Step, TurnChanged
from .undo import undone_by


def steps_after(record: GameRecord, step: Optional[Step]) -> Iterable[Step]:
    """The record's steps after one step, up to the next turn change, less undos and the steps they
    take back (what the game came to, as the replay will read it)."""
    for s in _played_after(record, step):
        if any(isinstance(e, TurnChanged) for e in s.events):
            return
        yield s


def first_leaving(steps: Iterable[Step], dst: str, pieces: set, ends=None) -> Optional[int]:
    """The step at which one of `pieces` leaves `dst` (removed, or dragged elsewhere) in these steps; None if
    none does, or none before an event `ends(event)` says closes the look (a phase's end)."""
    for s in steps:
        for e in s.events:
            if ends is not None and ends(e):
                return None
            if getattr(e, "counter", None) is not None and e.counter.piece in pieces:
                if isinstance(e, Removed) or (isinstance(e, Moved) and e.dst.hex != dst):
                    return s.index
    return None


def later_events(record: GameRecord, step: Optional[Step]) -> Iterable:
    """Every event of the record after one step, to its end (turn changes included), less undos and the
    steps they take back."""
    for s in _played_after(record, step):
        yield from s.events


def _played_after(record: GameRecord, step: Optional[Step]) -> Iterable[Step]:
    """The steps after one step, read lazily (callers stop at the first they need), less undos and the steps
    they take back."""
    if step is None:
        return
    index, undone = _index_of(record)
    i = index.get(step.index)
    if i is None:
        return
    steps = record.steps
    for j in range(i + 1, len(steps)):
        s = steps[j]
        if not (s.undo or s.index in undone):
            yield s


_INDEX: dict = {}


def _index_of(record: GameRecord) -> tuple[dict, frozenset]:
    """(step number -> its place in record.steps, the steps an undo takes back), once per record."""
    hit = _INDEX.get(id(record))
    if hit is None or hit[0] is not record:
        if len(_INDEX) > 8:
            _INDEX.clear()
        hit = _INDEX[id(record)] = (record, {s.index: i for i, s in enumerate(record.steps)},
                                    frozenset(undone_by(record).values()))
    return hit[1], hit[2]



def steps_between(record: GameRecord, after: int, before: int) -> Iterable[Step]:
    """The steps numbered after `after` and before `before`, as the game came to be (less undos and the steps
    they take back)."""
    index, undone = _index_of(record)
    steps = record.steps
    i = index.get(after, -1) + 1 if after else 0
    for j in range(i, len(steps)):
        s = steps[j]
        if s.index >= before:
            return
        if not (s.undo or s.index in undone):
            yield s
