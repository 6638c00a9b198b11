"""The replay's units by hex as combat reads a map (`Lookups.counted_stacks`, kept per position and carried
from event to event): a hex's units, the hexes held, the front between two sides. No pass over every counter."""
from __future__ import annotations

from typing import Callable


class HexStacks:
    """(hex, side) -> units, read by hex: `get` gives a hex's units (side by side, in the sides' order),
    `items` every occupied hex, `front` the hexes of another side next to a side's."""

    def __init__(self, counted: dict, sides: tuple):
        self._counted, self._sides = counted, sides + (None,)

    def get(self, hex_id: str, default=()):
        out = ()
        for s in self._sides:
            units = self._counted.get((hex_id, s))
            if units:
                out += tuple(units)
        return out or default

    def items(self):
        hexes = dict.fromkeys(h for h, _ in self._counted)
        return ((h, self.get(h)) for h in hexes)

    def front(self, side: str, idle: frozenset, neighbours: Callable) -> list[str]:
        """The hexes holding a fighting unit of a known side other than `side` next to a hex holding a
        fighting unit of `side` (each once, in no particular order). A unit fights unless its id is one of
        `idle` (the tree's units flagged non-combat: `combat._idle`)."""
        mine: set = set()
        theirs: list = []
        for (h, s), units in self._counted.items():      # one pass: each stack's units read once
            if s is None or not units or (idle and all(c.unit in idle for c in units)):
                continue
            if s == side:
                mine.add(h)
            else:
                theirs.append(h)
        return [h for h in dict.fromkeys(theirs) if not mine.isdisjoint(neighbours(h))]
