"""The `--report DIR` folder: prepared, written, locked and committed so that no file of the user's is ever
touched, two runs writing one folder never fail each other, and nothing is left behind.

- `DIR` may be new, an empty folder, or a folder an earlier report wrote: it holds `MARKER`, which lists
  each file hexforge wrote there with the SHA-256 of what it wrote. Any other folder is refused untouched,
  whatever it holds (`.html` and `.png` files of one's own are files like any other). A link to a folder is
  written through; the link stays.
- The pages are written into a staging folder inside `DIR` (`.hexforge-report-<pid>-….tmp`), so that the
  previous report stays whole while the logs are audited. Committing takes an exclusive lock on `DIR`, moves
  the new files in (the pictures and pages, `index.html` last, each by one rename), rewrites the marker, and
  removes the files of the previous report that the new one does not have.
- A file hexforge did not write, or one it wrote that has since been changed, is never replaced nor
  removed: if the new report has a file of that name the report is refused, untouched.
- Runs committing into one folder take turns at the lock; each succeeds and the last one's report stands.
- Whatever stops a run (an error, Ctrl-C, SIGTERM), its staging folder is removed, and a folder it made
  for the report is removed again if it is empty. A run killed outright (SIGKILL) leaves its staging
  folder, which the next report written there removes.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from .interrupts import held

MARKER = ".hexforge-report"
STAGING = ".hexforge-report-"               # + "<pid>-<random>.tmp"
MAX_MARKER_BYTES = 1024 * 1024


class ReportFolderError(Exception):
    """Why the report cannot be written to the folder given (the folder is left as it was)."""


@contextmanager
def report_folder(dest: Path) -> Iterator[Path]:
    """A staging folder for the report's files; committed into `dest` if the block succeeds."""
    real = _folder_of(Path(dest))
    with held():
        made = _make(real)
    try:
        _refuse_foreign(real, dest)
        with held():
            staging = _staging(real, dest)
        yield staging
        commit(real, staging, dest)
    except BaseException:
        with held():
            _remove_staging(real, os.getpid())
            if made:
                _remove_if_empty(real)
        raise
    with held():
        _remove_staging(real, os.getpid())


def _staging(real: Path, dest: Path) -> Path:
    try:
        return Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", suffix=".tmp", dir=real))
    except OSError as e:
        raise ReportFolderError(f"cannot write the report to {dest}: {e.strerror or e}") from None


def _remove_staging(real: Path, pid: int) -> None:
    """Every staging folder (and marker being written) of the process `pid` in the folder."""
    try:
        names = os.listdir(real)
    except OSError:
        return
    for n in names:
        if n.startswith(f"{STAGING}{pid}-") and n.endswith(".tmp"):
            path = real / n
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _folder_of(dest: Path) -> Path:
    """The folder the report goes into: `dest`, or the folder a link `dest` names."""
    if dest.is_symlink():
        if not dest.exists():
            raise ReportFolderError(f"cannot write the report to {dest}: it is a link to {os.readlink(dest)}, "
                                    "which does not exist")
        dest = dest.resolve()
    if dest.exists() and not dest.is_dir():
        raise ReportFolderError(f"cannot write the report to {dest}: it is a file, not a folder")
    return dest


def _make(real: Path) -> bool:
    """Make the folder if it is not there; whether this run made it."""
    if real.is_dir():
        return False
    try:
        real.mkdir(parents=True)
    except FileExistsError:
        return False                            # another run made it just now
    except OSError as e:
        raise ReportFolderError(f"cannot write the report to {real}: {e.strerror or e}") from None
    return True


def _remove_if_empty(real: Path) -> None:
    try:
        real.rmdir()
    except OSError:
        pass                                    # not empty (another run's files, or the user's): kept


def _entries(real: Path) -> list[str]:
    """What the folder holds, staging folders aside (this run's and other runs')."""
    return sorted(n for n in os.listdir(real) if not (n.startswith(STAGING) and n.endswith(".tmp")))


def _refuse_foreign(real: Path, dest: Path) -> None:
    """A folder that is neither empty nor a report's is refused before anything is written into it."""
    names = _entries(real)
    if names and MARKER not in names:
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        raise ReportFolderError(f"cannot write the report to {dest}: it holds files hexforge did not write "
                                f"({shown}); give a new or empty folder, or one an earlier --report wrote")


def _digest(path: Path) -> Optional[str]:
    """The SHA-256 of a regular file (not followed through a link), or None."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def _own_files(real: Path) -> dict[str, str]:
    """The files an earlier report wrote here and that still hold what it wrote: name -> SHA-256. (The
    marker lists a digest per file, or, while a commit is under way, the old and the new one.)"""
    try:
        with open(real / MARKER, "rb") as f:
            listed = json.loads(f.read(MAX_MARKER_BYTES)).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(listed, dict):
        return {}
    own = {}
    for n, d in listed.items():
        if isinstance(n, str) and "/" not in n and n not in (MARKER, "..", "."):
            digest = _digest(real / n)
            if digest is not None and digest in (d if isinstance(d, list) else [d]):
                own[n] = digest
    return own


@contextmanager
def _locked(real: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (flock on its descriptor), released when the block ends;
    where the file system (or the platform) has no locks, runs go on unlocked (each file still arrives by one
    rename)."""
    try:
        import fcntl
    except ImportError:                         # Windows
        yield
        return
    fd = os.open(real, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as e:
            if e.errno not in (errno.ENOLCK, errno.EBADF, errno.EINVAL, errno.EOPNOTSUPP):
                raise
        yield
    finally:
        os.close(fd)                            # releases the lock


def commit(real: Path, staging: Path, dest: Path) -> None:
    """Move the staged report into the folder, under its lock (see the module's docstring)."""
    new = sorted(os.listdir(staging), key=lambda n: (n == "index.html", n))
    try:
        with _locked(real):
            _refuse_foreign(real, dest)
            own = _own_files(real)
            clash = [n for n in new if n not in own and os.path.lexists(real / n)]
            if clash:
                raise ReportFolderError(f"cannot write the report to {dest}: {', '.join(clash[:5])} "
                                        f"{'is' if len(clash) == 1 else 'are'} not hexforge's (written or "
                                        "changed by someone else); move it away, or give another folder")
            digests = {n: _digest(staging / n) for n in new}
            # while the files move in, the marker owns the old files and the new: an interrupted commit
            # leaves a folder every later report can still replace
            _write_marker(real, {n: [d for d in (own.get(n), digests.get(n)) if d] for n in {*own, *digests}})
            for n in new:
                os.replace(staging / n, real / n)
            _write_marker(real, digests)
            for n in own.keys() - set(new):
                (real / n).unlink(missing_ok=True)
            _remove_abandoned(real)
    except OSError as e:
        raise ReportFolderError(f"cannot write the report to {dest}: {e.strerror or e}") from None


def _write_marker(real: Path, digests: dict) -> None:
    data = json.dumps({"hexforge-report": 1, "files": digests}, indent=1, sort_keys=True).encode("utf-8")
    with held():                                # a stopped run's marker-to-be is removed with its staging
        fd, tmp = tempfile.mkstemp(prefix=f"{STAGING}{os.getpid()}-", suffix=".tmp", dir=real)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, real / MARKER)


def _remove_abandoned(real: Path) -> None:
    """Staging folders of runs that no longer exist (killed outright): under the lock, so no live run's."""
    for n in os.listdir(real):
        if not (n.startswith(STAGING) and n.endswith(".tmp")):
            continue
        pid = n[len(STAGING):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            _remove_staging(real, int(pid))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True                             # another user's process
    return True
