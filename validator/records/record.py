"""The game record: what happened in a played game, in the tree's terms, with no VASSAL in it.

A log reader (`compiler.vassal.vlog`) turns a VASSAL `.vlog` into a `GameRecord`; a player can also
write one by hand in YAML (`record_from_yaml`). The referee (`validator.referee`) judges a record
against a game tree and never sees the file format it came from.

Pieces are told apart by `piece` (the VASSAL piece id in a log, any unique name in a hand-written
record); `unit` is the tree's unit id the piece shows (several pieces may show the same unit id, as
in a counter mix with nine identical infantry counters). Hexes are the tree's hex ids as printed;
`hex=None` is a place off the hex grid (a holding box, the Reinforcements map), named by `box`.
Player passwords never enter a record: `player` is a side id or an opaque label (`player 1`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from ..positions.position import Counter, Position, Where


@dataclass(frozen=True, slots=True)
class Placed:
    """A piece put into play (AddPiece: from a palette, a reinforcement entering a map, a new piece)."""
    counter: Counter
    where: Where


@dataclass(frozen=True, slots=True)
class Moved:
    """A piece dragged from one place to another; `onto` is the piece it was dropped on, if any."""
    counter: Counter
    src: Where
    dst: Where
    onto: Optional[str] = None


@dataclass(frozen=True, slots=True)
class Removed:
    """A piece taken out of play (deleted; eliminated in most games)."""
    counter: Counter
    where: Where


@dataclass(frozen=True, slots=True)
class StateChanged:
    """A piece's state changed (flipped to its reduced side, marked DG, …)."""
    counter: Counter                           # the counter after the change
    old_state: frozenset[str]
    where: Where


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One press of a die button: `dice` as the button names it ('2d6'), each die's face, the total."""
    dice: str
    faces: tuple[int, ...]
    total: int
    count: int = 0                             # number of dice; 0 = read from `dice`
    sides: int = 0


@dataclass(frozen=True, slots=True)
class TurnChanged:
    """The turn marker moved: to `turn` (a tree turn id), and to `phase` where the module records it."""
    turn: Optional[str]
    phase: Optional[str] = None
    printed: Optional[str] = None              # the label the log shows ("Turn 2 (17 Dec 1944)")


@dataclass(frozen=True, slots=True)
class Chat:
    text: str
    player: Optional[str] = None


Event = Union[Placed, Moved, Removed, StateChanged, DieRoll, TurnChanged, Chat]


def is_map_move(ev) -> bool:
    """A unit dragged from one hex of the map to another (not a marker, not into or out of a box, not dropped
    back into the hex it was picked up from)."""
    return isinstance(ev, Moved) and ev.src.hex is not None and ev.dst.hex is not None and ev.counter.kind == "unit" \
        and ev.src.hex != ev.dst.hex


def dropped_back(ev) -> bool:
    """A piece picked up and put back where it was (to look under a stack, a slipped click): no move."""
    return isinstance(ev, Moved) and ev.src == ev.dst


@dataclass(frozen=True, slots=True)
class Step:
    """One logged action (one press of VASSAL's step-forward); 1-based `index` in the log."""
    index: int
    events: tuple[Event, ...]
    undo: bool = False                         # this step undoes the last undoable earlier step; its
    #                                            events are the inverse changes VASSAL made (the move back)
    player: Optional[str] = None               # side id or opaque label; never a password


@dataclass(frozen=True, slots=True)
class GameRecord:
    source: str                                # file the record was read from
    module: Optional[str]                      # module name and version the log names
    engine: Optional[str]                      # e.g. "VASSAL 3.7.9"
    start: Position                            # the position when logging began
    start_turn: Optional[str]
    start_phase: Optional[str]
    steps: tuple[Step, ...]
    players: tuple[str, ...] = ()              # side ids or labels seen, never passwords
    warnings: tuple[str, ...] = field(default=())  # what the reader could not map (unknown pieces, …)
