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
        assert re.fullmatch(r"HF1\d\d\d", code), code
        assert CODES[code].kind == "audit" and CODES[code].severity == r.severity
        assert r.on in MOMENTS and r.help and r.name


def test_a_rule_is_found_by_its_code_in_one_jump():
    for code, r in all_rules().items():
        hits = [p for p in REFEREE.glob("*.py") if f'@rule("{code}"' in p.read_text(encoding="utf-8")]
        assert len(hits) == 1, code


def _code_of(path: Path) -> str:
    """A module's source without its docstrings (a rule's documentation gives examples from real games;
    its code may name none)."""
    import ast
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
            body[0].value.value = ""
    return ast.unparse(tree)


def test_no_game_is_named_in_the_referee():
    names = {"aachen", "ardennes", "bulge", "meuse", "montvaux", "wurm", "west wall", "siegfried", "peiper"}
    for p in REFEREE.glob("*.py"):
        text = _code_of(p).lower()
        assert not [n for n in names if n in text], p.name


def test_checks_listing_includes_the_audit_rules():
    import json
    from click.testing import CliRunner
    from compiler.cli import main
    rows = json.loads(CliRunner().invoke(main, ["checks", "--format", "json"]).output)
    audit = {x["code"]: x for x in rows if x["kind"] == "audit"}
    assert audit["HF1202"]["name"] == "move-onto-enemy" and audit["HF1202"]["severity"] == "error"
    # every audit code is a registered rule: no finding is made outside the registry
    assert set(audit) == set(all_rules()) and "HF1501" in audit


def test_each_event_is_handed_only_to_the_rules_that_judge_its_type():
    from validator.records.record import Chat, DieRoll, Moved, Placed, Removed, StateChanged, TurnChanged
    from validator.referee import rules_on_event
    on = {t: {r.code for r in rules_on_event(t)} for t in (Moved, Placed, Removed, StateChanged, DieRoll,
                                                            TurnChanged, Chat)}
    combat = {"HF1501", "HF1502", "HF1503", "HF1504", "HF1505", "HF1506", "HF1507", "HF1508", "HF1509", "HF1510",
              "HF1511", "HF1512", "HF1513", "HF1515", "HF1516", "HF1517", "HF1590", "HF1591", "HF1592", "HF1904"}
    assert on[DieRoll] == combat | {"HF1701"}             # the battle a roll settled, and play after the end
    assert {"HF1101", "HF1201", "HF1202", "HF1206", "HF1104", "HF1106", "HF1401"} <= on[Moved]
    assert "HF1904" not in on[Moved] and "HF1104" not in on[Placed]
    arrivals = {"HF1401", "HF1402", "HF1403", "HF1404", "HF1405", "HF1406", "HF1407", "HF1409"}
    entry_moves = {"HF1201", "HF1202", "HF1203", "HF1204", "HF1206"}      # the entry's first move (11.2)
    assert on[Placed] == arrivals | entry_moves | {"HF1701"}    # a unit entering the map
    assert on[StateChanged] == {"HF1106", "HF1514", "HF1701"}  # others' pieces; steps; after the end
    assert on[Removed] == on[StateChanged] | {"HF1109"}       # and a marker taken off outside its phase
    assert on[TurnChanged] == set() and on[Chat] == set()
    every = {c for c, r in all_rules().items() if r.on == "event"}
    assert set().union(*on.values()) == every             # no event rule is left without an event


def test_a_rule_naming_no_event_type_is_handed_every_event(monkeypatch):
    from validator.records.record import Chat, DieRoll, Moved
    from validator.referee import REGISTRY, Rule, rules_on_event
    monkeypatch.setitem(REGISTRY, "HF1998", Rule("HF1998", "any-event", "info", "h", "event", lambda ctx, m: ()))
    for t in (Moved, DieRoll, Chat):
        assert "HF1998" in {r.code for r in rules_on_event(t)}
    codes = [r.code for r in rules_on_event(Moved)]
    assert codes == sorted(codes)                         # code order, as before the dispatch


def test_only_an_event_rule_names_event_types():
    import pytest
    from validator.records.record import Moved
    from validator.referee import rule
    with pytest.raises(ValueError, match="HF1997"):
        rule("HF1997", "x", "info", "h", on="start", events=(Moved,))
    with pytest.raises(ValueError, match="HF1996"):
        rule("HF1996", "x", "info", "h", events=())


def test_each_reading_of_a_move_reaches_only_the_rules_that_judge_it():
    from validator.records.record import Moved, Placed
    from validator.referee import rules_on_event
    on = {r: {x.code for x in rules_on_event(Moved, r)} - {"HF1701"}    # play after the end: any reading
          for r in ("move", "after-combat", "unread", "entry", "other")}
    movement = {"HF1201", "HF1202", "HF1203", "HF1204", "HF1205", "HF1206"}
    arrivals = {"HF1401", "HF1402", "HF1403", "HF1404", "HF1405", "HF1406", "HF1407", "HF1409"}
    assert on["move"] == movement | {"HF1104", "HF1105", "HF1106", "HF1107", "HF1108", "HF1408"}  # HF1107, HF1108:
    #                                                              a state, or an enemy next to it, the phase bars
    assert on["after-combat"] == {"HF1201", "HF1206", "HF1106", "HF1518", "HF1519"}  # HF1201 notes what it cannot
    #                                                judge; HF1518-9 what is certain where no battle judges retreats
    assert on["unread"] == {"HF1101", "HF1102", "HF1103", "HF1206", "HF1106", "HF1408"}
    entry_moves = movement - {"HF1205"}                                # a reinforcement's entry and first move
    assert on["entry"] == arrivals | entry_moves | {"HF1106"}
    assert on["other"] == {"HF1106", "HF1110", "HF1111", "HF1112"}  # a marker, a move off the map; a special move
    assert {x.code for x in rules_on_event(Placed, "entry")} == arrivals | entry_moves | {"HF1701"}
    assert {x.code for x in rules_on_event(Moved)} == set().union(*on.values()) | {"HF1701"}   # None: any way


def test_a_reading_must_be_one_the_replay_makes():
    import pytest
    from validator.records.record import Moved
    from validator.referee import rule
    with pytest.raises(ValueError, match="HF1995"):
        rule("HF1995", "x", "info", "h", events=(Moved,), read_as=("teleport",))
    with pytest.raises(ValueError, match="HF1994"):
        rule("HF1994", "x", "info", "h", read_as=("move",))            # a reading of which events?
