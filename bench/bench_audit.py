"""Benchmark: the whole `hexforge audit` of a long VASSAL log (decode, replay, every rule, the report
printed) vs pywargame's SaveIO.readSave (decoding alone) of the same log, in the same run, each as a
whole process started from a shell (interpreter start and imports included), medians of N runs.

    python bench/bench_audit.py [--steps 20000] [--runs 5] [--source NAME] [--no-bytecode]

The logs are made in /tmp from a real VASSAL 3.7.9 log (shared/vassal-logs/NAME.vlog) as
bench_vlog.py makes them: its restore snapshot, then its steps repeated. The audit is timed at
1/16, 1/4 and all of --steps (1x, 4x, 16x), and at 0 steps (start-up: imports, the tree, the
module), so the cost per step shows whether it is linear; the peak RSS of each audit process
(wait4's ru_maxrss, that child alone) shows whether memory is flat in the log's length.

hexforge runs as installed: from a copy of its packages compiled first, as `pip install` does (pywargame's
is, in its site-packages; common.source_copies). Beside the 16x audit, the same audit runs from a copy with
no bytecode (each start compiles every module, as a checkout does on a machine that sets
PYTHONDONTWRITEBYTECODE); --no-bytecode times every audit so.
"""
from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

from common import ROOT, process_usage, source_copies  # noqa: E402  (puts the repository on sys.path)

from bench_vlog import LOGS, PY312, PYWARGAME, long_log  # noqa: E402


def audit_cmd(log: Path, vmod: Path, tree: Path, env: dict) -> str:
    """The audit as a shell starts it, importing hexforge from one of `source_copies` (run it from a folder
    outside the checkout: `python -m` puts the working folder first on sys.path)."""
    assigns = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    return (f"{assigns} {shlex.quote(sys.executable)} -m compiler.cli audit {shlex.quote(str(tree))} {shlex.quote(str(log))} "
            f"--module {shlex.quote(str(vmod))}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--source", default="aachen_long_game")
    ap.add_argument("--no-bytecode", action="store_true", help="run hexforge from its sources, no bytecode")
    a = ap.parse_args()
    if LOGS is None:
        sys.exit("shared/vassal-logs not found")
    if not PY312.exists():
        sys.exit(f"no Python 3.12 with pywargame at {PY312} (set $HEXFORGE_PY312)")
    game = a.source.split("_")[0]
    vmod = LOGS / f"{game}.vmod"
    tmp = Path(tempfile.mkdtemp(prefix="hexforge-bench-audit-"))
    sizes = {"0": 0, "1x": a.steps // 16, "4x": a.steps // 4, "16x": a.steps}
    logs = {}
    for name, n in sizes.items():
        logs[name] = tmp / f"{name}.vlog"
        long_log(LOGS / f"{a.source}.vlog", n, logs[name])
    envs = source_copies(tmp)
    main_env = envs["from source" if a.no_bytecode else "bytecode"]
    tree = ROOT / "source" / game
    runs = {f"audit {name}": audit_cmd(log, vmod, tree, main_env) for name, log in logs.items()}
    if not a.no_bytecode:
        runs["audit 16x, no bytecode"] = audit_cmd(logs["16x"], vmod, tree, envs["from source"])
    runs["pywargame readSave 16x"] = f"{shlex.quote(str(PY312))} -c {shlex.quote(PYWARGAME.format(log=str(logs['16x'])))}"
    samples: dict[str, list[tuple[float, float, int]]] = {k: [] for k in runs}
    for _ in range(a.runs):                        # interleaved, so load on the machine hits all alike
        for name, cmd in runs.items():
            samples[name].append(process_usage(cmd, cwd=tmp, shell=True))
    med = {k: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v), max(s[2] for s in v))
           for k, v in samples.items()}
    print(f"log: {a.source}.vlog's steps repeated; {a.runs} runs, medians, whole processes "
          f"(load average {os.getloadavg()[0]:.1f}); hexforge "
          + ("from its sources, no bytecode" if a.no_bytecode else "with its bytecode compiled, as pip installs it"))
    print(f"  {'what':<24} {'steps':>6} {'wall s':>8} {'cpu s':>8} {'peak RSS MB':>12} {'wall ms/step':>13} "
          f"{'cpu ms/step':>12}")
    w0, c0, _ = med["audit 0"]
    for name, (w, c, rss) in med.items():
        n = sizes.get(name.split()[-1], a.steps)
        per = (f"{(w - w0) / n * 1000:13.3f} {(c - c0) / n * 1000:12.3f}"
               if name.split()[-1] in sizes and name.startswith("audit") and n else "")
        print(f"  {name:<24} {n:>6} {w:8.2f} {c:8.2f} {rss / 1024:12.0f} {per}")
    base = med["pywargame readSave 16x"][0]
    full = med["audit 16x"][0]
    print(f"  the whole audit at {a.steps} steps vs pywargame's decode alone: {full:.2f} s vs {base:.2f} s, "
          f"{base / full:.2f}x ({'faster' if full < base else 'SLOWER'})")
    if "audit 16x, no bytecode" in med:
        raw = med["audit 16x, no bytecode"][0]
        print(f"  the same from the sources with no bytecode: {raw:.2f} s, {base / raw:.2f}x "
              f"({'faster' if raw < base else 'SLOWER'})")
    print("  ms/step = (time - the 0-step audit's time) / steps: the cost is linear when it is equal at 1x, 4x, 16x")


if __name__ == "__main__":
    main()
