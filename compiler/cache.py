"""A content-hash cache for built artefacts (board, counter and chart images).

`key(...)` hashes the inputs (plain JSON-able data) together with the source of the code that turns
them into bytes, so changing either gives a new key. The entries live in one pack file
(`pack-<hash>.bin`, named in `pack.idx`, under `<out_dir>/.cache/`) rather than a file each: a module has about a
thousand small images, and opening, writing and syncing a thousand files cost more than rendering
them. `commit()` writes the entries this build used to a new pack, then the index that names it
(each written to a temporary name and renamed, the pack first), then deletes the old pack: a crash
at any point leaves an index whose pack is whole. Stale entries go with the old pack; nothing is
written when nothing changed.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Callable, Iterable, Optional

from compiler.atomic import write_atomic

INDEX = "pack.idx"


def code_fingerprint(modules: Iterable) -> str:
    return files_fingerprint(getattr(m, "__file__", None) or repr(m) for m in modules)


def files_fingerprint(paths: Iterable) -> str:
    """A hash of source files' contents (a name that is not a file counts by its name)."""
    h = hashlib.sha256()
    for f in paths:
        if os.path.exists(f):
            h.update(Path(f).read_bytes())
        else:
            h.update(str(f).encode())
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
        self._new: dict[str, bytes] = {}
        self._pack: Optional[bytes] = None
        try:
            idx = json.loads((self.root / INDEX).read_text())
            self._pack_name: Optional[str] = idx["pack"]
            self._index: dict[str, list[int]] = idx["entries"]
        except (OSError, ValueError, KeyError, TypeError):
            self._pack_name, self._index = None, {}

    def keys(self) -> set[str]:
        """The entries on disk (as of the last commit)."""
        return set(self._index)

    def keep_all(self) -> None:
        """Count every entry on disk as used by this run (the output they made is carried as it is)."""
        self.used.update(self._index)

    def _old(self, name: str) -> Optional[bytes]:
        where = self._index.get(name)
        if where is None:
            return None
        if self._pack is None:
            try:
                self._pack = (self.root / str(self._pack_name)).read_bytes()
            except OSError:
                self._index, self._pack = {}, b""
                return None
        off, n = where
        data = self._pack[off:off + n]
        return data if len(data) == n else None

    def get(self, k: str, suffix: str = ".bin") -> Optional[bytes]:
        name = k + suffix
        self.used.add(name)
        return self._new.get(name) or self._old(name)

    def put(self, k: str, data: bytes, suffix: str = ".bin") -> None:
        name = k + suffix
        self.used.add(name)
        self._new[name] = data

    def get_or_make(self, k: str, make: Callable[[], bytes], suffix: str = ".bin") -> bytes:
        data = self.get(k, suffix)
        if data is not None:
            self.hits += 1
            return data
        self.misses += 1
        data = make()
        self.put(k, data, suffix)
        return data

    def commit(self, into: Optional[Path] = None) -> int:
        """Keep exactly the entries this run used; returns how many stale ones were dropped.

        `into`, if given, is a new folder the pack is written to instead (the old one is read, never
        changed): for an output folder that is replaced whole, the cache goes into the new one."""
        stale = [n for n in self._index if n not in self.used]
        moving = into is not None and Path(into) != self.root
        if not self._new and not stale and not moving:
            return 0
        blob, index = bytearray(), {}
        for name in sorted(self.used):
            data = self._new.get(name) or self._old(name)
            if data is None:
                continue
            index[name] = [len(blob), len(data)]
            blob += data
        blob = bytes(blob)
        name = f"pack-{hashlib.sha256(blob).hexdigest()[:16]}.bin"
        root = Path(into) if moving else self.root
        write_atomic(root / name, blob)
        write_atomic(root / INDEX, json.dumps({"pack": name, "entries": index}, sort_keys=True).encode())
        for old in root.glob("pack-*.bin"):
            if old.name != name:
                old.unlink(missing_ok=True)
        self.root, self._pack_name, self._index, self._pack, self._new = root, name, index, blob, {}
        return len(stale)
