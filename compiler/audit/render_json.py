"""`hexforge audit --format json`: `{"logs": [...], "summary": {...}}` (README, "Auditing a game log"; a
finding's severity is "error", "warning" or "note", and the summary counts `errors`, `warnings`, `notes`)."""
from __future__ import annotations

import json
from typing import Iterator

from validator.diagnostics import SHOWN


def summary(results: list) -> dict:
    fs = [f for r in results if r.audit for f in r.audit.findings]
    return {"logs": len(results), "unreadable": sum(1 for r in results if r.error),
            "errors": sum(1 for f in fs if f.severity == "error"),
            "warnings": sum(1 for f in fs if f.severity == "warning"),
            "notes": sum(1 for f in fs if f.severity == "info")}


def render_json(results: list, quiet: bool = False) -> str:
    return "".join(json_pieces(results, quiet))


PIECE_CHARS = 1 << 16


def json_pieces(results: list, quiet: bool = False) -> Iterator[str]:
    """The JSON text (`render_json`'s, to the character) in pieces of about PIECE_CHARS, so that a long
    log's report is printed without the whole text, or every one of its small parts, held at once."""
    doc = {"logs": [_log(r) for r in results], "summary": summary(results)}
    parts, size = [], 0
    for part in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(doc):
        parts.append(part)
        size += len(part)
        if size >= PIECE_CHARS:
            yield "".join(parts)
            parts, size = [], 0
    yield "".join(parts) + "\n"


def _log(r) -> dict:
    if r.error:
        return {"file": r.file, "error": r.error, "diagnostics": []}
    d = r.audit.as_json()
    for diagnostic in d["diagnostics"]:
        diagnostic["severity"] = SHOWN[diagnostic["severity"]]
    d["file"] = r.file
    d["warnings"] = list(r.warnings)
    return d
