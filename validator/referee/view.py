"""What a rule reads: a read-only `View` of one moment of the replay, and the look-ups rules share.

A `View` is made by the replay for each moment it judges (the start, each event, a phase's end, the
log's end): the game, the scenario, the record, the position (before the event), the ledger
(validator.referee.ledger), the phase tracker, and how the replay read the event (`read_as`, and for a
unit's move its `MoveReading`, for a roll its `BattleReading`). Nothing a rule can reach from it
changes the replay: the ledger and the position are values, and `Lookups` only remembers what pure
functions of the game and a position gave.
"""
from __future__ import annotations

import functools
from typing import Optional

from ..geometry.locations import in_play
from ..source.model import Game, Scenario, Unit
from ..positions.position import Counter, Position
from ..records.record import GameRecord, TurnChanged
from ..positions.stacking import overstacked, side_of as _side_of
from .costs import ClassCosts, costs_by_class
from .ledger import Ledger
from .lookahead import steps_after
from .markers import shown_states
from .phases import PhaseTracker
from .start import Match, location_hexes, slots


SIDE_LOOKUPS = ("enemies", "merged", "enemy-hexes", "zoc", "zoc-count")   # kept per side (see carry)
MAX_PENDING = 64                      # hexes noted for a side's look-ups before they are dropped instead
KEEP_FROM = 200                       # counters from which an undo's snapshot keeps the position's look-ups


