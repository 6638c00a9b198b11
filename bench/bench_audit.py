"""Benchmark: the whole `hexforge audit --format json` of a long log of each bundled game (start-up, decoding,
replay, every rule, the report printed) vs pywargame's SaveIO.readSave merely decoding the same file, in the
same run, each a whole process started from a shell, medians of N runs interleaved round by round.

    python bench/bench_audit.py [--steps 20000] [--runs 5] [--games meuse aachen ardennes2 bulge] [--no-bytecode]

Each game's log is made from that game's real VASSAL 3.7.9 logs (bench/game_logs.py: their steps in turn,
as VASSAL wrote them), so that its mix of moves, rolls, flips and removals is the real one; the bench prints
the mix. The audit is timed at 0 steps (start-up: imports, the tree, the module), at 1/16, 1/4 and all of
--steps (1 250, 5 000 and 20 000 by default): the cost per step, (time - the 0-step audit's) / steps, is
linear when it is equal at all three. Peak RSS is each process's own (wait4's ru_maxrss).

hexforge runs as installed: from a copy of its packages compiled first, as `pip install .` leaves them
(common.source_copies); pywargame 0.8 as installed in Python 3.12's venv ($HEXFORGE_PY312, else
.venv312/bin/python, which `bash .ci/run` makes). `--no-bytecode`: hexforge from a copy without bytecode (every
start compiles every module, as a checkout does where PYTHONDONTWRITEBYTECODE is set).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, process_usage, source_copies  # noqa: E402  (puts the repository on sys.path)

from bench_vlog import PY312, PYWARGAME  # noqa: E402
from game_logs import GAMES, module_of  # noqa: E402

START_UP_TARGET = 0.3            # seconds: the 0-step audit
PEAK_TARGET_MB = 100             # at the longest log
LINEAR_TARGET = 1.5              # cost per step at the longest log / at the shortest, at most


def audit_cmd(log: Path, vmod: Path, tree: Path, env: dict) -> str:
    """The audit as a shell starts it, importing hexforge from one of `source_copies` (run from a folder
    outside the checkout: `python -m` puts the working folder first on sys.path)."""
    assigns = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    return (f"{assigns} {shlex.quote(sys.executable)} -m compiler.cli audit {shlex.quote(str(tree))} "
            f"{shlex.quote(str(log))} --module {shlex.quote(str(vmod))} --format json")


def read_save_cmd(log: Path) -> str:
    return f"{shlex.quote(str(PY312))} -c {shlex.quote(PYWARGAME.format(log=str(log)))}"


def _sizes(steps: int) -> dict[str, int]:
    return {"0": 0, "1/16": steps // 16, "1/4": steps // 4, "all": steps}


def _commands(tmp: Path, names: list[str], steps: int, env: dict) -> tuple[dict, dict]:
    """(game, what) -> the shell command; game -> its longest log's mix. The logs are written by another
    process, so that this one stays small: a process's peak RSS counts what its parent held when it forked."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "game_logs.py"), "--json", "--out", str(tmp),
                          "--games", *names, "--steps", *map(str, _sizes(steps).values())],
                         check=True, capture_output=True, text=True).stdout
    written = json.loads(out)
    runs, mixes = {}, {}
    for name in names:
        for n in _sizes(steps).values():
            log, _ = written[name][str(n)]
            runs[(name, f"audit {n}")] = audit_cmd(Path(log), module_of(name), ROOT / "source" / name, env)
        runs[(name, "readSave")] = read_save_cmd(Path(written[name][str(steps)][0]))
        mixes[name] = written[name][str(steps)][1]
    return runs, mixes


def _table(name: str, med: dict, steps: int) -> list[str]:
    w0, c0, _ = med[(name, "audit 0")]
    out = [f"{name}:", f"  {'what':<16} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'wall ms/step':>13} {'cpu ms/step':>12}"]
    for n in _sizes(steps).values():
        w, c, rss = med[(name, f"audit {n}")]
        per = f"{(w - w0) / n * 1000:13.3f} {(c - c0) / n * 1000:12.3f}" if n else ""
        out.append(f"  {'audit ' + str(n):<16} {w:8.2f} {c:8.2f} {rss / 1024:8.0f} {per}")
    w, c, rss = med[(name, "readSave")]
    out.append(f"  {'readSave ' + str(steps):<16} {w:8.2f} {c:8.2f} {rss / 1024:8.0f}")
    return out


def _verdicts(name: str, med: dict, steps: int) -> list[str]:
    sizes = [n for n in _sizes(steps).values() if n]
    w0, c0, rss0 = med[(name, "audit 0")]
    w, c, rss = med[(name, f"audit {steps}")]
    bw, bc, _ = med[(name, "readSave")]
    per = [(med[(name, f"audit {n}")][1] - c0) / n for n in sizes]
    return [f"  the whole audit of {steps} steps against readSave's decode: wall {w:.2f} s vs {bw:.2f} s "
            f"({bw / w:.2f}x, {'faster' if w < bw else 'SLOWER'}), CPU {c:.2f} s vs {bc:.2f} s "
            f"({bc / c:.2f}x, {'faster' if c < bc else 'SLOWER'})",
            f"  start-up (the 0-step audit): {w0:.2f} s wall, {c0:.2f} s CPU "
            f"({'under' if w0 < START_UP_TARGET else 'OVER'} {START_UP_TARGET} s)",
            f"  CPU ms per step at {', '.join(map(str, sizes))}: {', '.join(f'{p * 1000:.3f}' for p in per)} "
            f"(longest / shortest {per[-1] / per[0]:.2f}: {'linear' if per[-1] / per[0] <= LINEAR_TARGET else 'NOT LINEAR'})",
            f"  peak RSS at {steps} steps: {rss / 1024:.0f} MB ({'under' if rss / 1024 < PEAK_TARGET_MB else 'OVER'} "
            f"{PEAK_TARGET_MB} MB)"]


def _mix_line(m: dict) -> str:
    per = ", ".join(f"{k} {1000 * v / m['steps']:.0f}" for k, v in sorted(m.items())
                    if k not in ("steps", "warnings") and v)
    return f"  its log's events per 1000 steps: {per}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--no-bytecode", action="store_true", help="run hexforge from its sources, no bytecode")
    a = ap.parse_args()
    if not PY312.exists():
        sys.exit(f"no Python 3.12 with pywargame at {PY312} (set $HEXFORGE_PY312, or run `bash .ci/run`)")
    tmp = Path(tempfile.mkdtemp(prefix="hexforge-bench-audit-"))
    env = source_copies(tmp)["from source" if a.no_bytecode else "bytecode"]
    runs, mixes = _commands(tmp, a.games, a.steps, env)
    samples: dict = {k: [] for k in runs}
    for _ in range(a.runs):                        # interleaved, so load on the machine hits all alike
        for key, cmd in runs.items():
            samples[key].append(process_usage(cmd, cwd=tmp, shell=True))
    med = {k: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v), max(s[2] for s in v))
           for k, v in samples.items()}
    print(f"hexforge audit --format json ({'from its sources, no bytecode' if a.no_bytecode else 'as installed'}) "
          f"vs pywargame 0.8 SaveIO.readSave; whole processes, medians of {a.runs}, interleaved "
          f"(load average {os.getloadavg()[0]:.1f})")
    for name in a.games:
        print("\n".join(_table(name, med, a.steps) + [_mix_line(mixes[name])] + _verdicts(name, med, a.steps)))


if __name__ == "__main__":
    main()
