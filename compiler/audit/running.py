"""Running an audit's logs: in this process, or one process per log with `--jobs N`, the output in the
order the logs were given either way; and the cyclic garbage collector tuned for it."""
from __future__ import annotations

import contextlib
import os
from typing import Optional

from .chain import link
from .setup import AuditSetup, LogResult, loaded
from .task import audit_task


def prepare(setup: AuditSetup) -> tuple:
    """The tree and module, loaded once per process (here before any worker starts, and in each worker)."""
    out = loaded(setup)
    settle_collector()
    return out


def audit_batch(setup: AuditSetup, logs: tuple, jobs: int, chain: bool, names: Optional[list] = None,
                chained: Optional[list] = None) -> list[LogResult]:
    """Each log's result, in the order given, audited in `jobs` processes (1: in this one). `names`: the
    report pages' names; `chained`: per log, the chain's findings against the log before it, or None."""
    names = names or [None] * len(logs)
    chained = chained or [None] * len(logs)
    tasks = [(setup, str(log), name, x, chain) for log, name, x in zip(logs, names, chained)]
    workers = min(_jobs(jobs), len(tasks))
    if workers <= 1:
        results = [run_task(*t) for t in tasks]
    else:
        from concurrent.futures import ProcessPoolExecutor   # imported only for a batch on several processes
        with ProcessPoolExecutor(max_workers=workers, initializer=prepare, initargs=(setup,)) as pool:
            futures = [pool.submit(run_task, *t) for t in tasks]
            results = [_result(f, t[1]) for f, t in zip(futures, tasks)]
    if chain:
        link(results, loaded(setup)[0])
    return results


def _jobs(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def _result(future, log: str) -> LogResult:
    """A worker's result; a worker that died (killed, out of memory) fails its log, not the batch."""
    try:
        return future.result()
    except Exception as e:                     # BrokenProcessPool and the like
        return LogResult(log, error=f"the process auditing it stopped ({type(e).__name__}: {e})")


def run_task(*task) -> LogResult:
    """One log's audit with the collector paused (see `collector_paused`)."""
    with collector_paused():
        return audit_task(*task)


def settle_collector() -> None:
    """The tree and module just loaded live as long as the process: freeze them out of the cyclic
    collector's passes (a log's own reading and replay run with the collector paused: `collector_paused`)."""
    import gc
    gc.freeze()


@contextlib.contextmanager
def collector_paused():
    """Reading and replaying a log allocate millions of short-lived objects, and no reference cycle
    outlives its step: reference counting frees them all. The cyclic collector, which would walk the
    young ones again and again (about a twentieth of a long log's audit), is paused for one log's
    audit; the peak memory bench/bench_audit.py prints shows it stays flat in the log's length."""
    import gc
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
