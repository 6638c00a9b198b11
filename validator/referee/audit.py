"""One log's audit: pick the scenario, replay the record, gather findings, coverage and dice."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from ..model import Game
from ..record import GameRecord
from ..codes import CODES
from .dice import dice_findings, dice_stats
from .replay import AuditFinding, replay
from .start import infer_scenario, match

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


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
    findings: list[AuditFinding] = field(default_factory=list)
    dice_stats: list = field(default_factory=list)

    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    def as_json(self) -> dict:
        return {"file": self.file, "module": self.module, "scenario": self.scenario,
                "scenario_score": self.scenario_score, "players": list(self.players), "steps": self.steps,
                "coverage": self.coverage, "dice": self.dice, "dice_stats": self.dice_stats,
                "diagnostics": [f.as_json() for f in self.findings]}


def audit(game: Game, record: GameRecord, scenario_id: Optional[str] = None) -> LogAudit:
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
    ctx = replay(game, record, sc, memo={"start_match": mt, "scenario_inferred": inferred})
    findings = sorted(ctx.findings + _dice_findings(game, record, ctx), key=lambda f: (f.step or 0, SEVERITY_ORDER[f.severity], f.code))
    return LogAudit(record.source, record.module, sc.id if sc else None, round(mt.score, 3) if mt else None,
                    record.players, len(record.steps), _coverage(record, ctx), _dice(ctx), findings,
                    dice_statistics(record))


def _coverage(record: GameRecord, ctx) -> dict:
    full = partly = none = undone = 0
    steps = []
    for s in record.steps:
        cov = ctx.coverage.get(s.index)
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


def _dice(ctx) -> list:
    """Every roll the replay kept (undone ones taken out), with the phase it fell in."""
    return [{"step": step, "dice": d.dice, "faces": list(d.faces), "total": d.total, "phase": label}
            for step, d, label in ctx.dice]


def dice_statistics(record: GameRecord) -> list:
    """Per die button: face counts and a fairness test."""
    return [asdict(x) for x in dice_stats(record)]


def _dice_findings(game: Game, record: GameRecord, ctx) -> list[AuditFinding]:
    """Undone rolls, dice no table uses, unfair-looking buttons (the dice module's codes)."""
    out = []
    for d in dice_findings(game, record):
        step = d.steps[0] if d.steps else None
        turn, phase, label, side = ctx.at_step.get(step, (None, None, None, None)) if step else (None,) * 4
        out.append(AuditFinding(d.code, d.severity, d.message, CODES[d.code].help, None, step, turn, phase,
                                label, side))
    return out
