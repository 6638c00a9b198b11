"""What terrain does to a battle, read from the TEC: a defense multiplier, a column shift, a die-roll
modifier, or a prohibition; and the die-roll modifiers whose condition is data (tables.yaml `if:`).

A TEC combat cell reads as "-" (no effect), "doubled"/"x2" (a multiplier), "P" (prohibited), "1L"/"2R"
(shift the column N left/right) or "-1 DRM" (a die-roll modifier). The meaning of a shift or a DRM cell
is read from the TEC note that names the cell where there is one (its direction, and whether a hexside's
effect needs every attacking unit across it); without a note the standard reading is taken and said.
Nothing here names a game.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Optional

from ..source.model import DRM, DrmCondition, Game, TerrainType

YES, NO, UNKNOWN = "yes", "no", "unknown"


@dataclass(frozen=True)
class TerrainEffect:
    terrain: Optional[str]                   # None = unknown terrain
    multiplier: Optional[int]                # defense multiplier; None = unknown
    prohibited: bool = False
    shift: int = 0                           # columns; negative = left
    drm: int = 0
    every_attacker: Optional[bool] = None    # a hexside's effect needs every attacker across it; None = not said
    assumption: Optional[str] = None         # how the cell was read when no note explains it


_MULTIPLIERS = {"-": 1, "basic": 1, "no effect": 1, "none": 1, "doubled": 2, "x2": 2, "×2": 2, "tripled": 3,
                "x3": 3, "×3": 3}
_SHIFT = re.compile(r"(\d+)\s*([LR])", re.I)
_DRM_CELL = re.compile(r"([+\-−]?\d+)\s*DRM", re.I)
_EVERY = re.compile(r"\b(every|all|each) attack(ing unit|ing units|er|ers)\b", re.I)


def _note_for(notes: dict, cell: str) -> Optional[str]:
    """The TEC note whose key names the cell ("1L, 2L" names "1L")."""
    for key, text in notes.items():
        parts = [p.strip().lower() for p in re.split(r",|/|\bor\b", str(key))]
        if cell.strip().lower() in parts and isinstance(text, str):
            return text
    return None


def _shift(t: TerrainType, cell: str, note: Optional[str]) -> Optional[TerrainEffect]:
    m = _SHIFT.fullmatch(cell)
    if not m:
        return None
    n, letter = int(m.group(1)), m.group(2).upper()
    said = {w for w in ("left", "right") if note and re.search(rf"\b{w}\b", note, re.I)}
    if len(said) == 1:
        left = said == {"left"}
        how = None
    else:
        left = letter == "L"
        how = (f"no TEC note explains {cell!r}: read as the standard shift of {n} column(s) "
               f"{'left' if left else 'right'}")
    every = bool(_EVERY.search(note)) if note else None
    return TerrainEffect(t.id, 1, shift=-n if left else n, every_attacker=every, assumption=how)


def _drm(t: TerrainType, cell: str, note: Optional[str]) -> Optional[TerrainEffect]:
    m = _DRM_CELL.fullmatch(cell)
    if not m:
        return None
    how = None if note else f"no TEC note explains {cell!r}: read as a die-roll modifier of {m.group(1)}"
    every = bool(_EVERY.search(note)) if note else None
    return TerrainEffect(t.id, 1, drm=int(m.group(1).replace("−", "-")), every_attacker=every, assumption=how)


def terrain_effect(t: TerrainType, notes: Optional[dict] = None) -> TerrainEffect:
    """A TEC combat cell as printed: no effect, doubled/tripled, prohibited, a shift, a DRM, or a CRT line."""
    cell = (t.combat or "").strip()
    low = cell.lower()
    if low in _MULTIPLIERS:
        return TerrainEffect(t.id, _MULTIPLIERS[low])
    if low in ("p", "prohibited"):
        return TerrainEffect(t.id, None, prohibited=True)
    if low.startswith("crt line"):
        return TerrainEffect(t.id, 1)
    note = _note_for(notes or {}, cell)
    return _shift(t, cell, note) or _drm(t, cell, note) or TerrainEffect(t.id, None)


def type_effect(game: Game, tid: str) -> TerrainEffect:
    t = game.terrain_type(tid)
    return terrain_effect(t, game.tec.notes if game.tec else None) if t else TerrainEffect(tid, None)


# -- hexsides --
def map_known(game: Game) -> bool:
    """The tree gives the terrain of every hex and hexside (a default stands for the unlisted ones)."""
    return game.terrain.default is not None


_SIDES: dict[int, tuple[Game, dict]] = {}


def _side_index(game: Game) -> dict[tuple[str, str], frozenset[str]]:
    hit = _SIDES.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    raw: dict[tuple[str, str], set[str]] = {}
    for hs in game.terrain.hexsides:
        raw.setdefault(tuple(sorted(hs.between)), set()).add(hs.feature)
    index = {}
    for k, feats in raw.items():
        cancelled = {c for f in feats if (t := game.terrain_type(f)) for c in t.cancels}
        index[k] = frozenset(feats - cancelled)
    _SIDES[id(game)] = (game, index)
    return index


def side_features(game: Game, a: str, b: str) -> frozenset[str]:
    """The features on the hexside between two hexes, less those another feature there cancels (a bridge)."""
    return _side_index(game).get(tuple(sorted((a, b))), frozenset())


@dataclass(frozen=True)
class HexsideReading:
    """What the hexsides between the attackers and the defender add under one reading."""
    multiplier: Optional[int] = 1
    shift: int = 0
    drm: int = 0
    applied: tuple[str, ...] = ()            # features whose effect is counted
    assumptions: tuple[str, ...] = ()


def _applies(te: TerrainEffect, across: int, attackers: int) -> str:
    """Certain only where the TEC note says the effect needs every attacker across; else a possibility
    (games differ: some need one attacker across, some every one, some add other conditions)."""
    if not across:
        return NO
    if te.every_attacker:
        return YES if across == attackers else NO
    return UNKNOWN


def hexside_readings(game: Game, attacker_hexes: Iterable[str], hex_id: str,
                     same_as_table: frozenset[str] = frozenset()) -> list[HexsideReading]:
    """Every combination of hexside effects that may apply: a feature whose note says it needs every attacker
    across applies exactly then; one the tree does not qualify may or may not apply. A DRM feature a table DRM
    names (`if: across`) is that DRM, counted once, by the table."""
    hexes = list(attacker_hexes)
    counts: dict[str, int] = {}
    for a in hexes:
        for f in side_features(game, a, hex_id):
            counts[f] = counts.get(f, 0) + 1
    options: list[list[Optional[tuple[str, TerrainEffect]]]] = []
    for f, n in sorted(counts.items()):
        te = type_effect(game, f)
        if te.multiplier == 1 and not te.shift and not te.drm:
            continue
        if te.drm and f in same_as_table:
            continue
        fit = _applies(te, n, len(hexes))
        options.append([(f, te)] if fit == YES else [None, (f, te)] if fit == UNKNOWN else [None])
    out = []
    for combo in itertools.product(*options):
        m: Optional[int] = 1
        shift = drm = 0
        applied, notes = [], []
        for x in combo:
            if x is None:
                continue
            f, te = x
            m = None if m is None or te.multiplier is None else m * te.multiplier
            shift, drm = shift + te.shift, drm + te.drm
            applied.append(f)
            if te.assumption:
                notes.append(te.assumption)
        out.append(HexsideReading(m, shift, drm, tuple(applied), tuple(notes)))
    return out or [HexsideReading()]


# -- die-roll modifiers with a condition as data --
@dataclass(frozen=True)
class BattleFacts:
    """What a DRM condition is evaluated against: one reading of a battle."""
    attacker_units: tuple[Optional[str], ...]     # unit ids (None = a piece of no known unit)
    attacker_hexes: frozenset[str]
    defender_hex: str
    terrain: Optional[str]                        # the defender hex's terrain in this reading; None = unknown


def _any_of(values: Iterable[Optional[str]], wanted: tuple[str, ...]) -> str:
    vals = list(values)
    if any(v in wanted for v in vals if v is not None):
        return YES
    return UNKNOWN if None in vals else NO


def _across_all(game: Game, facts: BattleFacts, features: tuple[str, ...]) -> str:
    across = [bool(side_features(game, a, facts.defender_hex) & set(features)) for a in facts.attacker_hexes]
    if across and all(across):
        return YES
    return NO if map_known(game) else UNKNOWN


def condition_holds(game: Game, cond: DrmCondition, facts: BattleFacts) -> str:
    """yes / no / unknown: every part of the condition must hold."""
    parts = []
    units = [game.unit(x) if x else None for x in facts.attacker_units]
    if cond.attacker_type:
        parts.append(_any_of([u.type if u else None for u in units], cond.attacker_type))
    if cond.attacker_class:
        parts.append(_any_of([u.movement_class if u else None for u in units], cond.attacker_class))
    if cond.defender_terrain:
        parts.append(UNKNOWN if facts.terrain is None else YES if facts.terrain in cond.defender_terrain else NO)
    if cond.attack_hexes is not None:
        parts.append(YES if len(facts.attacker_hexes) >= cond.attack_hexes else NO)
    if cond.across:
        parts.append(_across_all(game, facts, cond.across))
    if NO in parts:
        return NO
    return UNKNOWN if UNKNOWN in parts else YES


def table_drm_features(drms: Iterable[DRM]) -> frozenset[str]:
    """The terrain the table's own DRMs name (`across`, `defender_terrain`): the TEC's DRM cell for it is
    the same modifier, counted once."""
    return frozenset(f for d in drms if d.condition for f in d.condition.across + d.condition.defender_terrain)


def drm_counts(game: Game, d: DRM, facts: Optional[BattleFacts]) -> tuple[int, ...]:
    """How often a non-repeating DRM applies under a reading: (1,) certain, (0,) not, (0, 1) may or may not."""
    if d.condition is None or facts is None:
        return (0, 1)
    fit = condition_holds(game, d.condition, facts)
    return (1,) if fit == YES else (0,) if fit == NO else (0, 1)


# -- strengths: the printed factors and what the tree says changes them --
@dataclass(frozen=True)
class Strengths:
    """The totals a battle's column is entered with, as ranges: attack lo..hi and defense lo..hi (None: no
    bound, a strength the log does not show may be added); `why` says what makes a range of them."""
    attack: tuple[int, Optional[int]]
    defense: tuple[int, Optional[int]]
    why: tuple[str, ...] = ()
    printed: Optional[tuple[int, int]] = None   # the printed factors' totals, before any modifier

    def exact(self) -> Optional[tuple[int, int]]:
        a, d = self.attack, self.defense
        return (a[0], d[0]) if a[0] == a[1] and d[0] == d[1] else None


def unit_condition(game: Game, cond, state: frozenset, markers: tuple[str, ...], shown: dict,
                   hex_id: str) -> str:
    """yes / no / unknown: does a strength modifier's condition hold for a unit (its state, the markers in
    its hex, which may show a state for one of its hex's units, and its hex's terrain)?"""
    if cond is None:
        return UNKNOWN
    parts = []
    if cond.state:
        if state & set(cond.state):
            parts.append(YES)
        else:
            # a marker in the hex may show it for this unit or another: even one marking its whole stack (Ardennes
            # II 3.4) leaves out the units that joined the stack after it ("do not give it to other units")
            parts.append(UNKNOWN if any(shown.get(m, frozenset()) & set(cond.state) for m in markers) else NO)
    if cond.marker:
        parts.append(YES if set(markers) & set(cond.marker) else NO)
    if cond.terrain:
        tids = game.hex_terrain(hex_id)
        parts.append(UNKNOWN if not tids else YES if set(tids) & set(cond.terrain) else NO)
    return NO if NO in parts else UNKNOWN if UNKNOWN in parts else YES


def _scaled(x: int, factor: Fraction, rounding: str) -> tuple[int, ...]:
    v = x * factor
    if v.denominator == 1:
        return (int(v),)
    return {"up": (math.ceil(v),), "down": (math.floor(v),)}.get(rounding, (math.floor(v), math.ceil(v)))


def _unit_range(base: int, mods: list) -> tuple[int, Optional[int]]:
    """A unit's strength range under the modifiers that may apply to it ((modifier, holds) pairs)."""
    lo, hi = base, base
    for m, holds in mods:
        if holds == NO:
            continue
        if m.adds_unknown:
            hi = None
            continue
        if m.factor is None:
            continue
        keep = holds == UNKNOWN
        lo = min(_scaled(lo, m.factor, m.rounding) + ((lo,) if keep else ()))
        if hi is not None:
            hi = max(_scaled(hi, m.factor, m.rounding) + ((hi,) if keep else ()))
    return lo, hi


