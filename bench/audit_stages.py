"""Where one audit's time goes, inside one warm process: reading the log, the replay (every rule), the JSON
report (CPU seconds of each); per step, for a game's long log (bench/game_logs.py) and for each of its real
logs unrepeated. Not what a user waits for (bench_audit.py times that, and each process's peak memory): a
guide to where to look.

    python bench/audit_stages.py [--game ardennes2] [--steps 20000] [--runs 3] [--profile FILE]

`--profile FILE` writes a cProfile of one audit of the long log (`python -m pstats FILE`).
"""
from __future__ import annotations

import argparse
import gc
import tempfile
import time
from pathlib import Path

from common import ROOT  # noqa: E402  (puts the repository on sys.path)

from game_logs import games, write_long_log  # noqa: E402


def _stages(game, mod, log: Path) -> tuple[float, float, float, int]:
    """(read, replay, JSON: CPU seconds of this process; steps) of one audit, as the command runs it (the
    collector paused)."""
    from compiler.audit.read import read_any
    from compiler.audit.render_json import render_json
    from compiler.audit.setup import LogResult
    from validator.referee.audit import audit
    gc.disable()
    try:
        t0 = time.process_time()
        record = read_any(game, log, mod)
        t1 = time.process_time()
        result = audit(game, record)
        t2 = time.process_time()
        render_json([LogResult(str(log), result)], False)
        t3 = time.process_time()
    finally:
        gc.enable()
    return t1 - t0, t2 - t1, t3 - t2, len(record.steps)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="ardennes2")
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", type=Path)
    a = ap.parse_args()
    from compiler.audit.setup import AuditSetup, loaded
    g = games()[a.game]
    game, mod = loaded(AuditSetup(ROOT / "source" / a.game, False, g.module, None, True))
    log = write_long_log(g, a.steps, Path(tempfile.mkdtemp(prefix="hexforge-stages-")) / f"{a.game}.vlog")
    if a.profile:
        import cProfile
        cProfile.runctx("_stages(game, mod, log)", globals(), locals(), str(a.profile))
        print(f"profile: {a.profile}")
    print(f"{a.game}: best of {a.runs}, one warm process ({'; '.join(p.name for p in g.logs)})")
    print(f"  {'log':<34} {'steps':>6} {'read cpu s':>10} {'replay cpu s':>12} {'json cpu s':>10} {'replay ms/step':>15}")
    for path in (log,) + g.logs:
        best = min((_stages(game, mod, path) for _ in range(a.runs)), key=lambda x: x[1])
        r, p, j, n = best
        print(f"  {path.name:<34} {n:>6} {r:10.3f} {p:12.3f} {j:10.3f} {p / max(n, 1) * 1000:15.3f}")


if __name__ == "__main__":
    main()
