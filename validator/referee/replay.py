"""The replay: the game step by step, the ledger kept, and the moments the rules judge.

State: the position, the phase (`PhaseTracker`) and the ledger (validator.referee.ledger). For each
event the replay, in order: reads it (which phase it falls in and as what: a move, an entry, a
retreat or advance, ...; a move's drag joins its unit's leg, a roll is tied to a battle), shows the
rules that judge such an event a read-only `View` of that moment and records their verdicts, then
keeps the ledger (`keepers`) and changes the position. A phase's end and the log's end are moments
too. VASSAL's Undo puts back the state before the step it undoes and withdraws the findings that
step's moments made; a roll it takes back is kept as discarded (a re-roll names it).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..codes import CODES
from ..source.model import Game, Scenario
from ..positions.position import Position
from ..records.record import GameRecord, Step
from . import Finding, Verdict, rules_on
from .ledger import Discarded, Ledger, carried_over
from .phases import PhaseTracker
from .undo import DEPTH as UNDO_DEPTH, undone_by
from .keepers import read_event
from .view import Facts, Lookups, View



class Replay:
    """The replay's state (rules never see it: they see `View`s of it)."""

    def __init__(self, game: Game, record: GameRecord, scenario: Optional[Scenario], facts: Facts,
                 look: Optional[Lookups] = None, carry: Optional["Replay"] = None):
        self.game, self.record, self.scenario, self.facts = game, record, scenario, facts
        self.look = look or Lookups(game)
        self.position: Position = record.start
        self.tracker = PhaseTracker(game)
        # the turn marker's phase when the log began, and its turn (only as recorded: a phase left out of some
        # turns is judged so only where the log says which turn it is)
        self.tracker.reset(record.start_phase, 0, record.start_turn)
        if _begins_in_combat(game, scenario, record, facts) or (carry is not None and carry.tracker.rolled_here):
            self.tracker.rolled()                      # a roll made before the log began may be settled in it
        control, control_open = _start_control(facts)
        self.ledger = Ledger(turn=record.start_turn or _first_turn(game, scenario), control=control,
                             control_open=control_open)
        if carry is not None:                          # the previous log's phase goes on in this one
            self.ledger = carried_over(carry.ledger).with_(control=control, control_open=control_open)
        self.findings: list[Finding] = []
        self.made_at: list[Optional[int]] = []        # the step whose moment made each finding
        self._made: dict = {}                         # step -> how many findings its moments made
        self.coverage: dict[int, dict] = {}           # step -> {"partly": [...], "not": [...], ...}
        self.at_step: dict[int, tuple] = {}           # step -> (turn, phase id, phase label, phasing side)
        self.discarded: tuple[Discarded, ...] = ()    # rolls an undo took back (kept past the undo)

    def view(self, kind: str, step: Optional[Step] = None, event=None, read_as: Optional[str] = None,
             reading=None) -> View:
        return View(kind, self.look, self.facts, self.position, self.ledger, self.tracker, step, event, read_as,
                    reading, coverage=self.coverage, discarded=self.discarded)

    # -- verdicts --
    def judge(self, v: View, rules) -> None:
        step_no = v.step.index if v.step is not None else None
        for r in rules:
            verdict = r.func(v)
            if verdict is not None:
                self._record(r, verdict, step_no, v.kind)

    def _record(self, r, verdict: Verdict, step_no: Optional[int], kind: str) -> None:
        for f in verdict.findings:
            self._add(r, f._replace(step=0) if kind == "start" and f.step is None else f, step_no)
        if step_no is not None and (verdict.partly or verdict.unjudged):
            cov = self._coverage_of(step_no)
            cov["partly"].extend(verdict.partly)
            cov["not"].extend(verdict.unjudged)
            if verdict.noted:
                cov.setdefault("noted", []).extend(verdict.unjudged)

    def _add(self, r, f: Finding, step_no: Optional[int]) -> None:
        declared = CODES.get(f.code) if f.code else None
        code = declared or CODES[r.code]
        step = f.step if f.step is not None else step_no
        if step == 0:                                      # the log's start: before any phase
            turn, phase, label, side = self.record.start_turn or self.ledger.turn, None, None, None
        elif step is None:                                 # the whole log
            turn, phase, label, side = None, None, None, None
        else:
            turn, phase, label, side = self.at_step.get(step) or self._now()
        self.findings.append(f._replace(
            code=code.code, severity=f.severity or code.severity, help=f.help or code.help, step=step,
            turn=f.turn or turn, phase=f.phase or phase, phase_label=f.phase_label or label,
            side=f.side if f.side is not None else side, hexes=tuple(f.hexes), units=tuple(f.units)))
        self.made_at.append(step_no)
        self._made[step_no] = self._made.get(step_no, 0) + 1

    def _now(self) -> tuple:
        p = self.tracker.phase()
        return self.ledger.turn, p.id if p else None, self.tracker.label(), p.side if p else None

    def note_step(self, step: Step) -> None:
        self.at_step[step.index] = self._now()

    def _coverage_of(self, step: int) -> dict:
        cov = self.coverage.get(step)
        if cov is None:
            cov = self.coverage[step] = {"partly": [], "not": []}
        return cov

    def partly(self, step: int, reason: str) -> None:
        """The replay's own reading was assumed (no rule's: a phase a chat names that the events passed)."""
        self._coverage_of(step)["partly"].append(reason)

    # -- undo --
    def snapshot(self) -> tuple:
        return self.position, self.ledger, self.tracker.copied(), self.look.kept(self.position)

    def restore(self, snap: tuple) -> None:
        self.position, self.ledger, self.tracker = snap[0], snap[1], snap[2].copied()
        self.look.restore(snap[0], snap[3])

    def withdraw(self, step_no: int) -> None:
        """The findings the moments of one (undone) step made are taken back, and its coverage. They were
        made while that step was read, one after another: one run of the list, found from its end (an undo
        takes back one of the latest steps)."""
        n = self._made.pop(step_no, 0)
        if n:
            end = len(self.made_at)
            while self.made_at[end - 1] != step_no:
                end -= 1
            del self.findings[end - n:end], self.made_at[end - n:end]
        self.coverage.pop(step_no, None)


