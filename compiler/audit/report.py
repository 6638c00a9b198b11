"""`--report DIR`: the logs audited with a page each written into a new folder, then `index.html`; the
folder put in `DIR`'s place whole (the pages themselves are compiler/audit_report.py's)."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from .running import audit_batch
from .setup import AuditSetup, CannotRun, LogResult, loaded

REPORT_FILES = (".html", ".png")           # what a report folder may hold: it is replaced whole


def audit_with_report(setup: AuditSetup, logs: tuple, report: Path, jobs: int, chain: bool) -> list[LogResult]:
    """Audit and write a page per log and index.html into a new folder that replaces `report` whole."""
    from compiler.atomic import atomic_dir
    from compiler.audit_report import write_index
    game, _ = loaded(setup)
    names = page_names(logs)
    try:
        with atomic_dir(report, lambda n: n.endswith(REPORT_FILES)) as tmp:
            with_report = replace(setup, report_dir=tmp)
            if chain:                          # the chain's findings go on the pages: compare first
                first = audit_batch(setup, logs, jobs, chain=True)
                results = audit_batch(with_report, logs, jobs, False, names, [r.chain for r in first])
            else:
                results = audit_batch(with_report, logs, jobs, False, names)
            write_index(tmp, f"Audit: {game.title}", [index_entry(r) for r in results])
    except OSError as e:
        raise CannotRun(f"cannot write the report to {report}: {e.strerror or e}")
    return results


def page_names(logs: tuple) -> list[str]:
    """One page name per log: the log's file name made safe, numbered where two logs share one."""
    seen: dict[str, int] = {}
    out = []
    for log in logs:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(log).stem)[:80] or "log"
        if stem.lower() == "index":
            stem = "index-log"
        n = seen[stem.lower()] = seen.get(stem.lower(), 0) + 1
        out.append(stem if n == 1 else f"{stem}-{n}")
    return out


def index_entry(r: LogResult):
    from compiler.audit_report import IndexEntry
    if r.error:
        return IndexEntry(r.file, None, error=r.error)
    fs = r.audit.findings
    return IndexEntry(r.file, r.page, r.audit.scenario, r.audit.steps,
                      sum(1 for f in fs if f.severity == "error"), sum(1 for f in fs if f.severity == "warning"),
                      sum(1 for f in fs if f.severity == "info"))
