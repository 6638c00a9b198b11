"""Benchmark hexforge as the user feels it: whole `hexforge ...` processes, beside baselines in the same run.

    python bench/bench_cli.py [--game source/ardennes2] [--runs 5]        # the README's Speed table
    python bench/bench_cli.py --rows check [--runs 5]                     # only those rows (or build, charts)
    python bench/bench_cli.py --scale [--times 1 4 16] [--runs 5]         # cost per unit at 1x, 4x, 16x

Every figure is the median of --runs processes started as a shell starts them (the `hexforge`
console script beside this Python, else `python -m compiler.cli`; PYTHONPATH is this checkout), with
their output discarded. Baselines: a bare interpreter (`python -c pass`) and the C-loader floor (a
`python -c` process that reads the same source files with PyYAML's CSafeLoader). Peak memory is the
child's own ru_maxrss, its CPU time (user + system) from os.wait4: on a machine shared with other
work, CPU time is the steadier figure, wall time what the user waits. The validator cache
(HEXFORGE_CACHE_DIR) is a fresh temp dir, filled by one untimed run except where a row says
"empty cache". "after one unit changes" edits one
unit's factors in a temp copy of the tree before each run. Rows compared with each other run
interleaved, round by round. The in-process figure times the same check inside this process (warm
imports), for comparison with earlier figures only.

hexforge's own modules are imported two ways, from copies of compiler/ and validator/ in a temp dir:
"from source" (no __pycache__, PYTHONDONTWRITEBYTECODE=1: every start compiles them, as a run from a
checkout does on this machine) and "bytecode" (compiled beforehand with compileall, as `pip install`
leaves an installed package). Rows without either label (build, charts) import this checkout as it is.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from common import ROOT, largest_tree, process_usage, source_copies  # noqa: E402  (puts the repository on sys.path)

from validator.source.loader import find_files  # noqa: E402

FLOOR = ("import sys, yaml\n"
         "for f in sys.argv[1:]:\n"
         "    yaml.load(open(f, 'rb').read(), Loader=yaml.CSafeLoader)\n")


def hexforge_cmd() -> list[str]:
    script = Path(sys.executable).parent / "hexforge"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "compiler.cli"]


class Runner:
    def __init__(self, runs: int, cache_dir: Path):
        self.runs = runs
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "HEXFORGE_CACHE_DIR": str(cache_dir)}
        self.env.pop("SOURCE_DATE_EPOCH", None)

    def once(self, argv: list[str], cwd: Path, env: Optional[dict] = None) -> tuple[float, float, float]:
        """(wall seconds, CPU seconds, peak MB) of one process; `env` overrides some variables."""
        wall, cpu, kib = process_usage(argv, cwd=cwd, env={**self.env, **(env or {})})
        return wall, cpu, kib / 1024

    def rounds(self, steps: list, cwd: Path) -> dict:
        """Run every (name, argv, before[, env]) step in turn, --runs rounds over: each step's median wall
        and CPU seconds and largest peak MB. Interleaved, so that a baseline and what it is compared
        with see the same machine; `before(i)`, if given, prepares round i of its step, untimed."""
        seen: dict = {step[0]: ([], [], []) for step in steps}
        for i in range(self.runs):
            for name, argv, before, *env in steps:
                if before:
                    before(i)
                for acc, v in zip(seen[name], self.once(argv, cwd, *env)):
                    acc.append(v)
        return {name: (statistics.median(w), statistics.median(c), max(m)) for name, (w, c, m) in seen.items()}

    def median(self, argv: list[str], cwd: Path, before=None) -> tuple[float, float, float]:
        return self.rounds([("", argv, before)], cwd)[""]


def edit_one_unit(tree: Path):
    """A `before` hook: give the first unit's factors a different first digit at each run."""
    path = tree / "counters.yaml"
    original = path.read_text(encoding="utf-8")
    start = original.index("factors:")
    digit_at = next(i for i in range(start, len(original)) if original[i].isdigit())

    def before(i: int) -> None:
        d = str((int(original[digit_at]) + 1 + i) % 10)
        path.write_text(original[:digit_at] + d + original[digit_at + 1:], encoding="utf-8")
    return before


def fresh_dir(parent: Path):
    """A `before` hook making `parent/out` empty (a cold run: no stamp, no image cache)."""
    def before(_: int) -> None:
        shutil.rmtree(parent / "out", ignore_errors=True)
    return before


def in_process_check(tree: Path, runs: int) -> float:
    from compiler.cli import check_tree
    check_tree(tree)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        check_tree(tree)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def same_check_output(r: Runner, check: list[str], envs: dict, cwd: Path) -> None:
    """The copies check as this checkout does (same output, same status), or the bench stops."""
    import subprocess
    outs = {kind: subprocess.run(check, cwd=cwd, env={**r.env, **env}, capture_output=True)
            for kind, env in {"checkout": {}, **envs}.items()}
    first = outs["checkout"]
    for kind, out in outs.items():
        if (out.returncode, out.stdout) != (first.returncode, first.stdout):
            raise SystemExit(f"hexforge check from the {kind} copy differs from this checkout's")


