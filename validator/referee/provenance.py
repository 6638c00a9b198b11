"""What a log says of where it comes from: the module (name and version) VASSAL wrote it with.

A log played with another module, or another version of it, may place pieces on other boards or
name other units than the module it is audited with: the audit still runs, with a warning (HF1653).
"""
from __future__ import annotations

from typing import Optional

from . import Finding, Verdict, found, rule


@rule("HF1653", "log-module-mismatch", "warning",
      "audit the log with the module (and version) it was played with: pass it with --module", on="start")
def log_module_mismatch(v) -> Optional[Verdict]:
    """The log was written with another module, or another version, than the one it is audited with.

    ## What it checks
    The module name and version in the log's `moduledata` against those of the module given
    (`--module`, default the tree's build).
    ## Why
    Another module (or version) may place pieces on other boards or name other units: its log read
    with this module's geometry may put pieces on wrong hexes.
    ## Reads
    the log's moduledata, the module's.
    ## Violation
    A log written with "Crossing the Meuse 0.9" audited with meuse.vmod 1.0.
    ## Near miss
    The same log audited with the module it was played with.
    """
    log, given = v.record.module, v.facts.module
    if not log or not given or log == given:
        return None
    return found(Finding(message=f"the log was written with module {log!r}, audited with {given!r}", step=0))
