"""Logs of one game in order (`hexforge audit --chain`): each log starts where the previous one ended.

A game played by e-mail is a chain of logs: VASSAL's saved game at the end of one log is the
snapshot the next log restores. `ends(record)` walks a record's steps (VASSAL's undo taken back)
to its last position and turn; `compare(previous, next)` reports a turn or phase that does not
follow on (HF1651) and every piece that stands elsewhere, shows another state, or is missing or
new between the two (HF1652). Pure functions of two records' ends; no game is named here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from ..codes import declare
from ..model import Game
from ..position import Counter, Position, Where
from ..record import GameRecord, Moved, Placed, Removed, StateChanged, Step, TurnChanged
from .replay import AuditFinding

CHAIN_GAP = declare(
    "HF1651", "chain-turn-gap", "error",
    "audit the logs in the order they were played, and include every log of the game: the next log "
    "starts at the turn and phase the previous one ended in", "audit")
CHAIN_POSITION_CHANGED = declare(
    "HF1652", "chain-position-changed", "error",
    "the next log restores the position the previous log ended with; a piece moved, added, removed or "
    "flipped between the two logs is a change no log records (or a log is missing)", "audit")

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


def compare(previous: Ends, nxt: Ends, previous_name: str, game: Optional[Game] = None) -> list[AuditFinding]:
    """What changed between the end of the previous log and the start of the next (the next log's findings);
    units are named by the game's unit names where it knows them."""
    def label(unit_id: str) -> str:
        u = game.unit(unit_id) if game is not None else None
        return u.name if u else unit_id
    return _turn_gap(previous, nxt, previous_name) + _changed_pieces(previous.end, nxt.start, previous_name, label)


def _finding(code, message: str, hexes: tuple[str, ...] = (), units: tuple[str, ...] = (),
             turn: Optional[str] = None, phase: Optional[str] = None) -> AuditFinding:
    return AuditFinding(code.code, code.severity, message, code.help, None, None, turn, phase, None, None,
                        hexes, units)


def _turn_gap(previous: Ends, nxt: Ends, previous_name: str) -> list[AuditFinding]:
    if previous.end_turn is None or nxt.start_turn is None:
        return []                   # a log without a turn tracker: nothing to compare
    phases_known = previous.end_phase is not None and nxt.start_phase is not None
    if previous.end_turn == nxt.start_turn and (not phases_known or previous.end_phase == nxt.start_phase):
        return []
    def at(turn, phase):
        return f"turn {turn}" + (f", phase {phase}" if phase and phases_known else "")
    return [_finding(CHAIN_GAP, f"starts at {at(nxt.start_turn, nxt.start_phase)}, but {previous_name} ended "
                                f"at {at(previous.end_turn, previous.end_phase)}",
                     turn=nxt.start_turn, phase=nxt.start_phase)]


def _changed_pieces(before: Position, after: Position, previous_name: str,
                    label: Callable[[str], str]) -> list[AuditFinding]:
    out: list[AuditFinding] = []
    pieces = list(dict.fromkeys([c.piece for c, _ in before] + [c.piece for c, _ in after]))
    for piece in pieces:
        f = _piece_change(piece, before, after, previous_name, label)
        if f is not None:
            out.append(f)
    if len(out) > MAX_PIECE_FINDINGS:
        rest = len(out) - MAX_PIECE_FINDINGS
        out = out[:MAX_PIECE_FINDINGS] + [_finding(CHAIN_POSITION_CHANGED,
                                                   f"… and {rest} more piece(s) differ from the end of {previous_name}")]
    return out


def _piece_change(piece: str, before: Position, after: Position, previous_name: str,
                  label: Callable[[str], str]) -> Optional[AuditFinding]:
    w0, w1 = before.where(piece), after.where(piece)
    c0, c1 = before.counter(piece), after.counter(piece)
    c = c1 or c0
    name = f"{label(c.unit)} (piece {piece})"
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
    return _finding(CHAIN_POSITION_CHANGED, msg, hexes, (label(c.unit),))
