"""No function of hexforge's packages is over 80 lines (docstring included): a builder reads as a table of
small named steps, a rule as one concern (the project's style). A function that grows past it fails here."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80


def _long_functions() -> list[str]:
    out = []
    for package in ("validator", "compiler"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > LIMIT:
                        out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines} lines")
    return out


def test_no_function_is_over_80_lines():
    assert _long_functions() == []


def test_the_check_finds_a_long_function(tmp_path, monkeypatch):
    """Near miss and violation: 80 lines pass, 81 fail."""
    body = "\n".join(f"    x{i} = {i}" for i in range(78))
    for n, expect in ((80, []), (81, ["validator/long.py:1 f: 81 lines"])):
        pkg = tmp_path / "validator"
        pkg.mkdir(exist_ok=True)
        extra = "\n    y = 0" if n == 81 else ""
        (pkg / "long.py").write_text(f'def f():\n    """doc"""\n{body}{extra}\n', encoding="utf-8")
        (tmp_path / "compiler").mkdir(exist_ok=True)
        monkeypatch.setitem(globals(), "ROOT", tmp_path)
        assert _long_functions() == expect
