"""The replay loop: the game state step by step, and the moments the rules judge.

State: the position, the turn, the phase (`PhaseTracker`), each unit's movement this phase (its
start hex and the hexes its drags ended in), the units removed, the arrival lines used, the dice. Each step's
events are applied in order; before each, the rules registered for that moment run. VASSAL's Undo
restores the state before the step it undoes and withdraws that step's findings.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Optional

from ..codes import CODES
from ..model import Game, Scenario, Unit
from ..position import Counter, Position
from ..record import Chat, DieRoll, GameRecord, Moved, Placed, Removed, StateChanged, Step, TurnChanged, is_map_move
from . import Finding, rules_on, rules_on_event
from .arrivals import consume
from .costs import ClassCosts, costs_by_class
from .phases import PhaseTracker


class Leg(NamedTuple):
    """One unit's movement in one phase: where it stood when the phase's first drag began, and
    the hexes each drag ended in (a unit is known to have stood there). A NamedTuple, as `Moment` and
    `AuditFinding`: immutable, and made once or more per event, more cheaply than a frozen dataclass."""
    start: str
    ends: tuple[str, ...]
    phase: Optional[int]
    reported: bool = False                    # a violation of this leg was reported already


class Moment(NamedTuple):
    kind: str                                 # start | event | phase-end | end
    step: Optional[Step] = None
    event: object = None
    reading: Optional[tuple[int, str]] = None  # the phase a move falls in, and as "move" or "combat"
    before: Optional[Position] = None
    read_as: Optional[str] = None             # how the event is read: one of validator.referee.READINGS


class AuditFinding(NamedTuple):
    code: str
    severity: str
    message: str
    help: str
    rule: Optional[str]
    step: Optional[int]
    turn: Optional[str]
    phase: Optional[str]                      # phase id
    phase_label: Optional[str]                # "US Movement Phase, inferred"
    side: Optional[str]
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()

    def as_json(self) -> dict:
        return {"code": self.code, "severity": self.severity, "message": self.message, "help": self.help,
                "rule": self.rule, "step": self.step, "turn": self.turn, "phase": self.phase,
                "side": self.side, "hexes": list(self.hexes), "units": list(self.units)}


@dataclass
class Replay:
    """The context every rule receives: the game, the record and the state of the replay."""
    game: Game
    record: GameRecord
    scenario: Optional[Scenario]
    position: Position
    turn: Optional[str]
    tracker: PhaseTracker
    costs: dict
    legs: dict = field(default_factory=dict)          # piece -> Leg (this phase)
    entered: dict = field(default_factory=dict)       # piece -> step it last entered its hex (moved or placed)
    removed: dict = field(default_factory=dict)       # piece -> (step, Counter, Where)
    arrivals_used: dict = field(default_factory=dict) # (order index, arrival index, unit) -> count used
    dice: list = field(default_factory=list)          # (step, DieRoll, phase label)
    findings: list = field(default_factory=list)
    coverage: dict = field(default_factory=dict)      # step -> {"partly": [...], "not": [...]}
    memo: dict = field(default_factory=dict)
    at_step: dict = field(default_factory=dict)       # step -> (turn, phase id, phase label, phasing side)
    order: dict = field(default_factory=dict)         # the order of moving (validator.referee.order); values immutable
    # pure functions of the game and their arguments, kept across undos (never snapshotted)
    paths: dict = field(default_factory=dict)         # movement: a searched path's result by what it depends on
    _by_position: tuple = (None, None)                # (the position, its look-ups): rebuilt when it changes
    judging: tuple = (None, None)                     # (moment, what the movement rules read of its move)
    _step_at: Optional[dict] = None                   # id(step) -> its place in record.steps
    _units: dict = field(default_factory=dict)        # unit id -> the game's Unit (None: not in the game)
    _sides: dict = field(default_factory=dict)        # (unit id, counter's side) -> the unit's side
    _finding_steps: dict = field(default_factory=dict)  # step -> findings recorded for it (a filter's hint)

    # -- look-ups rules share --
    @property
    def grid(self):
        return self.game.grid

    def unit(self, c: Counter) -> Optional[Unit]:
        try:
            return self._units[c.unit]
        except KeyError:
            u = self._units[c.unit] = self.game.unit(c.unit)
            return u

    def side_of(self, c: Counter) -> Optional[str]:
        key = (c.unit, c.side)
        try:
            return self._sides[key]
        except KeyError:
            u = self.unit(c)
            s = self._sides[key] = c.side or (u.side if u else None)
            return s

    def class_of(self, c: Counter) -> Optional[str]:
        u = self.unit(c)
        return u.movement_class if u else None

    def class_costs(self, c: Counter) -> ClassCosts:
        cls = self.class_of(c)
        return self.costs.get(cls) or self.costs[None]

    def allowance(self, c: Counter) -> Optional[int]:
        """The unit's movement factor in its current state (the reduced side's where it is reduced)."""
        u = self.unit(c)
        if u is None:
            return None
        f = u.reduced if ("reduced" in c.state and u.reduced) else u.factors
        return f.get("movement") if f else None

    def label(self, c: Counter) -> str:
        u = self.unit(c)
        return u.name if u else c.unit

    def of_position(self) -> dict:
        """A cache of look-ups on the current position, emptied whenever the position changes."""
        pos, cache = self._by_position
        if cache is None or pos is not self.position:
            cache = {}
            self._by_position = (self.position, cache)
        return cache

    def enemies(self, side: Optional[str]) -> dict[str, tuple[Counter, ...]]:
        """Hexes held by units of another side than `side`, each hex's units in the position's order
        (do not change the dict: it is shared)."""
        cache = self.of_position()
        key = ("enemies", side)
        held = cache.get(key)
        if held is None:
            out: dict[str, list[Counter]] = {}
            if side is not None:
                for (h, s), units in self.counted_stacks(self.position).items():
                    if s is not None and s != side:
                        out.setdefault(h, []).append(units)
            held = cache[key] = {h: tuple(parts[0]) if len(parts) == 1 else self._merged(h, side)
                                 for h, parts in out.items()}
        return held

    def _merged(self, h: str, side: Optional[str]) -> tuple[Counter, ...]:
        """A hex several enemy sides share: their units in the position's order."""
        return tuple(c for c in self.position.at(h) if c.kind == "unit" and (s := self.side_of(c)) is not None
                     and s != side)

    def enemy_hexes(self, side: Optional[str]) -> frozenset:
        """The hexes of `enemies`, as one set per position (a path search's key: hashed once)."""
        cache = self.of_position()
        key = ("enemy-hexes", side)
        hexes = cache.get(key)
        if hexes is None:
            hexes = cache[key] = frozenset(self.enemies(side))
        return hexes

    def counted_stacks(self, position: Position) -> dict:
        """(hex, side) -> the units on the hex there, in the position's order (what counts for stacking;
        do not change it: it is shared). Kept per position, and carried to the next one."""
        cache = self.of_position() if position is self.position else {}
        stacks = cache.get("counted_stacks")
        if stacks is None:
            out: dict = {}                         # keyed in no useful order: callers sort by (hex, side)
            side_of = self.side_of
            for c, w in position:
                if c.kind == "unit" and w.hex is not None:
                    out.setdefault((w.hex, side_of(c)), []).append(c)
            stacks = cache["counted_stacks"] = out
        return stacks

    def carry_stacks(self, before: Position, piece: str, in_place: bool) -> None:
        """The position changed from `before` in one piece: derive its stacks from those of `before`
        rather than from every counter, and keep a side's look-ups (its enemies, their ZOC) where only
        a unit of that side changed. `in_place`: the piece kept its place in the order (else it went
        last, as `Position.placed` puts it)."""
        pos, cache = self._by_position
        if cache is None or pos is not before or "counted_stacks" not in cache or pos is self.position:
            return
        old, new = _stack_of(self, before, piece), _stack_of(self, self.position, piece)
        stacks = _restacked(cache["counted_stacks"], piece, old, new, in_place)
        if stacks is None:
            return                                 # its place in the order is not known: rebuild
        fresh = {"counted_stacks": stacks}
        changed = {x[1] for x in (old, new) if x is not None and x[1] is not None}
        for key, v in cache.items():               # keyed (look-up, side): see enemies
            if isinstance(key, tuple) and changed <= {key[1]}:
                fresh[key] = v
        self._by_position = (self.position, fresh)

    def phase_id(self) -> Optional[str]:
        p = self.tracker.phase()
        return p.id if p else None

    def phase_side(self) -> Optional[str]:
        p = self.tracker.phase()
        return p.side if p else None

    def findings_at(self, step: Optional[int]) -> bool:
        """Whether a finding was recorded for the step (it may have been withdrawn since): where
        not, nothing of that step needs filtering out of `findings`."""
        return bool(self._finding_steps.get(step))

    def _coverage_of(self, step: int) -> dict:
        cov = self.coverage.get(step)
        if cov is None:
            cov = self.coverage[step] = {"partly": [], "not": []}
        return cov

    def partly(self, step: Optional[int], reason: str) -> None:
        if step is not None:
            self._coverage_of(step)["partly"].append(reason)

    def unverified(self, step: Optional[int], reason: str, noted: bool = False) -> None:
        """The step could not be judged; `noted`: a finding of its own says so already (no HF1902 too)."""
        if step is not None:
            cov = self._coverage_of(step)
            cov["not"].append(reason)
            if noted:
                cov.setdefault("noted", []).append(reason)

    def steps_after(self, step: Step) -> Iterable[Step]:
        """The record's steps after one step, up to the next turn change."""
        if self._step_at is None:
            self._step_at = {id(s): i for i, s in enumerate(self.record.steps)}
        i = self._step_at.get(id(step))
        if i is None or self.record.steps[i] is not step:
            return
        steps = self.record.steps
        for j in range(i + 1, len(steps)):
            s = steps[j]
            if any(isinstance(e, TurnChanged) for e in s.events):
                return
            yield s


