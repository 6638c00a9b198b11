"""Judging one battle: does what the record shows after a combat roll fit the combat table?

The referee calls `judge_battle` for a die roll in a combat phase. The battle is inferred from the
record (who lost steps or moved after the roll, who stood adjacent), and every reading the tree
allows is tried: each subset of the adjacent attackers, each terrain the defender's hex may have,
each sum of the die-roll modifiers that may apply, each combat table the roll may be for. The
verdict is "legal" when one reading fits, "violation" only when none fits and every cell read was
printed, and "unverified" (with the reason) when a needed cell, terrain, strength or effect is not
in the tree. Nothing here names a game: all rules come from the tree.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence, Union

from ..model import DRM, Game, SideEffect, TableStrengths, Unit
from ..position import Counter, Position
from ..record import DieRoll, Event, Moved, Placed, Removed, StateChanged, Step
from .combat_terrain import (BattleFacts, TerrainEffect, drm_counts, hexside_readings, table_drm_features,
                             terrain_effect, type_effect)
from .crt import PRINTED, Cell, ColumnLine, CombatTable, Lookup, combat_tables, read_cell
from .retreats import UNREAD, AfterBattle, RetreatMap, moves_fit, retreat_of

# The codes of a judgement's verdicts (each a rule of validator.referee.combat_rules).
COMBAT_RESULT_NOT_ON_TABLE = "HF1501"
COMBAT_UNVERIFIED = "HF1590"
COMBAT_BATTLE_UNCLEAR = "HF1591"
COMBAT_NO_TABLE_FOR_DICE = "HF1592"

MAX_SUBSET_ATTACKERS = 8            # 2^8 subsets of adjacent attackers at most; beyond, unverified
UNCAPPED_REPEATS = 3                # a repeating modifier without a cap is tried this often, then unverified
MAX_CANDIDATES_KEPT = 24            # candidates reported with a judgement (fitting ones first)
REDUCED = "reduced"

YES, NO, UNKNOWN = "yes", "no", "unknown"


@dataclass(frozen=True)
class Candidate:
    """One reading of the battle: table, defender hex, attackers, terrain, column, modified roll, cell."""
    table: str
    defender_hex: str
    attackers: tuple[str, ...]                # pieces
    terrain: Optional[str]
    column: Optional[str]
    roll: Optional[int]                       # the modified roll
    cell: str
    fit: str                                  # yes | no | unknown
    reason: Optional[str] = None


@dataclass(frozen=True)
class Judgement:
    verdict: str                              # legal | violation | unverified
    code: Optional[str]
    rule: Optional[str]
    message: str
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    reason: Optional[str] = None
    candidates: tuple[Candidate, ...] = ()
    step: Optional[int] = None
    pieces: tuple[str, ...] = ()              # the pieces the record shows losing or moving after the roll
    notes: tuple[str, ...] = ()               # how a cell of the tree was read where no note explains it

    @property
    def severity(self) -> str:
        """The declared severity of the verdict's code (a legal verdict has none: info)."""
        from . import all_rules                 # the referee's own rule modules, registered
        return all_rules()[self.code].severity if self.code else "info"


# -- what the record shows after the roll --
@dataclass(frozen=True)
class Loss:
    piece: str
    removed: bool
    reduced: bool
    moved: bool
    to: Optional[str] = None                  # the hex its last move ended in


def observed_losses(position: Position, events: Iterable[Event]) -> dict[str, Loss]:
    """Per piece of the position, the net effect of the events: removed (and not put back), flipped to
    reduced (and not back), moved (a retreat or an advance)."""
    removed: set[str] = set()
    state: dict[str, frozenset[str]] = {}
    moved: dict[str, Optional[str]] = {}
    for e in events:
        if isinstance(e, Removed):
            removed.add(e.counter.piece)
        elif isinstance(e, Placed):
            removed.discard(e.counter.piece)
            state[e.counter.piece] = e.counter.state
        elif isinstance(e, StateChanged):
            state[e.counter.piece] = e.counter.state
        elif isinstance(e, Moved):
            moved[e.counter.piece] = e.dst.hex
    out = {}
    for c, _ in position:
        was = REDUCED in c.state
        now = REDUCED in state.get(c.piece, c.state)
        loss = Loss(c.piece, c.piece in removed, now and not was, c.piece in moved, moved.get(c.piece))
        if loss.removed or loss.reduced or loss.moved:
            out[c.piece] = loss
    return out