def command_table(tree: Path, runs: int, rows_wanted: tuple = ("check", "build", "charts")) -> None:
    hf = hexforge_cmd()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        r = Runner(runs, tmp / "validator-cache")
        envs = source_copies(tmp)
        work = tmp / "tree"
        shutil.copytree(tree, work)
        files = [str(work / f) for f in find_files(work)]
        out = ["--out", str(tmp / "out")]
        def ratio(x, y):
            return f"{x / y:.2f}x"

        def share(x, y):
            return f"{100 * x / y:.1f} %"

        def over(x, y):
            return f"+{x - y:.3f} s over bare"

        check = hf + ["check", str(work)]
        same_check_output(r, check, envs, tmp)
        src, pyc = envs["from source"], envs["bytecode"]
        empty_cache = lambda _: shutil.rmtree(tmp / "validator-cache", ignore_errors=True)  # noqa: E731
        base = {} if "check" not in rows_wanted else r.rounds([
            ("python -c pass (bare interpreter)", [sys.executable, "-c", "pass"], None),
            ("python -c <CSafeLoader over the same files>", [sys.executable, "-c", FLOOR, *files], None),
            ("hexforge --help (from source)", hf + ["--help"], None, src),
            ("hexforge --help (bytecode)", hf + ["--help"], None, pyc),
            ("hexforge check (from source, empty cache)", check, empty_cache, src),
            ("hexforge check (from source)", check, None, src),
            ("hexforge check (bytecode)", check, None, pyc),
        ], tmp)
        compared = {}
        if base:
            bare, floor = list(base.values())[:2]
            compared = {name: ((over, bare) if "--help" in name else (ratio, floor)) for name in list(base)[2:]}
        rows = [[name, *v, ""] for name, v in base.items()]
        for cmd in [c for c in ("build", "charts") if c in rows_wanted]:
            argv = hf + [cmd, str(work)] + out
            timed = r.rounds([(f"hexforge {cmd} (cold)", argv, fresh_dir(tmp)),
                              (f"hexforge {cmd} (nothing changed)", argv, None),
                              (f"hexforge {cmd} (after one unit changes)", argv, edit_one_unit(work))], tmp)
            cold = timed[f"hexforge {cmd} (cold)"]
            compared.update({name: (share, cold) for name in list(timed)[1:]})
            rows += [[name, *v, ""] for name, v in timed.items()]
            shutil.copy(tree / "counters.yaml", work / "counters.yaml")
            shutil.rmtree(tmp / "out", ignore_errors=True)
        for row in rows:
            if row[0] in compared:
                fmt, against = compared[row[0]]
                row[4] = f"wall {fmt(row[1], against[0])}, CPU {fmt(row[2], against[1])}"
        if base:
            next(row for row in rows if row[0] == "hexforge check (from source)")[4] += \
                f"; in-process {in_process_check(work, runs):.3f} s"
    print(f"tree: {tree}  ({len(files)} files), {runs} runs each, medians; command: {' '.join(hf)}")
    print("hexforge imported from copies of its packages: 'from source' compiles them at each start "
          "(no bytecode), 'bytecode' was compiled beforehand as pip install does")
    print(f"{'what':<44} {'wall s':>7} {'CPU s':>7} {'peak MB':>7}  compared")
    for name, wall, cpu, mb, text in rows:
        print(f"{name:<44} {wall:>7.3f} {cpu:>7.3f} {mb:>7.0f}  {text}")


def scale_table(times: list[int], runs: int) -> None:
    import gen_synthetic
    hf = hexforge_cmd()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        r = Runner(runs, tmp / "validator-cache")
        base = largest_tree()
        for n in times:
            data = gen_synthetic.corrected_files(base)
            data = gen_synthetic.multiply(data, n) if n > 1 else data
            tree = tmp / f"{base.name}-x{n}"
            gen_synthetic.write_tree(data, tree)
            units = len(data["counters.yaml"]["units"])
            r.once(hf + ["check", str(tree)], tmp)  # fills the validator cache
            row = {"n": n, "units": units}
            row["check"] = r.median(hf + ["check", str(tree)], tmp)
            for cmd in ("build", "charts"):
                row[cmd] = r.median(hf + [cmd, str(tree), "--out", str(tmp / "out")], tmp, before=fresh_dir(tmp))
            shutil.rmtree(tmp / "out", ignore_errors=True)
            results.append(row)
            print(f"  measured {n}x ({units} units)", file=sys.stderr)
    first = results[0]
    print(f"synthetic copies of {largest_tree().name} (bench/gen_synthetic.py), {runs} runs each, medians; "
          "per unit in CPU ms, ratio to the 1x figure, peak MB")
    head = " ".join(f"{c + ' wall':>11} {'CPU s':>6} {'ms/unit':>7} {'ratio':>5} {'MB':>4}"
                    for c in ("check", "build", "charts"))
    print(f"{'size':<5} {'units':>5} {head}")
    for row in results:
        cells = []
        for c in ("check", "build", "charts"):
            wall, cpu, mb = row[c]
            per = 1000 * cpu / row["units"]
            per1 = 1000 * first[c][1] / first["units"]
            cells.append(f"{wall:>11.2f} {cpu:>6.2f} {per:>7.2f} {per / per1:>5.2f} {mb:>4.0f}")
        print(f"{str(row['n']) + 'x':<5} {row['units']:>5} " + " ".join(cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", type=Path, default=None)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", action="store_true", help="time check/build/charts on 1x/4x/16x synthetic copies")
    ap.add_argument("--times", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--rows", nargs="+", choices=["check", "build", "charts"], default=["check", "build", "charts"],
                    help="which rows of the Speed table to measure (check: the baselines and check rows)")
    a = ap.parse_args()
    if a.scale:
        scale_table(a.times, a.runs)
    else:
        command_table((a.game or largest_tree()).resolve(), a.runs, tuple(a.rows))


if __name__ == "__main__":
    main()
