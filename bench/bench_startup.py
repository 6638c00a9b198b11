"""Benchmark: what a run costs before it reads a log, as installed, for this checkout beside a baseline revision.

    python bench/bench_startup.py [--baseline main] [--runs 11]

Times, as whole processes started from a shell, medians of --runs interleaved round by round: a bare
interpreter; the 0-step audit (`hexforge audit source/aachen 0.vlog --module aachen.vmod`: imports, the kept
tree, the module) and `hexforge check source/ardennes2` (the compiled schema validators) for the baseline
revision's packages and for this working tree's. Each side's packages are copied out and compiled first, as
`pip install` leaves them (common.source_copies does the same for one tree), and each has a cache folder and
a key folder of its own, filled by one run before the timed ones, so every timed run reads what it kept.
"""
from __future__ import annotations

import argparse
import compileall
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import PACKAGES, ROOT, process_usage  # noqa: E402  (puts the repository on sys.path)

from bench_vlog import LOGS, long_log  # noqa: E402


def packages_at(rev: str | None, where: Path) -> Path:
    """The packages of a git revision (None: the working tree) copied to `where` and compiled."""
    where.mkdir(parents=True)
    if rev is None:
        for pkg in PACKAGES:
            shutil.copytree(ROOT / pkg, where / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *PACKAGES], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    if not all(compileall.compile_dir(where / pkg, quiet=1) for pkg in PACKAGES):
        raise SystemExit(f"compileall failed in {where}")
    return where


def side(tmp: Path, name: str, rev: str | None) -> str:
    """The shell assignments that run hexforge from `rev`'s compiled packages (None: this working tree), with
    a cache folder and a key folder of that side's own."""
    slug = name.replace(" ", "-")
    env = {"PYTHONPATH": str(packages_at(rev, tmp / slug)), "HEXFORGE_CACHE_DIR": str(tmp / f"cache-{slug}"),
           "XDG_STATE_HOME": str(tmp / f"state-{slug}")}
    return " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())


def timed(runs: dict[str, str], rounds: int, cwd: Path, heading: str) -> None:
    """Fill every side's caches with one run each, then time the commands interleaved round by round, and
    print each one's median wall and CPU seconds and its peak RSS."""
    for cmd in runs.values():
        subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True)
    samples: dict[str, list] = {k: [] for k in runs}
    for _ in range(rounds):
        for name, cmd in runs.items():
            samples[name].append(process_usage(cmd, cwd=cwd, shell=True))
    print(f"{heading}; {rounds} runs, medians, whole processes, packages compiled as pip installs them "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"  {'what':<40} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}")
    for name, s in samples.items():
        print(f"  {name:<40} {statistics.median(x[0] for x in s):>8.3f} {statistics.median(x[1] for x in s):>8.3f} "
              f"{max(x[2] for x in s) / 1024:>8.0f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="main", help="git revision to compare with")
    ap.add_argument("--runs", type=int, default=11)
    a = ap.parse_args()
    if LOGS is None:
        sys.exit("shared/vassal-logs not found")
    tmp = Path(tempfile.mkdtemp(prefix="hexforge-bench-startup-"))
    log = tmp / "0.vlog"
    long_log(LOGS / "aachen_long_game.vlog", 0, log)
    py = shlex.quote(sys.executable)
    runs = {"python -c pass": f"{py} -c pass"}
    for name, rev in ((f"baseline {a.baseline}", a.baseline), ("this tree", None)):
        assigns = side(tmp, name, rev)
        runs[f"audit, 0 steps ({name})"] = (f"{assigns} {py} -m compiler.cli audit {shlex.quote(str(ROOT / 'source/aachen'))} "
                                            f"{shlex.quote(str(log))} --module {shlex.quote(str(LOGS / 'aachen.vmod'))}")
        runs[f"check ardennes2 ({name})"] = (f"{assigns} {py} -m compiler.cli check "
                                             f"{shlex.quote(str(ROOT / 'source/ardennes2'))} -q")
    timed(runs, a.runs, tmp, "0-step audit and check")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
