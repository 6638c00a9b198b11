"""What the benchmarks share: the repository root on sys.path and the largest bundled game."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def largest_tree() -> Path:
    """The bundled game with the most YAML (Ardennes II today)."""
    trees = [p.parent for p in (ROOT / "source").glob("*/game.yaml")]
    return max(trees, key=lambda t: sum(f.stat().st_size for f in t.rglob("*.yaml")))


def process_usage(cmd, cwd: Path = ROOT, env=None, shell: bool = False) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in KiB) of one whole process, that process alone. Exit 0 or 1
    (a check or audit that found something) is a run; any other status stops the benchmark."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, shell=shell, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if p.returncode not in (0, 1):
        raise SystemExit(f"{cmd if shell else ' '.join(map(str, cmd))}\nexit {p.returncode}: {err}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def compile_bytecode() -> None:
    """Write hexforge's bytecode into the checkout's (git-ignored) __pycache__ directories, as `pip
    install` writes an installed copy's. A machine that sets PYTHONDONTWRITEBYTECODE (this one does)
    would otherwise compile every module again at each start of a process run from the checkout."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "compiler", "validator"], cwd=ROOT, check=True)


def drop_bytecode() -> None:
    """Remove what `compile_bytecode` wrote: processes then run from the sources alone."""
    import shutil
    for d in list((ROOT / "compiler").rglob("__pycache__")) + list((ROOT / "validator").rglob("__pycache__")):
        shutil.rmtree(d, ignore_errors=True)