# -- the battle's sides --
@dataclass(frozen=True)
class SideOutcome:
    """What one side of a battle lost: per piece, steps it had and steps it lost (None = unknown)."""
    pieces: tuple[str, ...]
    steps_had: Optional[int]
    steps_lost: Optional[int]
    removed: int
    reduced: int

    @property
    def all_removed(self) -> bool:
        return bool(self.pieces) and self.removed == len(self.pieces)

    def key(self) -> tuple:
        """What a cell's fit depends on (not which pieces): readings with equal keys judge alike."""
        return (len(self.pieces), self.steps_had, self.steps_lost, self.removed, self.reduced)

    def describe(self) -> str:
        if not self.removed and not self.reduced:
            return "no loss"
        parts = []
        if self.removed:
            parts.append(f"{self.removed} of {len(self.pieces)} unit(s) removed")
        if self.reduced:
            parts.append(f"{self.reduced} reduced")
        return ", ".join(parts)


def _steps(game: Game, c: Counter) -> Optional[int]:
    u = game.unit(c.unit)
    if u is None:
        return None
    return max(u.steps - (1 if REDUCED in c.state else 0), 1)


def side_outcome(game: Game, position: Position, pieces: Sequence[str], losses: dict[str, Loss]) -> SideOutcome:
    had, lost, removed, reduced = 0, 0, 0, 0
    for p in pieces:
        c = position.counter(p)
        s = _steps(game, c) if c else None
        had = None if had is None or s is None else had + s
        loss = losses.get(p)
        if loss and loss.removed:
            removed += 1
            lost = None if lost is None or s is None else lost + s
        elif loss and loss.reduced:
            reduced += 1
            lost = None if lost is None else lost + 1
    return SideOutcome(tuple(pieces), had, lost, removed, reduced)


# -- does a cell's result fit what a side lost --
def _number(n: Optional[str], printed: Optional[int]) -> Optional[int]:
    if n is None:
        return 0
    if n == "#":
        return printed
    return int(n)


def side_effects(cell: Cell) -> Optional[dict[str, list[tuple[SideEffect, Optional[int]]]]]:
    """The effects of a cell's results by side (attacker, defender); None if any result's effect is unknown."""
    out: dict[str, list] = {"attacker": [], "defender": []}
    last: Optional[str] = None
    for r in cell.results:
        if r.effect is None:
            return None
        for side in ("attacker", "defender"):
            e = getattr(r.effect, side)
            if e is not None:
                out[side].append((e, r.number))
                last = side
        if r.effect.designated is not None:
            if last is None:
                return None
            out[last].append((r.effect.designated, r.number))
    return out


Blocked = Callable[[int], tuple[str, Optional[str]]]    # steps the result takes -> fit of a blocked retreat


def side_fit(effects: list[tuple[SideEffect, Optional[int]]], o: SideOutcome,
             blocked_judge: Optional[Blocked] = None) -> tuple[str, Optional[str]]:
    """yes / no / unknown, with why, for one side's effects against what it lost. `blocked_judge`: whether
    losses beyond the result were retreats that could not be made (else they are taken to be)."""
    if any(e.eliminated for e, _ in effects):
        return (YES, None) if o.all_removed else (NO, f"needs all {len(o.pieces)} eliminated, shows {o.describe()}")
    steps = units = 0
    retreat_blocked: list[Optional[str]] = []
    for e, n in effects:
        s, u = _number(e.steps, n), _number(e.units, n)
        if s is None or u is None or _number(e.retreat, n) is None:
            return UNKNOWN, "a result's number is not printed"
        steps, units = steps + s, units + u
        if e.retreat is not None:
            retreat_blocked.append(e.blocked)
    if units and steps:
        return UNKNOWN, "a result combining step and unit losses is not judged"
    if units:
        want = min(units, len(o.pieces))
        got = o.removed if not o.reduced else None
        what = f"{want} unit(s) eliminated"
        if got is None:
            return _with_retreat(retreat_blocked, NO, f"needs {what}, shows {o.describe()}", o)
        return _compare(got, want, retreat_blocked, what, o)
    lost_any = bool(o.removed or o.reduced)
    if o.steps_lost is None or (steps and o.steps_had is None):
        if not steps:
            return (YES, None) if not lost_any else _with_retreat(
                retreat_blocked, NO, f"needs no loss, shows {o.describe()}", o)
        if not lost_any:
            return NO, f"needs {steps} step(s) lost, shows no loss"
        return UNKNOWN, "a unit's steps are not in the tree"
    want = min(steps, o.steps_had) if steps else 0
    return _compare(o.steps_lost, want, retreat_blocked, f"{want} step(s) lost", o, blocked_judge)


