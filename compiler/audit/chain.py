"""`--chain`: the logs as one game in order. Each log's start is judged against the end of the log played
before it (validator/referee/chain.py's rules, given `chain.Previous`) instead of against the scenario's
set-up; the worker auditing a log reads the log before it for its end."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from .read import Unreadable, other_game, read_any


def previous_of(game, mod, before: Optional[str]):
    """The log before this one in a chain, read for its end (None where there is none, or it cannot be
    read or is of another game: the chain is broken there)."""
    if before is None:
        return None
    from validator.referee.chain import Previous, ends
    try:
        record = read_any(game, Path(before), mod)
    except (Unreadable, OSError):
        return None
    if other_game(game, record):
        return None
    return Previous(Path(before).name, ends(record), record)
