"""A zip archive (.vmod, .vsav, .vlog) read safely: in memory, by entry name (nothing is ever
extracted to a path the archive names), with the entry count, each entry's declared size (by kind of
entry) and the total bounded before anything is decompressed, and every read capped. Kept apart from
the XML and piece readers so that streaming a log's commands (`logstream`) imports no XML code: an
entry is parsed as XML by `reader.read_xml(archive, name)`.
"""
from __future__ import annotations

import io
import lzma
import struct
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .encoding import ReadError, deobfuscate

MAX_ENTRIES = 50_000
MAX_ENTRY_BYTES = 64 * 1024 * 1024         # any other entry: a drawn board PNG is a few MiB
MAX_IMAGE_ENTRY_BYTES = 512 * 1024 * 1024  # an author's board scan (validator.source.images.MAX_IMAGE_BYTES)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg")
MAX_XML_BYTES = 16 * 1024 * 1024           # buildFile.xml of the largest module is 400 KiB
MAX_TEXT_BYTES = 64 * 1024 * 1024          # a savedGame: a long log is a few MiB
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024
XML_ENTRIES = ("buildFile.xml", "buildFile", "moduledata", "savedata", "extensiondata")

# What zipfile and its decompressors raise for a damaged archive or entry (bad CRC, corrupt
# deflate/bzip2/lzma data, a truncated or inconsistent directory, an unsupported method, encryption).
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, lzma.LZMAError, EOFError, OSError,
               ValueError, NotImplementedError, RuntimeError, struct.error, OverflowError, KeyError)
# What decoding a malformed piece or command raises (a short field list, a number that is not).
_DECODE_ERRORS = (ValueError, IndexError, KeyError, TypeError)


@contextmanager
def _decoding(entry: str, what: str = "") -> Iterator[None]:
    """Turn a decoding failure inside `entry` into a ReadError that names it."""
    try:
        yield
    except ReadError as e:
        if str(e).startswith(entry + ":"):
            raise
        raise ReadError(f"{entry}: {what + ': ' if what else ''}{e}") from None
    except _DECODE_ERRORS as e:
        raise ReadError(f"{entry}: {what + ': ' if what else ''}{e}") from None


def _limit_for(name: str) -> int:
    if name in XML_ENTRIES or name.endswith(".xml"):
        return MAX_XML_BYTES
    if name == "savedGame":
        return MAX_TEXT_BYTES
    if name.lower().endswith(IMAGE_SUFFIXES):
        return MAX_IMAGE_ENTRY_BYTES
    return MAX_ENTRY_BYTES


class Archive:
    """A zip read in memory, bounded."""

    def __init__(self, source):
        if isinstance(source, (str, Path)):
            p = Path(source)
            try:
                if p.stat().st_size > MAX_ARCHIVE_BYTES:
                    raise ReadError(f"{p}: archive larger than {MAX_ARCHIVE_BYTES} bytes")
                data = p.read_bytes()
            except OSError as e:
                raise ReadError(f"{p}: cannot read: {e.strerror}") from None
        else:
            data = bytes(source)
            if len(data) > MAX_ARCHIVE_BYTES:
                raise ReadError(f"archive larger than {MAX_ARCHIVE_BYTES} bytes")
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zip.infolist()
        except _ZIP_ERRORS as e:
            raise ReadError(f"not a zip archive: {e}") from None
        if len(infos) > MAX_ENTRIES:
            raise ReadError(f"too many entries ({len(infos)}; at most {MAX_ENTRIES})")
        total = 0
        self.infos = {}
        for i in infos:
            if i.file_size > _limit_for(i.filename):
                raise ReadError(f"entry {i.filename!r}: {i.file_size} bytes decoded, more than "
                                f"{_limit_for(i.filename)} for such an entry")
            total += i.file_size
            if total > MAX_TOTAL_BYTES:
                raise ReadError(f"archive expands to more than {MAX_TOTAL_BYTES} bytes")
            if i.filename in self.infos:
                raise ReadError(f"duplicate entry {i.filename!r}")
            self.infos[i.filename] = i

    def names(self) -> list[str]:
        return list(self.infos)

    def has(self, name: str) -> bool:
        return name in self.infos

    def read(self, name: str) -> bytes:
        """An entry's bytes, at most its declared size (itself bounded); ReadError if damaged."""
        info = self.infos.get(name)
        if info is None:
            raise ReadError(f"no entry {name!r}")
        try:
            with self.zip.open(info) as f:
                data = f.read(info.file_size + 1)
        except _ZIP_ERRORS as e:
            raise ReadError(f"entry {name!r} is damaged: {e}") from None
        if len(data) > info.file_size:
            raise ReadError(f"entry {name!r} is larger than declared")
        return data

    def read_text(self, name: str) -> str:
        """An entry as UTF-8 text (a `!VCSK` stream deobfuscated first)."""
        with _decoding(name):
            raw = deobfuscate(self.read(name))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ReadError(f"{name}: not UTF-8 text (byte {e.start} of the decoded stream)") from None
