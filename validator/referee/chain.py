"""Logs of one game in order (`hexforge audit --chain`): each log starts where the previous one ended.

A game played by e-mail is a chain of logs: VASSAL's saved game at the end of one log is the
snapshot the next log restores. `ends(record)` walks a record's steps (VASSAL's undo taken back)
to its last position and turn; audited with the previous log's ends (`Previous`), a log's start is
judged against them: a turn or phase that does not follow on (HF1651) and every piece that stands
elsewhere, shows another state, or is missing or new between the two (HF1652), at step 0 (the
log's start). No game is named here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, NamedTuple, Optional

from ..positions.position import Counter, Position, Where
from ..records.record import GameRecord, Moved, Placed, Removed, StateChanged, Step, TurnChanged
from . import Finding, Verdict, found, rule

MAX_PIECE_FINDINGS = 20           # a chain of two unrelated games differs everywhere: name the first ones


@dataclass(frozen=True, slots=True)
class Ends:
    """Where a record starts and where it ends: the position, turn and phase at each end."""
    start: Position
    start_turn: Optional[str]
    start_phase: Optional[str]
    end: Position
    end_turn: Optional[str]
    end_phase: Optional[str]


class _Walk:
    """The pieces' places while walking a record; each step's changes are kept to take back on undo."""

    def __init__(self, record: GameRecord):
        self.at: dict[str, tuple[Where, Counter]] = {c.piece: (w, c) for c, w in record.start}
        self.turn, self.phase = record.start_turn, record.start_phase
        self.history: list[tuple[list[tuple[str, Optional[tuple[Where, Counter]]]], Optional[str], Optional[str]]] = []

    def step(self, s: Step) -> None:
        if s.undo:
            if self.history:
                self._take_back(self.history.pop())
            return
        changes: list[tuple[str, Optional[tuple[Where, Counter]]]] = []
        turn, phase = self.turn, self.phase
        for e in s.events:
            if isinstance(e, Placed):
                self._put(changes, e.counter, e.where)
            elif isinstance(e, Moved):
                self._put(changes, e.counter, e.dst)
            elif isinstance(e, Removed):
                changes.append((e.counter.piece, self.at.pop(e.counter.piece, None)))
            elif isinstance(e, StateChanged):
                old = self.at.get(e.counter.piece)
                changes.append((e.counter.piece, old))
                self.at[e.counter.piece] = (old[0] if old else e.where, e.counter)
            elif isinstance(e, TurnChanged):
                self.turn, self.phase = e.turn, e.phase
        self.history.append((changes, turn, phase))

    def _put(self, changes: list, counter: Counter, where: Where) -> None:
        changes.append((counter.piece, self.at.pop(counter.piece, None)))
        self.at[counter.piece] = (where, counter)           # on top of the stack it joins

    def _take_back(self, entry) -> None:
        changes, self.turn, self.phase = entry
        for piece, old in reversed(changes):
            self.at.pop(piece, None)
            if old is not None:
                self.at[piece] = old

    def position(self) -> Position:
        return Position(dict(self.at))


def positions_at(record: GameRecord, steps: Iterable[int]) -> dict[int, Position]:
    """The position after each of `steps` (an undo step: the position before the step it undoes)."""
    wanted = set(steps)
    walk = _Walk(record)
    out: dict[int, Position] = {}
    for s in record.steps:
        walk.step(s)
        if s.index in wanted:
            out[s.index] = walk.position()
    return out


def ends(record: GameRecord) -> Ends:
    walk = _Walk(record)
    for s in record.steps:
        walk.step(s)
    return Ends(record.start, record.start_turn, record.start_phase, walk.position(), walk.turn, walk.phase)


class Previous(NamedTuple):
    """The log before this one in a chain: its name, its two ends, and its record (what was taken in it:
    the victory hexes a unit entered and left are still its side's, scenario.start_control); `earlier`: the
    records of the chain's logs before that one, in order (what was taken in them holds too)."""
    name: str
    ends: Ends
    record: Optional[GameRecord] = None
    earlier: tuple[GameRecord, ...] = ()


@rule("HF1651", "chain-turn-gap", "error",
      "audit the logs in the order they were played, and include every log of the game: the next log "
      "starts at the turn and phase the previous one ended in", on="start")
def chain_turn_gap(v) -> Optional[Verdict]:
    """A chained log starts at another turn or phase than the previous log ended in.

    ## What it checks
    With `--chain`, each log's turn and phase when logging began against the turn and phase the log
    before it ended in (where both logs' turn trackers record them). Located at step 0, the log's start.
    ## Why
    A game played by e-mail is a chain of logs: each restores the position the previous one saved. A
    gap means a log is missing or the logs are out of order.
    ## Reads
    the two records' turn tracker states; the turn track's rule.
    ## Violation
    The turn 2 log of a Meuse game audited after the turn 3 log.
    ## Near miss
    The turn 2 log after the turn 1 log, which ended at turn 2's Red Movement Phase.
    """
    prev = v.facts.previous
    if prev is None:
        return None
    p, n = prev.ends, Ends(v.record.start, v.record.start_turn, v.record.start_phase, v.record.start,
                           v.record.start_turn, v.record.start_phase)
    if p.end_turn is None or n.start_turn is None:
        return None                 # a log without a turn tracker: nothing to compare
    phases_known = p.end_phase is not None and n.start_phase is not None
    if p.end_turn == n.start_turn and (not phases_known or p.end_phase == n.start_phase):
        return None

    def at(turn, phase):
        return f"turn {turn}" + (f", phase {phase}" if phase and phases_known else "")
    return found(Finding(message=f"starts at {at(n.start_turn, n.start_phase)}, but {prev.name} ended at "
                                 f"{at(p.end_turn, p.end_phase)}", step=0, turn=n.start_turn, phase=n.start_phase,
                         rule=_track_rule(v)))


def _track_rule(v) -> Optional[str]:
    """The sequence of play's rule (the first phase's that names one)."""
    return next((p.rule for p in v.game.phases if p.rule), None)


@rule("HF1652", "chain-position-changed", "error",
      "the next log restores the position the previous log ended with; a piece moved, added, removed or "
      "flipped between the two logs is a change no log records (or a log is missing)", on="start")
def chain_position_changed(v) -> Optional[Verdict]:
    """A piece stands elsewhere, shows another state, or is missing or new between two chained logs.

    ## What it checks
    With `--chain`, every piece of the previous log's end position against this log's start: moved,
    flipped, missing or new. Located at step 0; the first pieces are named, then how many more differ.
    ## Why
    Nothing happens in the game between two logs of it; a change there is a move no log records.
    ## Reads
    the two records' positions; the scenario's rule.
    ## Violation
    A Meuse turn 2 log whose start has Red's tank battalion one hex east of where the turn 1 log left it.
    ## Near miss
    The same two logs with the tank where turn 1 left it.
    """
    prev = v.facts.previous
    if prev is None:
        return None
    rule_no = v.scenario.rule if v.scenario else None
    out = [f._replace(rule=rule_no) for f in _changed_pieces(prev.ends.end, v.record.start, prev.name, v.look.label)]
    return found(*out)


def _changed_pieces(before: Position, after: Position, previous_name: str,
                    label: Callable) -> list[Finding]:
    out: list[Finding] = []
    pieces = list(dict.fromkeys([c.piece for c, _ in before] + [c.piece for c, _ in after]))
    for piece in pieces:
        f = _piece_change(piece, before, after, previous_name, label)
        if f is not None:
            out.append(f)
    if len(out) > MAX_PIECE_FINDINGS:
        rest = len(out) - MAX_PIECE_FINDINGS
        out = out[:MAX_PIECE_FINDINGS] + [Finding(message=f"… and {rest} more piece(s) differ from the end of "
                                                          f"{previous_name}", step=0)]
    return out


def _piece_change(piece: str, before: Position, after: Position, previous_name: str,
                  label: Callable) -> Optional[Finding]:
    w0, w1 = before.where(piece), after.where(piece)
    c0, c1 = before.counter(piece), after.counter(piece)
    c = c1 or c0
    name = f"{label(c)} (piece {piece})"
    hexes = tuple(dict.fromkeys(w.hex for w in (w0, w1) if w is not None and w.hex))
    if w1 is None:
        msg = f"{name} stood at {w0} when {previous_name} ended and is missing from this log's start"
    elif w0 is None:
        msg = f"{name} stands at {w1} at this log's start but was not in play when {previous_name} ended"
    elif w0 != w1:
        msg = f"{name} stood at {w0} when {previous_name} ended and stands at {w1} at this log's start"
    elif c0.state != c1.state:
        old, new = ", ".join(sorted(c0.state)) or "full strength", ", ".join(sorted(c1.state)) or "full strength"
        msg = f"{name} at {w1} was {old} when {previous_name} ended and is {new} at this log's start"
    else:
        return None
    return Finding(message=msg, hexes=hexes, units=(label(c),), step=0)
