"""`hexforge audit --format json`: `{"logs": [...], "summary": {...}}` (README, "Auditing a game log")."""
from __future__ import annotations

import json


def summary(results: list) -> dict:
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
    return json.dumps({"logs": logs, "summary": summary(results)}, indent=2, ensure_ascii=False) + "\n"
