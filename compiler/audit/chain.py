"""`--chain`: the logs as one game in order, each log's start judged against the previous log's end
(validator/referee/chain.py compares them) instead of against the scenario's set-up."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from .setup import LogResult


def link(results: list[LogResult], game) -> None:
    """Each audited log's start against the end of the audited log before it, instead of against the
    scenario's set-up (a later log starts mid-game); an unreadable log breaks the chain."""
    from validator.referee.chain import compare
    previous: Optional[LogResult] = None
    for r in results:
        if r.error:
            previous = None
            continue
        if previous is not None:
            r.chain = tuple(compare(previous.ends, r.ends, Path(previous.file).name, game))
            judge_by_chain(r.audit, r.chain)
        previous = r


def setup_rule_codes() -> frozenset[str]:
    """The referee's rules that judge a log's start position against the scenario's set-up."""
    from validator.referee import all_rules
    return frozenset(c for c, r in all_rules().items() if r.on == "start" and r.name.startswith("setup-"))


def judge_by_chain(audit, chain_findings: tuple) -> None:
    """A chained log's start: the chain's findings in place of the set-up rules' ones."""
    codes = setup_rule_codes()
    audit.findings = [f for f in audit.findings if not (f.step is None and f.code in codes)]
    add_findings(audit, chain_findings)


def add_findings(audit, findings) -> None:
    """Findings made beside the referee's (module, chain), put in the audit's order."""
    from validator.referee.audit import SEVERITY_ORDER
    if not findings:
        return
    audit.findings = sorted(audit.findings + list(findings),
                            key=lambda f: (f.step or 0, SEVERITY_ORDER[f.severity], f.code))