def _stack_of(ctx: Replay, position: Position, piece: str) -> Optional[tuple]:
    """(hex, side, counter) of a unit on a hex of the position, else None."""
    w, c = position.where(piece), position.counter(piece)
    if c is None or c.kind != "unit" or w is None or w.hex is None:
        return None
    return w.hex, ctx.side_of(c), c


def _restacked(stacks: dict, piece: str, old: Optional[tuple], new: Optional[tuple],
               in_place: bool) -> Optional[dict]:
    """`Replay.counted_stacks` after one piece changed from `old` to `new` ((hex, side, counter) or
    None: not a unit on the map), its lists kept in the position's order; None where that order is
    not known (the piece kept its place but changed stacks: rebuild)."""
    out = dict(stacks)
    if in_place and old is not None and new is not None:
        if old[:2] != new[:2]:
            return None
        key = old[:2]
        out[key] = [new[2] if x.piece == piece else x for x in out[key]]
        return out
    if old is not None:
        key = old[:2]
        rest = [x for x in out[key] if x.piece != piece]
        if rest:
            out[key] = rest
        else:
            del out[key]
    if new is not None:
        if in_place:
            return None                            # placed where it was not: its place is not known
        key = new[:2]
        out[key] = out.get(key, []) + [new[2]]
    return out


