"""Benchmark: auditing a long YAML game record, as installed, for this checkout beside a baseline revision.

    python bench/bench_record.py [--baseline main] [--runs 5] [--steps 20000]

The record is what `hexforge replay --format yaml` writes for a real VASSAL 3.7.9 log's steps repeated to
--steps (bench_vlog.long_log, of aachen_long_game). Times `hexforge audit source/aachen RECORD -q`
as whole processes, medians of --runs interleaved, with each side's packages copied out and compiled first
(bench_startup.packages_at) and a cache of its own filled by one run; the peak RSS is that process's alone.
"""
from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT  # noqa: E402  (puts the repository on sys.path)

from bench_startup import side, timed  # noqa: E402
from bench_vlog import LOGS, long_log  # noqa: E402

SOURCE = "aachen_long_game"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="main", help="git revision to compare with")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20_000)
    a = ap.parse_args()
    if LOGS is None:
        sys.exit("shared/vassal-logs not found")
    tmp = Path(tempfile.mkdtemp(prefix="hexforge-bench-record-"))
    log, record = tmp / "long.vlog", tmp / "long.yaml"
    long_log(LOGS / f"{SOURCE}.vlog", a.steps, log)
    with record.open("wb") as out:
        subprocess.run([sys.executable, "-m", "compiler.cli", "replay", str(log), "--module", str(LOGS / "aachen.vmod"),
                        "--game", str(ROOT / "source" / "aachen"), "--format", "yaml"], cwd=ROOT, check=True,
                       stdout=out, stderr=subprocess.DEVNULL)
    py = shlex.quote(sys.executable)
    runs = {f"audit of the record ({name})": (f"{side(tmp, name, rev)} {py} -m compiler.cli audit "
                                              f"{shlex.quote(str(ROOT / 'source' / 'aachen'))} {shlex.quote(str(record))} -q")
            for name, rev in ((f"baseline {a.baseline}", a.baseline), ("this tree", None))}
    lines = record.read_text(encoding="utf-8").count("\n")
    timed(runs, a.runs, tmp, f"record: {SOURCE}'s steps repeated to {a.steps} ({record.stat().st_size / 2**20:.1f} MiB, "
          f"{lines} lines)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
