"""Every code explained: its docstring in the documented form, `hexforge explain` for every code
`hexforge checks` lists, and a Violation that quotes what the code really prints.

The referee's rules are being rewritten and documented by the lead this round: their codes are in
AUDIT_DOCS_PENDING, an explicit list that must shrink to nothing. A pending code that gains complete
docs fails (take it off the list), and so does any other code whose docs are missing or incomplete.
"""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from compiler.cli import main
from validator import code_docs
from validator.code_examples import EXAMPLES
from validator.catalog import all_codes
from validator.codes import declare
from validator.diagnostics import Diagnostic
from validator.source.model import Loc
from validator.referee import Finding

# Referee codes (validator/referee/) whose docs the lead is writing; each leaves this set as it gains them.
AUDIT_DOCS_PENDING: frozenset = frozenset()      # every referee code is documented

GOOD = '''Finds a thing.

## What it checks
What.

## Why
Because (rule 5.1).

## Reads
`rules.stacking.limit`

## Violation
    a.yaml:1:1: error[HF999] it fired

## Near miss
A close legal case.
'''


def _listed() -> list[str]:
    r = CliRunner().invoke(main, ["checks", "--format", "json"])
    assert r.exit_code == 0, r.output
    return [x["code"] for x in json.loads(r.output)]


def test_every_read_and_check_code_has_complete_docs():
    missing = {c.code: code_docs.problem(c) for c in all_codes().values()
               if c.kind in ("read", "check") and code_docs.problem(c)}
    assert missing == {}


def test_audit_codes_are_documented_or_named_pending():
    audit = {c.code: c for c in all_codes().values() if c.kind == "audit"}
    assert AUDIT_DOCS_PENDING <= set(audit), f"not audit codes any more: {sorted(AUDIT_DOCS_PENDING - set(audit))}"
    gained = sorted(k for k in AUDIT_DOCS_PENDING if code_docs.problem(audit[k]) is None)
    assert gained == [], "documented now: take these off AUDIT_DOCS_PENDING"
    lacking = {k: code_docs.problem(c) for k, c in audit.items()
               if k not in AUDIT_DOCS_PENDING and code_docs.problem(c)}
    assert lacking == {}, "a referee code not pending must have complete docs"


def test_check_and_rule_docstrings_are_the_codes_docs():
    from validator.checks import all_checks
    from validator.referee import all_rules
    codes = all_codes()
    for code, chk in all_checks().items():
        assert codes[code].doc == chk.func.__doc__ and chk.func.__doc__
    rules = all_rules()
    assert codes["HF1206"].doc == rules["HF1206"].func.__doc__ and rules["HF1206"].func.__doc__
    assert all(codes[k].doc == r.func.__doc__ for k, r in rules.items())


def test_declare_carries_its_doc():
    c = declare("HF998", "doc-test", "info", "help", "check", doc=GOOD)
    try:
        assert c.doc == GOOD and code_docs.parse(c.doc).summary == "Finds a thing."
    finally:
        from validator.codes import CODES
        del CODES["HF998"]


@pytest.mark.parametrize("text, why", [
    (None, "no documentation"),
    ("Finds a thing.", "missing What it checks, Why, Reads, Violation, Near miss"),
    (GOOD.replace("## Why\nBecause (rule 5.1).\n\n", ""), "missing Why"),
    (GOOD.replace("## Reads", "## Data"), "missing Reads; unknown Data"),
    (GOOD.replace("A close legal case.", ""), "empty section(s): Near miss"),
    (GOOD.replace("Finds a thing.", "Finds\na thing."), "in one line"),
])
def test_parse_names_what_is_wrong(text, why):
    with pytest.raises(code_docs.DocError) as e:
        code_docs.parse(text)
    assert why in str(e.value)


