"""Where hexforge keeps what it may work out again (compiled schema validators, loaded trees), and which of
what it finds there it trusts.

An entry is used only where the folder holding it and the file itself belong to the user running hexforge
and are writable by no one else (as ssh treats its keys), and only if its seal checks: each entry is written
with a keyed BLAKE2b digest of its bytes, the key a random secret of the user's own, kept apart from the
cache in a folder only the user may enter (`$XDG_STATE_HOME/hexforge/cache-key`, else
`~/.local/state/hexforge/cache-key`, folder 0700, file 0600). So a file another user planted in a shared
cache folder is never read, and neither is a cache folder restored from elsewhere (as a CI cache is): it
brings no key. An entry passed over says why, once per run, on stderr; it is then worked out again, and
nothing is written into a folder that is not trusted.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Optional

SEAL = b"hexforge-sealed 1\n"
DIGEST_BYTES = 32
KEY_BYTES = 32
_warned = False
_key: Optional[bytes] = None


def cache_dir() -> Path:
    """$HEXFORGE_CACHE_DIR, else $XDG_CACHE_HOME/hexforge, else ~/.cache/hexforge."""
    explicit = os.environ.get("HEXFORGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hexforge"


def key_dir() -> Path:
    """$XDG_STATE_HOME/hexforge, else ~/.local/state/hexforge: the folder of the key that seals entries."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "hexforge"


def _not_own(what: str, path, st: os.stat_result, private: bool = False) -> Optional[str]:
    """Why a folder or file is not the user's own alone, or None. `private`: nobody else may read it either.
    (Where there are no POSIX owners and modes, on Windows, the seal alone decides.)"""
    if not hasattr(os, "getuid"):
        return None
    if st.st_uid != os.getuid():
        return f"{what} {path} belongs to another user (uid {st.st_uid})"
    if st.st_mode & (0o077 if private else 0o022):
        who = "readable or writable" if private else "writable"
        return f"{what} {path} is {who} by other users (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def folder_problem(folder: Path) -> Optional[str]:
    """Why entries in `folder` (and the cache folder above it) are not to be trusted, or None; a folder not
    there yet is no problem (it will be made the user's own)."""
    root = cache_dir()
    for f in dict.fromkeys((root, folder)):
        try:
            st = os.stat(f)
        except FileNotFoundError:
            continue
        except OSError as e:
            return f"the cache folder {f} cannot be read ({e.strerror})"
        problem = _not_own("the cache folder", f, st)
        if problem:
            return problem
    return None


def warn_once(message: str) -> None:
    """Say why an entry was passed over, once per run (later ones are passed over silently)."""
    global _warned
    if not _warned:
        _warned = True
        sys.stderr.write(f"hexforge: warning: {message}; it is worked out again instead\n")


def _made_private(folder: Path) -> None:
    """The folder and those above it that are not there yet, made the user's alone (mkdir's `parents`
    would make them with the umask's mode, perhaps writable by the group)."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for f in reversed(missing):
        try:
            f.mkdir(mode=0o700)
        except FileExistsError:
            pass


def cache_key() -> Optional[bytes]:
    """The user's secret that seals cache entries, made the first time; None if it cannot be had (then
    nothing is read from the cache nor written to it)."""
    global _key
    if _key is not None:
        return _key
    folder = key_dir()
    path = folder / "cache-key"
    try:
        _made_private(folder)
        problem = _not_own("the key folder", folder, os.stat(folder), private=True)
        if problem is None:
            _key, problem = _read_or_make_key(path)
    except OSError:
        return None                             # no home to keep a key in: no cache
    if problem:
        warn_once(f"nothing cached is used: {problem}")
    return _key


def _read_or_make_key(path: Path) -> tuple[Optional[bytes], Optional[str]]:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        fd = None
    if fd is not None:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(KEY_BYTES))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        problem = _not_own("the cache key", path, os.fstat(f.fileno()), private=True)
        key = f.read(KEY_BYTES + 1)
    if problem:
        return None, problem
    if len(key) != KEY_BYTES:
        return None, f"the cache key {path} is not {KEY_BYTES} bytes long"
    return key, None


def _seal_of(data: bytes, key: bytes) -> bytes:
    return hashlib.blake2b(data, key=key, digest_size=DIGEST_BYTES).digest()


def read_entry(path: Path, max_bytes: int) -> Optional[bytes]:
    """An entry's bytes, if it is there, trusted and its seal checks; else None (and, once, why)."""
    problem = folder_problem(path.parent)
    if problem:
        warn_once(f"not using the cache in {path.parent}: {problem}")
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None                             # no entry (or a link where one should be): a miss
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        problem = _not_own("the cache entry", path, st) or (None if stat.S_ISREG(st.st_mode) else
                                                              f"the cache entry {path} is not a file")
        if problem:
            warn_once(problem)
            return None
        if st.st_size > max_bytes + len(SEAL) + DIGEST_BYTES:
            return None
        blob = f.read(max_bytes + len(SEAL) + DIGEST_BYTES + 1)
    key = cache_key()
    if key is None:
        return None
    head = len(SEAL) + DIGEST_BYTES
    data = blob[head:]
    if not blob.startswith(SEAL) or blob[len(SEAL):head] != _seal_of(data, key):
        warn_once(f"not using the cache entry {path}: its seal does not match (damaged, or not written by "
                  "hexforge as this user)")
        return None
    return data


def write_entry(path: Path, data: bytes) -> bool:
    """Write an entry whole (sealed), or not at all; never into a folder that is not trusted."""
    import tempfile  # only a cache miss writes: with shutil and random it costs a start-up 6 ms
    key = cache_key()
    if key is None or folder_problem(path.parent) is not None:
        return False
    try:
        _made_private(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)    # 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(SEAL + _seal_of(data, key) + data)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return False
    return True