def run_rules(ctx: Replay, m: Moment) -> None:
    step_no = m.step.index if m.step else None
    for r in (rules_on_event(type(m.event), m.read_as) if m.kind == "event" else rules_on(m.kind)):
        for f in r.func(ctx, m) or ():
            _record(ctx, r, f, step_no)


def _record(ctx: Replay, r, f: Finding, step_no: Optional[int]) -> None:
    declared = CODES.get(f.code) if f.code else None      # a verdict under another declared code
    step = f.step if f.step is not None else step_no
    if step is None:                                       # the start position: before any phase
        turn, phase, label, side = ctx.record.start_turn or ctx.turn, None, None, None
    else:
        turn, phase, label, side = ctx.at_step.get(step) or (ctx.turn, ctx.phase_id(), ctx.tracker.label(),
                                                             ctx.phase_side())
    ctx._finding_steps[step] = ctx._finding_steps.get(step, 0) + 1
    ctx.findings.append(AuditFinding(
        f.code or r.code, f.severity or (declared or r).severity, f.message,
        f.help or (declared or r).help, f.rule, step, turn, phase, label,
        f.side if f.side is not None else side, tuple(f.hexes), tuple(f.units)))


def _note_step(ctx: Replay, step: Step) -> None:
    p = ctx.tracker.phase()
    ctx.at_step[step.index] = (ctx.turn, p.id if p else None, ctx.tracker.label(), p.side if p else None)


# -- the loop --

