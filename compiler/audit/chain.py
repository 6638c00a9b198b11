"""`--chain`: the logs as one game in order. Each log's start is judged against the end of the log played
before it (validator/referee/chain.py's rules, given `chain.Previous`) instead of against the scenario's
set-up, and who holds each victory hex carries through every earlier log; the worker auditing a log reads
the logs before it (each read once per process while they are few: `_kept`)."""
from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import Optional

from .read import Unreadable, other_game, read_any

KEPT_STEPS = 200_000          # the earlier logs' records a process keeps, counted in steps (a long game's few MB)
_KEPT: "OrderedDict[tuple, object]" = OrderedDict()


def previous_of(game, mod, before: tuple[str, ...]):
    """The log before this one in a chain, read for its end, with the records of the logs before it back to
    the chain's start or its latest break (None where there is none, or it cannot be read or is of another
    game: the chain is broken there)."""
    if not before:
        return None
    from validator.referee.chain import Previous, ends
    records = []
    for path in reversed(before):
        record = _read(game, mod, path)
        if record is None:
            break
        records.append(record)
    if not records:
        return None
    last, *earlier = records
    return Previous(Path(before[-1]).name, ends(last), last, tuple(reversed(earlier)))


def _read(game, mod, path: str):
    """A log's record, or None where it cannot be read or is another game's."""
    try:
        st = os.stat(path)
        key = (id(game), os.path.realpath(path), st.st_size, st.st_mtime_ns)
        if key in _KEPT:
            _KEPT.move_to_end(key)
            return _KEPT[key]
        record = read_any(game, Path(path), mod)
    except (Unreadable, OSError):
        return None
    if other_game(game, record):
        return None
    _keep(key, record)
    return record


def _keep(key: tuple, record) -> None:
    _KEPT[key] = record
    while len(_KEPT) > 1 and sum(len(r.steps) for r in _KEPT.values()) > KEPT_STEPS:
        _KEPT.popitem(last=False)
