"""One reading of a set-up or arrival location: the hexes it covers, in the order they are placed.

The checks, the set-up cards and the module's set-up plan all call `location_hexes`, so a range, an
"X or Y", an area or "within N of X" covers the same hexes everywhere. (`Location.hex_refs` is a
different question: the hex IDs the source writes, which the hex-ID checks validate.)
"""
from __future__ import annotations

from typing import Callable, Optional

from ..source.model import Game, Location, Scenario


def location_hexes(game: Game, location: Location) -> Optional[tuple[str, ...]]:
    """The existing hexes a location covers, or None when it names an area whose hexes are not printed.

    Order is the placing order: a hex; "X or Y" as listed; a range along the straight line from its
    first hex to its last, as printed; "within N of X" nearest first (X itself first, ties in the
    grid's order); an area's (or "N or O" areas') hexes as places.yaml lists them.
    """
    grid = game.grid
    if location.hex:
        return tuple(h for h in (location.hex,) if grid.exists(h))
    if location.any_of:
        return tuple(dict.fromkeys(h for h in location.any_of if grid.exists(h)))
    if location.range:
        return tuple(grid.line(*location.range))
    if location.within:
        n, centre = location.within
        ring = grid.within(centre, n)
        return tuple(sorted(ring, key=lambda h: grid.distance(centre, h)))
    areas = [location.area] if location.area else list(location.any_area or ())
    printed = [a for a in (game.area(aid) for aid in areas) if a is not None and a.hexes]
    if not printed:
        return None
    return tuple(dict.fromkeys(h for a in printed for h in a.hexes if grid.exists(h)))


def in_play(game: Game, scenario: Scenario) -> Optional[Callable[[str], bool]]:
    """A predicate: is a hex on a board the scenario uses and inside its play area? None when every hex is."""
    grid = game.grid
    boxes = scenario.play_area
    boards = set(scenario.boards)
    if boxes is None and boards >= {b.id for b in grid.boards}:
        return None

    def pred(h: str) -> bool:
        x = grid.parse(h)
        if x is None or x.board not in boards:
            return False
        return boxes is None or any(b.contains(x.board, x.column, x.row) for b in boxes)
    return pred
