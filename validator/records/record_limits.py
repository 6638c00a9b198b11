"""The bounds on what a game record may hold, checked where a record is read (the VASSAL log reader,
`compiler/vassal/vlog.py`, and the YAML record reader, `validator/records/record_yaml.py`).

Each bound is far above what a played game holds and low enough that a file made to exhaust the audit
(a die of 10^11 faces, a million empty steps, a hex id of 30 000 characters) is refused at once, with
its place in the file and the bound it passes. docs/limits.md lists them all, with those of the archive,
the module and the tree; tests/test_hostile_input.py checks that the file agrees with this one.
"""
from __future__ import annotations

import re
from typing import Optional

MAX_STEPS = 100_000              # steps in one log or record (a long game is a few thousand)
MAX_EVENTS = 250_000             # events in one log or record, all steps together (a 20 000-step log: ~20 000)
MAX_PIECES = 20_000              # pieces a log or record puts in play (the largest game has about 500)
MAX_DICE = 100                   # dice in one roll (faces a roll lists)
MAX_DIE_SIDES = 1_000            # faces of one die (the dice statistics count every face)
MAX_ROLL_VALUE = 1_000_000       # a face or a total, either sign (a die button may add to its faces)
MAX_PIXEL = 10_000_000           # a piece's position on a map, in pixels, either sign
MAX_HEX_ID_CHARS = 32            # a hex id as printed ("B27.49"); hex ids are matched by a pattern
MAX_NAME_CHARS = 256             # a piece, unit, side, state, box, dice, turn, phase or player name
MAX_TEXT_CHARS = 100_000         # a chat line, a warning, the source, module and engine texts
MAX_NUMBER_CHARS = 18            # the digits of any number a record holds

# A dice name as the referee reads it ("2d6", "Combat 1d10"): how many dice of how many sides.
DICE_IN_NAME = re.compile(r"(\d*)\s*d\s*(\d+)", re.I)


def dice_problem(name: str, count: int = 0, sides: int = 0) -> Optional[str]:
    """Why a roll of this dice name (and count, sides) is out of bounds, or None. A name that reads
    as NdS ("1d100000000000") is held to the same bounds as the count and sides given beside it."""
    if len(name) > MAX_NAME_CHARS:
        return f"a dice name of {len(name)} characters (at most {MAX_NAME_CHARS})"
    m = DICE_IN_NAME.search(name)
    if m:
        named_count, named_sides = m.group(1), m.group(2)
        if len(named_sides) > MAX_NUMBER_CHARS or int(named_sides) > MAX_DIE_SIDES:
            return f"dice {name!r} have {named_sides} sides; a die has at most {MAX_DIE_SIDES} sides"
        if named_count and (len(named_count) > MAX_NUMBER_CHARS or int(named_count) > MAX_DICE):
            return f"dice {name!r} are {named_count} dice; a roll has at most {MAX_DICE} dice"
    if sides > MAX_DIE_SIDES:
        return f"dice {name!r} have {sides} sides; a die has at most {MAX_DIE_SIDES} sides"
    if count > MAX_DICE:
        return f"dice {name!r} are {count} dice; a roll has at most {MAX_DICE} dice"
    return None


def faces_problem(faces, total: Optional[int] = None) -> Optional[str]:
    """Why a roll's faces (and total) are out of bounds, or None."""
    if len(faces) > MAX_DICE:
        return f"a roll of {len(faces)} dice; a roll has at most {MAX_DICE} dice"
    for v in faces if total is None else (*faces, total):
        if abs(v) > MAX_ROLL_VALUE:
            return f"a roll of {v}; a face or a total is at most {MAX_ROLL_VALUE} either way"
    return None
