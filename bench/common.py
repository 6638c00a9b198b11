"""What the benchmarks share: the repository root on sys.path, the largest bundled game, a whole-process
timer and copies of hexforge's packages to run from (with and without bytecode)."""
from __future__ import annotations

import compileall
import os
import shutil
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


PACKAGES = ("compiler", "validator")


def source_copies(tmp: Path) -> dict[str, dict]:
    """Environments importing hexforge from copies of its packages: "from source" (no bytecode, none
    written) and "bytecode" (every module compiled first, as pip compiles an installed package)."""
    envs = {}
    for kind in ("from source", "bytecode"):
        where = tmp / kind.replace(" ", "-")
        for pkg in PACKAGES:
            shutil.copytree(ROOT / pkg, where / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        env = {"PYTHONPATH": str(where)}
        if kind == "bytecode":
            if not all(compileall.compile_dir(where / pkg, quiet=1) for pkg in PACKAGES):
                raise SystemExit(f"compileall failed in {where}")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        envs[kind] = env
    return envs
