"""`hexforge audit`: judge exported VASSAL game logs (or YAML game records) against a game tree.

Logs are audited one per process with `--jobs N` (the output keeps the order they were given in);
`--chain` compares each log's start with the previous log's end; `--report DIR` writes an HTML page
per log and an index, the whole folder put in place at once.

Exit status: 0 no violation (warnings and notes allowed), 1 violations, 2 cannot run (no tree, no
module, an unreadable log; the other logs are still audited and reported): the worst over the logs.
"""
from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

import click

from validator.codes import CODES

LEVEL = {"error": "error", "warning": "warning", "info": "note"}
REPORT_FILES = (".html", ".png")           # what a report folder may hold: it is replaced whole


@dataclass(frozen=True)
class AuditSetup:
    """What every log of one run is audited with; sent to each worker process."""
    tree: Path
    as_printed: bool
    module: Optional[Path]
    scenario: Optional[str]
    logs_need_module: bool
    report_dir: Optional[Path] = None


@dataclass
class LogResult:
    file: str
    audit: object = None                      # validator.referee.audit.LogAudit
    error: Optional[str] = None               # why the log could not be audited
    warnings: tuple = ()                      # what the reader could not map
    ends: object = None                       # validator.referee.chain.Ends, with --chain
    page: Optional[str] = None                # its report page's file name, with --report
    chain: Optional[tuple] = None             # --chain: the findings against the log before it (None: first)


class CannotRun(Exception):
    pass


def run_audit(path: Path, logs: tuple, module: Optional[Path], scenario: Optional[str], as_printed: bool,
              fmt: str, quiet: bool, report: Optional[Path] = None, jobs: int = 1, chain: bool = False) -> int:
    needs_module = module is not None or any(not str(x).lower().endswith((".yaml", ".yml")) for x in logs)
    setup = AuditSetup(Path(path), as_printed, module, scenario, needs_module)
    try:
        loaded(setup)                         # the tree and module, once, before any worker starts
        if report is not None:
            results = _audit_with_report(setup, logs, report, jobs, chain)
        else:
            results = _audit_batch(setup, logs, jobs, chain)
    except CannotRun as e:
        return _cannot(str(e))
    out = {"text": render_text, "json": render_json, "sarif": render_sarif}[fmt](results, quiet)
    click.echo(out, nl=not out.endswith("\n"))
    if report is not None:
        click.echo(f"report: {report / 'index.html'}", err=True)
    return exit_status(results)


def exit_status(results: list) -> int:
    """The worst over the logs: 2 if one could not be audited, else 1 if one has a violation, else 0."""
    if any(r.error for r in results):
        return 2
    return 1 if any(r.audit.errors() for r in results) else 0


def _cannot(msg: str) -> int:
    click.echo(f"hexforge: error: {msg}", err=True)
    return 2


# -- the batch --

def _audit_batch(setup: AuditSetup, logs: tuple, jobs: int, chain: bool, names: Optional[list] = None,
                 chained: Optional[list] = None) -> list[LogResult]:
    """Each log's result, in the order given, audited in `jobs` processes (1: in this one). `names`: the
    report pages' names; `chained`: per log, the chain's findings against the log before it, or None."""
    names = names or [None] * len(logs)
    chained = chained or [None] * len(logs)
    tasks = [(setup, str(log), name, x, chain) for log, name, x in zip(logs, names, chained)]
    workers = min(_jobs(jobs), len(tasks))
    if workers <= 1:
        results = [audit_task(*t) for t in tasks]
    else:
        from concurrent.futures import ProcessPoolExecutor   # imported only for a batch on several processes
        with ProcessPoolExecutor(max_workers=workers, initializer=loaded, initargs=(setup,)) as pool:
            futures = [pool.submit(audit_task, *t) for t in tasks]
            results = [_result(f, t[1]) for f, t in zip(futures, tasks)]
    if chain:
        _chain(results, loaded(setup)[0])
    return results