def strength_range(game: Game, table, units: list[tuple], role: str, side_of) -> tuple[tuple[int, Optional[int]],
                                                                                      tuple[str, ...]]:
    """The total strength of one side of a battle: `units` are (counter, hex, printed factor, markers there,
    shown states) for each unit; `role` attack | defense. The table's strength modifiers for that role
    each apply as their condition says (both ways where it cannot be told)."""
    mods = [m for m in table.strength_modifiers if role in m.applies_to]
    lo, hi, why = 0, 0, []
    for c, h, base, markers, shown in units:
        mine = []
        for m in mods:
            if m.side is not None and side_of(c) != m.side:
                continue
            holds = unit_condition(game, m.condition, c.state, markers, shown, h)
            if holds != NO:
                mine.append((m, holds))
                label = m.id + (f" ({m.rule})" if m.rule else "")
                if label not in why:
                    why.append(label)
        u_lo, u_hi = _unit_range(base, mine)
        lo += u_lo
        hi = None if hi is None or u_hi is None else hi + u_hi
    return (lo, hi), tuple(why)


def shift_span(game: Game, table, base: int, facts: BattleFacts, terrain_known: bool,
               columns: int) -> tuple[int, int, Optional[str]]:
    """The column shifts a battle may have: the TEC's (`base`), the table's `shifts` whose condition holds
    (any of their values; with and without where it may hold), and, where the defender's terrain or the
    hexsides are not printed and the table says terrain shifts one way (`terrain_shifts`), any number of
    columns that way. The third value says why the shift is a range."""
    least = most = base
    why = []
    for s in table.shifts:
        holds = condition_holds(game, s.condition, facts) if s.condition else UNKNOWN
        if holds == NO:
            continue
        n = len(facts.attacker_hexes) if s.per == "attacking-stack" else 1
        lo, hi = s.least * n, s.most * n
        if holds == UNKNOWN or s.per == "attacking-stack":
            lo, hi = min(lo, 0), max(hi, 0)
        least, most = least + lo, most + hi
        if lo != hi:
            why.append(s.id + (f" ({s.rule})" if s.rule else ""))
    way = table.terrain_shifts
    if way and not terrain_known:
        if way in ("left", "both"):
            least = -columns
        if way in ("right", "both"):
            most = columns
        why.append(f"terrain the tree does not print may shift the column {'either way' if way == 'both' else way}")
    return least, most, "; ".join(why) or None
