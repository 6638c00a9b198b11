"""Movement: each unit's path in a phase, from where it stood (or the entry hex it came in at) to where
its drags ended.

A legal path must exist within the unit's movement allowance through the hexes each drag ended in,
on the map and in the scenario's play area, never through an enemy-held hex, and (standard ZOC)
never on through a hex in an enemy ZOC. Where the tree gives the whole map (a terrain default), each
hex costs what its terrain, the road or track joining it to the last hex and the hexside crossed
(less what a bridge cancels) cost the unit's class in the TEC (`costs.TerrainCosts`); elsewhere a hex
costs the cheapest the TEC allows (a road may be anywhere the tree does not rule it out), and a move
legal only under that reading is said so (partly verified). A reinforcement's leg starts at the
hex of its entry area that makes it cheapest, entering which costs that hex's terrain (or road).

The replay reads each such move once into a `MoveReading` (what every movement rule judges it with,
and the move's one fault, if any: the first of a prohibited end, the allowance, an enemy-held hex on
the way, a ZOC not stopped in); each rule reports its own fault from it.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from ..records.record import Moved, Placed
from . import Finding, Verdict, found, partly, rule
from .costs import map_complete, terrain_costs
from .ledger import Leg, at_step
from .lookahead import first_leaving
from .markers import shown_states
from .paths import LegCost, cheapest_route, leg_cost, total

PROHIBITED, WRONG_ENTRY, ALLOWANCE, ONTO_ENEMY, THROUGH_ENEMY, ZOC, EARLIER = (
    "prohibited", "wrong-entry", "allowance", "onto-enemy", "through-enemy", "zoc", "earlier")


CERTAIN, ASSUMED, UNKNOWN = "certain", "assumed", "unknown"


def zoc_reading(game) -> tuple[str, str]:
    """How sure a standard ZOC's effect on a move is from the tree: certain; assumed (the tree assumes a
    datum the rules do not print, and says so: a finding resting on it is a warning naming it); or
    unknown (a note). With the reason."""
    zoc = game.rules.zoc
    if zoc.model != "standard":
        return UNKNOWN, f"the ZOC model is {zoc.model or 'not given'}; only standard ZOC stops are judged"
    if str(zoc.exerted_by) == "unknown":
        return UNKNOWN, "which units exert a ZOC is not printed"
    level, why = CERTAIN, ""
    if zoc.exerted_assumed:
        level, why = ASSUMED, f"every unit is assumed to exert a ZOC ({zoc.exerted_assumed})"
    if zoc.blocked_by and game.terrain.default is None:
        blocked = (f"ZOC does not extend across {', '.join(zoc.blocked_by)} hexsides, and the map's hexsides are "
                   "not printed")
        if not zoc.blockers_assumed_absent:
            return UNKNOWN, blocked
        level, why = ASSUMED, "; ".join(x for x in (why, f"{blocked}: none is assumed there "
                                                          f"({zoc.blockers_assumed_absent})") if x)
    return level, why


def zoc_certainty(game) -> tuple[bool, str]:
    """Whether a standard ZOC's stops are certain from the tree, and if not, why."""
    level, why = zoc_reading(game)
    return level == CERTAIN, why


def zoc_class(game, cls: Optional[str]):
    """The ZOC's treatment of a movement class where it is not the standard stop (model.ZocClass), else None."""
    return next((z for z in game.rules.zoc.by_class if z.movement_class == cls and z.enter != "stop"), None)


def zoc_model(game) -> Optional[str]:
    return game.rules.zoc.model


