"""`hexforge audit`: judge exported VASSAL game logs (or YAML game records) against a game tree.

Logs are audited one per process with `--jobs N` (the output keeps the order they were given in);
`--chain` compares each log's start with the previous log's end; `--report DIR` writes an HTML page
per log and an index into a folder of its own (compiler/report_dir.py). The parts are in compiler/audit/.

Exit status: 0 no violation (warnings and notes allowed), 1 violations, 2 cannot run (no tree, no
module, an unreadable log; the other logs are still audited and reported): the worst over the logs.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from compiler.audit.setup import AuditSetup, CannotRun


def run_audit(path: Path, logs: tuple, module: Optional[Path], scenario: Optional[str], as_printed: bool,
              fmt: str, quiet: bool, report: Optional[Path] = None, jobs: int = 1, chain: bool = False) -> int:
    from compiler.audit.running import audit_batch, prepare
    needs_module = module is not None or any(not str(x).lower().endswith((".yaml", ".yml")) for x in logs)
    setup = AuditSetup(Path(path), as_printed, module, scenario, needs_module)
    report_error = None
    try:
        prepare(setup)                        # the tree and module, once, before any worker starts
        if report is not None:
            from compiler.audit.report import audit_with_report
            results, report_error = audit_with_report(setup, logs, report, jobs, chain)
        else:
            results = audit_batch(setup, logs, jobs, chain)
    except CannotRun as e:
        return _cannot(str(e))
    if fmt == "json":                         # a long log's JSON, printed piece by piece
        from compiler.audit.render_json import json_pieces
        for piece in json_pieces(results, quiet):
            click.echo(piece, nl=False)
    else:
        click.echo(render(results, fmt, quiet), nl=False)
    if report_error is not None:              # the findings are printed all the same
        return max(_cannot(report_error), exit_status(results))
    if report is not None:
        click.echo(f"report: {report / 'index.html'}", err=True)
    return exit_status(results)


def render(results: list, fmt: str, quiet: bool) -> str:
    if fmt == "json":
        from compiler.audit.render_json import render_json
        return render_json(results, quiet)
    if fmt == "sarif":
        from compiler.audit.render_sarif import render_sarif
        return render_sarif(results, quiet)
    from compiler.audit.render_text import render_text
    return render_text(results, quiet)


def exit_status(results: list) -> int:
    """The worst over the logs: 2 if one could not be audited, else 1 if one has a violation, else 0."""
    if any(r.error for r in results):
        return 2
    return 1 if any(r.audit.errors() for r in results) else 0


def _cannot(msg: str) -> int:
    click.echo(f"hexforge: error: {msg}", err=True)
    return 2
