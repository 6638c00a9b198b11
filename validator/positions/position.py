"""A position: which counters stand where. One type for set-up checks, the module's set-up plan and the referee.

A `Position` is a value: its methods return new positions and never change the one they are called on.
Counters keep their order within a place (bottom first), as a stack on the map does.

The counters on the map are also indexed by hex, so that `at` and `stacks` read only what they return
instead of every counter. The index is built the first time a position is asked by hex, and a position
made from an indexed one by one change gets its index from it, changed only where that change is (one or
two hexes), so that a game replayed event by event builds it once.

A counter moved goes on top of the order. Its entry is not taken out of the position's mapping and put back
at its end (a mapping an entry was taken out of copies ten times slower in CPython 3.11, and each change
copies it): the order is kept as each counter's rank beside it (`_ranks`), the mapping's own order until a
counter already in it moves.
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


class _HexIndex:
    """The counters on the map by hex, in the position's order. `hexes`: hex -> (its counters, bottom first;
    each one's rank, its place in the position's order); `next`: the rank the next counter put on top of the
    order gets; `ordered`: the hexes are in the order of their bottom counters (`Position.stacks`'s order),
    else they are put so when that order is asked (a hex whose bottom counter left moves up the order)."""
    __slots__ = ("hexes", "next", "ordered")

    def __init__(self, hexes: dict, next_rank: int, ordered: bool = True):
        self.hexes, self.next, self.ordered = hexes, next_rank, ordered

    @staticmethod
    def of(entries: Iterable[tuple["Where", Counter]]) -> "_HexIndex":
        """The index of (Where, Counter) entries in the position's order."""
        out: dict = {}
        count = 0
        for rank, (w, c) in enumerate(entries):
            count = rank + 1
            if w.hex is not None:
                e = out.get(w.hex)
                out[w.hex] = ((c,), (rank,)) if e is None else (e[0] + (c,), e[1] + (rank,))
        return _HexIndex(out, count)

    def in_order(self) -> dict:
        """The hexes in the order of their bottom counters (sorted here, once, where a change upset it)."""
        if not self.ordered:
            order = sorted(self.hexes.items(), key=lambda kv: kv[1][1][0])
            self.hexes.clear()
            self.hexes.update(order)
            self.ordered = True
        return self.hexes

    def without(self, hex_id: str, piece: str) -> "_HexIndex":
        """The index with a piece taken off a hex (where it stands there)."""
        hexes = dict(self.hexes)
        kept = self._take(hexes, hex_id, piece)
        return _HexIndex(hexes, self.next, self.ordered and kept)

    def placed(self, old: Optional[str], piece: str, new: Optional[str], c: Counter) -> "_HexIndex":
        """The index with a piece taken off its hex (if on one) and put on top of the order on `new`."""
        hexes = dict(self.hexes)
        kept = old is None or self._take(hexes, old, piece)
        ordered = self.ordered and kept
        if new is not None:
            e = hexes.get(new)
            hexes[new] = ((c,), (self.next,)) if e is None else (e[0] + (c,), e[1] + (self.next,))
        return _HexIndex(hexes, self.next + 1, ordered)

    def changed(self, hex_id: str, c: Counter) -> "_HexIndex":
        """The index with a counter's state changed in place."""
        hexes = dict(self.hexes)
        cs, ranks = hexes[hex_id]
        hexes[hex_id] = (tuple(c if x.piece == c.piece else x for x in cs), ranks)
        return _HexIndex(hexes, self.next, self.ordered)

    @staticmethod
    def _take(hexes: dict, hex_id: str, piece: str) -> bool:
        """Take a piece off a hex; False where the hex's bottom counter left and others stay (the hexes'
        order is then no longer known to be right)."""
        cs, ranks = hexes[hex_id]
        if len(cs) == 1:
            del hexes[hex_id]
            return True
        i = next(i for i, x in enumerate(cs) if x.piece == piece)
        hexes[hex_id] = (cs[:i] + cs[i + 1:], ranks[:i] + ranks[i + 1:])
        return i != 0


@dataclass(frozen=True)
class Position:
    """Counters by place. Build with `Position.of(...)`; change with the methods, which return new values."""
    _where: dict = field(default_factory=dict)   # piece -> (Where, Counter); insertion = stacking order, but:
    _index: Optional[_HexIndex] = field(default=None, compare=False, repr=False)   # built when first asked
    _ranks: Optional[tuple] = field(default=None, compare=False, repr=False)   # (piece -> rank, the next rank):
    # the stacking order once a counter in `_where` moved (None: `_where`'s own order)
    _seq: Optional[tuple] = field(default=None, compare=False, repr=False)     # `_where`'s entries in that order

    @staticmethod
    def of(items: Iterable[tuple[Counter, Where]]) -> "Position":
        d: dict = {}
        for c, w in items:
            d.pop(c.piece, None)
            d[c.piece] = (w, c)
        return Position(d)

    def _hex_index(self) -> _HexIndex:
        index = self._index
        if index is None:
            index = _HexIndex.of(self._ordered())
            object.__setattr__(self, "_index", index)
        return index

    def _ordered(self):
        """(Where, Counter) of every counter, in the stacking order (sorted by rank once, where ranks hold it)."""
        if self._ranks is None:
            return self._where.values()
        seq = self._seq
        if seq is None:
            where, rank = self._where, self._ranks[0]
            seq = tuple(where[p] for p in sorted(where, key=rank.__getitem__))
            object.__setattr__(self, "_seq", seq)
        return seq

    def _ranked(self, piece: str) -> tuple:
        """The ranks once `piece` goes on top of the order (the mapping's order read into ranks the first time)."""
        if self._ranks is None:
            rank, top = {p: i for i, p in enumerate(self._where)}, len(self._where)
        else:
            rank, top = dict(self._ranks[0]), self._ranks[1]
        rank[piece] = top
        return rank, top + 1

    # -- reading --
    def __len__(self) -> int:
        return len(self._where)

    def __iter__(self) -> Iterator[tuple[Counter, Where]]:
        for w, c in self._ordered():
            yield c, w

    def where(self, piece: str) -> Optional[Where]:
        e = self._where.get(piece)
        return e[0] if e else None

    def counter(self, piece: str) -> Optional[Counter]:
        e = self._where.get(piece)
        return e[1] if e else None

    def at(self, hex_id: str) -> tuple[Counter, ...]:
        e = self._hex_index().hexes.get(hex_id)
        return e[0] if e is not None else ()

    def stacks(self) -> dict[str, tuple[Counter, ...]]:
        """Occupied hexes -> their counters, bottom first."""
        return {h: e[0] for h, e in self._hex_index().in_order().items()}

    def in_boxes(self) -> dict[str, tuple[Counter, ...]]:
        out: dict[str, list[Counter]] = {}
        for w, c in self._ordered():
            if w.hex is None:
                out.setdefault(w.box or "", []).append(c)
        return {b: tuple(cs) for b, cs in out.items()}

    def units(self) -> Iterator[tuple[Counter, Where]]:
        return ((c, w) for c, w in self if c.kind == "unit")

    # -- changing (each returns a new Position) --
    def placed(self, counter: Counter, where: Where) -> "Position":
        """The counter put at `where`, on top of the order (a new entry goes at the mapping's end, where the
        order is the mapping's; one already there keeps its entry and gets the next rank)."""
        d = dict(self._where)
        old = d.get(counter.piece)
        d[counter.piece] = (where, counter)
        ranks = self._ranks
        if old is not None or ranks is not None:
            ranks = self._ranked(counter.piece)
        index = self._index
        if index is not None:
            index = index.placed(old[0].hex if old is not None else None, counter.piece, where.hex, counter)
        return Position(d, index, ranks)

    def moved(self, piece: str, where: Where) -> "Position":
        e = self._where.get(piece)
        if e is None:
            raise KeyError(piece)
        return self.placed(e[1], where)

    def removed(self, piece: str) -> "Position":
        d = dict(self._where)
        old = d.pop(piece, None)
        ranks = self._ranks
        if ranks is not None and old is not None:
            rank = dict(ranks[0])
            del rank[piece]
            ranks = (rank, ranks[1])
        index = self._index
        if index is not None and old is not None and old[0].hex is not None:
            index = index.without(old[0].hex, piece)
        return Position(d, index, ranks)

    def changed(self, counter: Counter) -> "Position":
        e = self._where.get(counter.piece)
        if e is None:
            raise KeyError(counter.piece)
        d = dict(self._where)
        d[counter.piece] = (e[0], counter)
        index = self._index
        if index is not None and e[0].hex is not None:
            index = index.changed(e[0].hex, counter)
        return Position(d, index, self._ranks)
