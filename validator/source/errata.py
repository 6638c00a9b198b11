"""Errata as structured patches over the printed data.

Each patch names a file of the tree and a path of steps (keys, indexes, or selectors matching
exactly one list element). `set` must find its `from` value there; `remove` and `add` edit lists.
A patch that cannot find what it expects "no longer applies" and is reported, never forced.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Optional

from .model import Loc
from .yamlsrc import LocList, LocMap


@dataclass(frozen=True)
class PatchProblem:
    message: str
    loc: Loc
    erratum: str
    acknowledged: Optional[str] = None


def _matches(element, selector: dict) -> bool:
    return isinstance(element, dict) and all(element.get(k) == v for k, v in selector.items())


def _step(node, step):
    """Follow one path step; return (child, container, key) or raise LookupError with a reason."""
    if isinstance(step, dict):
        if not isinstance(node, list):
            raise LookupError(f"selector {dict(step)} used on a non-list")
        hits = [i for i, e in enumerate(node) if _matches(e, step)]
        if len(hits) != 1:
            raise LookupError(f"selector {dict(step)} matches {len(hits)} entries, not exactly one")
        return node[hits[0]], node, hits[0]
    if isinstance(step, int):
        if not isinstance(node, list) or not -len(node) <= step < len(node):
            raise LookupError(f"index {step} is out of range")
        return node[step], node, step
    if not isinstance(node, dict) or step not in node:
        raise LookupError(f"key {step!r} is absent")
    return node[step], node, step


def _resolve(root, path):
    node, parent, key = root, None, None
    for step in path:
        node, parent, key = _step(node, step)
    return node, parent, key


def _fmt(path) -> str:
    out = []
    for s in path:
        out.append("{" + ", ".join(f"{k}: {v}" for k, v in s.items()) + "}" if isinstance(s, dict) else str(s))
    return " > ".join(out)


def apply_errata(files: dict[str, object], errata_docs: list[tuple[str, dict]]) -> list[PatchProblem]:
    """Apply every patch in order to `files` (relpath -> data), in place; report those that do not apply.

    Data that a patch writes keeps the patch's location, so findings about it point at the erratum.
    """
    problems: list[PatchProblem] = []
    for _, doc in errata_docs:
        for item in doc.get("items", []) or []:
            for patch in item.get("patches", []) or []:
                why = _apply(files, patch)
                if why:
                    problems.append(PatchProblem(why, getattr(patch, "loc", Loc("")),
                                                 f"{doc.get('id')} {item.get('id')}", item.get("acknowledged")))
    return problems


def _apply(files, patch) -> Optional[str]:
    target = files.get(patch.get("file"))
    if target is None:
        return f"it patches {patch.get('file')!r}, which is not a file of this tree"
    path = list(patch.get("path") or [])
    op = patch.get("op")
    try:
        if op == "set":
            if not path:
                return "a set needs a path"
            node, parent, key = _resolve(target, path)
            if "from" in patch and node != patch["from"]:
                return f"at {_fmt(path)} it expects {patch['from']!r} but the data has {node!r}"
            parent[key] = copy.deepcopy(patch.get("to"))
            _relocate(parent, key, patch)
        elif op == "remove":
            node, parent, key = _resolve(target, path)
            if not isinstance(parent, list):
                return f"{_fmt(path)} is not a list entry"
            if "from" in patch:     # a dict names fields the entry must still have; anything else, the entry
                want = patch["from"]
                if isinstance(want, dict) and not _matches(node, want):
                    return f"the entry at {_fmt(path)} no longer has {dict(want)}"
                if not isinstance(want, dict) and node != want:
                    return f"the entry at {_fmt(path)} is {node!r}, not {want!r}"
            del parent[key]
            if isinstance(parent, LocList):
                del parent.itemlocs[key]
        elif op == "add":
            node, _, _ = _resolve(target, path)
            if not isinstance(node, list):
                return f"{_fmt(path)} is not a list"
            node.append(copy.deepcopy(patch.get("value")))
            if isinstance(node, LocList):
                node.itemlocs.append(patch.at("value") if isinstance(patch, LocMap) else node.loc)
        else:
            return f"unknown patch operation {op!r}"
    except LookupError as e:
        return f"path {_fmt(path)}: {e}"
    return None


def _relocate(parent, key, patch) -> None:
    if isinstance(parent, LocMap) and isinstance(patch, LocMap):
        parent.keylocs[key] = patch.at("to")
    elif isinstance(parent, LocList) and isinstance(patch, LocMap):
        parent.itemlocs[key] = patch.at("to")