class Lookups:
    """Look-ups on the game and on positions that every rule of one audit shares. Each is a function
    of its arguments alone, remembered: per unit id, per movement class, per position (the latest one,
    carried to the next where only one piece changed, see `carry`)."""

    def __init__(self, game: Game):
        self.game = game
        self.costs: dict = costs_by_class(game)
        self.paths: dict = {}                 # movement: searched paths and leg costs by their arguments
        self._units: dict = {}                # unit id -> the game's Unit (None: not in the game)
        self._sides: dict = {}                # (unit id, counter's side) -> the unit's side
        self._side_list: tuple = (0, ())      # (how many `_sides` held, the sides among them)
        self._by_position: tuple = (None, None)   # (a position, its look-ups)

    @property
    def grid(self):
        return self.game.grid

    def unit(self, c: Counter) -> Optional[Unit]:
        try:
            return self._units[c.unit]
        except KeyError:
            u = self._units[c.unit] = self.game.unit(c.unit)
            return u

    def side_of(self, c: Counter) -> Optional[str]:
        key = (c.unit, c.side)
        try:
            return self._sides[key]
        except KeyError:
            s = self._sides[key] = _side_of(self.game, c)
            return s

    def class_of(self, c: Counter) -> Optional[str]:
        u = self.unit(c)
        return u.movement_class if u else None

    def class_costs(self, c: Counter) -> ClassCosts:
        return self.costs.get(self.class_of(c)) or self.costs[None]

    def allowance(self, c: Counter) -> Optional[int]:
        """The unit's movement factor in its current state (the reduced side's where it is reduced)."""
        u = self.unit(c)
        if u is None:
            return None
        f = u.reduced if ("reduced" in c.state and u.reduced) else u.factors
        return f.get("movement") if f else None

    def label(self, c: Counter) -> str:
        u = self.unit(c)
        return u.name if u else c.unit

    def side_name(self, side: Optional[str]) -> str:
        s = self.game.side(side) if side else None
        return s.name if s else str(side)

    # -- per position --
    def of(self, position: Position) -> dict:
        """The look-ups kept for a position (those of the latest position asked; a new one starts empty)."""
        pos, cache = self._by_position
        if cache is None or pos is not position:
            cache = {}
            self._by_position = (position, cache)
        return cache

    def kept(self, position: Position) -> Optional[dict]:
        """The look-ups of `position` where it is the latest asked, for an undo's snapshot to keep: on a map of
        many counters (KEEP_FROM), where making them afresh after an undo costs more than carrying them on
        (on a small one a side's look-ups are made again only once asked, and cheaply)."""
        pos, cache = self._by_position
        return cache if pos is position and len(position) >= KEEP_FROM else None

    def restore(self, position: Position, cache: Optional[dict]) -> None:
        """An undo put `position` back: its look-ups as kept (`kept`; none kept: made afresh when asked). They
        stayed as they were: once a position is not the latest, nothing changes what it holds (`carry`
        makes the next one's anew, `_unsettle` and `_settle` copy before they change)."""
        if cache is not None:
            self._by_position = (position, cache)

    def counted_stacks(self, position: Position) -> dict:
        """(hex, side) -> the units on the hex there, in the position's order (what counts for stacking;
        do not change it: it is shared)."""
        cache = self.of(position)
        stacks = cache.get("counted_stacks")
        if stacks is None:
            out: dict = {}
            side_of = self.side_of
            for c, w in position:
                if c.kind == "unit" and w.hex is not None:
                    out.setdefault((w.hex, side_of(c)), []).append(c)
            stacks = cache["counted_stacks"] = out
        return stacks

    def shared(self, position: Position) -> frozenset:
        """The keys of `counted_stacks` whose hex two or more units of one side share (carried as they are)."""
        cache = self.of(position)
        keys = cache.get("shared")
        if keys is None:
            keys = cache["shared"] = frozenset(k for k, units in self.counted_stacks(position).items() if len(units) > 1)
        return keys

    def _settled(self, position: Position, side: Optional[str]) -> dict:
        """The position's look-ups, a side's read again first where a move of its enemy left them unsettled."""
        cache = self.of(position)
        if ("unsettled", side) in cache:
            self._settle(cache, side)
        return cache

    def enemies(self, position: Position, side: Optional[str]) -> dict[str, tuple[Counter, ...]]:
        """Hexes held by units of another side than `side`, each hex's units in the position's order."""
        cache = self._settled(position, side)
        key = ("enemies", side)
        held = cache.get(key)
        if held is None:
            out: dict[str, list] = {}
            if side is not None:
                for (h, s), units in self.counted_stacks(position).items():
                    if s is not None and s != side:
                        out.setdefault(h, []).append(units)
            held = cache[key] = {h: tuple(parts[0]) if len(parts) == 1 else self._merged(position, h, side)
                                 for h, parts in out.items()}
            cache[("merged", side)] = frozenset(h for h, parts in out.items() if len(parts) > 1)
        return held

    def _merged(self, position: Position, h: str, side: Optional[str]) -> tuple[Counter, ...]:
        """A hex several enemy sides share: their units in the position's order."""
        return tuple(c for c in position.at(h) if c.kind == "unit" and (s := self.side_of(c)) is not None
                     and s != side)

    def enemy_hexes(self, position: Position, side: Optional[str]) -> frozenset:
        """The hexes of `enemies`, as one set per position (a path search's key: hashed once)."""
        cache = self._settled(position, side)
        key = ("enemy-hexes", side)
        hexes = cache.get(key)
        if hexes is None:
            hexes = cache[key] = frozenset(self.enemies(position, side))
        return hexes

    def zoc_hexes(self, position: Position, side: Optional[str]) -> frozenset:
        """The hexes next to those enemy units hold (one set per position and side)."""
        cache = self._settled(position, side)
        key = ("zoc", side)
        hexes = cache.get(key)
        if hexes is None:
            count: dict[str, int] = {}            # hex -> how many exerting enemy hexes it is next to
            neighbours = self.grid.neighbours
            for h, units in self.enemies(position, side).items():
                if any(self.exerts(c) for c in units):
                    for n in neighbours(h):
                        count[n] = count.get(n, 0) + 1
            cache[("zoc-count", side)] = count
            hexes = cache[key] = frozenset(count)
        return hexes

    def exerts(self, c: Counter) -> bool:
        """The unit exerts a ZOC (a `no-zoc` unit of counters.yaml does not)."""
        u = self.unit(c)
        return u is None or "no-zoc" not in u.flags

    def carry(self, before: Position, after: Position, piece: str, in_place: bool) -> None:
        """The position changed from `before` to `after` in one piece: derive the stacks of `after` from
        those of `before` rather than from every counter, and keep a side's look-ups (its enemies, the hexes
        they hold, their ZOC): as they are where only a unit of that side changed, else with the hexes the piece
        left and entered noted, to be read again when the side's look-ups are next asked (`_settle`: a side's
        moves in a row change its enemy's look-ups once). `in_place`: the piece kept its place in the order."""
        pos, cache = self._by_position
        if cache is None or pos is not before or "counted_stacks" not in cache or before is after:
            return
        old, new = self._stack_of(before, piece), self._stack_of(after, piece)
        stacks = _restacked(cache["counted_stacks"], piece, old, new, in_place)
        if stacks is None:
            return                                 # its place in the order is not known: rebuild
        fresh = {key: v for key, v in cache.items() if type(key) is tuple}    # a side's, keyed (look-up, side)
        keys = [x[:2] for x in (old, new) if x is not None]                   # the (hex, side) stacks changed
        if keys:
            changed = {k[1] for k in keys if k[1] is not None}
            hexes = (keys[0][0],) if len(keys) == 1 or keys[0][0] == keys[1][0] else (keys[0][0], keys[1][0])
            for side in {key[1] for key in fresh if key[0] == "enemies" or key[0] == "unsettled"}:
                if not changed <= {side}:
                    self._unsettle(fresh, side, hexes)
        fresh["counted_stacks"] = stacks
        if "shared" in cache:
            fresh["shared"] = _reshared(cache["shared"], stacks, keys)
        self._by_position = (after, fresh)

    @staticmethod
    def _unsettle(cache: dict, side: Optional[str], hexes: tuple) -> None:
        """A side's look-ups put aside, with the hexes that changed since they were read (`_settle` reads them
        again when they are next asked); a side long not asked has them dropped instead, made afresh then."""
        kept = cache.pop(("unsettled", side), None)
        if kept is None:
            kept = {what: cache.pop((what, side)) for what in SIDE_LOOKUPS if (what, side) in cache}
            kept["pending"] = ()
        else:
            kept = dict(kept)                      # the position before holds it too
        kept["pending"] += hexes
        if len(kept["pending"]) <= MAX_PENDING:
            cache[("unsettled", side)] = kept

    def _settle(self, cache: dict, side: Optional[str]) -> None:
        """A side's look-ups put aside (`_unsettle`), once units of other sides left or entered the hexes noted:
        those hexes read again, the rest kept, and the look-ups put back: made anew from those kept, never
        changed in place (the positions before, kept for an undo, hold them too). Where such a hex holds, or
        held, units of several enemy sides (merged in the position's order), they are dropped: made afresh
        when asked."""
        kept = dict(cache.pop(("unsettled", side)))      # copies: the positions before hold the look-ups too
        hexes = dict.fromkeys(kept.pop("pending"))
        held, merged = kept["enemies"], kept["merged"]
        now = [(h, self._enemy_parts(cache["counted_stacks"], h, side)) for h in hexes]
        if any(h in merged or len(parts) > 1 for h, parts in now):
            return
        gained, lost, toggled = [], [], []
        held = kept["enemies"] = dict(held)
        for h, parts in now:
            was = held.get(h)
            exerted = was is not None and any(self.exerts(c) for c in was)
            exerts = bool(parts) and any(self.exerts(c) for c in parts[0])
            if exerted != exerts:
                toggled.append((h, exerts))
            if parts:
                if was is None:
                    gained.append(h)
                held[h] = tuple(parts[0])
            elif was is not None:
                del held[h]
                lost.append(h)
        if "enemy-hexes" in kept and (gained or lost):
            kept["enemy-hexes"] = kept["enemy-hexes"].difference(lost).union(gained)
        if "zoc" in kept and "zoc-count" in kept and toggled:
            kept["zoc-count"] = dict(kept["zoc-count"])
            kept["zoc"] = self._carry_zoc(kept["zoc-count"], kept["zoc"], toggled)
        cache.update(((what, side), v) for what, v in kept.items())

    def _enemy_parts(self, stacks: dict, h: str, side: Optional[str]) -> list:
        """The counted stacks of the enemy sides of `side` on hex h (one per side: every side a unit was
        read to be on is asked)."""
        if side is None:
            return []
        return [units for s in self._known_sides() if s is not None and s != side
                and (units := stacks.get((h, s))) is not None]

    def _known_sides(self):
        """Every side a counter has been read to be on (`side_of`'s answers so far)."""
        if self._side_list[0] != len(self._sides):
            self._side_list = (len(self._sides), tuple(dict.fromkeys(self._sides.values())))
        return self._side_list[1]

    def _carry_zoc(self, count: dict, zoc: frozenset, toggled: list) -> frozenset:
        """The ZOC once the hexes of `toggled` started or stopped holding an exerting enemy unit: `count`
        (hex -> how many exerting enemy hexes it is next to) changed in place, the set made anew."""
        touched: list[str] = []
        for h, exerts in toggled:
            for n in self.grid.neighbours(h):
                k = count.get(n, 0) + (1 if exerts else -1)
                if k:
                    count[n] = k
                else:
                    del count[n]
                touched.append(n)
        if not touched:
            return zoc
        return zoc.difference([n for n in touched if n not in count]).union([n for n in touched if n in count])

    def _stack_of(self, position: Position, piece: str) -> Optional[tuple]:
        """(hex, side, counter) of a unit on a hex of the position, else None."""
        w, c = position.where(piece), position.counter(piece)
        if c is None or c.kind != "unit" or w is None or w.hex is None:
            return None
        return w.hex, self.side_of(c), c