def replay(game: Game, record: GameRecord, scenario: Optional[Scenario], memo: Optional[dict] = None) -> Replay:
    tracker = PhaseTracker(game)
    tracker.reset(record.start_phase)
    ctx = Replay(game, record, scenario, record.start, record.start_turn or _first_turn(game, scenario),
                 tracker, costs_by_class(game), memo=dict(memo or {}))
    run_rules(ctx, Moment("start"))
    undoable: list[tuple[Step, frozenset, Optional[dict]]] = []   # (step, its pieces, the state before it)
    for step in record.steps:
        if step.undo:
            _undo(ctx, step, undoable)
            continue
        pieces = _pieces(step)
        snap = _snapshot(ctx) if pieces else None      # an undo restores the state only where pieces moved
        for ev in step.events:
            _apply(ctx, step, ev)
        undoable.append((step, pieces, snap))
        if len(undoable) > UNDO_DEPTH:             # what no undo can reach any more
            del undoable[0]
    run_rules(ctx, Moment("end"))
    return ctx


_PIECE_EVENTS = (Moved, Placed, Removed, StateChanged)


def _first_turn(game: Game, scenario: Optional[Scenario]) -> Optional[str]:
    if scenario and scenario.first_turn:
        return scenario.first_turn
    return game.turns[0].id if game.turns else None


# How many of the latest steps an undo can take back. VASSAL's Undo steps back through the latest
# steps one by one; a player who presses it this many times in a row is beyond what the referee replays.
UNDO_DEPTH = 200


def _snapshot(ctx: Replay) -> dict:
    """The state before a step, for an undo of it. The dice are kept as (the list, its length): a list
    is only ever appended to while it is `ctx.dice` (an undo gives `ctx.dice` a new list), so its
    first `length` entries are the dice as they were."""
    return {"position": ctx.position, "turn": ctx.turn, "dice": (ctx.dice, len(ctx.dice)),
            "tracker": ctx.tracker.copied(),
            "legs": dict(ctx.legs), "entered": dict(ctx.entered), "removed": dict(ctx.removed),
            "arrivals_used": dict(ctx.arrivals_used), "order": dict(ctx.order),
            "memo": ctx.memo.copy()}


def _pieces(step: Step) -> frozenset:
    return frozenset(e.counter.piece for e in step.events if isinstance(e, _PIECE_EVENTS))


def _undo(ctx: Replay, step: Step, undoable: list) -> None:
    """VASSAL's Undo takes back one earlier step: the latest one touching the same pieces (or, for an
    undo that moves nothing, the latest that moved nothing: a roll or a chat line)."""
    want = _pieces(step)
    hit = next((i for i in range(len(undoable) - 1, -1, -1) if undoable[i][1] == want), None)
    if hit is None:
        ctx.unverified(step.index, "an undo that matches no earlier step; the position may differ from the game's")
        return
    undone, _, snap = undoable.pop(hit)
    if snap is not None:
        for k, v in snap.items():
            setattr(ctx, k, v)
        dice, n = snap["dice"]
        ctx.dice = dice[:n]
    _drop_dice(ctx, undone.index)
    if ctx._finding_steps.pop(undone.index, 0):       # only findings recorded for it can go
        ctx.findings = [f for f in ctx.findings if f.step != undone.index]
    ctx.coverage.pop(undone.index, None)
    ctx.coverage.setdefault(undone.index, {"partly": [], "not": []})["undone"] = step.index


def _drop_dice(ctx: Replay, step_no: int) -> None:
    """The rolls of one step taken back. The dice are in step order, so its rolls are found by bisection;
    a new list replaces the old one (snapshots hold the old one's length)."""
    i = bisect.bisect_left(ctx.dice, step_no, key=lambda d: d[0])
    if i < len(ctx.dice) and ctx.dice[i][0] == step_no:
        ctx.dice = ctx.dice[:i] + [d for d in ctx.dice[i:] if d[0] != step_no]


def _apply(ctx: Replay, step: Step, ev) -> None:
    _APPLY.get(type(ev), _apply_piece_event)(ctx, step, ev)


def _apply_turn(ctx: Replay, step: Step, ev: TurnChanged) -> None:
    _end_phase(ctx, step)
    ctx.turn = ev.turn or ctx.turn
    ctx.tracker.reset(ev.phase, step.index)
    ctx.legs = {}
    _note_step(ctx, step)
    run_rules(ctx, Moment("event", step, ev))


def _apply_chat(ctx: Replay, step: Step, ev: Chat) -> None:
    i = ctx.tracker.match_announcement(ev.text)
    if i is None:
        return
    before = ctx.tracker.current()
    if before is not None and i > before:
        _end_phase(ctx, step)
    if ctx.tracker.announce(i, step.index):
        _note_step(ctx, step)
    else:
        ctx.partly(step.index, f"the chat names the {ctx.tracker.name(i)}, which the events had passed")


