"""`hexforge audit --format sarif`: SARIF 2.1.0, one result per finding, the referee's rules as the
driver's rules, a log that cannot be audited as a tool execution notification.

A log is named by a URI (RFC 3986, percent-encoded: spaces, '#', non-ASCII): relative to the base
`%SRCROOT%` (the working folder, given as an absolute file URI in the run's `originalUriBaseIds`) where
the log is under it, else an absolute `file://` URI."""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from validator.codes import CODES
from validator.diagnostics import SHOWN as LEVEL          # SARIF's levels are the words the other outputs use

from .render_text import where


def _rules(results: list) -> list[dict]:
    used = sorted({f.code for r in results if r.audit for f in r.audit.findings})
    return [{"id": c, "name": CODES[c].name, "shortDescription": {"text": CODES[c].name},
             "help": {"text": CODES[c].help},
             "defaultConfiguration": {"level": LEVEL[CODES[c].severity]}} for c in used if c in CODES]


BASE = "%SRCROOT%"


def artifact(file: str) -> dict:
    """The SARIF artifactLocation of a log: a URI relative to BASE where it is under the working folder."""
    path = Path(os.path.abspath(file))
    try:
        relative = path.relative_to(Path.cwd())
    except ValueError:
        return {"uri": path.as_uri()}
    return {"uri": quote(relative.as_posix(), safe="/"), "uriBaseId": BASE}


def _result(r, f, index: dict) -> dict:
    res = {"ruleId": f.code, "level": LEVEL[f.severity], "message": {"text": f.message},
           "locations": [{"physicalLocation": {"artifactLocation": artifact(r.file)},
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
                          "descriptor": {"id": "unreadable-log"},
                          "locations": [{"physicalLocation": {"artifactLocation": artifact(r.file)}}]})
            continue
        out.extend(_result(r, f, index) for f in r.audit.findings)
    run = {"tool": {"driver": {"name": "hexforge", "version": "0.1.0", "rules": rules}},
           "originalUriBaseIds": {BASE: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
           "results": out,
           "invocations": [{"executionSuccessful": not notes, "toolExecutionNotifications": notes}]}
    doc = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
