"""Retreats and advances after a battle, judged as the combat table's `after_combat` data says.

A retreat of N hexes goes hex by hex, each hex farther from the hex the unit retreated from, and ends
exactly (or at most) N hexes away; it never enters what `avoids` names (enemy units, enemy ZOC, terrain
or hexsides prohibited to the unit's movement class, a hex already at the stacking limit at its end).
An advance enters the vacated defender hex first and goes at most N hexes. Only what is certain is
judged: where the tree leaves a hex's terrain, a ZOC or a unit's side open, a path counts as possible
for the retreat actually made and as blocked when asking whether a retreat could have been made. Where
the phase is inferred, a unit's drags after the roll may run on into a later phase that lets it move
(`AfterBattle.later`): only what a reading of the battle needs of them is judged. Nothing here names a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..source.model import AfterCombat, Game, SideEffect
from ..positions.position import Position
from ..positions.stacking import side_of
from .combat_terrain import map_known, side_features
from .costs import kept_class_costs
from .movement import zoc_certainty

YES, NO, UNKNOWN = "yes", "no", "unknown"
NO_ZOC = "no-zoc"                              # a unit flag: exerts no ZOC
NON_COMBAT = "non-combat"
LENIENT, STRICT = "lenient", "strict"          # doubt lets a path pass / doubt blocks it


@dataclass
class RetreatMap:
    """Where retreats from the position at the roll may go; `after` is the position once the battle's
    events are applied (a hex with room then had room at every earlier moment of the battle)."""
    game: Game
    position: Position
    after: Position
    rules: AfterCombat
    moment: Optional[Callable[[int], Position]] = None   # step -> the position once its events are applied
    _cache: dict = field(default_factory=dict)

    def _side(self, piece: str) -> Optional[str]:
        c = self.position.counter(piece)
        return side_of(self.game, c) if c is not None else None

    def _others(self, side: Optional[str], mode: str) -> tuple[set[str], set[str]]:
        """Hexes holding enemy units, and hexes in their ZOC, under a mode (one pass over the position per
        side and mode, kept for the battle's later questions)."""
        key = ("others", side, mode)
        if key not in self._cache:
            self._cache[key] = self._read_others(side, mode)
        return self._cache[key]

    def _read_others(self, side: Optional[str], mode: str) -> tuple[set[str], set[str]]:
        enemy, zoc = set(), set()
        z = self.game.rules.zoc
        zoc_certain = zoc_certainty(self.game)[0]         # an assumed ZOC condemns no retreat
        for c, w in self.position.units():
            if not w.hex or c.kind != "unit":
                continue
            u = self.game.unit(c.unit)
            s = side_of(self.game, c)
            if s == side and side is not None:
                continue
            if (s is None or side is None) and mode == LENIENT:
                continue                     # a unit of no known side may be a friend
            if u and NON_COMBAT in u.flags and mode == LENIENT:
                continue
            enemy.add(w.hex)
            if not zoc_certain and mode == LENIENT:
                continue
            if u and NO_ZOC in u.flags and mode == LENIENT:
                continue
            blockers = set(z.blocked_by) if z else set()
            for n in self.game.grid.neighbours(w.hex):
                if not (blockers and side_features(self.game, w.hex, n) & blockers):
                    zoc.add(n)
        return enemy, zoc

    def _barred(self, piece: str) -> Optional[frozenset[str]]:
        """Terrain ids the unit may not enter or cross in a retreat; None when the tree cannot tell (kept for
        the battle's later questions)."""
        if "prohibited_terrain" not in self.rules.avoids:
            return frozenset()
        key = ("barred", piece)
        if key not in self._cache:
            self._cache[key] = self.class_barred(piece)
        return self._cache[key]

    def class_barred(self, piece: str) -> Optional[frozenset[str]]:
        """Terrain ids prohibited to the unit's movement class; None when the tree cannot tell."""
        c = self.position.counter(piece)
        u = self.game.unit(c.unit) if c else None
        if u is None or u.movement_class is None or self.game.tec is None or not map_known(self.game):
            return None
        return kept_class_costs(self.game, u.movement_class).prohibited

    def ends(self, piece: str, n: int) -> Optional[frozenset[str]]:
        """The hexes a retreat of n hexes could surely end in (every doubt blocks: whether it could retreat at
        all); None when the tree cannot tell (the map or the unit's movement class is not known)."""
        key = (piece, n)
        if key not in self._cache:
            self._cache[key] = self._ends(piece, n)
        return self._cache[key]

    def _ends(self, piece: str, n: int) -> Optional[frozenset[str]]:
        w = self.position.where(piece)
        if w is None or not w.hex or self._barred(piece) is None:
            return None
        grid, origin = self.game.grid, w.hex
        layer, reached = {origin}, set()
        for k in range(1, n + 1):
            layer = {nb for h in layer for nb in grid.neighbours(h)
                     if grid.distance(origin, nb) == k and self._entry_fault(piece, h, nb, STRICT) is None}
            reached |= layer
        out = layer if self.rules.retreat == "exactly" else reached
        if "overstack" in self.rules.avoids:
            out = {h for h in out if not self._full(h, piece)}
        return frozenset(out)

    def drag_fault(self, piece: str, origin: str, frm: str, to: str) -> Optional[str]:
        """Why one drag of a retreat from `origin`, from `frm` to `to`, goes where no retreat goes: into what
        `avoids` names (an enemy unit's hex, an enemy ZOC, a hex or hexside prohibited to the unit; only what
        is certain), or a hex not farther from `origin` than the one before; a drag over several hexes, by no
        way of that many hexes each farther and clear of them. None: some way fits."""
        grid = self.game.grid
        if not (origin and frm and to):
            return None
        base, d, k = grid.distance(origin, frm), grid.distance(origin, to), grid.distance(frm, to)
        if base is None or d is None or not k:
            return None
        why = self._hex_fault(piece, frm if k == 1 else None, to)
        if why is None and d - base != k:
            why = (f"{to} is no farther from {origin} than {frm}" if d <= base else
                   f"{to} is {k} hexes from {frm} but only {d - base} farther from {origin}: each hex of a retreat "
                   "is farther")
        if why is None and k > 1:
            layer = {frm}
            for j in range(1, k + 1):
                layer = {nb for h in layer for nb in grid.neighbours(h) if grid.distance(origin, nb) == base + j
                         and grid.distance(nb, to) == k - j and self._hex_fault(piece, h, nb) is None}
            if to not in layer:
                why = (f"every way of {k} hexes from {frm} to {to} enters "
                       f"{' or '.join(self._avoided()) or 'a barred hex'}")
        return why

    def _hex_fault(self, piece: str, frm: Optional[str], h: str) -> Optional[str]:
        """Why a retreat may not enter h (from `frm`, across their hexside, where given), on what is certain."""
        return self._entry_fault(piece, frm, h, LENIENT)

    def _entry_fault(self, piece: str, frm: Optional[str], h: str, mode: str) -> Optional[str]:
        """Why a retreat may not enter h (from `frm`, across their hexside, where given), doubt passing
        (LENIENT) or blocking (STRICT)."""
        enemy, zoc = self._others(self._side(piece), mode)
        barred = self._barred(piece) or frozenset()
        avoids = self.rules.avoids
        if "enemy_units" in avoids and h in enemy:
            return f"{h} holds an enemy unit"
        if "enemy_zoc" in avoids and h in zoc:
            return f"{h} is in an enemy ZOC"
        if barred and set(self.game.hex_terrain(h)) & barred:
            return f"{h} is prohibited to the unit"
        if barred and frm is not None and side_features(self.game, frm, h) & barred:
            return f"the hexside {frm}|{h} is prohibited to the unit"
        return None

    def _avoided(self) -> list[str]:
        said = {"enemy_units": "an enemy unit's hex", "enemy_zoc": "an enemy ZOC",
                "prohibited_terrain": "a hex or hexside prohibited to the unit"}
        return [said[a] for a in self.rules.avoids if a in said]

    def overstacked(self, piece: str, h: str, step: Optional[int]) -> Optional[str]:
        """Why a retreat may not end in h at that step: the hex then holds as many other units as the stacking
        limit allows (where `avoids` names overstack and the limit counts units; the moment must be known)."""
        limit = self.game.rules.stacking.limit
        if "overstack" not in self.rules.avoids or limit is None or self.game.rules.stacking.counts != "units" \
                or step is None or self.moment is None:
            return None
        here = [c for c in self.moment(step).at(h) if c.kind == "unit" and c.piece != piece]
        if len(here) < limit:
            return None
        names = ", ".join(u.name if (u := self.game.unit(c.unit)) else c.unit for c in here)
        return f"{h} already holds {len(here)} other units ({names}), the stacking limit"

    def _full(self, hex_id: str, piece: str) -> bool:
        limit = self.game.rules.stacking.limit
        if limit is None:
            return False
        here = [c for c in self.after.at(hex_id) if c.kind == "unit" and c.piece != piece]
        if self.game.rules.stacking.counts != "units":
            return bool(here)                # steps counted: any unit there may fill it
        return len(here) >= limit


@dataclass(frozen=True)
class AfterBattle:
    """One reading's retreats and advances: who moved where after the roll, and who attacked. `paths`:
    per piece that moved, the hex each of its drags ended in and that drag's step; `movers`: the phasing
    pieces that moved (attackers of the reading or not)."""
    map: RetreatMap
    defender_hex: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    moves: dict                                # piece -> its hex at the end of the battle's events
    removed: frozenset[str]
    paths: dict = field(default_factory=dict)  # piece -> ((hex, step), ...), the drags after the roll
    movers: tuple[str, ...] = ()
    adjacent: frozenset = frozenset()          # the phasing pieces next to the defender's hex
    used: frozenset = frozenset()              # the pieces that attacked earlier in the phase (attack_once)
    later: frozenset = frozenset()             # pieces whose drags may be a later phase's moves (phase inferred)

    def route(self, piece: str) -> str:
        """Where a piece went after the roll: its hex, then each drag's end."""
        return " -> ".join([self._origin(piece) or "?"] + [h for h, _ in self.paths.get(piece) or ()])

    def displaced(self, piece: str) -> bool:
        """A unit not in the battle moved one hex by one drag, where a retreat may displace friendly units and
        another unit's drag after the battle entered the hex it left (the retreat that displaced it)."""
        path = self.paths.get(piece) or ()
        origin = self._origin(piece)
        return bool(self.rules.displaces) and len(path) == 1 and origin is not None \
            and self.map.game.grid.distance(origin, path[0][0]) == 1 \
            and any(q != piece and any(h == origin for h, _ in p) for q, p in self.paths.items())

    def why_not_attacker(self, piece: str) -> str:
        if piece not in self.adjacent:
            return f"it did not stand next to {self.defender_hex}"
        if piece in self.used:
            return "it attacked earlier in the phase"
        return "no reading of the battle with it attacking fits the result"

    def key(self) -> tuple:
        """What a cell's fit depends on beyond the losses: the battle's hex and who attacked."""
        return (self.defender_hex,) + tuple(sorted(self.attackers))

    @property
    def rules(self) -> AfterCombat:
        return self.map.rules

    def _origin(self, piece: str) -> Optional[str]:
        w = self.map.position.where(piece)
        return w.hex if w else None

    def _name(self, piece: str) -> str:
        c = self.map.position.counter(piece)
        return c.unit if c else piece

    def label(self, piece: str) -> str:
        """A piece as findings name units: its printed designation."""
        c = self.map.position.counter(piece)
        u = self.map.game.unit(c.unit) if c else None
        return u.name if u else self._name(piece)

    def first_step(self, piece: str) -> Optional[int]:
        path = self.paths.get(piece)
        return path[0][1] if path else None

    # -- retreats --
    def retreat_fit(self, piece: str, n: int, code: str) -> tuple[str, Optional[str]]:
        """Whether the retreat a piece made (or did not make) is as long as a retreat of n hexes (`_as_long`,
        over its `retreat_drags`)."""
        origin, dest = self._origin(piece), self.moves.get(piece)
        name = self._name(piece)
        if dest is None:
            return NO, f"{name} did not retreat ({code}: {n} hex(es))"
        d = self.map.game.grid.distance(origin, dest) if origin else None
        if d is None:
            return UNKNOWN, f"the distance {origin} -> {dest} is not known"
        if not self.retreat_drags(piece, n) or not self._as_long(piece, self.retreat_drags(piece, n), n):
            need = f"exactly {n}" if self.rules.retreat == "exactly" else f"1 to {n}"
            return NO, f"{name} retreated {d} hex(es) ({origin} -> {dest}), {code} needs {need}"
        return YES, None                    # its length fits; where its drags went is judged apart (drag_fault)

    def free_retreat(self, piece: str, n: int) -> tuple[str, Optional[str]]:
        """yes (with a hex it could have reached), no (every way blocked) or unknown."""
        ends = self.map.ends(piece, n)
        if ends is None:
            return UNKNOWN, (f"whether {self._name(piece)}'s retreat was blocked is not known (the map or its "
                             "movement class is not in the tree)")
        if ends:
            return YES, f"{self._name(piece)} was eliminated though it could retreat to {sorted(ends)[0]}"
        return NO, None

    def drag_fault(self, piece: str, n: int) -> Optional[tuple[Optional[int], str]]:
        """The first drag of a retreat of n hexes that goes where no retreat goes, with its step and why: each
        drag of the retreat (`retreat_drags`), the last too, judged by `RetreatMap.drag_fault` (what `avoids`
        names, each hex farther from the hex retreated from), and the last one's end by stacking at that
        moment (`RetreatMap.overstacked`)."""
        origin, path = self._origin(piece), self.retreat_drags(piece, n)
        if origin is None or not path:
            return None
        last = origin
        for i, (h, step) in enumerate(path):
            why = self.map.drag_fault(piece, origin, last, h)
            if why is None and i == len(path) - 1:
                why = self.map.overstacked(piece, h, step)
            if why:
                verb = "ends the retreat" if i == len(path) - 1 else "stops"
                return step, (f"{self.label(piece)} retreats {origin} -> {' -> '.join(x for x, _ in path)}: "
                              f"its drag to {h} {verb} where a retreat never goes ({why})")
            last = h
        return None

    def retreat_drags(self, piece: str, n: int) -> tuple:
        """The drags that are a unit's retreat of n hexes: all it made after the roll; where they may run on
        into a later phase (`later`), the fewest from the first that make a retreat as long (none: no prefix
        does), the rest being that phase's moves."""
        path = tuple(self.paths.get(piece) or ())
        if piece not in self.later:
            return path
        return next((path[:k] for k in range(1, len(path) + 1) if self._as_long(piece, path[:k], n)), ())

    def _as_long(self, piece: str, path: tuple, n: int) -> bool:
        """Drags as long as a retreat of n hexes: they end n hexes away, or went through n hexes (one of them
        then no farther: `drag_fault` says it)."""
        grid, origin = self.map.game.grid, self._origin(piece)
        points = [origin] + [h for h, _ in path]
        ds = [grid.distance(a, b) for a, b in zip(points, points[1:])] if origin else [None]
        fits = (lambda x: x == n) if self.rules.retreat == "exactly" else (lambda x: x is not None and 1 <= x <= n)
        return fits(grid.distance(origin, points[-1]) if origin else None) or (None not in ds and fits(sum(ds)))

    # -- advances --
    def vacated(self) -> bool:
        return all(p in self.removed or p in self.moves for p in self.defenders)

    def enters_first(self, piece: str) -> bool:
        """The piece's first drag after the roll goes into the defender's hex."""
        path = self.paths.get(piece) or ()
        return bool(path and path[0][0] == self.defender_hex)

    def advancing(self, piece: str) -> bool:
        """An attacker's move after a result that retreats no attacker is an advance where the defender's hex
        was vacated, or where its first drag goes into that hex; else it is a move no result allows."""
        return self.vacated() or self.enters_first(piece)

    def advance_fit(self, piece: str, n: Optional[int]) -> tuple[str, Optional[str], Optional[int]]:
        """Whether a piece's moves after the battle are an advance of at most n hexes (None: the result gives
        none), with why not and the step of the drag that goes wrong."""
        origin, dest = self._origin(piece), self.moves[piece]
        name = self.label(piece)
        path = self.paths.get(piece) or ((dest, None),)
        if piece in self.later:
            path = path[:1]                   # the drags after its advance may be a later phase's moves
        if not self.vacated():
            return NO, (f"{name} advances {origin} -> {dest}, but the defender's hex {self.defender_hex} was not "
                        "vacated"), path[0][1]
        if n is None:
            return NO, f"{name} moves {origin} -> {dest} after the battle; the result gives no advance", path[0][1]
        grid = self.map.game.grid
        for i, (h, step) in enumerate(path):
            d = grid.distance(self.defender_hex, h)
            first_wrong = i == 0 and self.rules.advance == "defender_hex_first" and h != self.defender_hex
            if first_wrong or d is None or d > n - 1:
                beyond = "" if first_wrong else (" and stops there" if n == 1 else
                                                 f" and goes at most {n - 1} hex(es) beyond it")
                return NO, (f"{name} advances {self.route(piece)}: an advance of {n} hex(es) goes into the "
                            f"defender's hex {self.defender_hex} first{beyond}"), step
        return YES, None, None

    def crossing_fault(self, piece: str) -> Optional[str]:
        """Why an advance's first hex is barred to the unit: the hexside it crosses into it is prohibited to
        its movement class (the hex itself is judged as every drag's end is: HF1206)."""
        origin, path = self._origin(piece), self.paths.get(piece) or ()
        barred = self.map.class_barred(piece)
        if origin is None or not path or not barred:
            return None
        first = path[0][0]
        hit = side_features(self.map.game, origin, first) & barred
        if not hit:
            return None
        return (f"{self.label(piece)} advances {origin} -> {first} across a {', '.join(sorted(hit))} hexside, "
                "prohibited to its movement class")


def _number(v: Optional[str], printed: Optional[int]) -> Optional[int]:
    if v is None:
        return None
    return printed if v == "#" else int(v)


UNREAD = -1                                    # a retreat or advance whose number is not printed


def retreat_of(effects: list[tuple[SideEffect, Optional[int]]]) -> Optional[int]:
    """The hexes a side's effects retreat it (the longest where several do); None: no retreat."""
    ns = [_number(e.retreat, n) for e, n in effects if e.retreat is not None]
    return UNREAD if None in ns else max(ns) if ns else None


def advance_of(effects: list[tuple[SideEffect, Optional[int]]], vacated: bool,
               rules: AfterCombat) -> Optional[int]:
    """How far the attackers may advance: the result's advance, or the table's advance into any vacated hex."""
    ns = [_number(e.advance, n) for e, n in effects if e.advance is not None]
    if None in ns:
        return UNREAD
    if vacated and rules.advance_hexes:
        ns.append(rules.advance_hexes)
    return max(ns) if ns else None


def moves_fit(ab: AfterBattle, effects: dict[str, list[tuple[SideEffect, Optional[int]]]],
              code: str) -> tuple[str, Optional[str]]:
    """The retreats after the battle against one cell's effects: each unit of a side the cell retreats, and
    a defender that moved though the cell retreats nobody. Advances are judged apart (`advance_faults`): a
    wrong advance does not change which result was applied."""
    fits: list[tuple[str, Optional[str]]] = []
    for side, pieces in (("defender", ab.defenders), ("attacker", ab.attackers)):
        n = retreat_of(effects[side])
        for p in pieces:
            if p in ab.removed:
                continue
            if n == UNREAD and (p in ab.moves or ab.rules.retreat):
                fits.append((UNKNOWN, f"how far {code} retreats is not printed"))
            elif n is not None and ab.rules.retreat:
                fits.append(ab.retreat_fit(p, n, code))
            elif p in ab.later:
                continue                     # its moves may be a later phase's: the result needs none of them
            elif p in ab.moves and side == "defender" and ab.rules.retreat:
                fits.append((NO, f"{ab._name(p)} moved {ab._origin(p)} -> {ab.moves[p]} after the battle; "
                                 "the result gives it no retreat"))
            elif p in ab.moves and side == "attacker" and ab.rules.retreat and not ab.advancing(p):
                fits.append((NO, f"{ab._name(p)} moved {ab._origin(p)} -> {ab.moves[p]} after the battle; "
                                 "the result gives it no retreat, and the defender's hex was not vacated"))
    no = [w for f, w in fits if f == NO]
    if no:
        return NO, "; ".join(no)
    unknown = [w for f, w in fits if f == UNKNOWN]
    return (UNKNOWN, "; ".join(unknown)) if unknown else (YES, None)


def advance_faults(ab: AfterBattle, effects: dict[str, list[tuple[SideEffect, Optional[int]]]],
                   code: str) -> tuple[str, tuple[tuple[str, str, str, Optional[int]], ...]]:
    """The moves of phasing units after the battle that are not an advance the cell allows, as (piece, kind,
    why, step): kind `not-attacker` (it did not attack in this reading), `too-far` (no advance, past the
    defender's hex, not into it first), `hexside` (across a hexside prohibited to it), `too-many` (beyond
    `advance_units`, in the order they moved), `defender` (a defender's move, `_defenders_advancing`); step: the
    drag that goes wrong. The first value is unknown
    where the cell's advance is not printed."""
    rules = ab.rules
    retreats = retreat_of(effects["attacker"]) is not None          # its moves are retreats, judged or not
    faults: list[tuple[str, str, str, Optional[int]]] = []
    advancing: list[str] = []
    for p in ab.movers:
        if p in ab.removed:
            continue
        if p not in ab.attackers:
            if (rules.advance or rules.advance_by) and not ab.displaced(p) and p not in ab.later:
                faults.append((p, "not-attacker", f"{ab.label(p)} moves {ab.route(p)} after the battle against "
                                                  f"{ab.defender_hex}, in which it did not attack "
                                                  f"({ab.why_not_attacker(p)})", ab.first_step(p)))
            continue
        if retreats or not rules.advance or not ab.advancing(p) or (p in ab.later and not ab.enters_first(p)):
            continue                          # not an advance (a move of a later phase, where one may be)
        a = advance_of(effects["attacker"], ab.vacated(), rules)
        if a == UNREAD:
            return UNKNOWN, ()
        fit, why, step = ab.advance_fit(p, a)
        if fit == NO:
            faults.append((p, "too-far", why, step))
            continue
        advancing.append(p)
        crossing = ab.crossing_fault(p)
        if crossing:
            faults.append((p, "hexside", crossing, ab.first_step(p)))
    faults.extend(_defenders_advancing(ab, effects, code))
    if rules.advance_units is not None and len(advancing) > rules.advance_units:
        order = sorted(advancing, key=lambda p: ab.first_step(p) or 0)
        for p in order[rules.advance_units:]:
            faults.append((p, "too-many", f"{ab.label(p)} advances into {ab.defender_hex} as unit "
                                          f"{order.index(p) + 1} after one battle, where at most "
                                          f"{rules.advance_units} may advance", ab.first_step(p)))
    return (NO if faults else YES), tuple(faults)


def _defenders_advancing(ab: AfterBattle, effects: dict, code: str) -> list[tuple[str, str, str, Optional[int]]]:
    """Where only attackers advance (`advance_by`) and retreats are not judged on the map (Aachen 8.5: "A
    defending unit may never advance after combat"), a defender that moved after a result retreating no
    defender: kind `defender` (where retreats are judged, `moves_fit` finds it: the cell does not fit)."""
    if ab.rules.advance_by != "attackers" or ab.rules.retreat or retreat_of(effects["defender"]) is not None:
        return []
    return [(p, "defender", f"{ab.label(p)}, a defender, moves {ab.route(p)} after the battle against "
                            f"{ab.defender_hex}, whose result {code} retreats no defender: only attacking units "
                            "advance", ab.first_step(p))
            for p in ab.defenders if p in ab.moves and p not in ab.removed and p not in ab.later]
