"""A scenario's starting position: every set-up unit on its hex, every reinforcement in its holding box.

`position_of_scenario` is the one placer; `starting_position` returns its position, the set-up
checks judge it, and the module's set-up (.vsav) is written from it.

- A piece is named ``<unit id>#<n>``, n counting that unit's counters from 1 in the scenario's
  order (set-up lines as printed, then arrivals by order of arrival and turn).
- A counter's state is the placement's printed `state` (the tree's state names: reduced, dg, …).
- A single-hex line puts all its units in that hex, as printed (the checks judge what it breaks).
  Those go first, so the lines that leave a choice see every fixed unit.
- A location that is not a single hex (`validator.geometry.locations.location_hexes`) takes its units one
  at a time, in printed order, into the first of its hexes (in the location's order) that the
  unit `may_join` (stacking limit, no enemy, nationalities kept apart, terrain it may enter).
  With a limit of one that spreads them one per hex along a printed range.
  Every such choice is recorded in `choices` (the build prints them).
- A unit that no hex of its location can hold, a location whose hexes are not printed, and a hex
  not on a board in play go to a set-up holding box named after the location.
- Reinforcements wait in one holding box per side, turn and entry.
Holding boxes are `Where(box=name)`, the name the module gives the box (`holding_box_name`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from ..source.frozen import frozen
from ..geometry.locations import in_play, location_hexes
from ..source.model import Arrival, Game, Location, Placement, Scenario, SetupGroup
from .position import Counter, Position, Where
from .stacking import may_join


@frozen
class HoldingBox:
    """An off-map box: a side's set-up box (turn None) or the box for one turn's arrivals at one entry."""
    side: str
    turn: Optional[str]
    label: str                                # "Set-up: area A", "Area A", "0110"


@frozen
class Line:
    """The printed line a counter comes from."""
    group: Union[SetupGroup, Arrival]
    placement: Placement
    side: str
    turn: Optional[str] = None                # the arrival turn; None for the set-up


@frozen
class Choice:
    """Where the placer put a counter whose location is not a single hex."""
    piece: str
    location: Location
    where: Where


@dataclass(frozen=True)
class ScenarioPosition:
    scenario: Scenario
    position: Position
    lines: dict                               # piece -> Line
    boxes: dict                               # box name -> HoldingBox, for every box used
    choices: tuple[Choice, ...]
    problems: tuple[str, ...]                 # what could not be placed as printed


def holding_box_name(game: Game, box: HoldingBox) -> str:
    """The box's name as the module shows it (and as a log reports a piece in it)."""
    s = game.side(box.side)
    side = s.name if s else box.side
    return f"{side} {box.label}" if box.turn is None else f"{side} Turn {box.turn}: {box.label}"


def setup_box_label(game: Game, location: Location) -> str:
    if location.printed:
        return f"Set-up: {location.printed}"
    if location.area:
        a = game.area(location.area)
        return f"Set-up: area {a.name if a is not None and a.name else location.area}"
    if location.any_area:
        return "Set-up: area " + " or ".join(location.any_area)
    return f"Set-up: {location}"


def entry_label(game: Game, location: Location) -> str:
    """How a reinforcement box names its entry: the area's printed name, else the location as printed."""
    if location.area and not location.printed:
        a = game.area(location.area)
        if a is not None and a.name:
            return a.name
        return f"Area {location.area}"
    return str(location)


