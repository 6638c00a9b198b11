"""Findings reported like a compiler: stable code, severity, file:line:col, message, help."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable, Optional

from .codes import SEVERITIES, Severity
from .source.frozen import frozen
from .source.model import Loc

_RANK = {s: i for i, s in enumerate(SEVERITIES)}
# How a severity is named in every output (text, JSON, SARIF, the HTML report, `hexforge checks`): "note", as
# rustc and ruff say it and as SARIF's levels are. The registry and a tree's `gaps` keep the value "info".
SHOWN: dict[str, str] = {"error": "error", "warning": "warning", "info": "note"}


@frozen
class Diagnostic:
    """One finding as reported: its stable code and severity, what and where, and how to fix it."""
    code: str
    severity: Severity
    message: str
    loc: Loc
    help: Optional[str] = None
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:     # a closed set: a misspelt severity would count as a note
            raise ValueError(f"{self.code}: severity {self.severity!r} is not one of {SEVERITIES}")

    def sort_key(self):
        return (self.loc.file, self.loc.line, self.loc.column, self.code, self.message)

    def as_json(self) -> dict:
        return {
            "code": self.code,
            "severity": SHOWN[self.severity],
            "message": self.message,
            "help": self.help,
            "file": self.loc.file,
            "line": self.loc.line,
            "column": self.loc.column,
            "hexes": list(self.hexes),
            "units": list(self.units),
        }


@dataclass
class Summary:
    errors: int = 0
    warnings: int = 0
    notes: int = 0
    files: int = 0
    units: int = 0
    hexes: int = 0

    def as_json(self) -> dict:
        return {"errors": self.errors, "warnings": self.warnings, "notes": self.notes,
                "files": self.files, "units": self.units, "hexes": self.hexes}


def summarise(diags: Iterable[Diagnostic], files: int = 0, units: int = 0, hexes: int = 0) -> Summary:
    s = Summary(files=files, units=units, hexes=hexes)
    for d in diags:
        if d.severity == "error":
            s.errors += 1
        elif d.severity == "warning":
            s.warnings += 1
        else:
            s.notes += 1
    return s


def ordered(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Stable report order: by file and position; duplicates (same finding twice) dropped."""
    seen = set()
    out = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        if d in seen:
            continue
        seen.add(d)
        out.append(d)
    return out


_COLOURS = {"error": "\033[1;31m", "warning": "\033[1;33m", "info": "\033[1;36m"}
_RESET = "\033[0m"


def render_text(diags: list[Diagnostic], summary: Summary, colour: bool = False) -> str:
    lines = []
    for d in diags:
        sev = f"{_COLOURS[d.severity]}{SHOWN[d.severity]}{_RESET}" if colour else SHOWN[d.severity]
        where = str(d.loc) if d.loc.file else "<tree>"
        lines.append(f"{where}: {sev}[{d.code}] {d.message}")
        if d.help:
            lines.append(f"  = help: {d.help}")
    lines.append(
        f"{summary.errors} error(s), {summary.warnings} warning(s), {summary.notes} note(s) "
        f"in {summary.files} file(s); {summary.units} unit(s), {summary.hexes} hex(es)"
    )
    return "\n".join(lines) + "\n"


def render_json(diags: list[Diagnostic], summary: Summary) -> str:
    return json.dumps({"diagnostics": [d.as_json() for d in diags], "summary": summary.as_json()},
                      ensure_ascii=False, indent=1) + "\n"
