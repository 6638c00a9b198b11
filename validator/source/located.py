"""The loader's containers: a mapping and a list that know where they and their values were written.

They live in the typed model (raw rule mappings keep them), so they are here, without the YAML reader:
a model read back from `compiler.game_cache` needs these classes, not PyYAML (a pickled container keeps
its positions as (line, column) pairs, not as PyYAML's marks).
"""
from __future__ import annotations

from .model import Loc


def _as_loc(file: str, p) -> Loc:
    if isinstance(p, Loc):
        return p
    if isinstance(p, tuple):                          # (line, column), as a pickled container keeps it
        return Loc(file, *p)
    return Loc(file, p.line + 1, p.column + 1)  # a YAML mark


def _positions(marks):
    """Where values were written, as (line, column) pairs instead of PyYAML's marks: what a pickled
    container keeps, so that reading it back needs no PyYAML."""
    def pos(p):
        return p if isinstance(p, (Loc, tuple)) or p is None else (p.line + 1, p.column + 1)
    return {k: pos(p) for k, p in marks.items()} if isinstance(marks, dict) else [pos(p) for p in marks]


class _Located:
    """Where a container was written (`file`, `pos`) and where each of its values was (the slot `_MARKS`
    names); what is pickled keeps those as (line, column) pairs."""
    __slots__ = ()
    _MARKS = ""

    @property
    def loc(self) -> Loc:
        return Loc(self.file, *self.pos)

    def __getstate__(self):
        return None, {"file": self.file, "pos": self.pos, self._MARKS: _positions(getattr(self, self._MARKS))}


class LocMap(_Located, dict):
    """A mapping that knows where it and each of its values were written.

    Positions are kept as (line, column) pairs and turned into `Loc`s only when asked for: a game
    tree has tens of thousands of values and few of them are ever reported. A value an erratum
    wrote carries the erratum's own `Loc` instead.
    """
    __slots__ = ("file", "pos", "keylocs")
    _MARKS = "keylocs"

    def at(self, key) -> Loc:
        """Where the value of `key` was written (the mapping itself if the key is absent)."""
        p = self.keylocs.get(key)
        return self.loc if p is None else _as_loc(self.file, p)


class LocList(_Located, list):
    __slots__ = ("file", "pos", "itemlocs")
    _MARKS = "itemlocs"

    def at(self, i: int) -> Loc:
        return _as_loc(self.file, self.itemlocs[i]) if 0 <= i < len(self.itemlocs) else self.loc
