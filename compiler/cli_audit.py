"""`hexforge audit`: judge exported VASSAL game logs (or YAML game records) against a game tree.

Exit status: 0 no violation (warnings and notes allowed), 1 violations, 2 cannot run (no tree, no
module, an unreadable log; the other logs are still audited and reported).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import click

from validator.codes import CODES

LEVEL = {"error": "error", "warning": "warning", "info": "note"}


@dataclass
class LogResult:
    file: str
    audit: object = None                      # validator.referee.audit.LogAudit
    error: Optional[str] = None               # why the log could not be audited
    warnings: tuple = ()                      # reader warnings and module mismatch


def run_audit(path: Path, logs: tuple, module: Optional[Path], scenario: Optional[str], as_printed: bool,
              fmt: str, quiet: bool) -> int:
    from validator.loader import NotAGameTree, load_game
    try:
        game, diags = load_game(path, apply_errata=not as_printed)
    except NotAGameTree as e:
        return _cannot(str(e))
    if game is None:
        bad = next((d for d in diags if d.severity == "error"), None)
        return _cannot(f"{path}: the tree does not load ({bad.loc}: {bad.message}); run `hexforge check {path}`"
                       if bad else f"{path}: the tree does not load")
    if scenario is not None and game.scenario(scenario) is None:
        return _cannot(f"scenario {scenario!r} is not in {game.id} (known: {', '.join(s.id for s in game.scenarios)})")
    mod, mod_error = _module(game, module, logs)
    if mod_error:
        return _cannot(mod_error)
    results = [_audit_one(game, Path(log), mod, scenario) for log in logs]
    out = {"text": render_text, "json": render_json, "sarif": render_sarif}[fmt](results, quiet)
    click.echo(out, nl=not out.endswith("\n"))
    if any(r.error for r in results):
        return 2
    return 1 if any(r.audit.errors() for r in results) else 0


def _cannot(msg: str) -> int:
    click.echo(f"hexforge: error: {msg}", err=True)
    return 2


def _module(game, module: Optional[Path], logs: tuple):
    """(module, error): the module the logs were played with; needed for .vlog files only."""
    if module is None and not any(not str(x).lower().endswith((".yaml", ".yml")) for x in logs):
        return None, None
    path = module or Path("build") / game.id / f"{game.id}.vmod"
    if not path.is_file():
        if module is None:
            return None, (f"no module: {path} does not exist; pass --module X.vmod or run "
                          f"`hexforge build {game.root}`")
        return None, f"{path}: no such module file"
    from compiler.vassal.reader import ReadError, read_module
    try:
        return read_module(path), None
    except (ReadError, OSError, KeyError, ValueError) as e:
        return None, f"{path}: cannot read the module: {e}"


def _module_name(mod) -> Optional[str]:
    if mod is None:
        return None
    name, version = mod.metadata.findtext("name"), mod.metadata.findtext("version")
    return f"{name} {version}".strip() if version else name


def _read(game, log: Path, mod):
    if log.suffix.lower() in (".yaml", ".yml"):
        from validator.record_yaml import RecordError, record_from_yaml
        try:
            text = log.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise _Unreadable(f"cannot read: {e}")
        try:
            return record_from_yaml(text, str(log))
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


class _Unreadable(Exception):
    pass


def _audit_one(game, log: Path, mod, scenario: Optional[str]) -> LogResult:
    from validator.referee.audit import UnknownScenario, audit
    if not log.is_file():
        return LogResult(str(log), error="no such file")
    try:
        record = _read(game, log, mod)
    except _Unreadable as e:
        return LogResult(str(log), error=str(e))
    warnings = list(record.warnings)
    given = _module_name(mod)
    if given and record.module and record.module != given:
        warnings.append(f"the log was written with module {record.module!r}, audited with {given!r}")
    try:
        result = audit(game, record, scenario)
    except UnknownScenario as e:
        return LogResult(str(log), error=str(e))
    return LogResult(str(log), result, None, tuple(warnings))


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
