"""`hexforge audit --format json`: `{"logs": [...], "summary": {...}}` (README, "Auditing a game log"; a
finding's severity is "error", "warning" or "note", and the summary counts `errors`, `warnings`, `notes`)."""
from __future__ import annotations

import json

from validator.diagnostics import SHOWN


def summary(results: list) -> dict:
    fs = [f for r in results if r.audit for f in r.audit.findings]
    return {"logs": len(results), "unreadable": sum(1 for r in results if r.error),
            "errors": sum(1 for f in fs if f.severity == "error"),
            "warnings": sum(1 for f in fs if f.severity == "warning"),
            "notes": sum(1 for f in fs if f.severity == "info")}


def render_json(results: list, quiet: bool = False) -> str:
    logs = []
    for r in results:
        if r.error:
            logs.append({"file": r.file, "error": r.error, "diagnostics": []})
            continue
        d = r.audit.as_json()
        for diagnostic in d["diagnostics"]:
            diagnostic["severity"] = SHOWN[diagnostic["severity"]]
        d["file"] = r.file
        d["warnings"] = list(r.warnings)
        logs.append(d)
    return json.dumps({"logs": logs, "summary": summary(results)}, indent=2, ensure_ascii=False) + "\n"