def _reshared(shared: frozenset, stacks: dict, keys: list) -> frozenset:
    """`Lookups.shared` once the stacks of `keys` changed."""
    on = [k for k in keys if len(stacks.get(k, ())) > 1 and k not in shared]
    off = [k for k in keys if len(stacks.get(k, ())) <= 1 and k in shared]
    return shared.difference(off).union(on) if on or off else shared


def _restacked(stacks: dict, piece: str, old: Optional[tuple], new: Optional[tuple],
               in_place: bool) -> Optional[dict]:
    """`Lookups.counted_stacks` after one piece changed from `old` to `new` ((hex, side, counter) or
    None: not a unit on the map), its lists kept in the position's order; None where that order is
    not known (the piece kept its place but changed stacks: rebuild)."""
    out = dict(stacks)
    if in_place and old is not None and new is not None:
        if old[:2] != new[:2]:
            return None
        key = old[:2]
        out[key] = [new[2] if x.piece == piece else x for x in out[key]]
        return out
    if old is not None:
        key = old[:2]
        rest = [x for x in out[key] if x.piece != piece]
        if rest:
            out[key] = rest
        else:
            del out[key]
    if new is not None:
        if in_place:
            return None                            # placed where it was not: its place is not known
        key = new[:2]
        out[key] = out.get(key, []) + [new[2]]
    return out