def test_parse_refuses_sections_out_of_order():
    swapped = GOOD.replace("## Violation", "## TMP").replace("## Near miss", "## Violation").replace("## TMP", "## Near miss")
    with pytest.raises(code_docs.DocError, match="out of order"):
        code_docs.parse(swapped)
    doc = code_docs.parse(GOOD)
    assert [h for h, _ in doc.sections] == list(code_docs.SECTIONS)
    assert dict(doc.sections)["Reads"] == "`rules.stacking.limit`"


def _quoted(code: str) -> list[str]:
    """The finding lines (file:line:col: severity[CODE] message) a code's Violation section quotes."""
    violation = dict(code_docs.parse(all_codes()[code].doc).sections)["Violation"]
    return [m.group(1) for m in re.finditer(r"^\s+(\S.*\b(?:error|warning|note)\[" + code + r"\] .*)$",
                                            violation, flags=re.M)]


def _printed(finding: dict) -> str:
    return f"{Loc(finding['file'], finding['line'], finding['column'])}: {finding['severity']}[{finding['code']}] " \
           f"{finding['message']}"


# The art checks' cases need image files: tests/test_art_checks.py pins each one's exact finding instead.
from test_art_checks import ART_CODES  # noqa: E402


@pytest.mark.parametrize("code", sorted(c for c, x in all_codes().items()
                                        if x.kind in ("read", "check") and c not in ART_CODES))
def test_violation_quotes_the_finding_the_code_prints(code):
    """The Violation's quoted line is the real finding of the case it describes (validator/code_examples.py:
    tests/test_checks.py's trigger on the test tree; docs/update_samples.py keeps it current)."""
    assert code in EXAMPLES, f"{code}: no real example finding (python docs/update_samples.py)"
    assert _quoted(code) == [_printed(EXAMPLES[code])], \
        f"{code}'s docstring quotes another finding than the check prints now: update its Violation"


def test_examples_have_their_kinds_fields():
    check_fields = list(Diagnostic("HF101", "error", "", Loc("x")).as_json())
    audit_fields = list(Finding(message="").as_json())
    codes = all_codes()
    for code, ex in EXAMPLES.items():
        assert ex["code"] == code and ex["severity"] in ("error", "warning", "note")
        assert list(ex) == (audit_fields if codes[code].kind == "audit" else check_fields), code


@pytest.mark.parametrize("code", _listed())
def test_explain_answers_for_every_listed_code(code):
    c = all_codes()[code]
    r = CliRunner().invoke(main, ["explain", code.lower()])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"# {code} {c.name}\n") and c.help in r.output
    finding = json.loads(r.output.split("```json\n", 1)[1].split("\n```", 1)[0])
    assert finding["code"] == code and finding["severity"] in ("error", "warning", "note")
    if code_docs.problem(c) is None:
        for heading in code_docs.SECTIONS:
            assert f"\n## {heading}\n" in r.output
    else:
        assert "Not documented yet" in r.output or "Not documented in full yet" in r.output


def test_explain_hf401_prints_the_doc_then_a_real_finding():
    r = CliRunner().invoke(main, ["explain", "HF401"])
    out = r.output
    assert out.index("## What it checks") < out.index("## Why") < out.index("## Reads") < \
        out.index("## Violation") < out.index("## Near miss") < out.index("## Help") < out.index("## Finding")
    assert "`validator.checks.stacking.overstacked_at_setup`" in out
    finding = json.loads(out.split("```json\n", 1)[1].split("\n```", 1)[0])
    assert finding["hexes"] == ["0202"] and finding["file"] == "scenarios/s1.yaml"


def test_explain_an_unknown_code_says_so():
    r = CliRunner().invoke(main, ["explain", "HF40"])
    assert r.exit_code == 2
    assert "no diagnostic code 'HF40' (did you mean HF401" in r.output and "Traceback" not in r.output


def test_help_describes_every_job():
    r = CliRunner().invoke(main, ["--help"])
    head = r.output.split("Options:", 1)[0]            # the description, not click's command list
    assert "check and compile" not in head
    for job in ("check", "build", "charts", "replay", "audit", "explain"):
        assert re.search(rf"^  {job}\s+\S", head, flags=re.M), job
