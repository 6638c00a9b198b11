"""One registry of diagnostic codes: every code declared once, listed by `hexforge checks`, in the README."""
import json
import re

import pytest
from click.testing import CliRunner

from compiler.cli import check_tree, main
from conftest import MINI, ROOT, SOURCE
from validator.catalog import all_codes
from validator.codes import CODES, declare
from validator.diagnostics import Diagnostic
from validator.source.model import Loc

READ = {"HF001", "HF002", "HF003", "HF004", "HF005", "HF006", "HF801"}


def _listed() -> dict[str, dict]:
    r = CliRunner().invoke(main, ["checks", "--format", "json"])
    assert r.exit_code == 0, r.output
    return {x["code"]: x for x in json.loads(r.output)}


def _table_codes(path, heading: str) -> set[str]:
    """The codes a document's code table (under `heading`) names, ranges (HF101–HF109) expanded."""
    text = path.read_text(encoding="utf-8")
    if heading not in text:
        return set()
    table = text.split(heading, 1)[1].split("\n\n", 1)[0]
    out: set[str] = set()
    for cell in re.findall(r"^\| ([^|]+) \|", table, flags=re.M):
        for lo, hi in re.findall(r"HF(\d{3,4})(?:[–-]HF(\d{3,4}))?", cell):
            out |= {f"HF{n:03d}" for n in range(int(lo), int(hi or lo) + 1)}
    return out


def _readme_codes() -> set[str]:
    """The codes the users' tables name: the README's check-code table, and the art codes' table in
    docs/source-format.md (art.yaml's checks, documented with the file they judge)."""
    return (_table_codes(ROOT / "README.md", "| codes | what they check |")
            | _table_codes(ROOT / "docs" / "source-format.md", "| codes | what they check |"))


def test_checks_lists_the_reading_codes_too():
    listed = _listed()
    assert READ <= set(listed)
    assert listed["HF006"]["kind"] == "read" and listed["HF304"]["kind"] == "check"
    assert listed["HF801"]["severity"] == "error"


def test_checks_lists_every_declared_code_once():
    listed = _listed()
    assert list(listed) == sorted(all_codes())
    assert all(x["help"] and x["name"] and x["severity"] in ("error", "warning", "note") for x in listed.values())


def test_readme_code_table_and_checks_agree():
    declared = {c for c, x in all_codes().items() if x.kind in ("read", "check")}
    readme = _readme_codes()
    assert readme - declared == set(), "README names codes nothing declares"
    assert declared - readme == set(), "declared codes missing from the README's table"


def test_a_code_is_declared_only_once():
    all_codes()
    with pytest.raises(RuntimeError, match="HF101 declared twice"):
        declare("HF101", "again", "error", "no", "check")


def test_severity_is_a_closed_set():
    with pytest.raises(ValueError, match="severity 'fatal'"):
        declare("HF999", "bad", "fatal", "no", "check")
    assert "HF999" not in CODES
    with pytest.raises(ValueError, match="severity 'Error'"):
        Diagnostic("HF101", "Error", "x", Loc("a.yaml"))


@pytest.mark.parametrize("game", ["mini", "aachen", "ardennes2", "bulge"])
def test_every_reported_code_is_declared(game):
    path = MINI if game == "mini" else SOURCE / game
    declared = all_codes()
    for as_printed in (False, True):
        _, diags = check_tree(path, as_printed=as_printed)
        for d in diags:
            assert d.code in declared, f"{d.code} reported but never declared"
            assert declared[d.code].kind in ("read", "check")