class Facts:
    """What one audit reads of the game and the scenario again and again, worked out once."""

    def __init__(self, game: Game, scenario: Optional[Scenario], record: GameRecord,
                 start_match: Optional[Match] = None, scenario_inferred: bool = False, previous=None,
                 module: Optional[str] = None):
        self.game, self.scenario, self.record = game, scenario, record
        self.start_match, self.scenario_inferred = start_match, scenario_inferred
        self.previous = previous              # chain.Previous: the log before this one (`--chain`), if any
        self.module = module                  # the name and version of the module the log is audited with

    @functools.cached_property
    def in_play(self):
        return in_play(self.game, self.scenario) if self.scenario else None

    @functools.cached_property
    def setup_units(self) -> frozenset:
        return frozenset(s.unit for s in slots(self.game, self.scenario)) if self.scenario else frozenset()

    @functools.cached_property
    def marker_states(self) -> dict:
        return shown_states(self.game)

    @functools.cached_property
    def first_turn_change(self) -> Optional[int]:
        """The step of the record's first turn marker move (None: the players never move it)."""
        return next((s.index for s in self.record.steps if any(isinstance(e, TurnChanged) for e in s.events)), None)

    @functools.cached_property
    def arrival_lines(self) -> tuple:
        from .arrivals import arrival_lines
        return arrival_lines(self.game, self.scenario)

    @functools.cached_property
    def arrival_lines_of(self) -> dict:
        """Unit id -> its arrival lines, in the order of `arrival_lines` (an entering unit's are read at each
        entry)."""
        out: dict = {}
        for e in self.arrival_lines:
            out.setdefault(e.unit, []).append(e)
        return out

    @functools.cached_property
    def zoc_reading(self) -> tuple[str, str]:
        from .movement import zoc_reading
        return zoc_reading(self.game)

    @functools.cached_property
    def start_over(self) -> dict:
        """Piece -> its hex, for the units of every stack the start position holds over the limit."""
        return {c.piece: o.hex for o in overstacked(self.game, self.record.start) for c in o.counters}

    @functools.cached_property
    def victory_hexes(self) -> dict:
        from .scenario import victory_values
        return victory_values(self.game, self.scenario)


