"""Every diagnostic code hexforge reports, declared once (as mypy's errorcodes.py and ruff's registry).

A code is declared by the function that produces it (`@check` for tree checks, `@rule` for the
referee's rules) or, for findings made while reading files, in this module's `READ_CODES`.
`hexforge checks` lists them all. Codes are stable: a retired code is never reused.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
KINDS = ("read", "check", "audit")


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    name: str
    severity: Severity
    help: str
    kind: str                       # read | check | audit


CODES: dict[str, Code] = {}


def declare(code: str, name: str, severity: str, help: str, kind: str) -> Code:
    if code in CODES:
        raise RuntimeError(f"diagnostic code {code} declared twice")
    if severity not in SEVERITIES:
        raise ValueError(f"{code}: severity {severity!r} is not one of {SEVERITIES}")
    if kind not in KINDS:
        raise ValueError(f"{code}: kind {kind!r} is not one of {KINDS}")
    c = Code(code, name, severity, help, kind)  # type: ignore[arg-type]
    CODES[code] = c
    return c
