"""The run stamp: a `build` or `charts` with nothing changed returns before anything is checked.

The key covers everything an output depends on:
  - the bytes of every file under the game tree (paths and SHA-256 of contents; touching a file
    without changing it keeps the key),
  - hexforge's own source (every file of the `compiler` and `validator` packages) and the installed
    versions of the libraries that shape output bytes (read from their dist-info names: importing
    them or asking importlib.metadata would cost more than the whole no-change run),
  - the command, its options and SOURCE_DATE_EPOCH.
The stamp (`<out>/.cache/<command>.stamp`) is written after a successful run and records that key, each
output's size and mtime, and what the run printed. A later run with the same key whose outputs are
all still there, untouched, replays those lines and returns; anything else runs the command.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from compiler.atomic import write_atomic

PACKAGES = ("compiler", "validator")
LIBRARIES = ("pillow", "reportlab", "lxml", "pypdfium2", "pyyaml", "fastjsonschema")
MAX_INPUT_FILES = 5000
MAX_INPUT_BYTES = 256 * 1024 * 1024  # a bigger tree is not stamped: it is simply always rebuilt
FORMAT = 1


def _files_under(root: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        out += [Path(dirpath) / f for f in sorted(filenames) if not f.endswith(".pyc")]
    return out


def _hash_files(h, root: Path, files: list[Path]) -> None:
    for f in files:
        h.update(f.relative_to(root).as_posix().encode("utf-8") + b"\0")
        with open(f, "rb") as fh:           # a chunk at a time: a board scan is not held whole to be hashed
            h.update(hashlib.file_digest(fh, "sha256").digest())


def tree_digest(tree: Path) -> Optional[str]:
    """Paths and contents of every file under the tree; None if it is too big to stamp or unreadable."""
    try:
        files = _files_under(tree)
        if len(files) > MAX_INPUT_FILES or sum(f.stat().st_size for f in files) > MAX_INPUT_BYTES:
            return None
        h = hashlib.sha256()
        _hash_files(h, tree, files)
    except OSError:
        return None
    return h.hexdigest()


def _library_versions() -> list[str]:
    wanted = re.compile(r"^(%s)-[^/]*\.(dist|egg)-info$" % "|".join(LIBRARIES), re.IGNORECASE)
    found = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found.update(n.lower() for n in names if wanted.match(n))
    return sorted(found)


def toolchain_digest() -> str:
    """hexforge's own source and the versions of the libraries it writes output with."""
    here = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"{FORMAT}\0{sys.version}\0".encode())
    for pkg in PACKAGES:
        _hash_files(h, here, _files_under(here / pkg))
    h.update("\0".join(_library_versions()).encode())
    return h.hexdigest()


def game_id(tree: Path) -> Optional[str]:
    """The id game.yaml declares (where the default output directory is), or None if unclear."""
    import yaml
    try:
        data = yaml.load((tree / "game.yaml").read_bytes(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return None
    gid = data.get("id") if isinstance(data, dict) else None
    return gid if isinstance(gid, str) and gid and "/" not in gid and gid not in (".", "..") else None


@dataclass(frozen=True)
class Stamp:
    command: str
    key: Optional[str]  # None: this run cannot be stamped (the tree is too big or unreadable)

    def path(self, out_dir: Path) -> Path:
        return Path(out_dir) / ".cache" / f"{self.command}.stamp"

    def replay(self, out_dir: Optional[Path], echo: Callable[..., None]) -> bool:
        """If `out_dir` holds this run's outputs, untouched: print what that run printed and say True."""
        if self.key is None or out_dir is None:
            return False
        try:
            st = json.loads(self.path(out_dir).read_text(encoding="utf-8"))
            if st.get("key") != self.key:
                return False
            for rel, size, mtime_ns in st["outputs"]:
                info = (Path(out_dir) / rel).stat()
                if (info.st_size, info.st_mtime_ns) != (size, mtime_ns):
                    return False
            lines = [(str(text), bool(err)) for text, err in st["lines"]]
        except (OSError, ValueError, KeyError, TypeError):
            return False
        for text, err in lines:
            echo(text, err=err)
        echo(f"up to date: nothing changed since the last `hexforge {self.command}` into {out_dir}")
        return True

    def record(self, out_dir: Path, outputs: list[Path], lines: list[tuple[str, bool]]) -> None:
        """After a successful run: its key, its outputs as they are now, what it printed."""
        if self.key is None:
            return
        out_dir = Path(out_dir)
        try:
            rows = []
            for p in outputs:
                info = Path(p).stat()
                rows.append([os.path.relpath(p, out_dir), info.st_size, info.st_mtime_ns])
            write_atomic(self.path(out_dir), json.dumps(
                {"key": self.key, "outputs": rows, "lines": [list(x) for x in lines]}, indent=0).encode("utf-8"))
        except OSError:  # no stamp: the next run simply does the work again
            pass


def stamp_for(command: str, tree: Path, out: Optional[Path], **options) -> Stamp:
    inputs = tree_digest(Path(tree))
    if inputs is None:
        return Stamp(command, None)
    key = hashlib.sha256(json.dumps(
        [FORMAT, command, inputs, toolchain_digest(), str(out.resolve()) if out else None, options,
         os.environ.get("SOURCE_DATE_EPOCH", "")], sort_keys=True).encode()).hexdigest()
    return Stamp(command, key)


def default_out(tree: Path, out: Optional[Path], *under: str) -> Optional[Path]:
    """Where the run would write, known before loading: --out, else build/<game id>/..."""
    if out is not None:
        return out
    gid = game_id(Path(tree))
    return Path("build", gid, *under) if gid else None