def replay(game: Game, record: GameRecord, scenario: Optional[Scenario], facts: Optional[Facts] = None,
           look: Optional[Lookups] = None, carry: Optional[Replay] = None) -> Replay:
    """The record replayed; `carry`: the replay of the log before it, whose phase this one continues."""
    r = Replay(game, record, scenario, facts or Facts(game, scenario, record), look, carry)
    r.judge(r.view("start"), rules_on("start"))
    undone = undone_by(record)
    snaps: dict[int, tuple] = {}
    kept: list[int] = []
    for step in record.steps:
        if step.undo:
            _undo(r, step, undone.get(step.index), snaps)
            continue
        snaps[step.index] = r.snapshot()
        r.note_step(step)                              # where the step was played (its events may say more)
        kept.append(step.index)
        if len(kept) > UNDO_DEPTH:                     # what no undo can reach any more
            snaps.pop(kept.pop(0), None)
        for ev in step.events:
            read_event(r, step, ev)
    r.judge(r.view("end"), rules_on("end"))
    return r


def _undo(r: Replay, step: Step, target: Optional[int], snaps: dict) -> None:
    snap = snaps.pop(target, None) if target is not None else None
    if snap is None:
        r._coverage_of(step.index)["not"].append(
            "an undo that matches no earlier step; the position may differ from the game's")
        return
    before = r.ledger
    r.restore(snap)
    for roll in before.rolls[len(r.ledger.rolls):]:
        r.discarded += (Discarded(roll.step, step.index, roll.roll, _battle_of(before.battles, roll.step)),)
    r.withdraw(target)
    r.coverage.setdefault(target, {"partly": [], "not": []})["undone"] = step.index


def _battle_of(battles: tuple, step: int):
    """The first battle of the phase's list settled by the roll of `step` (one of the latest: the list is
    read from its end, in the order of the rolls)."""
    hit = None
    for b in reversed(battles):
        if b.step == step:
            hit = b
        elif b.step < step:
            break
    return hit


def _begins_in_combat(game: Game, scenario: Optional[Scenario], record: GameRecord, facts: Facts) -> bool:
    """The log begins in a combat phase after play began (a later log of a game): its first retreats and
    losses may settle a roll made before it."""
    from .scenario import begins_later
    p = game.phase(record.start_phase)
    return p is not None and p.combat and (scenario is None or begins_later(game, scenario, record, facts.previous))


def _first_turn(game: Game, scenario: Optional[Scenario]) -> Optional[str]:
    if scenario and scenario.first_turn:
        return scenario.first_turn
    return game.turns[0].id if game.turns else None


def _start_control(facts: Facts) -> tuple[dict, dict]:
    """Who controls each victory hex when the log begins, and the hexes whose control is open (a drag may
    have passed through them): for a chained log, as the replay of the logs before it left them."""
    prev = facts.previous
    if prev is not None and prev.record is not None and facts.scenario is not None:
        return control_at_end(facts.game, facts.scenario, (*prev.earlier, prev.record))
    from .scenario import start_control
    return start_control(facts.game, facts.scenario, facts.record, facts.previous), {}


CHAINS_KEPT = 16                    # the chains' ends a process keeps (a chain's audits read the same ones)
_CHAIN_ENDS: dict[tuple, tuple] = {}


def control_at_end(game: Game, scenario: Scenario, played: tuple[GameRecord, ...]) -> tuple[dict, dict]:
    """Victory-hex control, and the hexes it is open in, once the chain's logs `played` are replayed in
    order, each from where the one before it ended: what each log's own audit showed at its end (the same
    drags read the same way), kept per chain for the process."""
    key = (id(game), id(scenario), tuple(map(id, played)))
    hit = _CHAIN_ENDS.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], played)):
        from .chain import Previous, ends
        before = played[:-1]
        previous = Previous(before[-1].source, ends(before[-1]), before[-1], before[:-1]) if before else None
        last = played[-1]
        led = replay(game, last, scenario, Facts(game, scenario, last, previous=previous)).ledger
        if len(_CHAIN_ENDS) >= CHAINS_KEPT:
            _CHAIN_ENDS.pop(next(iter(_CHAIN_ENDS)))
        name = Path(last.source).name                # an earlier log's steps are named with it
        open_ = {h: tuple((side, at if isinstance(at, str) else f"{at} of {name}", unit) for side, at, unit in w)
                 for h, w in led.control_open.items()}
        hit = _CHAIN_ENDS[key] = (played, dict(led.control), open_)   # the records kept: their ids cannot be reused
    return hit[1], hit[2]
