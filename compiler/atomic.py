"""Outputs appear whole or not at all: write to a temporary file (or folder) beside the target, then rename."""
from __future__ import annotations

import errno
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from .interrupts import held


@contextmanager
def atomic_path(dest: Path) -> Iterator[Path]:
    """A temporary path beside `dest`; renamed onto `dest` only if the block succeeds. Ctrl-C or SIGTERM
    wait while it is made and while it is removed (compiler/interrupts.py), so it never outlives the run."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp_path = None
    try:
        with held():
            fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
            os.close(fd)
            tmp_path = Path(tmp)
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, dest)
    finally:
        with held():
            if tmp_path is not None and tmp_path.exists():
                tmp_path.unlink()


def write_atomic(dest: Path, data: bytes) -> None:
    with atomic_path(dest) as tmp:
        tmp.write_bytes(data)


@contextmanager
def atomic_dir(dest: Path, replaceable: Callable[[str], bool]) -> Iterator[Path]:
    """A temporary folder beside `dest`, put in `dest`'s place whole only if the block succeeds.

    A `dest` already there is replaced whole (a previous set), so it may hold only names that
    `replaceable` accepts: a folder holding anything else is refused rather than deleted.
    """
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise OSError(errno.ENOTDIR, "it is a file, not a folder", str(dest))
    if dest.exists() and not all(replaceable(n) for n in os.listdir(dest)):
        raise OSError(errno.ENOTEMPTY, "it holds files that are not charts; give a new or empty folder", str(dest))
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = None
    try:
        with held():
            tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent))
        yield tmp
        os.chmod(tmp, 0o755)
        with held():
            _swap_in(tmp, dest)
    finally:
        with held():
            if tmp is not None and tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)


def _swap_in(new: Path, dest: Path) -> None:
    """Rename `new` onto `dest`; an old `dest` goes aside first and is removed once `new` is in place."""
    if not dest.exists():
        os.rename(new, dest)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".old", dir=dest.parent))
    os.rename(dest, old)            # onto an empty folder: allowed, and atomic
    try:
        os.rename(new, dest)
    except BaseException:
        os.rename(old, dest)        # put the previous set back rather than leave nothing
        raise
    shutil.rmtree(old, ignore_errors=True)
