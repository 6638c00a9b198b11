"""Every diagnostic code hexforge reports, declared once (as mypy's errorcodes.py and ruff's registry).

A code is declared by the function that produces it (`@check` for tree checks, `@rule` for the
referee's rules) or, for findings made while reading files, in this module's `READ_CODES`.
`hexforge checks` lists them all (`all_codes`). Codes are stable: a retired code is never reused.
"""
from __future__ import annotations

from typing import Literal

from .frozen import frozen

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
KINDS = ("read", "check", "audit")


@frozen
class Code:
    """A declared diagnostic code (`declare`): its name, severity, help line and kind."""
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


def read_code(code: str) -> Code:
    """A declared reading code (HF0xx, HF801): the loader names its findings through this."""
    c = CODES[code]
    if c.kind != "read":
        raise KeyError(f"{code} is not a reading code")
    return c


# Findings made while reading the files, before any check runs (validator/yamlsrc.py, validator/loader.py).
READ_CODES: tuple[Code, ...] = (
    declare("HF001", "yaml-syntax", "error", "fix the YAML syntax at the position shown", "read"),
    declare("HF002", "duplicate-key", "error",
            "a mapping names each key once; remove or rename the repeated key", "read"),
    declare("HF003", "empty-file", "error", "give the file its content, or delete it", "read"),
    declare("HF004", "schema-violation", "error",
            "make the value match the file's schema (docs/source-format.md, `hexforge schema`)", "read"),
    declare("HF005", "required-file-missing", "error",
            "every game tree has game.yaml and map.yaml (see docs/source-format.md)", "read"),
    declare("HF006", "unreadable-file", "error",
            "a source file is a regular UTF-8 YAML text file inside the tree, of bounded size", "read"),
    declare("HF007", "control-character", "error",
            "remove the control or non-character code point; write the text as printed", "read"),
    declare("HF801", "erratum-does-not-apply", "error",
            "the data no longer holds what this erratum corrects: update the patch's path/from, "
            "or remove the erratum if the data already carries the correction", "read"),
)



def all_codes() -> dict[str, Code]:
    """Every declared code, in code order: reading codes, tree checks, and the referee's rules."""
    from .checks import all_checks              # the modules that declare codes, each listed once there
    from .referee import all_rules
    all_checks()
    all_rules()
    return dict(sorted(CODES.items()))
