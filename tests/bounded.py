"""Run `hexforge` as a whole process, as a user's shell runs it, and measure what the run took: its CPU time
(user and system, wait4's rusage), wall seconds and the peak resident memory of that process alone: the
kernel's high-water mark of its own memory (VmHWM in /proc/self/status), which the process writes as it
exits. (rusage's ru_maxrss would not do: Linux counts in it the memory of the process that forked it, so a
child of a pytest grown large would seem large.) A case
made to exhaust hexforge is refused within `SECONDS` of CPU and `PEAK_MB`, and within `WALL_SECONDS` as the
clock goes (the machine is shared: its load stretches the wall time, not the CPU time); an address-space limit
and a timeout keep a case that regresses from taking the machine with it (the run is killed, the test fails)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 5.0                    # each hostile case is refused within this much CPU time
WALL_SECONDS = 10.0              # and this much wall time, on a machine shared with other work
PEAK_MB = 200                    # and this much resident memory
ADDRESS_SPACE = 2 << 30          # a run that grows past this fails at once (Python's MemoryError)
TIMEOUT = 60.0                   # a run still going after this is killed


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    cpu: float
    peak_mb: float

    def within_bounds(self) -> bool:
        return self.cpu < SECONDS and self.seconds < WALL_SECONDS and self.peak_mb < PEAK_MB

    def __str__(self) -> str:
        return (f"exit {self.code} in {self.seconds:.2f} s ({self.cpu:.2f} s CPU), peak {self.peak_mb:.0f} MB\n"
                f"stdout: {self.stdout[:2000]}\nstderr: {self.stderr[:2000]}")


# Run as the child: the address-space limit, the high-water mark written at exit, then hexforge's own
# command line as `python -m compiler.cli` runs it.
_CHILD = f"""
import atexit, resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))
peak_file = sys.argv.pop(1)
def _peak():
    with open("/proc/self/status") as f:
        kb = next((line.split()[1] for line in f if line.startswith("VmHWM:")), "")
    with open(peak_file, "w") as out:
        out.write(kb)
atexit.register(_peak)
sys.argv[0] = "hexforge"
runpy.run_module("compiler.cli", run_name="__main__", alter_sys=True)
"""


def hexforge(*args, cwd: Path, env: dict | None = None) -> Run:
    """`python -m compiler.cli ARGS` in `cwd`, hexforge imported from this checkout."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryDirectory() as tmp:
        peak_file = Path(tmp) / "peak"
        t0 = time.monotonic()
        p = subprocess.Popen([sys.executable, "-c", _CHILD, str(peak_file), *map(str, args)], cwd=cwd, env=environ,
                             stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > TIMEOUT:
                os.kill(p.pid, signal.SIGKILL)
                _, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.01)
        seconds = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        kb = peak_file.read_text() if peak_file.exists() else ""
        peak_kb = int(kb) if kb.isdigit() else usage.ru_maxrss       # killed before it could write: rusage
        return Run(p.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   seconds, usage.ru_utime + usage.ru_stime, peak_kb / 1024)
