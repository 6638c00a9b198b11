"""What a log says of where it comes from: the module (name and version) VASSAL wrote it with.

A log played with another module, or another version of it, may place pieces on other boards or
name other units than the module it is audited with: the audit still runs, with a warning (HF1653).
"""
from __future__ import annotations

from typing import Optional

from ..codes import declare
from .replay import AuditFinding

MODULE_MISMATCH = declare(
    "HF1653", "log-module-mismatch", "warning",
    "audit the log with the module (and version) it was played with: pass it with --module", "audit")


def module_mismatch(log_module: Optional[str], given_module: Optional[str]) -> list[AuditFinding]:
    """A warning when the log's moduledata names another module name or version than the one given."""
    if not log_module or not given_module or log_module == given_module:
        return []
    c = MODULE_MISMATCH
    return [AuditFinding(c.code, c.severity, f"the log was written with module {log_module!r}, audited with "
                                             f"{given_module!r}", c.help, None, None, None, None, None, None)]