def _compare(got: int, want: int, blocked: list, what: str, o: SideOutcome,
             blocked_judge: Optional[Blocked] = None) -> tuple[str, Optional[str]]:
    if got == want:
        return YES, None
    why = f"needs {what if want else 'no loss'}, shows {o.describe()}"
    if got < want:
        return NO, why
    return _with_retreat(blocked, NO, why, o, blocked_judge and (lambda: blocked_judge(want)))


def _with_retreat(blocked: list, fit: str, why: str, o: SideOutcome,
                  judge: Optional[Callable[[], tuple[str, Optional[str]]]] = None) -> tuple[str, Optional[str]]:
    """More losses than the result: only a retreat that could not be made explains them."""
    if not blocked:
        return fit, why
    if all(b in ("eliminated", "deplete") for b in blocked):
        if "deplete" in blocked:
            return YES, None
        if o.reduced and not judge:
            return NO, f"{why} (a blocked retreat eliminates, it does not reduce)"
        return judge() if judge else (YES, None)
    return UNKNOWN, f"{why}; what a blocked retreat costs is not in the tree"


def cell_fit(cell: Cell, attacker: SideOutcome, defender: SideOutcome,
             after: Optional[AfterBattle] = None) -> tuple[str, Optional[str]]:
    """Whether a cell fits what each side lost and, where the table's `after_combat` says how, who retreated
    or advanced where."""
    if cell.state != PRINTED or cell.reason:
        return UNKNOWN, cell.reason or cell.state
    by_side = side_effects(cell)
    if by_side is None:
        unknown = [r.code for r in cell.results if r.effect is None]
        return UNKNOWN, f"the effect of {', '.join(unknown)} is not in the tree (effect unknown)"
    judge = (lambda side, o: _blocked_judge(after, by_side[side], o)) if after and after.rules.retreat else \
        (lambda side, o: None)
    fa, wa = side_fit(by_side["attacker"], attacker, judge("attacker", attacker))
    fd, wd = side_fit(by_side["defender"], defender, judge("defender", defender))
    if NO in (fa, fd):
        return NO, "; ".join(w for w in (f"attacker: {wa}" if fa == NO else None,
                                           f"defender: {wd}" if fd == NO else None) if w)
    fm, wm = moves_fit(after, by_side, cell.printed) if after else (YES, None)
    if fm == NO:
        return NO, wm
    if fa == YES and fd == YES and fm == YES:
        return YES, None
    return UNKNOWN, wa or wd or wm


def _blocked_judge(after: AfterBattle, effects: list, o: SideOutcome) -> Optional[Blocked]:
    """Losses beyond the result explained by retreats that could not be made: legal only if each unit so
    eliminated had every way blocked (judged on the map; unknown where the tree cannot tell)."""
    n = retreat_of(effects)
    if n is None or n == UNREAD:
        return None
    game, position = after.map.game, after.map.position

    def judge(want: int) -> tuple[str, Optional[str]]:
        removed = [p for p in o.pieces if p in after.removed]
        free, unknown = [], []
        for p in removed:
            fit, why = after.free_retreat(p, n)
            if fit == YES:
                free.append((p, why))
            elif fit == UNKNOWN:
                unknown.append((p, why))
        if o.reduced > want:
            return NO, f"{o.reduced} unit(s) reduced for {want} step(s) lost (a blocked retreat eliminates)"
        steps = lambda ps: sum(_steps(game, position.counter(p)) or 1 for p, _ in ps)
        if steps(free) + o.reduced > want:
            return NO, "; ".join(w for _, w in free)
        if unknown and steps(free + unknown) + o.reduced > want:
            return UNKNOWN, "; ".join(w for _, w in unknown)
        return YES, None
    return judge


# -- columns: strengths, terrain --
_NO_COMBAT_EFFECT = (None, "-", "ot", "no effect", "basic")   # "ot": use the other terrain in the hex


def terrain_options(game: Game, hex_id: str) -> tuple[list[TerrainEffect], Optional[str]]:
    """The terrain effects the defender's hex may have, and why the list may be incomplete. A hex of several
    terrains may be judged by any of them; a path through it with a combat effect of its own is one more."""
    tids = game.hex_terrain(hex_id)
    if tids:
        opts = [type_effect(game, tid) for tid in tids]
        for p in game.terrain.paths:
            t = game.terrain_type(p.feature)
            if hex_id in p.hexes and (t is None or (t.combat or "").strip().lower() not in _NO_COMBAT_EFFECT):
                opts.append(type_effect(game, p.feature) if t else TerrainEffect(p.feature, None))
        return opts, None
    tec = game.tec
    if tec is not None and tec.complete and not tec.missing:
        return [terrain_effect(t, tec.notes) for t in tec.terrain if t.kind == "hex" and t.combat is not None], None
    return [TerrainEffect(None, None)], f"the terrain of {hex_id} is not in the tree"


