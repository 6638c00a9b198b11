"""`hexforge audit --format sarif`: SARIF 2.1.0, one result per finding, the referee's rules as the
driver's rules, a log that cannot be audited as a tool execution notification."""
from __future__ import annotations

import json
from pathlib import Path

from validator.codes import CODES

from .render_text import where

LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rules(results: list) -> list[dict]:
    used = sorted({f.code for r in results if r.audit for f in r.audit.findings})
    return [{"id": c, "name": CODES[c].name, "shortDescription": {"text": CODES[c].name},
             "help": {"text": CODES[c].help},
             "defaultConfiguration": {"level": LEVEL[CODES[c].severity]}} for c in used if c in CODES]


def _result(r, f, index: dict) -> dict:
    res = {"ruleId": f.code, "level": LEVEL[f.severity], "message": {"text": f.message},
           "locations": [{"physicalLocation": {"artifactLocation": {"uri": Path(r.file).as_posix()}},
                          "logicalLocations": [{"name": where(f), "kind": "step"}]}],
           "properties": {"step": f.step, "turn": f.turn, "phase": f.phase, "side": f.side,
                          "rule": f.rule, "hexes": list(f.hexes), "units": list(f.units)}}
    if f.code in index:
        res["ruleIndex"] = index[f.code]
    return res


def render_sarif(results: list, quiet: bool = False) -> str:
    rules = _rules(results)
    index = {r["id"]: i for i, r in enumerate(rules)}
    out, notes = [], []
    for r in results:
        if r.error:
            notes.append({"level": "error", "message": {"text": f"cannot audit {r.file}: {r.error}"},
                          "descriptor": {"id": "unreadable-log"}})
            continue
        out.extend(_result(r, f, index) for f in r.audit.findings)
    run = {"tool": {"driver": {"name": "hexforge", "version": "0.1.0", "rules": rules}},
           "results": out,
           "invocations": [{"executionSuccessful": not notes, "toolExecutionNotifications": notes}]}
    doc = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
