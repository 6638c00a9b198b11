"""A position: which counters stand where. One type for set-up checks, the module's set-up plan and the referee.

A `Position` is a value: its methods return new positions and never change the one they are called on.
Counters keep their order within a place (bottom first), as a stack on the map does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional


@dataclass(frozen=True, slots=True)
class Where:
    """A place a counter can be: a hex on the grid, or a named box off it (a holding box, a side map)."""
    hex: Optional[str] = None
    box: Optional[str] = None

    def __str__(self) -> str:
        return self.hex or (f"[{self.box}]" if self.box else "?")


@dataclass(frozen=True, slots=True)
class Counter:
    """One piece in play. `piece` tells pieces apart; `unit` is the tree's unit (or marker) id it shows."""
    piece: str
    unit: str
    side: Optional[str] = None
    state: frozenset[str] = frozenset()          # "reduced", "dg", … (the tree's state names)
    kind: str = "unit"                           # unit | marker

    def with_state(self, state: Iterable[str]) -> "Counter":
        return Counter(self.piece, self.unit, self.side, frozenset(state), self.kind)


@dataclass(frozen=True)
class Position:
    """Counters by place. Build with `Position.of(...)`; change with the methods, which return new values."""
    _where: dict = field(default_factory=dict)   # piece -> (Where, Counter), insertion = stacking order

    @staticmethod
    def of(items: Iterable[tuple[Counter, Where]]) -> "Position":
        d: dict = {}
        for c, w in items:
            d.pop(c.piece, None)
            d[c.piece] = (w, c)
        return Position(d)

    # -- reading --
    def __len__(self) -> int:
        return len(self._where)

    def __iter__(self) -> Iterator[tuple[Counter, Where]]:
        for w, c in self._where.values():
            yield c, w

    def where(self, piece: str) -> Optional[Where]:
        e = self._where.get(piece)
        return e[0] if e else None

    def counter(self, piece: str) -> Optional[Counter]:
        e = self._where.get(piece)
        return e[1] if e else None

    def at(self, hex_id: str) -> tuple[Counter, ...]:
        return tuple(c for w, c in self._where.values() if w.hex == hex_id)

    def stacks(self) -> dict[str, tuple[Counter, ...]]:
        """Occupied hexes -> their counters, bottom first."""
        out: dict[str, list[Counter]] = {}
        for w, c in self._where.values():
            if w.hex is not None:
                out.setdefault(w.hex, []).append(c)
        return {h: tuple(cs) for h, cs in out.items()}

    def in_boxes(self) -> dict[str, tuple[Counter, ...]]:
        out: dict[str, list[Counter]] = {}
        for w, c in self._where.values():
            if w.hex is None:
                out.setdefault(w.box or "", []).append(c)
        return {b: tuple(cs) for b, cs in out.items()}

    def units(self) -> Iterator[tuple[Counter, Where]]:
        return ((c, w) for c, w in self if c.kind == "unit")

    # -- changing (each returns a new Position) --
    def placed(self, counter: Counter, where: Where) -> "Position":
        d = dict(self._where)
        d.pop(counter.piece, None)
        d[counter.piece] = (where, counter)
        return Position(d)

    def moved(self, piece: str, where: Where) -> "Position":
        e = self._where.get(piece)
        if e is None:
            raise KeyError(piece)
        return self.placed(e[1], where)

    def removed(self, piece: str) -> "Position":
        d = dict(self._where)
        d.pop(piece, None)
        return Position(d)

    def changed(self, counter: Counter) -> "Position":
        e = self._where.get(counter.piece)
        if e is None:
            raise KeyError(counter.piece)
        d = dict(self._where)
        d[counter.piece] = (e[0], counter)
        return Position(d)
