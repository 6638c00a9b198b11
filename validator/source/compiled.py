"""Compiled schema validators, generated once per schema and kept in the user's cache directory.

fastjsonschema turns a schema into Python source; generating and compiling that source for the ten
file kinds costs about as much as checking a whole game, at every start of `hexforge`. So the compiled code
object is stored (marshal) under `$HEXFORGE_CACHE_DIR`, else `$XDG_CACHE_HOME/hexforge`, else
`~/.cache/hexforge`, in a file named by a hash of the schema itself, fastjsonschema's version and the
interpreter's version: an edited schema, a new library or a new Python finds no entry and compiles
afresh, so an entry is never stale. The package directory is never written (it may be read-only);
an unwritable cache directory or an unreadable entry only costs the compilation, never the result.

What is kept is code, and code is run only if hexforge wrote it for this user: an entry is read through
`validator.source.cache_dir.read_entry`, which trusts it only in a folder of the user's own, in a file of the
user's own, writable by no one else, sealed with the user's secret key (a planted or copied entry is passed
over, and said so). The code cannot be kept as data; what can, the loaded trees, is (compiler/game_cache.py).
"""
from __future__ import annotations

import hashlib
import json
import marshal
import re
import sys
from pathlib import Path
from typing import Callable, Optional

import fastjsonschema

from .cache_dir import cache_dir, read_entry, write_entry

# Bump when the way code is generated here changes (options below), so old entries are not used.
GENERATOR = "3"                 # 3: entries sealed (validator.source.cache_dir)

# fastjsonschema names array items in its messages with '"...[{data_x}]".format(**locals())', at every
# item; locals() copies a generated function's hundreds of variables each time. The same string as an
# f-string means the same and costs nothing (only plain {name} fields are rewritten).
_FORMAT_LOCALS = re.compile(r'"((?:[^"\\{}]|\\.|\{[A-Za-z_][A-Za-z0-9_]*\})*)"\.format\(\*\*locals\(\)\)')


def without_locals_format(source: str) -> str:
    return _FORMAT_LOCALS.sub(lambda m: 'f"' + m.group(1) + '"', source)


def schema_key(schema: dict) -> str:
    """What the compiled code depends on: the schema, the generator and the bytecode format."""
    h = hashlib.sha256(json.dumps(schema, sort_keys=True, separators=(",", ":")).encode("utf-8"))
    for part in (GENERATOR, fastjsonschema.VERSION, sys.version, sys.implementation.cache_tag or ""):
        h.update(b"\0" + part.encode("utf-8"))
    return h.hexdigest()


def _refuse(uri: str):
    raise ValueError(f"schema reference {uri} is not local")


def _compile(schema: dict, name: str):
    # no detailed exceptions: a failing file is walked again by jsonschema for located messages
    source = fastjsonschema.compile_to_code(schema, handlers={"http": _refuse, "https": _refuse, "file": _refuse},
                                            detailed_exceptions=False)
    return compile(without_locals_format(source), f"<compiled schema {name}>", "exec")


MAX_ENTRY_BYTES = 16 * 1024 * 1024        # a compiled validator (the largest is about 110 KB)


def _read(path: Path):
    data = read_entry(path, MAX_ENTRY_BYTES)
    if data is None:
        return None
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None


def _write(path: Path, code) -> None:
    """Write whole or not at all; a cache that cannot be written is skipped silently."""
    write_entry(path, marshal.dumps(code))


def entry_path(schema: dict, name: str, root: Optional[Path] = None) -> Path:
    return (root or cache_dir()) / f"validator-{name}-{schema_key(schema)[:40]}.marshal"


def load_validator(schema: dict, name: str) -> Callable:
    """The compiled validator of `schema`, from the cache if an entry for exactly this schema is there."""
    path = entry_path(schema, name)
    code = _read(path)
    namespace: dict = {}
    if code is not None:
        try:
            exec(code, namespace)
        except Exception:  # an entry that does not run (damaged) is replaced below
            namespace = {}
    if not callable(namespace.get("validate")):
        namespace = {}
        code = _compile(schema, name)
        exec(code, namespace)
        _write(path, code)
    return namespace["validate"]
