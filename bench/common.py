"""What the benchmarks share: the repository root on sys.path and the largest bundled game."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def largest_tree() -> Path:
    """The bundled game with the most YAML (Ardennes II today)."""
    trees = [p.parent for p in (ROOT / "source").glob("*/game.yaml")]
    return max(trees, key=lambda t: sum(f.stat().st_size for f in t.rglob("*.yaml")))