class _Placer:
    """Places counters in a scenario's order; `stacks` mirrors the hexes for quick look-ups."""

    def __init__(self, game: Game, scenario: Scenario):
        self.game, self.scenario = game, scenario
        self.placed: dict[str, tuple[Counter, Where, Line]] = {}
        self.stacks: dict[str, list[Counter]] = {}
        self.boxes: dict = {}
        self.choices: list[Choice] = []
        self.problems: list[str] = []
        self.serial: dict[str, int] = {}
        self.playable = in_play(game, scenario)

    def counters(self, side: str, p: Placement) -> list[Counter]:
        out = []
        for _ in range(max(p.count, 1)):
            n = self.serial.get(p.unit, 0) + 1
            self.serial[p.unit] = n
            out.append(Counter(f"{p.unit}#{n}", p.unit, side, frozenset(p.state)))
        return out

    def box(self, box: HoldingBox) -> Where:
        name = holding_box_name(self.game, box)
        self.boxes.setdefault(name, box)
        return Where(box=name)

    def put(self, c: Counter, where: Where, line: Line) -> None:
        self.placed[c.piece] = (c, where, line)
        if where.hex is not None:
            self.stacks.setdefault(where.hex, []).append(c)

    def on_board(self, h: str) -> bool:
        return self.game.grid.board_of(h) in self.scenario.boards if self.scenario.boards else True

    def single(self, grp: SetupGroup, lines: list[tuple[Placement, list[Counter]]]) -> None:
        h = grp.location.hex
        where = Where(hex=h)
        if not self.game.grid.exists(h):
            self.problems.append(f"set-up hex {h} is not on the map; placed in a holding box")
            where = self.box(HoldingBox(grp.side, None, f"Set-up: {h}"))
        elif not self.on_board(h):
            self.problems.append(f"set-up hex {h} is on a board not in play; placed in a holding box")
            where = self.box(HoldingBox(grp.side, None, f"Set-up: {h}"))
        for p, cs in lines:
            for c in cs:
                self.put(c, where, Line(grp, p, grp.side))

    def spread(self, grp: SetupGroup, lines: list[tuple[Placement, list[Counter]]]) -> None:
        loc = grp.location
        hexes = location_hexes(self.game, loc)
        if hexes is not None:
            hexes = tuple(h for h in hexes if self.on_board(h) and (self.playable is None or self.playable(h)))
        for p, cs in lines:
            for c in cs:
                where = self.first_room(c, hexes)
                if where is None:
                    where = self.box(HoldingBox(grp.side, None, setup_box_label(self.game, loc)))
                    if hexes:
                        self.problems.append(f"{c.unit}: no hex of {loc} can hold it; placed in a holding box")
                self.put(c, where, Line(grp, p, grp.side))
                self.choices.append(Choice(c.piece, loc, where))

    def first_room(self, c: Counter, hexes: Optional[tuple[str, ...]]) -> Optional[Where]:
        for h in hexes or ():
            if may_join(self.game, tuple(self.stacks.get(h, ())), c, h):
                return Where(hex=h)
        return None

    def setup(self) -> list[str]:
        """Place the set-up; the pieces in printed order."""
        groups = [(grp, [(p, self.counters(grp.side, p)) for p in grp.units]) for grp in self.scenario.setup]
        for grp, lines in groups:
            if grp.location.hex is not None:
                self.single(grp, lines)
        for grp, lines in groups:
            if grp.location.hex is None:
                self.spread(grp, lines)
        return [c.piece for _, lines in groups for _, cs in lines for c in cs]

    def arrivals(self) -> list[str]:
        order = []
        for oa in self.game.scenario_arrivals(self.scenario):
            for tb in oa.turns:
                for arr in tb.arrivals:
                    where = self.box(HoldingBox(oa.side, tb.turn, entry_label(self.game, arr.entry)))
                    for p in arr.units:
                        for c in self.counters(oa.side, p):
                            self.put(c, where, Line(arr, p, oa.side, tb.turn))
                            order.append(c.piece)
        return order


def position_of_scenario(game: Game, scenario: Scenario) -> ScenarioPosition:
    placer = _Placer(game, scenario)
    order = placer.setup() + placer.arrivals()
    # pieces in printed order: a hex's stack lists them bottom first as the set-up prints them
    position = Position.of((placer.placed[piece][0], placer.placed[piece][1]) for piece in order)
    lines = {piece: placer.placed[piece][2] for piece in order}
    by_piece = {ch.piece: ch for ch in placer.choices}
    choices = tuple(by_piece[piece] for piece in order if piece in by_piece)
    return ScenarioPosition(scenario, position, lines, placer.boxes, choices, tuple(placer.problems))


def starting_position(game: Game, scenario: Scenario) -> Position:
    """The scenario's starting position: set-up units on their hexes (a location that is not one hex
    spread within the stacking limit), reinforcements in their holding boxes; pieces `<unit id>#<n>`."""
    return position_of_scenario(game, scenario).position
