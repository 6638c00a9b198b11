"""Ctrl-C and SIGTERM, raised as exceptions where the process is (KeyboardInterrupt, and `Terminated`, a kind
of it), so that both leave by the same clean-up path: every temporary file and folder removed on the way out,
every worker ended. Inside `held()` they wait until the block ends: a temporary file is made and named (and
removed) before anything can stop the process, so that the clean-up always knows what to remove."""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator, Optional


class Terminated(KeyboardInterrupt):
    """SIGTERM: the process was asked to stop (exit status 143, where Ctrl-C's is 130)."""


_held = 0
_pending: Optional[KeyboardInterrupt] = None


def _stop(signum, frame) -> None:
    global _pending
    stop = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
    if _held:
        _pending = _pending or stop
        return
    raise stop


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while the block runs, and are raised when it ends."""
    global _held, _pending
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if not _held and _pending is not None:
            stop, _pending = _pending, None
            raise stop


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """Ctrl-C and SIGTERM raised as exceptions while the block runs (the command's whole run); the
    handlers the process had are put back after it. Outside the main thread signals are left alone."""
    try:
        previous = {s: signal.signal(s, _stop) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:                          # not the main thread (a program embedding hexforge)
        previous = {}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
