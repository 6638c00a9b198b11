"""`hexforge audit`'s text output: one line per finding (where, severity, code, rule, message) and its help,
a summary line per log and one for the run."""
from __future__ import annotations

from pathlib import Path

from validator.diagnostics import SHOWN


def where(f) -> str:
    """Where a finding is, in the log's terms: its step, turn and phase; the start position (step 0); the
    whole log (no step)."""
    if f.step == 0:
        return "start position"
    if f.step is None:
        return "log"
    parts = [f"turn {f.turn}"] if f.turn else []
    if f.phase_label:
        parts.append(f.phase_label)
    return f"step {f.step}" + (f" ({', '.join(parts)})" if parts else "")


def render_text(results: list, quiet: bool) -> str:
    lines = []
    totals = {"error": 0, "warning": 0, "info": 0}
    for r in results:
        name = Path(r.file).name
        if r.error:
            lines.append(f"{r.file}: error: cannot audit: {r.error}")
            continue
        for w in r.warnings:
            lines.append(f"{name}: warning: {w}")
        a = r.audit
        for f in a.findings:
            totals[f.severity] += 1
            if quiet and f.severity == "info":
                continue
            rule = f" (rule {f.rule})" if f.rule else ""
            lines.append(f"{name}: {where(f)}: {SHOWN[f.severity]}[{f.code}]{rule} {f.message}")
            lines.append(f"  = help: {f.help}")
        lines.append(_log_summary(name, a, totals))
        if a.result:
            lines.append(f"{name}: result: {a.result['text']}")
    bad = sum(1 for r in results if r.error)
    lines.append(f"{len(results)} log(s): {totals['error']} error(s), {totals['warning']} warning(s), "
                 f"{totals['info']} note(s)" + (f"; {bad} log(s) could not be audited" if bad else ""))
    return "\n".join(lines) + "\n"


def _log_summary(name: str, a, totals: dict) -> str:
    c = a.coverage
    counts = {s: sum(1 for f in a.findings if f.severity == s) for s in totals}
    return (f"{name}: scenario {a.scenario} (score {a.scenario_score}), {a.steps} step(s): "
            f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} note(s); "
            f"verified {c['fully']} fully, {c['partly']} partly, {c['not']} not"
            + (f", {c['undone']} undone" if c["undone"] else ""))
