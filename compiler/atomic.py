"""Outputs appear whole or not at all: write to a temporary file beside the target, then rename."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_path(dest: Path) -> Iterator[Path]:
    """A temporary path beside `dest`; renamed onto `dest` only if the block succeeds."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, dest)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_atomic(dest: Path, data: bytes) -> None:
    with atomic_path(dest) as tmp:
        tmp.write_bytes(data)
