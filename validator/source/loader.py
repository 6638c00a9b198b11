"""One loader: a source tree -> located YAML -> schema check -> errata -> the typed `Game` model.

`load_game` never raises for bad input: every problem becomes a located Diagnostic. A tree with
parse or schema errors yields no model (cross-checks on half-read data would only add noise).
The loader only reads; it never writes to the tree.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path as FsPath
from typing import Optional

from . import schemas
from ..codes import CODES
from ..diagnostics import Diagnostic
from .errata import apply_errata as apply_patches
from .model import Assumption, Game, Loc
from .readers import (
    BuildError, Parts, art_index, read_art, read_counters, read_errata, read_game, read_map, read_orders_of_arrival, read_places,
    read_scenario, read_tables, read_tec, read_terrain,
)
from .yamlsrc import MAX_FILE_BYTES, LocMap, SourceError, load_text

REQUIRED = ("game.yaml", "map.yaml")
OPTIONAL = ("terrain.yaml", "places.yaml", "tec.yaml", "tables.yaml", "counters.yaml", "orders-of-arrival.yaml",
            "art.yaml")
MAX_FILES = 2000


class NotAGameTree(Exception):
    """The path is missing or holds no game: the CLI exits 2."""


def find_files(root: FsPath) -> list[str]:
    """The tree's source file names, relative, in a stable order.

    Every name is listed whatever it is (a directory, a FIFO, a dangling link): `_read` refuses
    what is not a regular file inside the tree, with a located error, rather than skipping it.
    """
    found = [f for f in REQUIRED + OPTIONAL if os.path.lexists(root / f)]
    for sub in ("scenarios", "errata"):
        d = root / sub
        if d.is_dir():
            found += [f"{sub}/{n}" for n in sorted(os.listdir(d)) if n.endswith((".yaml", ".yml"))]
    return found[:MAX_FILES]


class _NotASourceFile(Exception):
    """A name in the tree that is not a regular file inside it."""


def _read_bytes(root: FsPath, rel: str) -> bytes:
    """A source file's bytes, at most MAX_FILE_BYTES + 1 of them.

    Links are followed only within the tree (a link out of it is refused, so its target's content is
    never read or echoed); the file is opened without blocking and checked to be a regular file, so
    a FIFO or a device can neither hang the run nor be read.
    """
    path = root / rel
    real = os.path.realpath(path)
    root_real = os.path.realpath(root)
    if os.path.islink(path) and not os.path.exists(real):
        raise _NotASourceFile("is a symbolic link to nothing (a dangling link)")
    if os.path.commonpath([root_real, real]) != root_real:
        raise _NotASourceFile("is a symbolic link to a file outside the game tree; it is not read")
    fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _NotASourceFile("is a directory, not a YAML file")
        if not stat.S_ISREG(st.st_mode):
            raise _NotASourceFile("is not a regular file (a FIFO, socket or device); it is not read")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)


def _read(root: FsPath, rel: str, diags: list[Diagnostic]):
    try:
        data = _read_bytes(root, rel)
    except _NotASourceFile as e:
        diags.append(Diagnostic("HF006", "error", f"{rel} {e}", Loc(rel), CODES["HF006"].help))
        return None
    except OSError as e:
        diags.append(Diagnostic("HF006", "error", f"cannot read file: {e.strerror}", Loc(rel),
                                "make the file readable (its permissions, or the link that leads to it)"))
        return None
    try:
        return load_text(data, rel)
    except SourceError as e:
        diags.append(Diagnostic(e.code, "error", e.message, e.loc, e.help))
        return None


def _schema_check(kind: str, data, rel: str, diags: list[Diagnostic]) -> bool:
    ok = True
    for msg, loc, help_ in schemas.validate(kind, data, rel):
        diags.append(Diagnostic("HF004", "error", msg, loc or Loc(rel), help_))
        ok = False
    return ok


def load_game(path, apply_errata: bool = True) -> tuple[Optional[Game], list[Diagnostic]]:
    root = FsPath(path)
    if not root.exists():
        raise NotAGameTree(f"{path}: no such file or directory")
    if not root.is_dir():
        raise NotAGameTree(f"{path}: not a directory (give the game's source directory, e.g. source/bulge)")
    if not os.path.lexists(root / "game.yaml"):
        raise NotAGameTree(f"{path}: no game.yaml here, so this is not a game source tree")
    diags: list[Diagnostic] = []
    rels = find_files(root)
    raw: dict[str, object] = {}
    for rel in rels:
        data = _read(root, rel, diags)
        if data is None:
            continue
        kind = schemas.kind_of(rel)
        if kind is None:
            continue
        if _schema_check(kind, data, rel, diags):
            raw[rel] = data
    for req in REQUIRED:
        if not os.path.lexists(root / req):
            diags.append(Diagnostic("HF005", "error", f"required file {req} is missing", Loc(req),
                                    "every game tree has game.yaml and map.yaml (see docs/source-format.md)"))
    if any(d.severity == "error" for d in diags):
        return None, diags

    # editorial corrections first: they mend misprints so that the publisher's errata find what they expect
    errata_docs = sorted(((rel, raw[rel]) for rel in rels if rel.startswith("errata/")),
                         key=lambda rd: rd[1].get("kind", "official") != "editorial")
    data_files = {rel: v for rel, v in raw.items() if not rel.startswith("errata/")}
    if apply_errata and errata_docs:
        patched = {pt.get("file") for _, doc in errata_docs for it in doc.get("items") or ()
                   for pt in it.get("patches") or ()}
        for p in apply_patches(data_files, errata_docs):
            if p.acknowledged:
                diags.append(Diagnostic(
                    "HF801", "warning", f"erratum {p.erratum} does not apply to the printed data: {p.message} "
                    f"(acknowledged: {p.acknowledged})", p.loc,
                    "the publisher's erratum names data the rulebook does not print; it stays unapplied"))
                continue
            diags.append(Diagnostic(
                "HF801", "error", f"erratum {p.erratum} no longer applies: {p.message}", p.loc,
                "the data no longer holds what this erratum corrects: update the patch's path/from, "
                "or remove the erratum if the data already carries the correction"))
        for rel in sorted(patched & data_files.keys()):  # a patch must leave valid data behind
            if not _schema_check(schemas.kind_of(rel), data_files[rel], rel, diags):
                return None, diags
    try:
        game = build_game(root, data_files, errata_docs, apply_errata, tuple(rels))
    except BuildError as e:
        diags.append(Diagnostic("HF004", "error", e.message, e.loc, e.help))
        return None, diags
    return game, diags


# -- the model, one reader per file kind ----------------------------------------------------------

# Each reader returns its part of the `Game` (validator/source/readers.py); read in this order, as a later one
# may need an earlier one's part (the tables their dice, the counters the factor names, the scenarios
# the boards).
READERS = {
    "game.yaml": read_game,
    "map.yaml": read_map,
    "terrain.yaml": read_terrain,
    "places.yaml": read_places,
    "tec.yaml": read_tec,
    "tables.yaml": read_tables,
    "counters.yaml": read_counters,
    "orders-of-arrival.yaml": read_orders_of_arrival,
    "art.yaml": read_art,
}
# optional files read as empty where the tree lacks them (a tree without tec.yaml has no TEC at all)
READ_WHEN_ABSENT = ("terrain.yaml", "places.yaml", "tables.yaml", "counters.yaml", "orders-of-arrival.yaml")


def _assumptions(data, out: list, rel: str) -> None:
    """Every mapping marked inferred/assumed, wherever it sits."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            prov = node.get("provenance")
            if prov in ("inferred", "assumed"):
                what = node.get("id") or node.get("name") or node.get("title") or rel
                out.append(Assumption(f"{rel}: {what}", prov, node.get("note"), node.at("provenance")
                                      if isinstance(node, LocMap) else Loc(rel)))
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))


