"""Running an audit's logs: in this process, or one process per log with `--jobs N`, the output in the
order the logs were given either way; a run interrupted (Ctrl-C, SIGTERM) stops at once, its pending logs
cancelled and its workers ended; and the cyclic garbage collector tuned for it."""
from __future__ import annotations

import contextlib
import os
import signal
from typing import Optional

from .setup import AuditSetup, LogResult, loaded
from .task import audit_task


def prepare(setup: AuditSetup) -> tuple:
    """The tree and module, loaded once per process (here before any worker starts, and in each worker)."""
    out = loaded(setup)
    settle_collector()
    return out


def audit_batch(setup: AuditSetup, logs: tuple, jobs: int, chain: bool, names: Optional[list] = None) -> list[LogResult]:
    """Each log's result, in the order given, audited in `jobs` processes (1: in this one). `names`: the
    report pages' names; `chain`: each log's start is judged against the end of the log before it (each task is given
    every log before its own)."""
    names = names or [None] * len(logs)
    before = [tuple(str(x) for x in logs[:i]) if chain else () for i in range(len(logs))]
    tasks = [(setup, str(log), name, prev) for log, name, prev in zip(logs, names, before)]
    workers = workers_for(jobs, len(tasks))
    if workers > 1:
        return _in_pool(setup, tasks, workers)
    from compiler.process import ENDS_WITH_COMMAND
    return [run_task(*t, last=ENDS_WITH_COMMAND and i == len(tasks) - 1) for i, t in enumerate(tasks)]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container or `taskset` sets it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):           # no affinity on this platform
        return os.cpu_count() or 1


def workers_for(jobs: int, logs: int) -> int:
    """`--jobs N`: N workers, but never more than the usable cores (more only share them, and each costs a
    start) nor than there are logs; `--jobs 0`: one per usable core."""
    cores = usable_cores()
    return max(1, min(jobs or cores, cores, logs))


def _in_pool(setup: AuditSetup, tasks: list, workers: int) -> list[LogResult]:
    from concurrent.futures import ProcessPoolExecutor   # imported only for a batch on several processes
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(setup,))
    try:
        futures = [pool.submit(run_task, *t) for t in tasks]
        results = [_result(f, t[1]) for f, t in zip(futures, tasks)]
    except BaseException:                      # Ctrl-C, or SIGTERM (which the command turns into one)
        from compiler.interrupts import held
        with held():                           # a second Ctrl-C does not leave the workers running
            _stop(pool)
        raise
    pool.shutdown()
    return results


def _worker_start(setup: AuditSetup) -> None:
    """A worker ignores Ctrl-C, which a terminal sends its whole process group: the parent stops it. And it
    ends on SIGTERM, which is how the parent stops it (not the parent's handler, inherited by fork)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    prepare(setup)


def _stop(pool) -> None:
    """Pending logs cancelled and every worker ended now, not once the queue has drained: a worker goes
    on with the next log whatever happens to the one it is on, so it is terminated, then reaped."""
    processes = list((getattr(pool, "_processes", None) or {}).values())   # shutdown forgets them
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:                  # Python 3.14: shuts the pool down and terminates them
        terminate()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=1)
        if p.is_alive():
            p.kill()
            p.join()


def _result(future, log: str) -> LogResult:
    """A worker's result; a worker that died (killed, out of memory) fails its log, not the batch."""
    try:
        return future.result()
    except Exception as e:                     # BrokenProcessPool and the like
        return LogResult(log, error=f"the process auditing it stopped ({type(e).__name__}: {e})")


def run_task(*task, last: bool = False) -> LogResult:
    """One log's audit with the collector paused (see `collector_paused`). `last`: the process ends after this
    log's report (compiler/process.py), so the collector stays paused: collecting what the audit left, only to
    free it at the process's end, took a tenth of a second of a long log's audit."""
    if last:
        import gc
        gc.disable()
        return audit_task(*task)
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
