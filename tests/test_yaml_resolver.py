"""The memoising tag resolver reads every scalar exactly as PyYAML's own resolver does."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.source import yamlsrc
from validator.source.loader import find_files

ROOT = Path(__file__).resolve().parents[1]
TRICKY = b"""\
a: [1, "1", '1', 0107, "0107", 1.5, 1e3, 1.0e+3, .inf, -.Inf, .nan, 0x1F, 0o17, 0b101, 1_000, +12, -0]
b: [yes, No, "yes", on, OFF, y, n, true, "true", ~, null, "null", NULL, "", '']
c: [2024-12-16, "7.1", 7.1, B27.49, A29.00, 1-2-10, "[9]-1-16", 3:1, 1:30:00, =, <<x]
d:
"""


def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return (type(v).__name__, v if v == v else "nan")


def _both(data: bytes, name: str):
    fast = _plain(yamlsrc.load_text(data, name))
    mp = pytest.MonkeyPatch()
    mp.setattr(yamlsrc, "_Composer", yamlsrc._Loader)
    try:
        reference = _plain(yamlsrc.load_text(data, name))
    finally:
        mp.undo()
    return fast, reference


def test_tricky_scalars_resolve_as_pyyaml_resolves_them():
    fast, reference = _both(TRICKY, "t.yaml")
    assert fast == reference
    assert fast["a"][0] == ("int", 1) and fast["a"][1] == ("str", "1") and fast["b"][0] == ("bool", True)


@pytest.mark.parametrize("game", ["bulge", "aachen", "ardennes2"])
def test_every_bundled_file_reads_alike(game):
    tree = ROOT / "source" / game
    if not (tree / "game.yaml").exists():
        pytest.skip(f"source/{game} is not in this checkout")
    for rel in find_files(tree):
        fast, reference = _both((tree / rel).read_bytes(), rel)
        assert fast == reference, rel
