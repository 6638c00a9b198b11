"""Benchmark: checking the largest game tree vs. merely loading its YAML with the C loader.

    python bench/bench_check.py [source/<game>] [--runs N]

Both are measured in the same process, interleaved, and reported as medians of N runs; the ratio is
what the README quotes (target: a whole check within 2x of the bare YAML load).
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import yaml

from common import ROOT, largest_tree  # noqa: E402  (puts the repository on sys.path)

from validator.checks import run_checks  # noqa: E402
from validator.source.loader import find_files, load_game  # noqa: E402



def bare_load(root: Path) -> None:
    for rel in find_files(root):
        yaml.load((root / rel).read_bytes(), Loader=yaml.CSafeLoader)


def full_check(root: Path) -> None:
    game, diags = load_game(root)
    if game is not None:
        run_checks(game)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tree", nargs="?", type=Path)
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    root = a.tree or largest_tree()
    size = sum((root / f).stat().st_size for f in find_files(root))
    full_check(root)  # warm imports and schema compilation, as a second run in one process would be
    times = {"yaml C load": [], "hexforge check": []}
    for _ in range(a.runs):
        for name, fn in (("yaml C load", bare_load), ("hexforge check", full_check)):
            t0 = time.perf_counter()
            fn(root)
            times[name].append(time.perf_counter() - t0)
    base = statistics.median(times["yaml C load"])
    print(f"tree: {root.relative_to(ROOT) if root.is_relative_to(ROOT) else root} "
          f"({len(find_files(root))} files, {size / 1024:.0f} KiB), {a.runs} runs, medians")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:<16} {m * 1000:8.1f} ms   {m / base:5.2f}x")


if __name__ == "__main__":
    main()