def _times(a: Optional[int], b: Optional[int]) -> Optional[int]:
    return None if a is None or b is None else a * b


def _factor(game: Game, c: Counter, name: Optional[str]) -> Optional[int]:
    u: Optional[Unit] = game.unit(c.unit)
    if u is None or name is None:
        return None
    f = u.reduced if REDUCED in c.state else u.factors
    return f.get(name) if f is not None else None


def strengths(game: Game, spec: TableStrengths, position: Position, attackers: Sequence[str],
              defenders: Sequence[str], multiplier: Optional[int]) -> Optional[tuple[int, int]]:
    """Attack and defense totals from the printed factors, when the tree declares them complete."""
    if not spec.complete or multiplier is None:
        return None
    att = [_factor(game, position.counter(p), spec.attack) for p in attackers]
    dfn = [_factor(game, position.counter(p), spec.defense) for p in defenders]
    if None in att or None in dfn:
        return None
    return sum(att), sum(dfn) * multiplier  # type: ignore[arg-type]


def _all_columns(line: ColumnLine) -> list[Lookup]:
    """Every column a combat of unknown strength may use on a line."""
    out = [line.at(c) for c in line.columns if c.bounds is not None]
    for side, how in (("below", line.clamp.below), ("above", line.clamp.above)):
        if how == "unknown":
            out.append(Lookup(None, f"the strengths are not known and the tree does not say which column a "
                                    f"combat {side} the columns of {line.name} uses"))
    return out


def columns_for(ct: CombatTable, te: TerrainEffect, st: Optional[tuple[int, int]], shift: int = 0) -> list[Lookup]:
    """The columns a battle may use: the one its strengths give, or every column when they are not known;
    then shifted (terrain) by `shift` columns (negative: left), as the table's clamp says."""
    lines: list[Optional[ColumnLine]]
    if te.terrain is None and ct.lines:
        lines = list(ct.lines) + [None]      # unknown terrain: any printed line, or one not printed
    else:
        lines = [ct.line_for(te.terrain) if te.terrain else ct.headings]
    out: list[Lookup] = []
    for line in lines:
        if line is None:
            out.append(Lookup(None, f"the terrain of the defender has no line on {ct.table.name}"))
            continue
        v = ct.value(*st) if st else None
        found = [line.lookup(v)] if v is not None else _all_columns(line)
        out += [shifted(ct, line, lk, shift) for lk in found] if shift else found
    return list(dict.fromkeys(out))


def shifted(ct: CombatTable, line: ColumnLine, lk: Lookup, shift: int) -> Lookup:
    """A column moved `shift` columns (negative: left); past the first or last column, the clamp's
    shift_below / shift_above says where it lands (lowest/highest), that it may not be made, or nothing."""
    if lk.column is None:
        return lk
    used = [c.index for c in line.columns if c.bounds is not None] or [c.index for c in line.columns]
    to = lk.column + shift
    how = None
    if to < min(used):
        how, edge, side = line.clamp.shift_below, min(used), "left of the first"
    elif to > max(used):
        how, edge, side = line.clamp.shift_above, max(used), "right of the last"
    if how is not None:
        if how == "prohibited":
            return Lookup(None, "prohibited")
        if how not in ("lowest", "highest"):
            return Lookup(None, f"a shift of {_shift_text(shift)} from {line.columns[lk.column].printed} falls "
                                f"{side} column of {line.name} and the tree does not say where it lands")
        to = edge
    return Lookup(to, label=f"{line.columns[lk.column].printed} shifted {_shift_text(shift)}")


def _shift_text(shift: int) -> str:
    return f"{abs(shift)}{'L' if shift < 0 else 'R'}"


# -- die-roll modifiers --
def _drm_cap(game: Game) -> Optional[int]:
    cap = game.rules.other.get("drm_cap")
    if isinstance(cap, dict):
        cap = cap.get("value")
    return cap if isinstance(cap, int) else None