class View:
    """One moment of the replay as a rule reads it. `position` is the position before the event (at a
    phase end, the position then); `ledger` the ledger before the event is kept in it."""
    __slots__ = ("kind", "step", "event", "read_as", "reading", "position", "ledger", "tracker", "look",
                 "facts", "move", "battle", "coverage", "discarded", "_cache", "game")

    def __init__(self, kind: str, look: Lookups, facts: Facts, position: Position, ledger: Ledger,
                 tracker: PhaseTracker, step=None, event=None, read_as: Optional[str] = None, reading=None,
                 move=None, battle=None, coverage: Optional[dict] = None, discarded: tuple = ()):
        self.kind, self.look, self.facts, self.game = kind, look, facts, look.game     # the game: read by most rules
        self.position, self.ledger, self.tracker = position, ledger, tracker
        self.step, self.event, self.read_as, self.reading = step, event, read_as, reading
        self.move, self.battle = move, battle
        self.coverage = coverage if coverage is not None else {}
        self.discarded = discarded
        self._cache: Optional[dict] = None

    # -- what the moment is --
    @property
    def scenario(self) -> Optional[Scenario]:
        return self.facts.scenario

    @property
    def record(self) -> GameRecord:
        return self.facts.record

    @property
    def grid(self):
        return self.look.game.grid

    @property
    def turn(self) -> Optional[str]:
        return self.ledger.turn

    @property
    def step_no(self) -> Optional[int]:
        return self.step.index if self.step is not None else None

    def memo(self) -> dict:
        """A cache of this moment's own: what two rules of one moment both work out (pure, not state)."""
        if self._cache is None:
            self._cache = {}
        return self._cache

    # -- the look-ups, on this moment's position --
    def unit(self, c: Counter) -> Optional[Unit]:
        return self.look.unit(c)

    def side_of(self, c: Counter) -> Optional[str]:
        return self.look.side_of(c)

    def class_of(self, c: Counter) -> Optional[str]:
        return self.look.class_of(c)

    def label(self, c: Counter) -> str:
        return self.look.label(c)

    def allowance(self, c: Counter) -> Optional[int]:
        return self.look.allowance(c)

    def class_costs(self, c: Counter) -> ClassCosts:
        return self.look.class_costs(c)

    def side_name(self, side: Optional[str]) -> str:
        return self.look.side_name(side)

    def enemies(self, side: Optional[str]) -> dict[str, tuple[Counter, ...]]:
        return self.look.enemies(self.position, side)

    def enemy_hexes(self, side: Optional[str]) -> frozenset:
        return self.look.enemy_hexes(self.position, side)

    def zoc_hexes(self, side: Optional[str]) -> frozenset:
        return self.look.zoc_hexes(self.position, side)

    def phase_id(self) -> Optional[str]:
        p = self.tracker.phase()
        return p.id if p else None

    def phase_side(self) -> Optional[str]:
        p = self.tracker.phase()
        return p.side if p else None

    def turn_index(self) -> Optional[int]:
        t = self.game.turn(self.ledger.turn) if self.ledger.turn else None
        return t.index if t else None

    def steps_after(self):
        """The record's steps after this moment's step, up to the next turn change."""
        return steps_after(self.facts.record, self.step)
