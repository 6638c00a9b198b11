"""Benchmark: decoding a long VASSAL log with hexforge's reader vs pywargame's SaveIO.readSave, in the
same run, each as a whole process (interpreter start and imports included), medians of N runs.

    python bench/bench_vlog.py [--steps 20000] [--runs 5] [--source NAME]

The log is made in /tmp from a real VASSAL 3.7.9 log (shared/vassal-logs/NAME.vlog): its restore
snapshot, then its steps repeated until there are --steps of them, obfuscated as VASSAL writes it.
pywargame (Python 3.12, $HEXFORGE_PY312) de-obfuscates it into lines; "hexforge decode"
(`log_commands`) does that work and splits every step into its commands; "hexforge read_log"
reads it into the full GameRecord (pixels -> hex ids with the module beside the log). Peak memory (ru_maxrss) of
the hexforge process is shown for the long log and for a log a tenth as long.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from common import ROOT  # noqa: E402  (puts the repository on sys.path)

from compiler.vassal.encoding import ESC, deobfuscate, obfuscate  # noqa: E402
from compiler.vassal.logstream import top_level_tokens  # noqa: E402

LOGS = next((p for p in (ROOT.parent / "shared" / "vassal-logs", Path("/work/shared/vassal-logs")) if p.exists()),
            None)
PY312 = Path(os.environ.get("HEXFORGE_PY312", ROOT / ".venv312" / "bin" / "python"))

HEXFORGE = ("import resource, sys; sys.path.insert(0, {root!r})\n"
            "from compiler.vassal.vlog import read_log\n"
            "r = read_log({log!r}, {vmod!r})\n"
            "print(len(r.steps), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
DECODE = ("import sys; sys.path.insert(0, {root!r})\n"
          "from compiler.vassal.logstream import log_commands\n"
          "print(sum(1 for _ in log_commands({log!r})) - 1)")
PYWARGAME = ("from pywargame.vassal import SaveIO\n"
             "r = SaveIO.readSave({log!r})\n"
             "print(len(r[1]) if isinstance(r, tuple) else len(r))")


def long_log(source: Path, steps: int, out: Path) -> int:
    """Write `out`: source's restore snapshot, then its steps repeated to `steps`. Returns the count."""
    with zipfile.ZipFile(source) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    text = deobfuscate(entries["savedGame"]).decode("utf-8")
    tokens = list(top_level_tokens(iter([text])))
    end = tokens.index("end_save")
    # the step tokens exactly as VASSAL escaped them at the top level
    raw = text.split(ESC + "end_save" + ESC, 1)
    head, tail = raw[0] + ESC + "end_save", raw[1]
    real = [t for t in tokens[end + 1:] if t]
    escaped = _top_level_raw(tail)
    assert len(escaped) == len(real), (len(escaped), len(real))
    body = [escaped[i % len(escaped)] for i in range(steps)]
    entries["savedGame"] = obfuscate((head + ESC + ESC.join(body)).encode("utf-8"), 0x5a)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in entries.items():
            z.writestr(n, b)
    return steps


def _top_level_raw(text: str) -> list[str]:
    """Top-level tokens still escaped as written (split on ESC not preceded by a backslash)."""
    import re
    return [t for t in re.split(r"(?<!\\)\x1b", text) if t]


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--source", default="aachen_long_game")
    a = ap.parse_args()
    if LOGS is None:
        sys.exit("shared/vassal-logs not found")
    if not PY312.exists():
        sys.exit(f"no Python 3.12 with pywargame at {PY312} (set $HEXFORGE_PY312)")
    tmp = Path(tempfile.mkdtemp(prefix="hexforge-bench-vlog-"))
    log, short = tmp / "long.vlog", tmp / "short.vlog"
    long_log(LOGS / f"{a.source}.vlog", a.steps, log)
    long_log(LOGS / f"{a.source}.vlog", a.steps // 10, short)
    vmod = str(LOGS / ("ardennes2.vmod" if a.source.startswith("ardennes2") else "aachen.vmod"))
    runs = {"pywargame readSave": [str(PY312), "-c", PYWARGAME.format(log=str(log))],
            "hexforge decode": [sys.executable, "-c", DECODE.format(root=str(ROOT), log=str(log))],
            "hexforge read_log": [sys.executable, "-c", HEXFORGE.format(root=str(ROOT), log=str(log), vmod=vmod)]}
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(a.runs):
        for name, cmd in runs.items():
            w, c, out = timed(cmd)
            wall[name].append(w)
            cpu[name].append(c)
            if name == "hexforge read_log":
                n, rss = map(int, out.split())
                assert n == a.steps, (n, a.steps)
            elif name == "hexforge decode":
                assert int(out) == a.steps, (out, a.steps)
    out_short = timed([sys.executable, "-c", HEXFORGE.format(root=str(ROOT), log=str(short), vmod=vmod)])[2]
    med = {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in wall}
    bw, bc = med["pywargame readSave"]
    print(f"log: {a.steps} steps repeated from {a.source}.vlog, {log.stat().st_size} bytes zipped; "
          f"{a.runs} runs, medians, whole processes (load average {os.getloadavg()[0]:.1f})")
    for name, (w, c) in med.items():
        speed = "" if name.startswith("pywargame") else f"   {bw / w:5.1f}x wall, {bc / c:5.1f}x cpu vs readSave"
        print(f"  {name:<20} wall {w:7.3f} s   cpu {c:7.3f} s{speed}")
    print("  decode = savedGame -> de-obfuscated text -> each step's commands (readSave's work, and the")
    print("  steps split); read_log = the whole GameRecord (pieces, stacks, hexes, dice, turns)")
    print(f"  hexforge peak memory: {rss / 1024:.0f} MB for {a.steps} steps, "
          f"{int(out_short.split()[1]) / 1024:.0f} MB for {a.steps // 10}")


if __name__ == "__main__":
    main()
