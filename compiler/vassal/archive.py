"""A zip archive (.vmod, .vsav, .vlog) read safely: in memory, by entry name (nothing is ever
extracted to a path the archive names), with the entry count, each entry's size and the total
bounded and every read capped. Kept apart from the XML and piece readers so that streaming a log's
commands (`logstream`) imports nothing else.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

MAX_ENTRIES = 50_000
MAX_ENTRY_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024
MAX_ARCHIVE_BYTES = 2 * 1024 * 1024 * 1024


class ReadError(ValueError):
    pass


class Archive:
    """A zip read in memory, bounded."""

    def __init__(self, source):
        if isinstance(source, (str, Path)):
            p = Path(source)
            if p.stat().st_size > MAX_ARCHIVE_BYTES:
                raise ReadError("archive too large")
            data = p.read_bytes()
        else:
            data = bytes(source)
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile as e:
            raise ReadError(f"not a zip archive: {e}") from e
        infos = self.zip.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ReadError("too many entries")
        total = 0
        self.infos = {}
        for i in infos:
            if i.file_size > MAX_ENTRY_BYTES:
                raise ReadError(f"entry {i.filename!r} too large")
            total += i.file_size
            if total > MAX_TOTAL_BYTES:
                raise ReadError("archive expands too much")
            if i.filename in self.infos:
                raise ReadError(f"duplicate entry {i.filename!r}")
            self.infos[i.filename] = i

    def names(self) -> list[str]:
        return list(self.infos)

    def has(self, name: str) -> bool:
        return name in self.infos

    def read(self, name: str) -> bytes:
        info = self.infos.get(name)
        if info is None:
            raise ReadError(f"no entry {name!r}")
        with self.zip.open(info) as f:
            data = f.read(info.file_size + 1)
        if len(data) > info.file_size:
            raise ReadError(f"entry {name!r} is larger than declared")
        return data
