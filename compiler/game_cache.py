"""A loaded game tree kept between runs, so `hexforge audit` starts from the typed model instead of reading,
schema-checking and building the tree again (and importing what that takes) at every run.

The key covers everything the model is made from: the paths and bytes of every file under the tree and
hexforge's own source with the libraries' versions (`compiler.stamp`'s digests, which include Python's
version), and whether errata are applied. An entry is the key, then the model as plain values
(compiler/model_data.py: marshal of lists, strings and numbers, never pickle, so reading one runs no code),
in the user's cache directory (`validator.source.cache_dir`, beside the compiled schema validators), one per tree
and errata flag (at most MAX_ENTRIES of them): a changed tree replaces its entry. An entry is read only where
`validator.source.cache_dir.read_entry` trusts it (the user's own folder and file, writable by no one else, sealed
with the user's key). A missing, untrusted, oversized, damaged or stale entry means the tree is loaded again;
a cache that cannot be written is skipped. Only a tree that loads without errors is kept, so a cached run
never hides a finding of `hexforge check`'s loader.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Optional

MAX_ENTRY_BYTES = 64 * 1024 * 1024               # a bigger entry is not read (the tree is loaded instead)
MAX_ENTRIES = 32                                 # trees kept; writing one more drops the least recently written
FORMAT = b"hexforge-game 2\n"                    # 2: the model as plain values (1 was a pickle)
SUFFIX = ".model"


def load_game_kept(tree: Path, apply_errata: bool) -> tuple:
    """(game, diagnostics) as `validator.source.loader.load_game` gives them; from the cache where it holds this
    very tree (no diagnostics then: the tree loaded without errors when it was kept)."""
    key = _key(tree, apply_errata)
    entry = _entry(tree, apply_errata) if key is not None else None
    if entry is not None:
        game = _read(entry, key)
        if game is not None:
            return game, []
    from validator.source.loader import load_game
    game, diags = load_game(tree, apply_errata=apply_errata)
    if entry is not None and game is not None and not any(d.severity == "error" for d in diags):
        _write(entry, key, game)
    return game, diags


def _key(tree: Path, apply_errata: bool) -> Optional[bytes]:
    from compiler.stamp import toolchain_digest, tree_digest
    if not (Path(tree) / "game.yaml").is_file():
        return None                                  # not a tree: the loader says why
    digest = tree_digest(Path(tree))
    if digest is None:
        return None
    return hashlib.sha256(f"{digest}\0{toolchain_digest()}\0{apply_errata}".encode()).hexdigest().encode()


def _entry(tree: Path, apply_errata: bool) -> Path:
    from validator.source.cache_dir import cache_dir
    name = hashlib.sha256(f"{Path(tree).resolve()}\0{apply_errata}".encode()).hexdigest()[:32]
    return cache_dir() / "games" / f"{name}{SUFFIX}"


def _read(entry: Path, key: bytes):
    from validator.source.cache_dir import read_entry
    head = FORMAT + key + b"\n"
    data = read_entry(entry, MAX_ENTRY_BYTES)
    if data is None or not data.startswith(head):
        return None                                  # no entry, or another version of the tree or of hexforge
    from compiler.model_data import from_bytes
    try:
        return from_bytes(data[len(head):])
    except ValueError:                               # a damaged entry is no entry
        return None


def _write(entry: Path, key: bytes, game) -> None:
    from compiler.model_data import to_bytes
    from validator.source.cache_dir import write_entry
    try:
        data = FORMAT + key + b"\n" + to_bytes(game)
    except (TypeError, ValueError, RecursionError):
        return                                       # a model holding what cannot be kept as data
    if len(data) <= MAX_ENTRY_BYTES and write_entry(entry, data):
        _prune(entry)


def _prune(written: Path) -> None:
    """At most MAX_ENTRIES trees kept, the one just written among them (temporary copies of trees would
    otherwise pile up); the others by how recently they were written. Entries of the earlier format (pickles)
    go too: they are never read."""
    try:
        for old in written.parent.glob("*.pickle"):
            old.unlink(missing_ok=True)
        others = sorted((p for p in written.parent.glob(f"*{SUFFIX}") if p != written),
                        key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in others[max(MAX_ENTRIES - 1, 0):]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
