"""The loader's containers: a mapping and a list that know where they and their values were written.

They live in the typed model (raw rule mappings keep them), so they are here, without the YAML reader:
a model read back from `compiler.game_cache` needs these classes, not PyYAML.
"""
from __future__ import annotations

from .model import Loc


def _as_loc(file: str, p) -> Loc:
    if isinstance(p, Loc):
        return p
    return Loc(file, p.line + 1, p.column + 1)  # a YAML mark


class LocMap(dict):
    """A mapping that knows where it and each of its values were written.

    Positions are kept as (line, column) pairs and turned into `Loc`s only when asked for: a game
    tree has tens of thousands of values and few of them are ever reported. A value an erratum
    wrote carries the erratum's own `Loc` instead.
    """
    __slots__ = ("file", "pos", "keylocs")

    @property
    def loc(self) -> Loc:
        return Loc(self.file, *self.pos)

    def at(self, key) -> Loc:
        """Where the value of `key` was written (the mapping itself if the key is absent)."""
        p = self.keylocs.get(key)
        return self.loc if p is None else _as_loc(self.file, p)


class LocList(list):
    __slots__ = ("file", "pos", "itemlocs")

    @property
    def loc(self) -> Loc:
        return Loc(self.file, *self.pos)

    def at(self, i: int) -> Loc:
        return _as_loc(self.file, self.itemlocs[i]) if 0 <= i < len(self.itemlocs) else self.loc
