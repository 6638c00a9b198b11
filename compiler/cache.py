"""A content-hash cache for built artefacts (board and counter images).

`key(...)` hashes the inputs (plain JSON-able data) together with the source of the code that turns
them into bytes, so changing either gives a new key. Entries are files named by their key under
`<out_dir>/.cache/`, written to a temporary name and renamed (a crash never leaves half an entry).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Optional


def code_fingerprint(modules: Iterable) -> str:
    h = hashlib.sha256()
    for m in modules:
        f = getattr(m, "__file__", None)
        if f and os.path.exists(f):
            h.update(Path(f).read_bytes())
        else:
            h.update(repr(m).encode())
    return h.hexdigest()


def key(*parts) -> str:
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class Cache:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()

    def _path(self, k: str, suffix: str) -> Path:
        return self.root / k[:2] / (k + suffix)

    def get(self, k: str, suffix: str = ".bin") -> Optional[bytes]:
        p = self._path(k, suffix)
        self.used.add(p.name)
        try:
            data = p.read_bytes()
        except OSError:
            return None
        return data

    def put(self, k: str, data: bytes, suffix: str = ".bin") -> None:
        p = self._path(k, suffix)
        self.used.add(p.name)
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, p)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def get_or_make(self, k: str, make: Callable[[], bytes], suffix: str = ".bin") -> bytes:
        data = self.get(k, suffix)
        if data is not None:
            self.hits += 1
            return data
        self.misses += 1
        data = make()
        self.put(k, data, suffix)
        return data

    def prune(self) -> int:
        """Delete entries this run did not use (old artwork); returns how many."""
        n = 0
        if not self.root.is_dir():
            return 0
        for p in self.root.glob("*/*"):
            if p.is_file() and p.name not in self.used and not p.name.startswith(".tmp-"):
                p.unlink()
                n += 1
        return n
