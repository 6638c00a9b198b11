"""The audit's JSON report is laid out by its own writer (compiler.audit.render_json): it must give, to the
character, what `json.dumps(doc, indent=2, ensure_ascii=False)` gives, whatever the document holds."""
import enum
import json

import pytest

from compiler.audit.render_json import BIG, PIECE_CHARS, _members, json_pieces


class _Kind(int, enum.Enum):
    ONE = 1


class _Name(str):
    pass


ODD = {
    "scalars": [1.5, -0.0, 1e300, float("nan"), float("inf"), -float("inf"), True, False, None, 0, -7, 10 ** 30,
                "é \"quoted\" \\ back\nslash\t\u2028 \x01", _Name("sub"), _Kind.ONE],
    1: {}, 2.5: [], None: [[]], True: {"empty": (), "tuple": (1, "a")}, False: {"x": {"y": {"z": [{}]}}},
    "big list": list(range(BIG * 2)), "big object": {str(i): [i, {"i": i}] for i in range(BIG + 5)},
    "deep": [[[[[[[[[[[[[[[[[[[[1, [2]]]]]]]]]]]]]]]]]]]]],
    "big in big": [{"steps": [{"step": i, "reasons": ["r"] * (i % 3)} for i in range(BIG + 1)]}] * 2,
}


@pytest.mark.parametrize("doc", [ODD, [], {}, "text", 3, None, [ODD] * 3], ids=["odd", "[]", "{}", "str", "int",
                                                                            "null", "list"])
def test_layout_is_json_dumps_indent_2(doc):
    assert "".join(_members(doc, 0)) == json.dumps(doc, indent=2, ensure_ascii=False)


def test_not_serializable_is_refused_as_json_refuses():
    with pytest.raises(TypeError, match="not JSON serializable"):
        "".join(_members({"a": [object()]}, 0))
    with pytest.raises(TypeError, match="keys must be"):
        "".join(_members({(1, 2): 1}, 0))


class _Result:
    """What `json_pieces` reads of one audited log (an unreadable one: the simplest)."""
    def __init__(self, i):
        self.file, self.error, self.audit, self.warnings = f"log{i}.vlog", "x" * 5000, None, ()


def test_pieces_are_bounded_and_join_to_the_report():
    results = [_Result(i) for i in range(100)]
    pieces = list(json_pieces(results))
    assert len(pieces) > 2 and all(len(p) < PIECE_CHARS + 6000 for p in pieces)
    doc = json.loads("".join(pieces))
    assert doc["summary"] == {"logs": 100, "unreadable": 100, "errors": 0, "warnings": 0, "notes": 0}
    assert "".join(pieces) == json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


class _Audit:
    """A long log's audit as `json_pieces` reads it: 20 000 steps of coverage, 5 000 findings."""
    findings = ()

    def as_json(self):
        steps = [{"step": i, "status": "full", "reasons": []} for i in range(20_000)]
        found = [{"code": "HF1201", "severity": "error", "message": "m" * 80, "hexes": ["A1", "A2"], "units": ["u"]}
                 for _ in range(5_000)]
        return {"file": "long.vlog", "coverage": {"fully": 20_000, "steps": steps}, "diagnostics": found}


class _Long:
    file, error, warnings, audit = "long.vlog", None, (), _Audit()


def test_a_long_logs_report_is_printed_in_bounded_pieces():
    """One log holding most of the report (the usual case) is printed member by member too: no piece holds a
    large part of it."""
    pieces = list(json_pieces([_Long()]))
    text = "".join(pieces)
    assert len(text) > 20 * PIECE_CHARS and max(len(p) for p in pieces) < PIECE_CHARS + 2000
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
