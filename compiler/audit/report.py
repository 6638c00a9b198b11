"""`--report DIR`: the logs audited with a page each, then `index.html`, all written into a staging folder
that compiler/report_dir.py commits into `DIR` (the pages themselves are compiler/audit_report.py's). The
findings are the run's whatever happens to the report: a folder that is refused, or a report that cannot
be written, is said beside them."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Optional

from .running import audit_batch
from .setup import AuditSetup, LogResult, loaded


def audit_with_report(setup: AuditSetup, logs: tuple, report: Path, jobs: int,
                      chain: bool) -> tuple[list[LogResult], Optional[str]]:
    """The results, and why the report could not be written (None: it was)."""
    from compiler.report_dir import ReportFolderError, report_folder
    results: Optional[list[LogResult]] = None
    try:
        with report_folder(report) as staging:
            results = _audit_into(setup, logs, staging, jobs, chain)
    except ReportFolderError as e:
        if results is None:                    # refused before any log was audited: audit them without pages
            results = audit_batch(setup, logs, jobs, chain)
        return results, str(e)
    return results, None


def _audit_into(setup: AuditSetup, logs: tuple, staging: Path, jobs: int, chain: bool) -> list[LogResult]:
    from compiler.audit_report import write_index
    from compiler.report_dir import ReportFolderError
    game, _ = loaded(setup)
    names = page_names(logs)
    with_report = replace(setup, report_dir=staging)
    results = audit_batch(with_report, logs, jobs, chain, names)
    try:
        write_index(staging, f"Audit: {game.title}", [index_entry(r) for r in results])
    except OSError as e:
        raise ReportFolderError(f"cannot write the report's index: {e.strerror or e}") from None
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