def _jobs(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def _result(future, log: str) -> LogResult:
    """A worker's result; a worker that died (killed, out of memory) fails its log, not the batch."""
    try:
        return future.result()
    except Exception as e:                     # BrokenProcessPool and the like
        return LogResult(log, error=f"the process auditing it stopped ({type(e).__name__}: {e})")


def _audit_with_report(setup: AuditSetup, logs: tuple, report: Path, jobs: int, chain: bool) -> list[LogResult]:
    """Audit and write a page per log and index.html into a new folder that replaces `report` whole."""
    from compiler.atomic import atomic_dir
    from compiler.audit_report import write_index
    game, _ = loaded(setup)
    names = page_names(logs)
    try:
        with atomic_dir(report, lambda n: n.endswith(REPORT_FILES)) as tmp:
            with_report = replace(setup, report_dir=tmp)
            if chain:                          # the chain's findings go on the pages: compare first
                first = _audit_batch(setup, logs, jobs, chain=True)
                results = _audit_batch(with_report, logs, jobs, False, names, [r.chain for r in first])
            else:
                results = _audit_batch(with_report, logs, jobs, False, names)
            write_index(tmp, f"Audit: {game.title}", [index_entry(r) for r in results])
    except OSError as e:
        raise CannotRun(f"cannot write the report to {report}: {e.strerror or e}")
    return results


def page_names(logs: tuple) -> list[str]:
    """One page name per log: the log's file name made safe, numbered where two logs share one."""
    import re
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


def _chain(results: list[LogResult], game) -> None:
    """Each audited log's start against the end of the audited log before it, instead of against the
    scenario's set-up (a later log starts mid-game); an unreadable log breaks the chain."""
    from validator.referee.chain import compare
    previous: Optional[LogResult] = None
    for r in results:
        if r.error:
            previous = None
            continue
        if previous is not None:
            r.chain = tuple(compare(previous.ends, r.ends, Path(previous.file).name, game))
            judge_by_chain(r.audit, r.chain)
        previous = r


def setup_rule_codes() -> frozenset[str]:
    """The referee's rules that judge a log's start position against the scenario's set-up."""
    from validator.referee import all_rules
    return frozenset(c for c, r in all_rules().items() if r.on == "start" and r.name.startswith("setup-"))


def judge_by_chain(audit, chain_findings: tuple) -> None:
    """A chained log's start: the chain's findings in place of the set-up rules' ones."""
    codes = setup_rule_codes()
    audit.findings = [f for f in audit.findings if not (f.step is None and f.code in codes)]
    add_findings(audit, chain_findings)


def add_findings(audit, findings) -> None:
    """Findings made beside the referee's (module, chain), put in the audit's order."""
    from validator.referee.audit import SEVERITY_ORDER
    if not findings:
        return
    audit.findings = sorted(audit.findings + list(findings),
                            key=lambda f: (f.step or 0, SEVERITY_ORDER[f.severity], f.code))


# -- one log (in a worker process) --

_LOADED: dict[AuditSetup, tuple] = {}
_BOARDS: dict[tuple[str, str], object] = {}


def loaded(setup: AuditSetup) -> tuple:
    """(game, module) for `setup`, loaded once per process; CannotRun says why not."""
    key = replace(setup, report_dir=None)
    if key not in _LOADED:
        _LOADED[key] = _load(setup)
        _settle_collector()
    return _LOADED[key]


def _settle_collector() -> None:
    """The tree and module just loaded live as long as the process: freeze them out of the cyclic
    collector's passes (a log's own reading and replay run with the collector paused: `_collector_paused`)."""
    import gc
    gc.freeze()


def _load(setup: AuditSetup) -> tuple:
    from compiler.game_cache import load_game_kept
    try:
        game, diags = load_game_kept(setup.tree, apply_errata=not setup.as_printed)
    except Exception as e:
        from validator.loader import NotAGameTree   # imported where the tree was read: not from the cache
        if isinstance(e, NotAGameTree):
            raise CannotRun(str(e))
        raise
    if game is None:
        bad = next((d for d in diags if d.severity == "error"), None)
        raise CannotRun(f"{setup.tree}: the tree does not load ({bad.loc}: {bad.message}); run `hexforge check "
                        f"{setup.tree}`" if bad else f"{setup.tree}: the tree does not load")
    if setup.scenario is not None and game.scenario(setup.scenario) is None:
        raise CannotRun(f"scenario {setup.scenario!r} is not in {game.id} "
                        f"(known: {', '.join(s.id for s in game.scenarios)})")
    return game, _module(game, setup.module, setup.logs_need_module)


def _module(game, module: Optional[Path], needed: bool):
    """The module the logs were played with; needed for .vlog and .vsav files only."""
    if not needed:
        return None
    path = module or Path("build") / game.id / f"{game.id}.vmod"
    if not path.is_file():
        if module is None:
            raise CannotRun(f"no module: {path} does not exist; pass --module X.vmod or run "
                            f"`hexforge build {game.root}`")
        raise CannotRun(f"{path}: no such module file")
    from compiler.vassal.reader import ReadError, read_module
    try:
        return read_module(path)
    except (ReadError, OSError, KeyError, ValueError) as e:
        raise CannotRun(f"{path}: cannot read the module: {e}")


def _module_name(mod) -> Optional[str]:
    if mod is None:
        return None
    name, version = mod.metadata.findtext("name"), mod.metadata.findtext("version")
    return f"{name} {version}".strip() if version else name


def _read(game, log: Path, mod):
    if log.suffix.lower() in (".yaml", ".yml"):
        from validator.record_yaml import RecordError, read_record
        try:
            return read_record(log)
        except RecordError as e:
            raise _Unreadable(f"{e.loc}: {e.message}" + (f" ({e.help})" if e.help else ""))
    from compiler.vassal.vlog import LogReadError, read_log
    try:
        return read_log(log, module=mod, game=game)
    except LogReadError as e:
        raise _Unreadable(e.message if e.step is None else f"step {e.step}: {e.message}")
    except (KeyError, ValueError, IndexError) as e:   # e.g. a log played with another module's boards
        raise _Unreadable(f"does not fit the module {_module_name(mod)!r} ({type(e).__name__}: {e}); "
                          "pass the module the log was played with (--module)")


def _other_game(game, record) -> Optional[str]:
    """Why the log cannot be of this game: it holds units, and none of them is one of the tree's."""
    units = [c.unit for c, _ in record.start.units()]
    if units and not any(game.unit(u) for u in units):
        return (f"none of the log's {len(units)} units is a unit of {game.title} (the log names module "
                f"{record.module or 'unknown'!r}): audit it with its own game's tree")
    return None


class _Unreadable(Exception):
    pass


def audit_task(setup: AuditSetup, log: str, page: Optional[str], chained: Optional[tuple], chain: bool) -> LogResult:
    """Audit one log (and write its page); any failure is this log's error, never the batch's.
    `chained`: the findings of its start against the previous log's end, already made (--chain --report)."""
    try:
        with _collector_paused():
            return _audit_one(setup, Path(log), page, chained, chain)
    except CannotRun as e:
        return LogResult(log, error=str(e))
    except Exception as e:                     # a referee bug must not stop a league's batch
        return LogResult(log, error=f"internal error while auditing ({type(e).__name__}: {e}); please report it")


@contextlib.contextmanager
def _collector_paused():
    """Reading and replaying a log allocate millions of short-lived objects, and no reference cycle
    outlives its step: reference counting frees them all. The cyclic collector, which would walk the
    young ones again and again (about a twentieth of a long log's audit), is paused for one log's
    audit; the peak memory bench/bench_audit.py prints shows it stays flat in the log's length."""
    import gc
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _audit_one(setup: AuditSetup, log: Path, page: Optional[str], chained: Optional[tuple],
               chain: bool) -> LogResult:
    from validator.referee.audit import UnknownScenario, audit
    from validator.referee.provenance import module_mismatch
    game, mod = loaded(setup)
    if not log.is_file():
        return LogResult(str(log), error="no such file")
    try:
        record = _read(game, log, mod)
    except _Unreadable as e:
        return LogResult(str(log), error=str(e))
    other = _other_game(game, record)
    if other:
        return LogResult(str(log), error=other)
    try:
        result = audit(game, record, setup.scenario)
    except UnknownScenario as e:
        return LogResult(str(log), error=str(e))
    add_findings(result, module_mismatch(record.module, _module_name(mod)))
    if chained is not None:
        judge_by_chain(result, chained)
    ends = None
    if chain:
        from validator.referee.chain import ends as record_ends
        ends = record_ends(record)
    page_file = _write_page(setup, game, record, result, page) if setup.report_dir and page else None
    return LogResult(str(log), result, None, tuple(record.warnings), ends, page_file)


def _write_page(setup: AuditSetup, game, record, result, name: str) -> str:
    from compiler.audit_report import write_report
    from validator.referee.dice import dice_stats
    return write_report(setup.report_dir, game, record, result.findings, dice_stats(record),
                        board_renderer=_cached_board, name=name).name


def _cached_board(game, board_id: str):
    """A board's picture, rendered once per process however many pages show it."""
    from compiler.render.boards import render_board
    key = (game.id, board_id)
    if key not in _BOARDS:
        _BOARDS[key] = render_board(game, board_id)
    return _BOARDS[key]


# -- output --

def _where(f) -> str:
    if f.step is None:
        return "start position"
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
            lines.append(f"{name}: {_where(f)}: {f.severity}[{f.code}]{rule} {f.message}")
            lines.append(f"  = help: {f.help}")
        c = a.coverage
        counts = {s: sum(1 for f in a.findings if f.severity == s) for s in totals}
        lines.append(f"{name}: scenario {a.scenario} (score {a.scenario_score}), {a.steps} step(s): "
                     f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} note(s); "
                     f"verified {c['fully']} fully, {c['partly']} partly, {c['not']} not"
                     + (f", {c['undone']} undone" if c["undone"] else ""))
    bad = sum(1 for r in results if r.error)
    lines.append(f"{len(results)} log(s): {totals['error']} error(s), {totals['warning']} warning(s), "
                 f"{totals['info']} note(s)" + (f"; {bad} log(s) could not be audited" if bad else ""))
    return "\n".join(lines) + "\n"


