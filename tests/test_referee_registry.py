"""The referee's rule registry: one code per rule, declared once, no game named in its code."""
import re
from pathlib import Path

from validator.codes import CODES
from validator.referee import MOMENTS, all_rules

REFEREE = Path(__file__).resolve().parents[1] / "validator" / "referee"


def test_every_rule_is_declared_as_an_audit_code():
    rules = all_rules()
    assert len(rules) >= 20
    for code, r in rules.items():
        assert re.fullmatch(r"HF1[0-49]\d\d", code), code
        assert CODES[code].kind == "audit" and CODES[code].severity == r.severity
        assert r.on in MOMENTS and r.help and r.name


def test_a_rule_is_found_by_its_code_in_one_jump():
    for code, r in all_rules().items():
        hits = [p for p in REFEREE.glob("*.py") if f'@rule("{code}"' in p.read_text(encoding="utf-8")]
        assert len(hits) == 1, code


def test_no_game_is_named_in_the_referee():
    names = {"aachen", "ardennes", "bulge", "meuse", "montvaux", "wurm", "west wall", "siegfried", "peiper"}
    for p in REFEREE.glob("*.py"):
        text = p.read_text(encoding="utf-8").lower()
        assert not [n for n in names if n in text], p.name


def test_checks_listing_includes_the_audit_rules():
    import json
    from click.testing import CliRunner
    from compiler.cli import main
    rows = json.loads(CliRunner().invoke(main, ["checks", "--format", "json"]).output)
    audit = {x["code"]: x for x in rows if x["kind"] == "audit"}
    assert audit["HF1202"]["name"] == "move-onto-enemy" and audit["HF1202"]["severity"] == "error"
    # the registered rules, and the codes the combat and dice judgements declare beside them
    assert set(audit) - set(all_rules()) == {c for c in audit if c.startswith(("HF15", "HF16"))}
    assert set(all_rules()) <= set(audit) and "HF1501" in audit