def _modified_allowance(look, position, c, leg: Leg, ma: Optional[int], entered) -> tuple[Optional[int], str]:
    """The movement allowance under the tree's `movement_modifiers` whose state the unit is in (`in_state`),
    rounded up where the rules do not say (the reading cheapest for the player); and how it came about, for
    the findings."""
    mods = look.game.rules.movement_modifiers
    if ma is None or not mods:
        return ma, ""
    for m in mods:
        if m.condition is None or not m.condition.state or m.factor is None or \
                not in_state(look, position, c, m.condition.state, leg, entered):
            continue
        v = ma * m.factor
        out = int(v) if v.denominator == 1 else (v.numerator // v.denominator + (m.rounding != "down"))
        return out, f"{ma} x {m.factor} while {', '.join(m.condition.state).upper()}, {m.rule}"
    return ma, ""


def _less_adjacent_moves(look, position, c, leg: Leg, ma: Optional[int], why: str,
                         entered) -> tuple[Optional[int], str]:
    """The allowance less what the unit's moves between hexes next to an enemy unit cost more (`adjacent_move_cost`,
    Ardennes II 1.2: "When starting a Phase adjacent to any enemy unit ... Moving from one such hex to another costs
    +1 MP each time"): where it began the leg next to an enemy, each drag of one hex from such a hex to another
    (a drag of more hexes may go round), the enemies those that stood there before the leg's first drag."""
    rule = look.game.rules.adjacent_move_cost
    points = leg.points()
    if rule is None or ma is None or leg.start is None or len(points) < 2:
        return ma, why
    first = leg.steps[0] if leg.steps else 0
    held = {h for h, units in look.enemies(position, look.side_of(c)).items()
            if any(entered.get(e.piece, 0) < first for e in units)}
    grid = look.grid

    def next_to(h: str) -> bool:
        return any(n in held for n in grid.neighbours(h))
    if not next_to(leg.start):
        return ma, why
    n = sum(1 for x, y in zip(points, points[1:]) if grid.distance(x, y) == 1 and next_to(x) and next_to(y))
    if not n:
        return ma, why
    mp_, rule_no = rule
    more = f"{ma} less {n * mp_} for {n} move(s) from a hex next to an enemy unit to another, {rule_no}"
    return ma - n * mp_, f"{why}; {more}" if why else more


def in_state(look, position, c, states, leg: Optional[Leg], entered) -> bool:
    """The unit is in one of these states: on its piece, or by a marker marking its whole stack that stands in
    the hex its move this phase began in, or in the one it stands in, and came there no earlier than the unit
    (Ardennes II 3.4: DG units "take their DG status with them (but do not give it to other units they later
    stack with)"; a marker placed on the stack marks those in it: `marks`)."""
    if set(states) & c.state:
        return True
    here = position.where(c.piece)
    checks = [(leg.start, leg.since)] if leg is not None and leg.start else []
    if here is not None and here.hex and (leg is None or here.hex != leg.start):
        checks.append((here.hex, entered.get(c.piece, 0)))
    shows, wanted = shown_states(look.game), set(states)
    return any(x.kind == "marker" and marks(position, entered, x, h, since) and
               wanted & shows.get(x.unit, frozenset()) and (k := look.game.marker(x.unit)) is not None and k.whole_stack
               for h, since in checks for x in position.at(h))


def marks(position, entered, x, h: str, since: int) -> bool:
    """A marker in hex h marks a unit that came there at step `since`: it came with the unit, or after it and not
    with other units (placed on the stack); one that came with other units is theirs (3.4: a DG stack moving onto
    a unit does not give it DG), and one there before the unit is not its."""
    s = entered.get(x.piece, 0)
    if s == since:
        return True
    return s > since and not any(y.kind == "unit" and entered.get(y.piece, 0) == s for y in position.at(h))


class MoveReading:
    """A unit's map move (or a reinforcement's entry) read as made in a movement phase: what the
    movement rules judge it with, worked out once per event. `judgeable`: the path can be costed (a
    movement factor, TEC costs for the class); `barred`: (hex, TEC row) where a drag ended in terrain
    prohibited to the class, else None; `cost`: the leg's cost with nothing blocked."""
    __slots__ = ("look", "in_play", "position", "c", "side", "ma", "costs", "leg", "judgeable", "barred", "cost",
                 "_enemy", "_zoc", "_fault", "zoc_level", "splittable", "_leaves", "_left", "zoc_cost", "zoc_free",
                 "overruns", "ma_why")

    def __init__(self, look, in_play, position, c, leg: Leg, zoc_level: str, splittable, leaves, overruns=None,
                 entered=None):
        self.look, self.in_play, self.position, self.c, self.leg = look, in_play, position, c, leg
        self.side, self.ma, self.costs = look.side_of(c), look.allowance(c), look.class_costs(c)
        self.ma, self.ma_why = _modified_allowance(look, position, c, leg, self.ma, entered or {})
        self.ma, self.ma_why = _less_adjacent_moves(look, position, c, leg, self.ma, self.ma_why, entered or {})
        self.zoc_level, self.splittable, self._leaves, self._left = zoc_level, splittable, leaves, False
        self.zoc_cost = _zoc_cost(look, c)
        self.zoc_free = _zoc_free(look, c)
        self.overruns = overruns                # (rule, leaves-in-phase look-up) where moves may be overruns
        self.judgeable = self.ma is not None and self.costs.cheapest is not None
        self.barred = prohibited_end(look, self.costs, leg)
        self.cost: Optional[LegCost] = leg_cost(look, in_play, leg, self.costs) if self.judgeable else None
        self._enemy = self._zoc = None
        self._fault: object = False

    def enemy(self) -> frozenset:
        """The hexes enemy units hold, but the one this drag ends in (HF1202 judges entering it) and, where
        the phase's moves may be overruns, those an earlier drag of the leg ended in (HF1202 judged each
        such drop: an overrun's, or a fault)."""
        if self._enemy is None:
            dst = self.leg.ends[-1]
            held = self.look.enemy_hexes(self.position, self.side)
            self._enemy = held.difference((dst,)) if dst in held else held
            if self.overruns and not self._enemy.isdisjoint(self.leg.ends[:-1]):
                self._enemy = self._enemy.difference(self.leg.ends[:-1])
        return self._enemy

    def zoc(self) -> frozenset:
        if self._zoc is None:
            self._zoc = self.look.zoc_hexes(self.position, self.side)
        return self._zoc

    def onto(self) -> tuple:
        """The enemy units in the hex this drag ends in."""
        return self.look.enemies(self.position, self.side).get(self.leg.ends[-1], ())

    def overrun(self) -> Optional[tuple[str, int, bool]]:
        """A drag into an enemy-held hex read as an overrun's (the attacker enters the defender's hex, where
        the phase's moves may be overruns): (its rule, the step the defender or this unit leaves the hex before
        the phase ends, whether it is the defender), else None."""
        held = self.onto() if self.overruns else ()
        if not held:
            return None
        rule, leaves = self.overruns
        dst = self.leg.ends[-1]
        gone = leaves(dst, {h.piece for h in held})
        if gone is not None:
            return rule, gone, True
        back = leaves(dst, {self.c.piece})
        return (rule, back, False) if back is not None else None

    @property
    def enemy_leaves(self) -> Optional[int]:
        """The step at which an enemy unit of the hex this drag ends in leaves it later in the phase (an overrun,
        a combat result the log applied late; after the phase's end, the two sides shared the hex at it)."""
        if self._left is False:
            held = self.onto()
            self._left = self._leaves(self.leg.ends[-1], {h.piece for h in held}, True) if held else None
        return self._left

    def costed(self, blocked: frozenset = frozenset(), stops: frozenset = frozenset(), extra=None) -> LegCost:
        return leg_cost(self.look, self.in_play, self.leg, self.costs, blocked, stops, extra)

    def free_way_avoids(self, blocked: frozenset, stops: frozenset = frozenset()) -> bool:
        """The cheapest way through the drag ends, found with nothing blocked, is within the allowance,
        enters no hex of `blocked` and goes on through no hex of `stops`: a search kept from those finds
        it too (none cheaper can exist), so the move is legal under them without searching again."""
        if not self.cost.within(self.ma):
            return False
        way = self.cost.free_way(self.look, self.in_play, self.leg, self.costs)
        return way is not None and blocked.isdisjoint(way[0]) and stops.isdisjoint(way[1])

    def within(self, lc: LegCost) -> bool:
        """Within the allowance, or legal if its drags fell in two of the side's movement phases."""
        return lc.within(self.ma) or (lc.total is not None and self.splittable(lc.segs, self.ma))

    @property
    def zoc_certain(self) -> bool:
        return self.zoc_level == CERTAIN

    def zoc_extra(self):
        """For a class a ZOC costs instead of stopping: (the ZOC hexes, what entering one costs more)."""
        return (self.zoc(), self.zoc_cost) if self.zoc_cost is not None else None

    def stopped(self) -> list[str]:
        """Hexes in an enemy ZOC where a drag of the leg ended and the leg went on (an entry hex too)."""
        if self.zoc_cost is not None or self.zoc_free:
            return []                          # the ZOC costs this class, or does not touch the unit
        zoc = self.zoc()
        ends = list(self.leg.ends[:-1])
        if self.leg.start is None and self.cost is not None and self.cost.entry and self.cost.entry != self.leg.ends[-1]:
            ends = [self.cost.entry] + ends
        return [h for h in ends if h in zoc]

    def fault(self) -> Optional[str]:
        """The move's one fault (the first that holds, in the order the rules read them), else None.
        A leg condemned at an earlier step is not condemned again (EARLIER)."""
        if self._fault is False:
            self._fault = self._first_fault()
        return self._fault

    def _first_fault(self) -> Optional[str]:
        if self.leg.faulted is not None:
            return EARLIER
        if self.barred is not None:
            return PROHIBITED
        if not self.judgeable:
            # no allowance or costs to cost a path by; a drag that ended in an enemy ZOC and went on
            # breaks the stop whatever the unit's allowance
            return ZOC if self.zoc_cost is None and self.stopped() else None
        if not self.within(self.cost):
            return WRONG_ENTRY if self.beyond_entry() and self.nearer_another_area() else ALLOWANCE
        if self.onto() and not self.enemy_leaves and self.overrun() is None:
            return ONTO_ENEMY
        enemy = self.enemy()
        if not self.free_way_avoids(enemy) and not self.within(self.costed(blocked=enemy) if enemy else self.cost):
            return THROUGH_ENEMY
        if self._zoc_fault():
            return ZOC
        return None

    def beyond_entry(self) -> bool:
        """A reinforcement's first drag, ending outside its entry area (HF1402 judges it if too far)."""
        e = self.leg.entry
        return self.leg.start is None and len(self.leg.ends) == 1 and e is not None and \
            e.hexes is not None and self.leg.ends[0] not in e.hexes

    def nearer_another_area(self) -> bool:
        """The drag from the box ends nearer another entry area than its own: it came in at the wrong one
        (HF1402); else it came in at its own and went too far (HF1201)."""
        own, end, grid = self.leg.entry.hexes, self.leg.ends[0], self.look.game.grid
        others = [x for a in self.look.game.places.areas if a.kind == "entry" and a.hexes
                  and not own.intersection(a.hexes) for x in a.hexes]
        if not others:
            return False
        def nearest(hexes):
            return min((d for x in hexes if (d := grid.distance(x, end)) is not None), default=None)
        mine, other = nearest(own), nearest(others)
        return mine is None or (other is not None and other < mine)

    def _zoc_fault(self) -> bool:
        zoc = self.zoc()
        if not zoc or self.zoc_free:
            return False                       # no enemy unit on the map: nothing to stop in
        if self.stopped():
            return True
        enemy = self.enemy()
        if self.zoc_cost is not None:
            way = self.cost.free_way(self.look, self.in_play, self.leg, self.costs)
            if self.free_way_avoids(enemy) and way is not None and zoc.isdisjoint(way[0]):
                return False
            return not self.within(self.costed(blocked=enemy, extra=self.zoc_extra()))
        if self.free_way_avoids(enemy, zoc):
            return False
        return not self.within(self.costed(blocked=enemy, stops=zoc))

    def certain(self) -> bool:
        """The fault is certain: an error."""
        f = self.fault()
        return f in (PROHIBITED, WRONG_ENTRY, ALLOWANCE, THROUGH_ENEMY, ONTO_ENEMY) or \
            (f == ZOC and self.zoc_certain and not self.zoc_stop_ends_a_phase())

    def condemns(self) -> bool:
        """The leg is condemned (later drags of it are not judged again): a certain fault, or a ZOC fault
        resting on an assumption the tree declares (a warning, not repeated at each later drag)."""
        return self.certain() or (self.fault() == ZOC and self.zoc_level == ASSUMED and not self.zoc_stop_ends_a_phase())

    def zoc_stop_ends_a_phase(self) -> bool:
        """The one drag that ended in an enemy ZOC may have ended the unit's move of one movement phase, the
        drags after it being its move in a later one (the phase inferred): the stop lasts only for the rest
        of the phase (Meuse 6.2) and a unit starting in a ZOC may leave it (6.3)."""
        stops = [i for i, h in enumerate(self.leg.ends[:-1]) if h in self.zoc()]
        if len(stops) != 1 or len(self.stopped()) != 1:
            return False                       # (an entry hex in a ZOC is within one drag)
        if not self.judgeable:
            return self.splittable(None, None, stops[0])    # no allowance: any split may fit
        if self.cost is None or self.cost.total is None:
            return False
        return self.splittable(self.cost.segs, self.ma, stops[0])


def _zoc_free(look, c) -> bool:
    """An enemy ZOC does not stop the unit: it has a flag of `rules.zoc.ignored_by`."""
    skip = look.game.rules.zoc.ignored_by
    u = look.unit(c) if skip else None
    return bool(u and u.flagged(skip))


def _zoc_cost(look, c) -> Optional[Fraction]:
    """What entering an enemy ZOC hex costs this unit more, where its class pays instead of stopping."""
    z = zoc_class(look.game, look.class_of(c))
    if z is None:
        return None
    u = look.unit(c)
    printed = u.factors.get("movement") if u and u.factors else None
    if z.cost == "half-printed-ma" and printed is not None:
        return Fraction(printed // 2)
    return None


def prohibited_end(look, costs, leg: Leg):
    """(hex, TEC row) where one of the leg's drags ended in a hex whose terrain is prohibited to the
    unit's class, as the tree gives it; None if none did (or the terrain is not known)."""
    key = ("barred", costs.movement_class, leg.ends)
    if key not in look.paths:
        tc = terrain_costs(look.game, costs)
        hit = next(((h, row) for h in leg.ends if (row := tc.prohibited_hex(h)) is not None), None)
        look.paths[key] = hit
    return look.paths[key]


def mp(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def leg_text(leg: Leg, lc: Optional[LegCost] = None) -> str:
    """'A -> B -> C'; a reinforcement's 'enters at E -> B' (E: the entry hex of the cheapest reading)."""
    if leg.start is not None:
        return " -> ".join((leg.start,) + leg.ends)
    entry = lc.entry if lc is not None and lc.entry else None
    ends = leg.ends[1:] if entry and leg.ends[0] == entry else leg.ends
    return f"enters at {entry or 'its entry area'}" + "".join(f" -> {h}" for h in ends)


def enemy_rule(v) -> Optional[str]:
    """The rule that bars a hex an enemy unit holds, where the tree names it, else the movement rule."""
    return v.game.rules.enemy_hex_rule or rule_no(v)


def rule_no(v) -> Optional[str]:
    """The movement rule the tree names, else the rule of the phase the move is made in."""
    if v.game.rules.movement_rule:
        return v.game.rules.movement_rule
    p = v.tracker.phase()
    return p.rule if p else None


def start_hex(leg: Leg, lc: Optional[LegCost]) -> tuple[str, ...]:
    h = leg.start or (lc.entry if lc is not None else None)
    return (h,) if h else ()


def _entry_text(v, mv: MoveReading) -> str:
    """What entering cost, where the leg is a reinforcement's (11.2: its entry hex is its first move)."""
    lc = mv.cost
    if mv.leg.start is not None or lc is None or not lc.entry or lc.total is None:
        return ""
    first = lc.segs[0][0]
    return f": {mp(first)} MP to enter {lc.entry} and {mp(lc.total - first)} MP from there"


def combat_judges_retreats(game) -> bool:
    """Every combat table says how retreats and advances go (`after_combat`): the combat referee judges
    the moves after a roll, so their length is verified there."""
    tables = [t for t in game.tables if t.kind == "combat"]
    return bool(tables) and all(t.after_combat is not None and t.after_combat.retreat for t in tables)


def _unjudged_after_combat(v, piece: str) -> Optional[str]:
    """Why a drag read as after the last roll is not judged with its battle (the combat rules judge retreats
    and advances only with their battle's units), else None."""
    rolls, battles = v.ledger.rolls, v.ledger.battles
    if not rolls:
        return "a roll made before the log began (its battle is not in this log): the move is not judged"
    last = rolls[-1].step
    b = battles[-1] if battles and battles[-1].step == last else None
    if b is None:
        return f"the roll {at_step(last)}, for which no battle was read: the move is not judged"
    judged = b.verdict in ("legal", "violation", "unlikely")
    if judged and (piece in b.attackers or piece in b.possible or piece in b.defenders
                   or any(p == piece for p, _ in b.advances)):
        return None                        # its battle judges it (an advance by a unit not in it: HF1509)
    if any(piece in e.claimed and e.verdict in ("legal", "violation", "unlikely") for e in battles
           if e.results_after == last):
        return None                        # an earlier roll's battle whose results are shown after this roll
    if judged:
        return (f"the roll {at_step(last)}, but it is not a unit of that battle (against {b.hex}): the move is not "
                "judged as its retreat or advance")
    return f"the roll {at_step(last)}, whose battle the referee could not judge: the move is not judged"


@rule("HF1201", "move-beyond-allowance", "error",
      "a unit spends at most its movement allowance in a phase; split the move or pick a nearer hex",
      events=(Moved, Placed), read_as=("move", "after-combat", "before-combat", "entry"))
def move_beyond_allowance(v) -> Optional[Verdict]:
    """A unit spends more movement points in one phase than its movement allowance.

    ## What it checks
    The cheapest path through every hex a unit's drags ended in this phase (a reinforcement's from
    the cheapest hex of its entry area, whose entry costs its terrain) costs more movement points
    than the unit's movement factor in its current state.
    ## Why
    Every unit may spend movement points up to its movement factor in its side's movement phase;
    unused points are lost (Crossing the Meuse 4.1, 11.2). VASSAL drags show only where a unit went,
    so the referee takes the cheapest way the map allows.
    ## Reads
    the unit's `movement` factor (`counters.yaml`, the reduced side's when reduced), the TEC costs of
    its movement class (`tec.yaml`), the map's terrain, roads, tracks and hexsides (`terrain.yaml`),
    `rules.movement_rule`; entry areas (`places.yaml`) for a reinforcement.
    ## Violation
    Meuse: Red 10th Rifle Regiment (leg, MA 4) dragged B8.16 -> B5.12: six clear hexes, no road,
    at least 6 MP.
    ## Near miss
    The same unit dragged B8.16 -> B8.12 (4 clear hexes, exactly 4 MP); or a drag that is legal only if
    it fell in two of the side's movement phases (a note, not an error).
    """
    ev = v.event
    c = ev.counter
    if v.read_as == "before-combat":
        rbc, retreat = v.game.rules.combat.retreat_before_combat, v.reading[1] == "retreat"
        what = "a retreat before combat" if retreat else "an advance after a retreat before combat"
        hexes = f": {rbc.hexes} hexes" if rbc.hexes and retreat else ""
        return partly(f"{v.label(c)} {ev.src} -> {ev.dst} is read as {what} (the defender's choice instead of a "
                      f"roll, {rbc.rule}{hexes}); its length is not verified")
    if v.read_as == "after-combat":
        if not combat_judges_retreats(v.game):
            return partly(f"{v.label(c)} {ev.src} -> {ev.dst} after a die roll in a combat phase is read as a "
                          "retreat or an advance after combat; its length is not verified")
        why = _unjudged_after_combat(v, c.piece)
        return partly(f"{v.label(c)} {ev.src} -> {ev.dst} is read as a retreat or an advance after {why}") if why else None
    mv = v.move
    if mv is None:
        return None
    if not mv.judgeable:
        return partly(f"{v.label(c)}: movement " + ("factor not printed" if mv.ma is None else
                                                    "costs not printed in the TEC") + "; path not judged")
    notes = () if zoc_model(v.game) in (None, "none", "standard") else (v.facts.zoc_reading[1],)
    fault = mv.fault()
    lc, leg, ma = mv.cost, mv.leg, mv.ma
    if fault in (EARLIER, PROHIBITED, WRONG_ENTRY):
        return partly(*notes) if notes else None
    if lc.within(ma):
        return partly(*notes, cheapest_assumed(mv.costs)) if not lc.known() else (partly(*notes) if notes else None)
    if fault != ALLOWANCE:                             # legal only as drags of two phases
        return found(Finding(
            message=f"{v.label(c)} {_moves(leg)}{leg_text(leg, lc)} ({mp(lc.total)} MP at least, MA {ma}): legal only if "
                    "its drags fell in two movement phases", severity="info",
            hexes=start_hex(leg, lc) + (leg.ends[-1],), units=(v.label(c),), rule=rule_no(v)), partly=notes)
    return found(Finding(
        message=f"{v.label(c)} (MA {_ma(mv)}) {_moves(leg)}{leg_text(leg, lc)} in one phase: {_cost_text(v, mv)}"
                f"{_entry_text(v, mv)}, over its movement allowance of {ma}{_barred_way(v, mv) if lc.total else ''}",
        hexes=start_hex(leg, lc) + (leg.ends[-1],), units=(v.label(c),), rule=rule_no(v)), partly=notes)


def _ma(mv: MoveReading) -> str:
    return f"{mv.ma}: {mv.ma_why}" if mv.ma_why else str(mv.ma)


def _moves(leg: Leg) -> str:
    return "moves " if leg.start is not None else ""


def cheapest_assumed(costs) -> str:
    return ("terrain not printed for every hex or hexside of the path: the TEC's cheapest cost "
            f"({mp(costs.cheapest)} MP per hex) assumed there")


def _cost_text(v, mv: MoveReading) -> str:
    lc, costs = mv.cost, mv.costs
    if lc.total is None:
        out = [h for h in mv.leg.points() if mv.in_play is not None and not mv.in_play(h)]
        if out:
            sc = v.scenario
            return (f"{', '.join(out)} lies outside the play area of scenario {sc.id}"
                    f"{f' ({sc.rule})' if sc.rule else ''}: no path in it joins them")
        return "no path on the map joins them" + _barred_way(v, mv)
    if map_complete(v.game):
        return f"the cheapest path costs {mp(lc.total)} MP (the map's terrain, roads and hexsides)"
    hexes = int(lc.total / costs.cheapest)
    return f"{hexes} hexes cost at least {mp(lc.total)} MP even at the cheapest {mp(costs.cheapest)} MP per hex"


def _barred_way(v, mv: MoveReading) -> str:
    """Why the way is long or there is none: the hexside or hex prohibited to the class that the straight
    line of a drag meets (a river without a bridge, for a mechanized unit), where it meets one."""
    tc = terrain_costs(v.game, mv.costs)
    points = mv.leg.points()
    for a, b in zip(points, points[1:]):
        line = v.grid.line(a, b)
        for x, y in zip(line, line[1:]):
            step = tc.enter(x, y)
            if step.mp is None and step.why is not None:
                what = "hexside" if step.why.kind == "hexside" else "hex"
                return (f"; the straight way crosses the {step.why.name.lower()} {what} {x}|{y}, prohibited to "
                        f"{mv.costs.movement_class} units" + (f" ({step.why.rule})" if step.why.rule else ""))
    return ""


@rule("HF1206", "move-into-prohibited-terrain", "error",
      "a unit never enters a hex whose terrain the TEC prohibits to its movement class",
      events=(Moved, Placed), read_as=("move", "after-combat", "before-combat", "unread", "entry"))
def move_into_prohibited_terrain(v) -> Optional[Verdict]:
    """A unit ends a drag in a hex whose terrain is prohibited to its movement class.

    ## What it checks
    A move, a retreat or advance, or a reinforcement's entry ends in a hex whose terrain the TEC
    prohibits to the unit's movement class, where the tree's map says so and no road or track of the
    map leads into the hex.
    ## Why
    A unit may not enter a hex, or cross a hexside, that is prohibited to its class (Meuse 4.3, 7.2).
    ## Reads
    `terrain.yaml` (the hex's terrain), `tec.yaml` (the class's cell: `P`), the unit's movement class.
    ## Violation
    Meuse: Blue 2nd Light Mechanised Tank Battalion (mechanized) dragged A9.09 -> A6.13, a marsh hex.
    ## Near miss
    A leg unit dragged into the same marsh hex (marsh costs leg units 3 MP), or a mechanized unit
    into the clear hex A6.12 beside it.
    """
    ev = v.event
    if not (ev.counter.kind == "unit" and _lands(ev)):
        return None
    c = ev.counter
    mv = v.move
    if mv is not None and mv.fault() != PROHIBITED:
        return None
    if mv is not None:
        (h, row), leg = mv.barred, mv.leg
        how, start = f"{_moves(leg)}{leg_text(leg, mv.cost)}", start_hex(leg, mv.cost)
    else:
        hit = _prohibited_hex(v, c, _dst(ev))
        if hit is None:
            return None
        h, row = hit
        src = ev.src.hex if isinstance(ev, Moved) else None
        if src is None:
            how, start = f"enters the map at {h}", ()
        else:
            how, start = f"moves {ev.src} -> {ev.dst} (after a combat roll: a retreat or an advance)", (src,)
    cls = v.class_of(c)
    return found(Finding(message=f"{v.label(c)} ({cls}) {how}: {h} is {row.name.lower()}, prohibited to {cls} units",
                         hexes=start + (h,), units=(v.label(c),), rule=row.rule or rule_no(v)))


def _lands(ev) -> bool:
    return (isinstance(ev, Moved) and ev.dst.hex is not None) or (isinstance(ev, Placed) and ev.where.hex is not None)


def _dst(ev) -> str:
    return ev.dst.hex if isinstance(ev, Moved) else ev.where.hex


def _prohibited_hex(v, c, h: str):
    row = terrain_costs(v.game, v.class_costs(c)).prohibited_hex(h)
    return (h, row) if row is not None else None


@rule("HF1202", "move-onto-enemy", "error", "a unit never enters a hex held by an enemy unit",
      events=(Moved, Placed), read_as=("move", "entry"))
def move_onto_enemy(v) -> Optional[Verdict]:
    """A unit is dragged into a hex an enemy unit holds.

    ## What it checks
    In a movement phase, a drag (or a reinforcement's entry) ends in a hex held by units of another
    side. Where the enemy leaves that hex later in the same phase (an overrun, a combat result the log
    applied late), a warning instead; where the phase's moves may be overruns
    (`rules.combat.retreat_before_combat.overrun`, a phase with moves and combat) and the defender or the
    unit leaves the hex before the phase ends, a note (the overrun's attacker entered the defender's hex).
    ## Why
    A unit may move through friendly units but may never enter a hex holding an enemy unit (Meuse 4.4). A
    reinforcement whose way in the tree cannot cost (a drop, entry hexes not printed) is judged by the hex it
    lands in: Bulge 6.7, 40.6 (von der Heydte dropped onto the Allied unit holding JJ6).
    ## Reads
    the position (which side each counter is on: the piece's, else its unit's in `counters.yaml`).
    ## Violation
    Ardennes II: German 753rd VG Regiment dragged B27.51 -> B27.49, onto the US 2nd Division's
    9th Infantry.
    ## Near miss
    The same unit dragged into B27.50, next to the US unit (a ZOC hex, where it must stop); a German unit
    dragged onto a US unit in the Movement & Barrage Phase (an overrun, 3.3) that retreats before combat.
    """
    mv = v.move
    if mv is None:
        return _entry_onto_enemy(v)
    held = mv.onto()
    if not held:
        return None
    ev = v.event
    names = ", ".join(f"{v.side_name(v.side_of(h))} {v.label(h)}" for h in held)
    over = mv.overrun()
    if over is not None:                       # an overrun's attacker in the defender's hex: legal
        rule, at, theirs = over
        return partly(f"{v.label(ev.counter)} dragged into {mv.leg.ends[-1]}, held by {names}, is read as an "
                      f"overrun ({rule}): {'the defender' if theirs else 'the unit'} leaves the hex at step {at}")
    src = ev.src if isinstance(ev, Moved) else "off the map"
    return _onto_enemy(v, f"moves {src} -> {mv.leg.ends[-1]}", mv.leg.ends[-1], held, mv.enemy_leaves)


def _entry_onto_enemy(v) -> Optional[Verdict]:
    """A reinforcement whose way in the tree cannot cost (its entry hexes not printed: a drop, a box), brought
    onto a hex an enemy holds: whatever its way, it ends there."""
    ev = v.event
    if v.read_as != "entry" or ev.counter.kind != "unit":
        return None
    dst = ev.dst.hex if isinstance(ev, Moved) else ev.where.hex
    held = v.look.enemies(v.position, v.side_of(ev.counter)).get(dst, ()) if dst else ()
    if not held:
        return None
    return _onto_enemy(v, f"enters at {dst}", dst, held,
                       first_leaving(v.steps_after(), dst, {h.piece for h in held}, v.tracker.ends_phase))


def _onto_enemy(v, what: str, dst: str, held, left: Optional[int]) -> Verdict:
    """HF1202's finding: the unit `what` (moves a -> b, enters at b) into dst, held by `held`; a warning where
    the enemy left it later (`left`: that step)."""
    names = ", ".join(f"{v.side_name(v.side_of(h))} {v.label(h)}" for h in held)
    rbc = v.game.rules.combat.retreat_before_combat
    why = "an overrun or a combat result applied late?" if rbc is not None and rbc.overrun else \
        "a combat result applied late?"
    tail = f"; the enemy left the hex at step {left}, before the phase ended ({why})" if left else ""
    return found(Finding(message=f"{v.label(v.event.counter)} {what}, a hex held by {names}{tail}", hexes=(dst,),
                         units=(v.label(v.event.counter),) + tuple(v.label(h) for h in held),
                         severity="warning" if left else None, rule=enemy_rule(v)))


@rule("HF1203", "path-through-enemy", "error", "units never move through hexes held by enemy units",
      events=(Moved, Placed), read_as=("move", "entry"))
def path_through_enemy(v) -> Optional[Verdict]:
    """Every path a move could have taken passes through a hex an enemy unit holds.

    ## What it checks
    The cheapest path through the hexes the unit's drags ended in is within its allowance only if it
    passes through an enemy-held hex; avoiding every enemy-held hex, no path is.
    ## Why
    A unit may never enter a hex holding an enemy unit, on its way or at its end (Meuse 4.4).
    ## Reads
    the position, the TEC and map costs as HF1201 does.
    ## Violation
    Meuse: a Red tank dragged from B2.09 to A15.09 across the Montvaux bridge while Blue holds B1.10,
    the bridge's east end: the only way within 8 MP runs through B1.10.
    ## Near miss
    The same drag once B1.10 is empty, or a drag whose way round the enemy hex is within the allowance.
    """
    mv = v.move
    if mv is None or mv.fault() != THROUGH_ENEMY:
        return None
    c, leg, ma = mv.c, mv.leg, mv.ma
    route = _free_route_text(v, mv)
    return found(Finding(message=f"{v.label(c)} (MA {_ma(mv)}) {_moves(leg)}{leg_text(leg, mv.cost)}: every path within its "
                                 f"allowance passes through an enemy-held hex{route}",
                         hexes=start_hex(leg, mv.cost) + (leg.ends[-1],), units=(v.label(c),), rule=enemy_rule(v)))


def _free_route_text(v, mv: MoveReading) -> str:
    """The enemy-held hex the cheapest way (nothing blocked) passes, and what avoiding them costs."""
    points = mv.leg.points()
    held = mv.enemy()
    hit = None
    for a, b in zip(points, points[1:]):
        route = cheapest_route(v.look, v.facts.in_play, a, b, mv.costs)
        hit = next((h for h in route[1:] if h in held), None)
        if hit:
            break
    around = mv.costed(blocked=held)
    cost = f"; avoiding enemy-held hexes the cheapest way costs {mp(around.total)} MP" if around.total is not None \
        else "; avoiding enemy-held hexes no way joins them"
    return (f" (the cheapest way runs through {hit}, held by "
            f"{', '.join(v.label(e) for e in v.enemies(mv.side).get(hit, ()))})" if hit else "") + cost + \
        _barred_way(v, mv)


@rule("HF1204", "path-through-enemy-zoc", "error",
      "a unit entering an enemy ZOC stops there; go around the ZOC or end the move in it",
      events=(Moved, Placed), read_as=("move", "entry"))
def path_through_enemy_zoc(v) -> Optional[Verdict]:
    """A unit goes on after entering a hex in an enemy zone of control.

    ## What it checks
    Under the standard ZOC model, a drag ended in a hex next to an enemy unit and the unit was dragged
    on (or a reinforcement entered at such a hex and went on), or every path within the allowance
    goes on through such a hex. Where the tree does not say which units exert a ZOC, a note; where the
    phase is inferred and the one drag ending in the ZOC may have ended the unit's move of one movement
    phase (the drags after it a later one's), a note: the stop lasts only for the rest of the phase.
    ## Why
    A unit that enters an enemy ZOC hex must stop there for the rest of the phase (Meuse 6.2, 11.2); a
    unit that starts its move in an enemy ZOC may leave it (6.3).
    ## Reads
    `rules.zoc` (model, `exerted_by`, `blocked_by`, its rule), the position, the map costs.
    ## Violation
    Meuse: Red 1st Reconnaissance Battalion B1.03 -> A16.01 over the Hautrive bridge: it must pass
    A16.02, in the ZOC of Blue's 8th Infantry in A15.03.
    ## Near miss
    A unit that starts next to an enemy unit and moves away (6.3), or one that ends its move in the ZOC.
    """
    if zoc_model(v.game) != "standard":
        return None
    mv = v.move
    if mv is None or mv.fault() != ZOC:
        return None
    c, leg, ma = mv.c, mv.leg, mv.ma
    level, why = v.facts.zoc_reading
    certain = level == CERTAIN
    rule_n = v.game.rules.zoc.rule
    doubt = dict(severity=None if certain else "warning" if level == ASSUMED else "info",
                 help=None if certain else f"check the counters and the map: the tree assumes what this ZOC rests "
                                           f"on" if level == ASSUMED else "not verified: the tree does not say "
                                                                          "enough to judge this ZOC stop")
    stopped = mv.stopped()
    if stopped and mv.zoc_stop_ends_a_phase():
        return found(Finding(
            message=f"{v.label(c)} ended a drag in {stopped[0]}, in an enemy ZOC, and was dragged on to "
                    f"{leg.ends[-1]}: legal only if its drags fell in two movement phases", severity="info",
            hexes=(stopped[0], leg.ends[-1]), units=(v.label(c),), rule=rule_n))
    if stopped:
        how = (f"entered the map at {stopped[0]}" if leg.start is None and mv.cost is not None
               and stopped[0] == mv.cost.entry else f"ended a drag in {stopped[0]}")
        return found(Finding(
            message=f"{v.label(c)} {how}, in an enemy ZOC where it had to stop, and was "
                    f"dragged on to {leg.ends[-1]}" + ("" if certain else f" (legal only if no enemy unit there "
                                                                           f"exerts a ZOC: {why})"),
            hexes=(stopped[0], leg.ends[-1]), units=(v.label(c),), rule=rule_n, **doubt))
    if mv.zoc_cost is not None:
        return found(Finding(
            message=f"{v.label(c)} (MA {_ma(mv)}) {_moves(leg)}{leg_text(leg, mv.cost)}: every path within its allowance "
                    f"enters an enemy ZOC, and entering one costs it {mp(mv.zoc_cost)} MP more (half its printed "
                    f"movement factor): {_zoc_cost_text(mv)}" + ("" if certain else f" (legal only if those enemy "
                                                                                   f"units exert no ZOC: {why})"),
            hexes=start_hex(leg, mv.cost) + (leg.ends[-1],), units=(v.label(c),), rule=_zoc_class_rule(v, mv) or rule_n,
            **doubt))
    passed = _zoc_passed(v, mv)
    return found(Finding(
        message=f"{v.label(c)} (MA {_ma(mv)}) {_moves(leg)}{leg_text(leg, mv.cost)}: every path within its allowance goes on "
                "through a hex in an enemy ZOC" + _passed_text(v, mv, passed) + _barred_way(v, mv) +
                ("" if certain else f" (legal only if those enemy units exert no ZOC: {why})"),
        hexes=start_hex(leg, mv.cost) + passed + (leg.ends[-1],), units=(v.label(c),), rule=rule_n, **doubt))


def _zoc_cost_text(mv: MoveReading) -> str:
    lc = mv.costed(blocked=mv.enemy(), extra=mv.zoc_extra())
    return f"the cheapest way costs {mp(lc.total)} MP" if lc.total is not None else "no way joins them"


def _zoc_class_rule(v, mv: MoveReading) -> Optional[str]:
    z = zoc_class(v.game, v.class_of(mv.c))
    return z.rule if z else None


def _zoc_passed(v, mv: MoveReading) -> tuple[str, ...]:
    """The enemy-ZOC hexes a cheapest way through the leg's drag ends passes on through."""
    points = mv.leg.points() if mv.leg.start else ((mv.cost.entry,) + mv.leg.ends if mv.cost.entry else mv.leg.ends)
    out: list[str] = []
    zoc, enemy = mv.zoc(), mv.enemy()
    for x, y in zip(points, points[1:]):
        route = cheapest_route(v.look, v.facts.in_play, x, y, mv.costs, blocked=enemy)
        out.extend(h for h in route[1:-1] if h in zoc and h not in out)
    return tuple(out)


def _passed_text(v, mv: MoveReading, passed: tuple[str, ...]) -> str:
    if not passed:
        return ""
    h = passed[0]
    by = [v.label(e) for x, es in v.enemies(mv.side).items() if x in v.grid.neighbours(h) for e in es]
    return f"; the cheapest way goes on through {h}" + (f", in the ZOC of {', '.join(sorted(by))}" if by else "")


@rule("HF1205", "move-legal-only-by-road", "warning",
      "check the map: this move is legal only along roads (or the cheapest terrain) the tree does not print",
      events=(Moved,), read_as=("move",))
def move_legal_only_by_road(v) -> Optional[Verdict]:
    """A move is within the allowance only if much of it ran along roads the tree does not print.

    ## What it checks
    Where the tree does not print the map's terrain, a move whose hexes would cost more than the
    allowance at the class's plain (off-road) cost, and less only at the TEC's cheapest (road) cost.
    ## Why
    The referee takes the cheapest reading where the map is not printed (the first law); a move that
    needs many hexes of road is worth a player's look at the map (seed games: Aachen, Ardennes II).
    ## Reads
    the TEC's cheapest and plain costs of the unit's class, its movement factor; only where
    `terrain.default` is not set.
    ## Violation
    Ardennes II: a German infantry unit (MA 8) moves 12 hexes in one phase: legal only if at least 8 of
    them are entered at 1/2 MP (road).
    ## Near miss
    The same unit moving 8 hexes (within its allowance at 1 MP a hex), or any move on a map whose
    terrain the tree prints (Meuse), where roads are costed exactly.
    """
    if map_complete(v.game):
        return None                            # where the map is given, its roads are costed exactly
    mv = v.move
    if mv is None or mv.cost is None or not mv.costs.road_saves or mv.certain() or mv.fault() == EARLIER:
        return None
    c, leg, ma, costs, lc = mv.c, mv.leg, mv.ma, mv.costs, mv.cost
    if lc.total is None or lc.within_plain(ma, costs):
        return None
    hexes = lc.hexes(costs)
    need = math.ceil((hexes * costs.plain - ma) / (costs.plain - costs.cheapest))
    return found(Finding(
        message=f"{v.label(c)} (MA {_ma(mv)}) {_moves(leg)}{leg_text(leg, lc)}, {hexes} hexes: {mp(lc.total)} MP at the cheapest, "
                f"legal only if at least {need} of them are entered at {mp(costs.cheapest)} MP (road); "
                f"at {mp(costs.plain)} MP a hex it would cost {mp(hexes * costs.plain)} MP",
        hexes=start_hex(leg, lc) + (leg.ends[-1],), units=(v.label(c),), rule=costs.cheapest_rule or rule_no(v)))


def splits_in_two(tracker, leg: Leg, side, cls):
    """A test whether a leg's drags could fall in two of the side's movement phases, each within the
    allowance (where the phase is inferred and a later phase lets the unit move). A reinforcement's
    entry cost (the first of its leg's costs) is paid in the first."""
    def test(segs, ma, at: Optional[int] = None) -> bool:
        """`at`: only the split after the drag ending at the leg's end number `at` (0-based). `segs` None: the
        allowance is not known, and any split of the drags may be within it."""
        if segs is None:
            return not tracker.pinned() and leg.phase is not None and tracker.later_phase_for(leg.phase, side, cls)
        if leg.start is None:
            segs = [_joined(segs[0], segs[1])] + list(segs[2:]) if len(segs) > 1 else segs
        if len(segs) < 2 or tracker.pinned() or leg.phase is None or \
                not tracker.later_phase_for(leg.phase, side, cls):
            return False
        for k in (range(1, len(segs)) if at is None else (at + 1,)):
            a, b = total(segs[:k]), total(segs[k:])
            if a is not None and b is not None and a <= ma and b <= ma:
                return True
        return False
    return test


def _joined(a, b):
    return None if a is None or b is None else (a[0] + b[0], a[1] and b[1])