def _summary(results: list) -> dict:
    fs = [f for r in results if r.audit for f in r.audit.findings]
    return {"logs": len(results), "unreadable": sum(1 for r in results if r.error),
            "errors": sum(1 for f in fs if f.severity == "error"),
            "warnings": sum(1 for f in fs if f.severity == "warning"),
            "infos": sum(1 for f in fs if f.severity == "info")}


def render_json(results: list, quiet: bool = False) -> str:
    logs = []
    for r in results:
        if r.error:
            logs.append({"file": r.file, "error": r.error, "diagnostics": []})
            continue
        d = r.audit.as_json()
        d["file"] = r.file
        d["warnings"] = list(r.warnings)
        logs.append(d)
    return json.dumps({"logs": logs, "summary": _summary(results)}, indent=2, ensure_ascii=False) + "\n"


def render_sarif(results: list, quiet: bool = False) -> str:
    used = sorted({f.code for r in results if r.audit for f in r.audit.findings})
    rules = [{"id": c, "name": CODES[c].name, "shortDescription": {"text": CODES[c].name},
              "help": {"text": CODES[c].help},
              "defaultConfiguration": {"level": LEVEL[CODES[c].severity]}} for c in used if c in CODES]
    index = {r["id"]: i for i, r in enumerate(rules)}
    out, notes = [], []
    for r in results:
        if r.error:
            notes.append({"level": "error", "message": {"text": f"cannot audit {r.file}: {r.error}"},
                          "descriptor": {"id": "unreadable-log"}})
            continue
        for f in r.audit.findings:
            res = {"ruleId": f.code, "level": LEVEL[f.severity], "message": {"text": f.message},
                   "locations": [{"physicalLocation": {"artifactLocation": {"uri": Path(r.file).as_posix()}},
                                  "logicalLocations": [{"name": _where(f), "kind": "step"}]}],
                   "properties": {"step": f.step, "turn": f.turn, "phase": f.phase, "side": f.side,
                                  "rule": f.rule, "hexes": list(f.hexes), "units": list(f.units)}}
            if f.code in index:
                res["ruleIndex"] = index[f.code]
            out.append(res)
    run = {"tool": {"driver": {"name": "hexforge", "version": "0.1.0", "rules": rules}},
           "results": out,
           "invocations": [{"executionSuccessful": not notes, "toolExecutionNotifications": notes}]}
    doc = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
