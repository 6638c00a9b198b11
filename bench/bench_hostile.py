"""Benchmark: how long each hostile file of tests/test_hostile_input.py takes to be refused, and the peak memory
of that `hexforge audit` process, as a whole process from this checkout (tests/bounded.py runs it).

    python bench/bench_hostile.py

The tests assert each is under 5 s of CPU and 200 MB; this prints the figures (docs/performance.md).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from common import ROOT  # noqa: E402  (puts the repository on sys.path)

sys.path.insert(0, str(ROOT / "tests"))
from bounded import hexforge  # noqa: E402
from test_hostile_input import AACHEN, LOGS, _log, _record  # noqa: E402

from validator.records import record_limits as limits  # noqa: E402


def cases(tmp: Path) -> dict[str, tuple[str, tuple]]:
    module = ("--module", str(LOGS / "aachen.vmod"))
    event = "{move: {piece: p1, to: '2026'}}"
    return {
        "log: chat report of a 1d100000000000 (3.6 KB)": (
            _log(tmp, "dice.vlog", lambda t: t.replace("CHAT*** 1d6 = 6 ***", "CHAT*** 1d100000000000 = 6 ***")),
            module),
        f"log: {limits.MAX_STEPS + 1} steps": (
            _log(tmp, "steps.vlog", lambda t: t + "\x1bLOG\tCHAT<a> - x" * (limits.MAX_STEPS + 1)), module),
        "record: roll of a 1d10000000000 (61 bytes)": (
            _record(tmp, "dice.yaml", "steps:\n- events:\n  - roll: {dice: 1d10000000000, faces: [1]}\n"), ()),
        "record: a million empty steps (13 MB)": (
            _record(tmp, "million.yaml", "steps:\n" + "- events: []\n" * 1_000_000), ()),
        "record: a 5000-digit integer": (
            _record(tmp, "big.yaml", "steps:\n- step: " + "9" * 5000 + "\n"), ()),
        "record: a hex id of 30 001 characters": (
            _record(tmp, "h.yaml", "start:\n- {piece: p, unit: us-1id-inf-3-3-7, at: 'A" + "1" * 30_000 + "'}\n"), ()),
        "record: 200 steps aliasing one list of 10 000 events (53 KB)": (
            _record(tmp, "alias.yaml", "start:\n- {piece: p1, unit: us-1id-inf-3-3-7, side: us, at: '2025'}\nsteps:\n"
                    "- events: &big [" + ", ".join(["&ev " + event] + ["*ev"] * 9_999) + "]\n"
                    + "- events: *big\n" * 200), ()),
    }


def main() -> None:
    if LOGS is None:
        sys.exit("shared/vassal-logs not found")
    tmp = Path(tempfile.mkdtemp(prefix="hexforge-bench-hostile-"))
    hexforge("audit", AACHEN, _record(tmp, "warm.yaml", "steps: []\n"), cwd=tmp)      # the kept tree
    print(f"  {'hostile file':<62} {'exit':>4} {'wall s':>7} {'cpu s':>6} {'peak MB':>8}")
    for what, (name, extra) in cases(tmp).items():
        run = hexforge("audit", AACHEN, name, *extra, "-q", cwd=tmp)
        print(f"  {what:<62} {run.code:>4} {run.seconds:>7.2f} {run.cpu:>6.2f} {run.peak_mb:>8.0f}")


if __name__ == "__main__":
    main()
