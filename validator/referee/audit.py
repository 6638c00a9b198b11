"""One log's audit: pick the scenario, replay the record, gather findings, coverage, dice and the result."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from ..source.model import Game
from ..records.record import GameRecord
from . import Finding
from .chain import Previous
from .dice import dice_stats, forget_rolls
from .replay import replay
from .scenario import standing
from .start import infer_scenario, match
from .view import Facts

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def finding_order(f: Finding) -> tuple:
    """By step (the log's start, step 0, first; findings about the whole log, step None, last), then
    severity, then code."""
    return (f.step if f.step is not None else float("inf"), SEVERITY_ORDER[f.severity], f.code)


class UnknownScenario(ValueError):
    pass


@dataclass
class LogAudit:
    file: str
    module: Optional[str]
    scenario: Optional[str]
    scenario_score: Optional[float]
    players: tuple[str, ...]
    steps: int
    coverage: dict
    dice: list
    findings: list[Finding] = field(default_factory=list)
    dice_stats: list = field(default_factory=list)
    result: Optional[dict] = None              # the victory standing when the log ends (scenario.Standing)

    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    def as_json(self) -> dict:
        return {"file": self.file, "module": self.module, "scenario": self.scenario,
                "scenario_score": self.scenario_score, "players": list(self.players), "steps": self.steps,
                "coverage": self.coverage, "dice": self.dice, "dice_stats": self.dice_stats,
                "result": self.result, "diagnostics": [f.as_json() for f in self.findings]}


def audit(game: Game, record: GameRecord, scenario_id: Optional[str] = None, previous: Optional[Previous] = None,
          module: Optional[str] = None) -> LogAudit:
    """Audit one record. `previous`: the log before it in a chain (its start is judged against that log's
    end instead of the set-up); `module`: the name and version of the module it is audited with."""
    if scenario_id is not None:
        sc = game.scenario(scenario_id)
        if sc is None:
            known = ", ".join(s.id for s in game.scenarios)
            raise UnknownScenario(f"scenario {scenario_id!r} is not in {game.id} (known: {known})")
        mt = match(game, sc, record.start) if sc.setup_printed else None
        inferred = False
    else:
        mt = infer_scenario(game, record.start)
        sc = mt.scenario if mt else None
        inferred = True
    r = replay(game, record, sc, Facts(game, sc, record, mt, inferred, previous, module),
               carry=_phase_before(game, sc, record, previous))
    findings = sorted(r.findings, key=finding_order)
    st = standing(r.view("end"))
    stats = dice_statistics(record)
    forget_rolls()
    return LogAudit(record.source, record.module, sc.id if sc else None, round(mt.score, 3) if mt else None,
                    record.players, len(record.steps), _coverage(record, r), _dice(r), findings,
                    stats, st.as_json() if st else None)


def _phase_before(game: Game, sc, record: GameRecord, previous: Optional[Previous]):
    """The replay of the log before, where this one goes on in the phase it ended in (both turn trackers
    record it): what a referee carries across the two logs of one phase (legs, battles, rolls)."""
    if previous is None or previous.record is None:
        return None
    e = previous.ends
    if e.end_phase is None or (e.end_turn, e.end_phase) != (record.start_turn, record.start_phase):
        return None
    return replay(game, previous.record, sc, Facts(game, sc, previous.record))   # its own findings are its audit's


def _coverage(record: GameRecord, r) -> dict:
    full = partly = none = undone = 0
    steps = []
    for s in record.steps:
        cov = r.coverage.get(s.index)
        if s.undo:
            status, reasons = "undo", []
        elif cov and cov.get("undone"):
            status, reasons = "undone", [f"undone at step {cov['undone']}"]
            undone += 1
        elif cov and cov["not"]:
            status, reasons = "not", list(dict.fromkeys(cov["not"] + cov["partly"]))
            none += 1
        elif cov and cov["partly"]:
            status, reasons = "partly", list(dict.fromkeys(cov["partly"]))
            partly += 1
        else:
            status, reasons = "full", []
            full += 1
        steps.append({"step": s.index, "status": status, "reasons": reasons})
    return {"fully": full, "partly": partly, "not": none, "undone": undone, "steps": steps}


def _dice(r) -> list:
    """Every roll the replay kept (undone ones taken out), with the phase it fell in."""
    return [{"step": d.step, "dice": d.roll.dice, "faces": list(d.roll.faces), "total": d.roll.total,
             "phase": d.phase} for d in r.ledger.rolls if d.step]          # step 0: the log before's, carried


def dice_statistics(record: GameRecord) -> list:
    """Per die button: face counts and a fairness test."""
    return [asdict(x) for x in dice_stats(record)]