def modifier_sums(game: Game, ct: CombatTable, side: Optional[str], facts: Optional[BattleFacts] = None,
                  extra: int = 0) -> tuple[set[int], Optional[str]]:
    """Every total the table's die-roll modifiers may give, capped; and, when a repeating modifier has no cap,
    why larger totals were not tried. A modifier whose condition is data applies as the reading (`facts`)
    says; one with only a `when` text may or may not apply. `extra`: the terrain's DRMs of the reading."""
    drms, why = table_drms(game, ct, side)
    if why:
        return {0}, why
    cap = _drm_cap(game)
    most = cap if cap is not None else UNCAPPED_REPEATS
    sums = {extra}
    for d in drms:
        times = range(0, (most // max(abs(d.value), 1)) + 1) if d.repeats else drm_counts(game, d, facts)
        sums = {s + d.value * k for s in sums for k in times}
    if cap is not None:
        return {max(-cap, min(cap, s)) for s in sums}, None
    repeating = [d for d in drms if d.repeats]
    if repeating:
        return sums, (f"the modifier {repeating[0].when!r} may apply more than {most} times and the tree "
                      "prints no cap")
    return sums, None


def table_drms(game: Game, ct: CombatTable, side: Optional[str]) -> tuple[list[DRM], Optional[str]]:
    """The table's die-roll modifiers for an attacking side (and those of the table `drm_from` names)."""
    drms = list(ct.table.drm)
    if ct.table.drm_from:
        source = next((t for t in game.tables if t.id == ct.table.drm_from), None)
        if source is None:
            return [], (f"the modifiers of table {ct.table.drm_from!r} apply to {ct.table.name}, and no such "
                        "table is in the tree")
        drms += list(source.drm)
    return [d for d in drms if d.side is None or d.side == side], None


# -- dice --
_DICE = re.compile(r"(\d*)\s*d\s*(\d+)", re.I)


def dice_of(name: Optional[str]) -> Optional[tuple[int, int]]:
    m = _DICE.search(name or "")
    return (int(m.group(1) or 1), int(m.group(2))) if m else None


def roll_dice(roll: DieRoll) -> Optional[tuple[int, int]]:
    if roll.count and roll.sides:
        return roll.count, roll.sides
    return dice_of(roll.dice) or ((len(roll.faces), roll.sides) if roll.sides else None)


def tables_for_roll(game: Game, roll: DieRoll, side: Optional[str]) -> list[CombatTable]:
    d = roll_dice(roll)
    return [ct for ct in combat_tables(game)
            if (dice_of(ct.table.dice) == d if d else ct.table.dice == roll.dice)
            and (not ct.table.sides or side in ct.table.sides)]


# -- the battle --
def _side_of(game: Game, c: Counter) -> Optional[str]:
    if c.side:
        return c.side
    u = game.unit(c.unit)
    return u.side if u else None


NON_COMBAT = "non-combat"             # a unit flag: takes no part in battles


def _fights(game: Game, c: Counter) -> bool:
    u = game.unit(c.unit)
    return c.kind == "unit" and not (u and NON_COMBAT in u.flags)


def _units_at(game: Game, position: Position, hex_id: str, phasing: bool, side: str,
              stacks: Optional[dict] = None) -> list[str]:
    """Combat units of the phasing side (or of the others) in a hex; a unit of no known side is neither.
    `stacks`: the position's stacks where the caller has them (one pass over the position, not one a hex)."""
    here = position.at(hex_id) if stacks is None else stacks.get(hex_id, ())
    return [c.piece for c in here
            if _fights(game, c) and (s := _side_of(game, c)) is not None and (s == side) == phasing]


def _adjacent_attackers(game: Game, position: Position, hex_id: str, side: str,
                        stacks: Optional[dict] = None) -> list[str]:
    return [p for n in game.grid.neighbours(hex_id) for p in _units_at(game, position, n, True, side, stacks)]


def _hexes_of(game: Game, position: Position, side: str, pieces: Iterable[str]) -> list[str]:
    hit: list[str] = []
    for p in pieces:
        c, w = position.counter(p), position.where(p)
        if c and w and w.hex and _fights(game, c) and _side_of(game, c) not in (None, side) and w.hex not in hit:
            hit.append(w.hex)
    return hit


def defender_hexes(game: Game, position: Position, side: str, losses: dict[str, Loss]) -> tuple[list[str], bool]:
    """Hexes of the non-phasing units the record shows losing steps (else, moving: a retreat); else every
    non-phasing hex next to a phasing unit. The flag says whether the record named one battle; otherwise
    several are possible and any that fits makes the roll legal."""
    hit = _hexes_of(game, position, side, [p for p, x in losses.items() if x.removed or x.reduced])
    if hit:
        return hit, True
    moved = _hexes_of(game, position, side, [p for p, x in losses.items() if x.moved])
    if len(moved) == 1:
        return moved, True
    if moved:
        return sorted(moved), False          # which of them retreated from a battle (if any) is not known
    out = []
    stacks = position.stacks()
    for h, stack in stacks.items():
        if any(_fights(game, c) and _side_of(game, c) not in (None, side) for c in stack) and \
                _adjacent_attackers(game, position, h, side, stacks):
            out.append(h)
    return sorted(out), False


def _subsets(required: list[str], optional: list[str]) -> Iterable[tuple[str, ...]]:
    for k in range(len(optional) + 1):
        for extra in itertools.combinations(optional, k):
            s = tuple(required) + extra
            if s:
                yield s


def _subsets_by_outcome(game: Game, position: Position, required: list[str],
                        optional: list[str]) -> Iterable[tuple[str, ...]]:
    """When strengths do not fix the column, attackers without losses matter only by how many join and how
    many steps they have: one subset per such count stands for all the others."""
    groups: dict[Optional[int], list[str]] = {}
    for p in optional:
        groups.setdefault(_steps(game, position.counter(p)), []).append(p)
    members = list(groups.values())
    for counts in itertools.product(*(range(len(g) + 1) for g in members)):
        s = tuple(required) + tuple(p for g, n in zip(members, counts) for p in g[:n])
        if s:
            yield s


@dataclass
class _Tally:
    """The readings tried, one per distinct outcome (readings differing only in which pieces attack are one)."""
    candidates: dict[tuple, Candidate] = field(default_factory=dict)
    reasons: dict[str, None] = field(default_factory=dict)
    no_reasons: dict[str, None] = field(default_factory=dict)
    fits: dict[tuple, tuple[str, Optional[str]]] = field(default_factory=dict)   # memo of cell_fit
    notes: dict[str, None] = field(default_factory=dict)                         # readings taken as standard
    found: bool = False                                                          # a reading fits: stop

    def add(self, c: Candidate, outcome_key: tuple = ()) -> None:
        k = (c.table, c.defender_hex, c.terrain, c.column, c.roll, c.cell, c.fit, c.reason, outcome_key)
        if k in self.candidates:
            return
        self.candidates[k] = c
        if c.fit == YES:
            self.found = True
        into = self.reasons if c.fit == UNKNOWN else self.no_reasons if c.fit == NO else None
        if into is not None and c.reason:
            for part in c.reason.split("; "):
                into[part] = None

    def has(self, fit: str) -> bool:
        return any(c.fit == fit for c in self.candidates.values())

    def all(self) -> list[Candidate]:
        return list(self.candidates.values())

    def kept(self) -> tuple[Candidate, ...]:
        order = {YES: 0, UNKNOWN: 1, NO: 2}
        return tuple(sorted(self.all(), key=lambda c: order[c.fit])[:MAX_CANDIDATES_KEPT])


@dataclass(frozen=True)
class _Battle:
    """What every reading of one battle shares: the game, the position, who attacks, the roll."""
    game: Game
    position: Position
    side: str
    roll: DieRoll
    tables: tuple[CombatTable, ...]
    losses: dict
    after: Position                           # the position once the events after the roll are applied
    memo: dict = field(default_factory=dict)


def _judge_hex(b: _Battle, hex_id: str, tally: _Tally) -> None:
    """Every reading of a battle against one hex: attacker subsets x terrain x hexsides x tables x columns."""
    game, position = b.game, b.position
    defenders = _units_at(game, position, hex_id, False, b.side)
    adjacent = _adjacent_attackers(game, position, hex_id, b.side)
    if not defenders or not adjacent:
        tally.add(Candidate("", hex_id, (), None, None, None, "", UNKNOWN,
                            f"no {b.side} unit is adjacent to {hex_id}" if defenders else f"no defender in {hex_id}"))
        return
    required = [p for p in adjacent if p in b.losses]
    optional = [p for p in adjacent if p not in b.losses]
    complete = any(ct.table.strengths.complete for ct in b.tables)
    if complete and len(optional) > MAX_SUBSET_ATTACKERS:
        tally.add(Candidate("", hex_id, tuple(adjacent), None, None, None, "", UNKNOWN,
                            f"{len(adjacent)} attackers adjacent to {hex_id}: too many subsets to try"))
        return
    d_out = side_outcome(game, position, defenders, b.losses)
    terrains, why_terrain = terrain_options(game, hex_id)
    tried: set[tuple] = set()
    subsets = _subsets(required, optional) if complete else _subsets_by_outcome(game, position, required, optional)
    for attackers in subsets:
        a_out = side_outcome(game, position, attackers, b.losses)
        a_hexes = frozenset(position.where(p).hex for p in attackers)
        for te, ct in itertools.product(terrains, b.tables):
            if te.prohibited:
                continue
            after = _after_battle(b, ct, hex_id, attackers, defenders)
            facts = BattleFacts(tuple(position.counter(p).unit for p in attackers), a_hexes, hex_id, te.terrain)
            drms, _ = table_drms(game, ct, b.side)
            named = table_drm_features(drms)
            te_drm = 0 if te.terrain in named else te.drm      # the table's own DRM for that terrain
            for hx in hexside_readings(game, a_hexes, hex_id, named):
                st = strengths(game, ct.table.strengths, position, attackers, defenders,
                               _times(te.multiplier, hx.multiplier))
                sums, open_ended = modifier_sums(game, ct, b.side, facts, te_drm + hx.drm)
                for n in (te.assumption,) + hx.assumptions:
                    if n:
                        tally.notes[n] = None
                shift = te.shift + hx.shift
                reading = (ct.id, a_out.key(), te, st, shift, frozenset(sums), after.key() if after else ())
                if reading in tried:
                    continue                 # another subset already gave this reading
                tried.add(reading)
                for lk in columns_for(ct, te, st, shift):
                    base = Candidate(ct.id, hex_id, attackers, te.terrain, None, None, "", UNKNOWN)
                    _judge_column(b, ct, lk, base, (a_out, d_out), why_terrain, tally, (sums, open_ended), after)
                    if tally.found:
                        return


def _after_battle(b: _Battle, ct: CombatTable, hex_id: str, attackers: Sequence[str],
                  defenders: Sequence[str]) -> Optional[AfterBattle]:
    """The reading's retreats and advances, where the table says how to judge them."""
    rules = ct.table.after_combat
    if rules is None:
        return None
    key = (ct.id, "map")
    if key not in b.memo:
        b.memo[key] = RetreatMap(b.game, b.position, b.after, rules)
    moves = {p: x.to for p, x in b.losses.items() if x.moved and not x.removed and x.to}
    removed = frozenset(p for p, x in b.losses.items() if x.removed)
    return AfterBattle(b.memo[key], hex_id, tuple(attackers), tuple(defenders), moves, removed)


def _judge_column(b: _Battle, ct: CombatTable, lk: Lookup, base: Candidate,
                  outcomes: tuple[SideOutcome, SideOutcome], why_terrain: Optional[str], tally: _Tally,
                  modifiers: tuple[set[int], Optional[str]], after: Optional[AfterBattle]) -> None:
    """The cells of one column at every modified roll, each judged against what the sides lost."""
    if lk.column is None:
        if lk.reason != "prohibited":
            why = lk.reason if base.terrain or not why_terrain else f"{why_terrain}; {lk.reason}"
            tally.add(dataclasses.replace(base, reason=why))
        return
    heading = ct.headings.columns[lk.column].printed + (f" ({lk.label})" if lk.label else "")
    sums, open_ended = modifiers
    if open_ended:
        tally.add(dataclasses.replace(base, column=heading, reason=open_ended))
    for m in sorted(sums):
        total = b.roll.total + m
        for cell in ct.cells_at(total, lk.column):
            key = (id(cell), outcomes[0].key(), outcomes[1].key(), after.key() if after else ())
            if key not in tally.fits:
                tally.fits[key] = cell_fit(cell, *outcomes, after)
            fit, why = tally.fits[key]
            tally.add(dataclasses.replace(base, column=heading, roll=total, cell=cell.printed, fit=fit, reason=why),
                      outcomes[0].key())


def _apply(position: Position, events: Iterable[Event]) -> Position:
    for e in events:
        if isinstance(e, Moved):
            position = position.placed(e.counter, e.dst)
        elif isinstance(e, Placed):
            position = position.placed(e.counter, e.where)
        elif isinstance(e, Removed):
            position = position.removed(e.counter.piece)
        elif isinstance(e, StateChanged) and position.where(e.counter.piece) is not None:
            position = position.changed(e.counter)
    return position


def _units_of(position: Position, pieces: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c.unit for p in pieces if (c := position.counter(p)) is not None))


def judge_battle(game: Game, position: Position, phasing_side: Optional[str], roll: DieRoll,
                 following_events: Sequence[Event], step: Union[int, Step, None] = None) -> Judgement:
    """Judge the battle a combat roll resolved, from the position at the roll and the events after it
    (up to the next roll or phase change). Call it for rolls made in a combat phase only: the roll is
    taken to be a battle's."""
    step = step.index if isinstance(step, Step) else step
    if phasing_side is None:
        return Judgement("unverified", COMBAT_UNVERIFIED, None,
                         f"combat roll {roll.total}: the attacking side is not known", reason="no phasing side",
                         step=step)
    tables = tables_for_roll(game, roll, phasing_side)
    if not tables:
        return Judgement("unverified", COMBAT_NO_TABLE_FOR_DICE, None,
                         f"combat roll {roll.dice} {roll.total}: no combat table of the tree is rolled with "
                         f"{roll.dice}", reason="no combat table for these dice", step=step)
    losses = observed_losses(position, following_events)
    hexes, named = defender_hexes(game, position, phasing_side, losses)
    if not hexes:
        return Judgement("unverified", COMBAT_BATTLE_UNCLEAR, None,
                         f"combat roll {roll.total}: no defender is adjacent to a {phasing_side} unit",
                         reason="no battle inferred", step=step)
    if named and len(hexes) > 1:
        return Judgement("unverified", COMBAT_UNVERIFIED, None,
                         f"combat roll {roll.total}: losses in {len(hexes)} defender hexes ({', '.join(hexes)}) "
                         "follow one roll", hexes=tuple(hexes), reason="a battle against several hexes is not judged",
                         step=step)
    tally = _Tally()
    battle = _Battle(game, position, phasing_side, roll, tuple(tables), losses, _apply(position, following_events))
    for h in hexes:
        _judge_hex(battle, h, tally)
        if tally.found:
            break
    return _verdict(game, position, roll, hexes, losses, tally, step, tables)


def _result_rules(tally: _Tally, tables) -> tuple[str, ...]:
    """The rules of the results a violation's possible cells give (what the record should have shown), where
    they are few."""
    if tally.has(YES):
        return ()
    by_id = {ct.id: ct for ct in tables}
    out: list[str] = []
    for c in tally.all():
        ct = by_id.get(c.table)
        if ct is None or not c.cell:
            continue
        out += [r.effect.rule for r in read_cell(c.cell, ct.table).results if r.effect and r.effect.rule]
    rules = tuple(dict.fromkeys(out))
    return rules if len(rules) <= 2 else ()          # many possible results: the table's rule says enough


def _verdict(game, position, roll, hexes, losses, tally: _Tally, step, tables) -> Judgement:
    rule = ", ".join(dict.fromkeys(x for x in (tables[0].table.rule,) + _result_rules(tally, tables) if x)) or None
    others = sorted({w.hex for p in losses if (w := position.where(p)) and w.hex} - set(hexes))
    involved = tuple(hexes) + tuple(others)
    units = _units_of(position, sorted(losses))
    shown = f"roll {roll.total}" + (f" ({'+'.join(map(str, roll.faces))})" if len(roll.faces) > 1 else "")
    if tally.has(YES):
        fit = next(c for c in tally.all() if c.fit == YES)
        return Judgement("legal", None, rule,
                         f"combat {shown} against {fit.defender_hex}: fits {fit.table} column {fit.column}, "
                         f"row {fit.roll} ({fit.cell})", tuple(hexes), units, None, tally.kept(), step,
                         notes=tuple(tally.notes))
    if tally.has(UNKNOWN) or not tally.candidates:
        reason = "; ".join(list(tally.reasons)[:4]) or "no reading of the battle could be tried"
        return Judgement("unverified", COMBAT_UNVERIFIED, rule,
                         f"combat {shown} against {', '.join(hexes)}: not judged: {reason}",
                         tuple(hexes), units, reason, tally.kept(), step, notes=tuple(tally.notes))
    cells = sorted({f"{c.column}/{c.roll}: {c.cell}" for c in tally.all()})
    # why, first for the readings with the most attackers (the attack the record most likely shows)
    widest = sorted(tally.all(), key=lambda c: -len(c.attackers))
    seen = "; ".join(list(dict.fromkeys(p for c in widest if c.reason for p in c.reason.split("; ")))[:2])
    if not losses:
        seen += " (no unit lost or moved after the roll)"
    return Judgement("violation", COMBAT_RESULT_NOT_ON_TABLE, rule,
                     f"combat {shown} against {', '.join(hexes)}: the applied result fits no cell the table gives "
                     f"({len(cells)} possible: {', '.join(cells[:6])}{' …' if len(cells) > 6 else ''}); {seen}",
                     involved, units, None, tally.kept(), step, tuple(sorted(losses)),
                     tuple(tally.notes))
