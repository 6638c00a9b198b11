"""Retreats and advances after a battle, judged as the combat table's `after_combat` data says.

A retreat of N hexes goes hex by hex, each hex farther from the hex the unit retreated from, and ends
exactly (or at most) N hexes away; it never enters what `avoids` names (enemy units, enemy ZOC, terrain
or hexsides prohibited to the unit's movement class, a hex already at the stacking limit at its end).
An advance enters the vacated defender hex first and goes at most N hexes. Only what is certain is
judged: where the tree leaves a hex's terrain, a ZOC or a unit's side open, a path counts as possible
for the retreat actually made and as blocked when asking whether a retreat could have been made.
Nothing here names a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..model import AfterCombat, Game, SideEffect
from ..position import Position
from .combat_terrain import map_known, side_features
from .costs import class_costs

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
    _cache: dict = field(default_factory=dict)

    def _side(self, piece: str) -> Optional[str]:
        c = self.position.counter(piece)
        if c is None:
            return None
        u = self.game.unit(c.unit)
        return c.side or (u.side if u else None)

    def _others(self, side: Optional[str], mode: str) -> tuple[set[str], set[str]]:
        """Hexes holding enemy units, and hexes in their ZOC, under a mode."""
        enemy, zoc = set(), set()
        z = self.game.rules.zoc
        zoc_certain = self.game.rules.zoc.model == "standard" and not (z and z.exerted_by == "unknown")
        for c, w in self.position.units():
            if not w.hex or c.kind != "unit":
                continue
            u = self.game.unit(c.unit)
            s = c.side or (u.side if u else None)
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

    def _barred(self, piece: str, mode: str) -> Optional[frozenset[str]]:
        """Terrain ids the unit may not enter or cross; None when the tree cannot tell."""
        if "prohibited_terrain" not in self.rules.avoids:
            return frozenset()
        c = self.position.counter(piece)
        u = self.game.unit(c.unit) if c else None
        if u is None or u.movement_class is None or self.game.tec is None or not map_known(self.game):
            return None
        return class_costs(self.game, u.movement_class).prohibited

    def ends(self, piece: str, n: int, mode: str) -> Optional[frozenset[str]]:
        """The hexes a retreat of n hexes may end in (LENIENT: every doubt passes; STRICT: every doubt
        blocks); None when the tree cannot tell (the map or the unit's movement class is not known)."""
        key = (piece, n, mode)
        if key not in self._cache:
            self._cache[key] = self._ends(piece, n, mode)
        return self._cache[key]

    def _ends(self, piece: str, n: int, mode: str) -> Optional[frozenset[str]]:
        w = self.position.where(piece)
        barred = self._barred(piece, mode)
        if w is None or not w.hex or (barred is None and mode == STRICT):
            return None
        barred = barred or frozenset()
        enemy, zoc = self._others(self._side(piece), mode)
        avoid = (enemy if "enemy_units" in self.rules.avoids else set()) | \
                (zoc if "enemy_zoc" in self.rules.avoids else set())
        grid, origin = self.game.grid, w.hex
        layer, reached = {origin}, set()
        for k in range(1, n + 1):
            nxt = set()
            for h in layer:
                for nb in grid.neighbours(h):
                    if grid.distance(origin, nb) != k or nb in avoid:
                        continue
                    if barred and (set(self.game.hex_terrain(nb)) & barred or side_features(self.game, h, nb) & barred):
                        continue
                    nxt.add(nb)
            layer = nxt
            reached |= nxt
        out = layer if self.rules.retreat == "exactly" else reached
        if mode == STRICT and "overstack" in self.rules.avoids:
            out = {h for h in out if not self._full(h, piece)}
        return frozenset(out)

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
    """One reading's retreats and advances: who moved where after the roll, and who attacked."""
    map: RetreatMap
    defender_hex: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    moves: dict                                # piece -> its hex at the end of the battle's events
    removed: frozenset[str]

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

    # -- retreats --
    def retreat_fit(self, piece: str, n: int, code: str) -> tuple[str, Optional[str]]:
        """Whether the retreat a piece made (or did not make) fits a retreat of n hexes."""
        origin, dest = self._origin(piece), self.moves.get(piece)
        name = self._name(piece)
        if dest is None:
            return NO, f"{name} did not retreat ({code}: {n} hex(es))"
        d = self.map.game.grid.distance(origin, dest) if origin else None
        if d is None:
            return UNKNOWN, f"the distance {origin} -> {dest} is not known"
        if (self.rules.retreat == "exactly" and d != n) or not 1 <= d <= n:
            need = f"exactly {n}" if self.rules.retreat == "exactly" else f"1 to {n}"
            return NO, f"{name} retreated {d} hex(es) ({origin} -> {dest}), {code} needs {need}"
        ends = self.map.ends(piece, n, LENIENT)
        if ends is not None and dest not in ends:
            return NO, (f"{name} retreated {origin} -> {dest}: no retreat of {n} hex(es) ends there, each hex "
                        f"farther from {origin} and never into {', '.join(self.rules.avoids) or 'a barred hex'}")
        return YES, None

    def free_retreat(self, piece: str, n: int) -> tuple[str, Optional[str]]:
        """yes (with a hex it could have reached), no (every way blocked) or unknown."""
        ends = self.map.ends(piece, n, STRICT)
        if ends is None:
            return UNKNOWN, (f"whether {self._name(piece)}'s retreat was blocked is not known (the map or its "
                             "movement class is not in the tree)")
        if ends:
            return YES, f"{self._name(piece)} was eliminated though it could retreat to {sorted(ends)[0]}"
        return NO, None

    # -- advances --
    def vacated(self) -> bool:
        return all(p in self.removed or p in self.moves for p in self.defenders)

    def advance_fit(self, piece: str, n: Optional[int]) -> tuple[str, Optional[str]]:
        origin, dest = self._origin(piece), self.moves[piece]
        name = self._name(piece)
        if not self.vacated():
            return NO, f"{name} advanced {origin} -> {dest}, but the defender's hex {self.defender_hex} was not vacated"
        if n is None:
            return NO, f"{name} moved {origin} -> {dest} after the battle; the result gives no advance"
        d = self.map.game.grid.distance(self.defender_hex, dest)
        if d is None or d > n - 1:
            return NO, (f"{name} advanced {origin} -> {dest}: an advance of {n} hex(es) enters the defender's hex "
                        f"{self.defender_hex} first")
        return YES, None


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
    """Every move after the battle against one cell's effects: retreats of the side that retreats, advances."""
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
            elif p in ab.moves and side == "attacker" and ab.rules.advance:
                a = advance_of(effects["attacker"], ab.vacated(), ab.rules)
                fits.append((UNKNOWN, f"how far {code} advances is not printed") if a == UNREAD
                            else ab.advance_fit(p, a))
            elif p in ab.moves and side == "defender" and ab.rules.retreat:
                fits.append((NO, f"{ab._name(p)} moved {ab._origin(p)} -> {ab.moves[p]} after the battle; "
                                 "the result gives it no retreat"))
    no = [w for f, w in fits if f == NO]
    if no:
        return NO, "; ".join(no)
    unknown = [w for f, w in fits if f == UNKNOWN]
    return (UNKNOWN, "; ".join(unknown)) if unknown else (YES, None)