def _apply_roll(ctx: Replay, step: Step, ev: DieRoll) -> None:
    ctx.tracker.rolled()
    ctx.dice.append((step.index, ev, ctx.tracker.label()))
    _note_step(ctx, step)
    run_rules(ctx, Moment("event", step, ev))


def _apply_piece_event(ctx: Replay, step: Step, ev) -> None:
    reading, read = None, _read_other(ev)
    if is_map_move(ev):
        reading = _read_move(ctx, step, ev)
        read = "unread" if reading is None else "move" if reading[1] == "move" else "after-combat"
    _note_step(ctx, step)
    run_rules(ctx, Moment("event", step, ev, reading, ctx.position, read))
    _change_position(ctx, step, ev)


def _read_move(ctx: Replay, step: Step, ev: Moved) -> Optional[tuple[int, str]]:
    """The phase a unit's map move falls in, and as what (`PhaseTracker.reading`); the phase it
    forces begins (the one before it ends), and a move in a movement phase extends the unit's leg."""
    t = ctx.tracker
    reading = t.reading(ctx.side_of(ev.counter), ctx.class_of(ev.counter))
    if not t.knows_moves():
        # no phase says who moves: judge the path, not the phase
        reading = (t.current(), "move")
        ctx.partly(step.index, "the sequence of play does not say in which phases units move; "
                               "the phase of this move is not judged")
    elif reading and reading[0] != t.current():
        _end_phase(ctx, step)
    if reading and reading[0] is not None:
        t.enter(reading[0], step.index)
    if reading and reading[1] == "move":
        _extend_leg(ctx, ev, reading[0])
    return reading


_APPLY = {TurnChanged: _apply_turn, Chat: _apply_chat, DieRoll: _apply_roll}


def _read_other(ev) -> str:
    """How a piece event that is not a unit's map move is read: a unit coming onto the map, or other."""
    if ev.counter.kind == "unit" and (
            (isinstance(ev, Moved) and ev.src.hex is None and ev.dst.hex is not None)
            or (isinstance(ev, Placed) and ev.where.hex is not None)):
        return "entry"
    return "other"


def _extend_leg(ctx: Replay, ev: Moved, phase: Optional[int]) -> None:
    """The unit's movement this phase gains a drag (a new leg if it had not moved in this phase)."""
    leg = ctx.legs.get(ev.counter.piece)
    if leg is None or leg.phase != phase:
        leg = Leg(ev.src.hex, (ev.dst.hex,), phase)
    else:
        leg = Leg(leg.start, leg.ends + (ev.dst.hex,), phase, leg.reported)
    ctx.legs[ev.counter.piece] = leg


def _end_phase(ctx: Replay, step: Step) -> None:
    """The current phase is over (a later phase or turn begins): judge its end, start new legs."""
    run_rules(ctx, Moment("phase-end", step, None, None, ctx.position))
    ctx.legs = {}
    ctx.memo["phase_end_step"] = step.index


def _change_position(ctx: Replay, step: Step, ev) -> None:
    before = ctx.position
    in_place = isinstance(ev, StateChanged) and before.where(ev.counter.piece) is not None
    _changed_position(ctx, step, ev)
    if isinstance(ev, _PIECE_EVENTS):
        ctx.carry_stacks(before, ev.counter.piece, in_place)


def _changed_position(ctx: Replay, step: Step, ev) -> None:
    if isinstance(ev, Moved):
        c = ev.counter
        ctx.position = ctx.position.placed(c, ev.dst)
        ctx.entered[c.piece] = step.index
        if ev.src.hex is None and ev.dst.hex is not None:
            consume(ctx, c, ev.dst.hex)
    elif isinstance(ev, Placed):
        ctx.position = ctx.position.placed(ev.counter, ev.where)
        ctx.entered[ev.counter.piece] = step.index
        if ev.where.hex is not None:
            consume(ctx, ev.counter, ev.where.hex)
    elif isinstance(ev, Removed):
        ctx.removed[ev.counter.piece] = (step.index, ev.counter, ev.where)
        ctx.position = ctx.position.removed(ev.counter.piece)
        ctx.legs.pop(ev.counter.piece, None)
    elif isinstance(ev, StateChanged):
        if ctx.position.where(ev.counter.piece) is not None:
            ctx.position = ctx.position.changed(ev.counter)
        else:
            ctx.position = ctx.position.placed(ev.counter, ev.where)