def _index(parts: Parts) -> dict:
    """The look-ups `Game` answers (`game.unit(id)`, ...), built once."""
    tec = parts["tec"]
    return {
        "units": {u.id: u for u in parts["units"]},
        "formations": {f.id: f for f in parts["formations"]},
        "markers": {m.id: m for m in parts["markers"]},
        "sides": {s.id: s for s in parts["sides"]},
        "nationalities": {n.id: n for s in parts["sides"] for n in s.nationalities},
        "turns": {t.id: t for t in parts["turns"]},
        "phases": {p.id: p for p in parts["phases"]},
        "areas": {a.id: a for a in parts["places"].areas},
        "terrain_types": {x.id: x for x in tec.terrain} if tec else {},
        "scenarios": {x.id: x for x in parts["scenarios"]},
        "hex_terrain": {h.hex: h.terrain for h in parts["terrain"].hexes},
        **art_index(parts),
    }


def build_game(root: FsPath, files: dict, errata_docs, errata_applied: bool, rels: tuple) -> Game:
    parts = Parts(root=str(root), tec=None)
    for rel, read in READERS.items():
        data = files.get(rel) or ({} if rel in READ_WHEN_ABSENT else None)
        if data is not None:
            parts.update(read(data, parts))
    parts["scenarios"] = tuple(read_scenario(files[rel], parts) for rel in sorted(files) if rel.startswith("scenarios/"))
    parts["errata"] = tuple(read_errata(d, parts) for _, d in errata_docs)
    assumptions: list[Assumption] = []
    for rel, data in files.items():
        _assumptions(data, assumptions, rel)
    return Game(**parts, errata_applied=errata_applied, assumptions=tuple(assumptions), files=rels,
                _index=_index(parts))
