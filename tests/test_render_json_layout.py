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
