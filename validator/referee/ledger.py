"""The ledger: what a human referee keeps on paper while a game is played, as immutable values.

The replay (validator.referee.replay) keeps one `Ledger` beside the position and replaces it, never
changes it, as each event is read: an undo puts back the ledger of the step before, and a rule reads
the ledger of the moment it judges without being able to change it. It holds, per phase, each unit's
moves (`Leg`: its drags, a reinforcement's entry); per turn, the phases each unit moved in and the
order of moving; per combat phase, the battles (`battles.Battle`); for the whole log, the arrivals
used, the units removed, the steps units entered their hexes, who controls each victory hex, the
stacks found wrong at a phase end and not yet reported, and the rolls (those an undo discarded too).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Mapping, NamedTuple, Optional

from ..positions.position import Counter, Where
from ..records.record import DieRoll

EMPTY: Mapping = {}


class Entry(NamedTuple):
    """How a reinforcement came onto the map at the start of its leg: the hexes it may have entered at
    (its entry area's; None where the tree does not print them) and the box it came from."""
    hexes: Optional[frozenset[str]]
    box: Optional[str]
    step: int


class Leg(NamedTuple):
    """One unit's movement in one phase: where it stood when the phase's first drag began (None for a
    reinforcement: it entered at one of `entry.hexes`), the hexes each drag ended in (where the unit is
    known to have stood), the step of each drag, and the step at which a finding condemned the move
    (later drags of the same move are not condemned again)."""
    start: Optional[str]
    ends: tuple[str, ...]
    phase: Optional[int]
    steps: tuple[int, ...] = ()
    entry: Optional[Entry] = None
    faulted: Optional[int] = None
    since: int = 0                             # the step the unit had entered its start hex at (0: the log's start)

    def points(self) -> tuple[str, ...]:
        """The hexes the path is known to pass, in order (a reinforcement's from its first drag's end)."""
        return ((self.start,) if self.start is not None else ()) + self.ends


class Removal(NamedTuple):
    step: int
    counter: Counter
    where: Where


class Roll(NamedTuple):
    """A die roll kept: its step, the roll, the phase label it fell in."""
    step: int
    roll: DieRoll
    phase: Optional[str]


class Discarded(NamedTuple):
    """A roll an undo took back, and what it had settled (a battle's hexes and result), kept past the
    undo so that the roll made again for the same battle is known as a re-roll."""
    step: int                                  # the undone roll's step
    undone_at: int
    roll: DieRoll
    battle: Optional[object]                   # the battles.Battle it settled, if one was read


class PhaseRun:
    """The names of the phase ends a stack stayed wrong through, in order. A stack wrong for a long game is
    carried through thousands of them: each phase end's run adds one name to the list the run before holds
    (not a copy of it all), each run reading only as many as it was made with; one that finds the list
    longer (a run an undo took back had added to it) copies its own part first."""
    __slots__ = ("_names", "_n")

    def __init__(self, names: list, n: int):
        self._names, self._n = names, n

    @staticmethod
    def of(name: str) -> "PhaseRun":
        return PhaseRun([name], 1)

    def plus(self, name: str) -> "PhaseRun":
        names = self._names if len(self._names) == self._n else self._names[:self._n]
        names.append(name)
        return PhaseRun(names, self._n + 1)

    def names(self) -> tuple[str, ...]:
        return tuple(self._names[:self._n])

    def __len__(self) -> int:
        return self._n

    def __eq__(self, other) -> bool:
        return isinstance(other, PhaseRun) and self.names() == other.names()

    def __hash__(self) -> int:
        return hash(self.names())

    def __repr__(self) -> str:
        return f"PhaseRun({self.names()!r})"


class OpenStack(NamedTuple):
    """A stack found over the limit (or mixed) at the end of one or more phases in a row and not yet
    reported: the finding it will be reported with, the step that ended the first of those phases."""
    finding: object
    step: int
    phases: PhaseRun


@dataclass(frozen=True, slots=True)
class OrderState:
    """The order of moving within one phase of one turn: the pieces of the drag under way, the pieces
    whose move is over (piece -> (step, the unit that began moving then)), the steps read."""
    turn: Optional[str] = None
    phase: Optional[int] = None
    group: frozenset = frozenset()
    done: Mapping = field(default_factory=dict)
    read: frozenset = frozenset()
    again: frozenset = frozenset()            # pieces of the last step read that had finished their move


@dataclass(frozen=True, slots=True)
class Ledger:
    turn: Optional[str] = None
    legs: Mapping[str, Leg] = field(default_factory=dict)            # piece -> its moves this phase
    moved_in: Mapping[str, Mapping[int, int]] = field(default_factory=dict)  # this turn: piece -> phase -> step
    moved_turn: Optional[str] = None                                  # the turn `moved_in` is for
    order: OrderState = OrderState()
    battles: tuple = ()                                               # battles.Battle of this combat phase
    battles_phase: Optional[tuple] = None                             # (turn, phase index) they belong to
    rerolled: Mapping[int, int] = field(default_factory=dict)         # undone roll's step -> the step rolling again
    arrivals_used: Mapping[tuple, int] = field(default_factory=dict)  # arrival line key -> units entered
    removed: Mapping[str, Removal] = field(default_factory=dict)
    entered: Mapping[str, int] = field(default_factory=dict)          # piece -> step it last entered its hex
    control: Mapping[str, str] = field(default_factory=dict)          # victory hex -> the side controlling it
    control_open: Mapping[str, tuple] = field(default_factory=dict)   # victory hex -> ((side, step, unit), ...): that
                                                                      # unit's drag may have taken it (a way through it)
    open_stacks: Mapping[tuple, OpenStack] = field(default_factory=dict)
    open_mixes: Mapping[tuple, OpenStack] = field(default_factory=dict)
    rolls: tuple[Roll, ...] = ()
    phase_end_step: int = 0
    played_after_end: Optional[int] = None                            # the step of the first play after the last turn
    game_over_at: Optional[int] = None                                # the step the marker went round past the track's end
                                                                      # (or a phase ended after `shortened_at`)
    shortened_at: Optional[int] = None                                # the elimination's step that ended the game at once
    attacked_in: Mapping[str, Mapping[int, int]] = field(default_factory=dict)  # this turn: piece -> phase -> roll step
    attacked_turn: Optional[str] = None                               # the turn `attacked_in` is for
    phase_legs: Mapping[int, Mapping[str, Leg]] = field(default_factory=dict)  # this turn: phase -> its legs, once over
    withdrawn: Mapping[str, str] = field(default_factory=dict)        # this phase: piece retreating before combat -> its hex then
    retreated: Mapping[str, int] = field(default_factory=dict)        # piece -> the step a retreat or advance took it to its hex
    arrived_by: Mapping[str, tuple] = field(default_factory=dict)     # piece -> the arrival line key it entered by

    def with_(self, **changes) -> "Ledger":
        """A copy with `changes` (field by field through the slots, by a function written out for the fields
        as `dataclasses` writes a class's `__init__`: `dataclasses.replace` costs five times as much, a loop
        over the slots twice, and the replay makes one or more a piece event)."""
        if not changes.keys() <= _NAMES:
            raise TypeError(f"a Ledger has no field {', '.join(sorted(changes.keys() - _NAMES))}")
        return _copied(self, changes)


_NAMES = frozenset(f.name for f in fields(Ledger))


def _copier():
    """`_copied(ledger, changes)`: a new Ledger, each field from `changes` where it names it, else the ledger's."""
    names = [f.name for f in fields(Ledger)]
    scope = {f"set_{n}": Ledger.__dict__[n].__set__ for n in names}
    scope.update(new=object.__new__, Ledger=Ledger)
    lines = [f"    set_{n}(out, changes['{n}'] if '{n}' in changes else ledger.{n})" for n in names]
    exec("def _copied(ledger, changes):\n    out = new(Ledger)\n" + "\n".join(lines) + "\n    return out\n", scope)
    return scope["_copied"]


_copied = _copier()


def phase_rolls(led: "Ledger") -> list[Roll]:
    """The rolls of the current phase, in order, read from the ledger's end (it keeps every roll of the log)."""
    out: list[Roll] = []
    for r in reversed(led.rolls):
        if r.step <= led.phase_end_step:
            break
        out.append(r)
    out.reverse()
    return out


def put(m: Mapping, key, value) -> dict:
    """A copy of mapping `m` with `key` set (the ledger's mappings are never changed in place)."""
    out = dict(m)
    out[key] = value
    return out


def drop(m: Mapping, key) -> Mapping:
    if key not in m:
        return m
    out = dict(m)
    del out[key]
    return out


def at_step(n: int) -> str:
    """Where a step the ledger cites was: step 0 is the log before's (carried over), else this log's."""
    return "in the log before" if n == 0 else f"at step {n}"


def carried_over(led: Ledger) -> Ledger:
    """What a log that continues the previous log's phase (`--chain`, the game saved mid-phase) keeps of that
    log's ledger at its end: the phase's legs (MP spent, ZOC entered), battles and rolls, what moved this
    turn, the retreats and withdrawals, the arrivals used. Every step they cite becomes 0, this log's start
    (the steps are the previous log's); what was reported there (open stacks, re-rolls) is not carried."""
    def moves(paths):
        return tuple((p, tuple((h, 0) for h, _ in path)) for p, path in paths)
    legs = {p: leg._replace(steps=(0,) * len(leg.steps), entry=leg.entry._replace(step=0) if leg.entry else None,
                            faulted=0 if leg.faulted is not None else None) for p, leg in led.legs.items()}
    battles = tuple(b._replace(step=0, losses=tuple((p, what, 0) for p, what, _ in b.losses), rerolls=None,
                               retreats=moves(b.retreats), advances=moves(b.advances)) for b in led.battles)
    phase = led.rolls[-1].phase if led.rolls else None            # the rolls of the phase that goes on
    return Ledger(turn=led.turn, legs=legs, moved_turn=led.moved_turn,
                  moved_in={p: {i: 0 for i in m} for p, m in led.moved_in.items()},
                  attacked_in={p: {i: 0 for i in m} for p, m in led.attacked_in.items()}, attacked_turn=led.attacked_turn,
                  battles=battles, battles_phase=led.battles_phase,
                  rolls=tuple(r._replace(step=0) for r in led.rolls if r.phase == phase),
                  arrivals_used=led.arrivals_used, arrived_by=led.arrived_by, withdrawn=led.withdrawn,
                  retreated={p: 0 for p in led.retreated}, entered={p: 0 for p in led.entered})
