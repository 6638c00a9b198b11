"""Judging one battle: does what the record shows after a combat roll fit the combat table?

The referee calls `judge_battle` for a die roll in a combat phase. The battle is inferred from the
record (who lost steps or moved after the roll, who stood adjacent) and every reading the tree
allows is tried: each defender hex the roll may be for, each subset of the adjacent attackers, each
terrain the defender's hex may have, every column the strengths and the modifiers the tree names may
give (a range of them where a datum is missing: a factor, a marker's effect, a shift), each sum of
the die-roll modifiers that may apply, each cell an unprinted cell may hold, each combat table the
roll may be for. Readings are tried cheapest for the player first: those that break no limit of the
phase (a unit attacking twice, a hex attacked twice: `Limits`, from the ledger) and in which every
unit that moved after the roll attacked.

The verdict: "legal" when a reading fits (it may still show an advance, a retreat's drag or a limit
broken, which other rules report); "unverified" (a note, with the reason) when no reading fits for
certain but one resting on what the tree does not hold may; "unlikely" when only readings resting on an assumption
the tree declares unlikely fit; "prohibited" when every reading is an attack the rules forbid; and
"violation" when no reading fits. Nothing here names a game: all rules come from the tree.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, NamedTuple, Optional, Sequence, Union

from ..source.model import DRM, Game, SideEffect, Unit
from ..positions.position import Counter, Position
from ..positions.stacking import side_of
from ..records.record import DieRoll, Event, Moved, Placed, Removed, StateChanged, Step, dropped_back
from .combat_terrain import (BattleFacts, Strengths, TerrainEffect, condition_holds, drm_counts,
                             hexside_readings, map_known, shift_span, strength_range, table_drm_features,
                             terrain_effect, type_effect)
from .crt import (MAYBE_PROHIBITED, PRINTED, PROHIBITED, Cell, ColumnLine, CombatTable, Lookup, combat_tables,
                  show_value)
from .hex_stacks import HexStacks
from .markers import shown_states
from .retreats import UNREAD, AfterBattle, RetreatMap, advance_faults, moves_fit, retreat_of

# The codes of a judgement's verdicts (each a rule of validator.referee.combat_rules).
COMBAT_RESULT_NOT_ON_TABLE = "HF1501"
COMBAT_RESULT_UNLIKELY = "HF1502"
COMBAT_ODDS_PROHIBITED = "HF1506"
COMBAT_UNVERIFIED = "HF1590"
COMBAT_BATTLE_UNCLEAR = "HF1591"
COMBAT_NO_TABLE_FOR_DICE = "HF1592"

MAX_SUBSET_ATTACKERS = 8            # 2^8 subsets of adjacent attackers at most; beyond, unverified
UNCAPPED_REPEATS = 3                # a repeating modifier without a cap is tried this often, then unverified
MAX_CANDIDATES_KEPT = 24            # candidates reported with a judgement (fitting ones first)
REDUCED = "reduced"

YES, NO, UNKNOWN = "yes", "no", "unknown"
# How cheap a reading is for the player, best first: it fits; it may fit (a datum the tree lacks); it fits
# only on an assumption the tree declares unlikely; it fits but an advance after it is wrong; it fits but
# breaks a limit of the phase; it does not fit.
LEGAL, MAYBE, UNLIKELY, ADVANCE, LIMIT, NOFIT = range(6)


class Candidate(NamedTuple):
    """One reading of the battle: table, defender hex, attackers, terrain, column, modified roll, cell. A
    NamedTuple: a battle makes many."""
    table: str
    defender_hex: str
    attackers: tuple[str, ...]                # pieces
    terrain: Optional[str]
    column: Optional[str]                     # the column as the reading reached it ("3:1 shifted 1L")
    roll: Optional[int]                       # the modified roll
    cell: str
    fit: str                                  # yes | no | unknown
    reason: Optional[str] = None
    col: Optional[int] = None                 # the column's index
    unlikely: Optional[str] = None            # the assumption, declared unlikely, the cell rests on
    faults: tuple = ()                        # (piece, kind, why, step) of the advances after it that are wrong
    breaks: tuple = ()                        # (limit, what) the reading breaks: attack_once, defend_once
    prohibited: Optional[str] = None          # PROHIBITED | MAYBE_PROHIBITED: a column no attack may use
    odds: Optional[str] = None                # "13 against 5" where the strengths are known
    varies: Optional[str] = None              # why the column is a range: a datum missing, a modifier
    unprinted: bool = False                   # the cell is a reading of one the print does not show

    @property
    def rank(self) -> int:
        if self.fit == NO:
            return NOFIT
        if self.breaks:
            return LIMIT
        if self.faults and self.fit == YES:
            return ADVANCE
        if self.unlikely:
            return UNLIKELY
        return MAYBE if self.fit == UNKNOWN else LEGAL


@dataclass(frozen=True)
class Judgement:
    verdict: str                              # legal | violation | unverified | unlikely | prohibited
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
    fit: Optional[Candidate] = None           # the cheapest reading (a fitting one where one fits)
    attackers: tuple[str, ...] = ()           # pieces that certainly attacked (they lost, retreated or advanced)
    possible: tuple[str, ...] = ()            # other pieces next to the defender that may have attacked
    defenders: tuple[str, ...] = ()           # the pieces in the defender's hex
    tie: str = "possible"                     # how sure the roll's tie to `hexes` is: certain | likely | possible
    tie_why: str = ""
    faults: tuple = ()                        # (piece, kind, why, step): advances the cheapest reading condemns
    drags: tuple = ()                         # (piece, step, why): retreat drags where no retreat goes
    outside: tuple = ()                       # (piece, step, why): losses and retreats of units not in the battle
    losses: tuple = ()                        # (piece, what, step): removed | reduced, with the step
    moves: tuple = ()                         # (piece, ((hex, step), ...)): each drag after the roll
    twice: tuple = ()                         # (limit, what): limits the battle breaks for certain or to fit

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
    path: tuple = ()                          # ((hex, step), ...): where each of its drags ended
    step: Optional[int] = None                # the step of its first event after the roll


def observed_losses(position: Position, events: Iterable[Event],
                    steps: Optional[Sequence[int]] = None) -> dict[str, Loss]:
    """Per piece of the position the events touch, their net effect: removed (and not put back; dragged off
    the map into a box counts: a module without a dead pile shows an elimination so), flipped to reduced (and
    not back), moved (a retreat or an advance, with each drag's end and step)."""
    removed: set[str] = set()
    state: dict[str, frozenset[str]] = {}
    paths: dict[str, list] = {}
    first: dict[str, Optional[int]] = {}
    events = list(events)
    for i, e in enumerate(events):
        piece = getattr(e, "counter", None) and e.counter.piece
        if piece is None:
            continue
        at = steps[i] if steps is not None and i < len(steps) else None
        first.setdefault(piece, at)
        if isinstance(e, Removed):
            removed.add(piece)
        elif isinstance(e, Placed):
            removed.discard(piece)
            state[piece] = e.counter.state
        elif isinstance(e, StateChanged):
            state[piece] = e.counter.state
        elif isinstance(e, Moved) and e.dst.hex is None and e.src.hex is not None:
            removed.add(piece)
        elif isinstance(e, Moved) and not dropped_back(e):
            if e.src.hex is None:
                removed.discard(piece)           # back from the box
            paths.setdefault(piece, []).append((e.dst.hex, at))
    out = {}
    for piece in first:
        c = position.counter(piece)
        if c is None:
            continue
        was = REDUCED in c.state
        now = REDUCED in state.get(piece, c.state)
        path = tuple(paths.get(piece, ()))
        loss = Loss(piece, piece in removed, now and not was, bool(path), path[-1][0] if path else None, path,
                    first[piece])
        if loss.removed or loss.reduced or loss.moved:
            out[piece] = loss
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
    unsure_removed: tuple[int, ...] = ()  # per removed unit the tree may give too many steps: the steps too many
    unsure_kept: tuple[int, ...] = ()     # likewise per unit neither removed nor reduced

    @property
    def all_removed(self) -> bool:
        return bool(self.pieces) and self.removed == len(self.pieces)

    def key(self) -> tuple:
        """What a cell's fit depends on (not which pieces): readings with equal keys judge alike."""
        return (len(self.pieces), self.steps_had, self.steps_lost, self.removed, self.reduced,
                self.unsure_removed, self.unsure_kept)

    def fewer_steps(self) -> list[tuple[int, int]]:
        """(steps had, steps lost) if some units the tree is unsure of had one step, not the default."""
        if self.steps_had is None or self.steps_lost is None:
            return []
        out: set[tuple[int, int]] = set()
        for gone in _sums(self.unsure_removed):
            for kept in _sums(self.unsure_kept):
                if gone or kept:
                    out.add((self.steps_had - gone - kept, self.steps_lost - gone))
        return sorted(out)

    def describe(self) -> str:
        if not self.removed and not self.reduced:
            return "no loss"
        parts = []
        if self.removed:
            parts.append(f"{self.removed} of {len(self.pieces)} unit(s) removed")
        if self.reduced:
            parts.append(f"{self.reduced} reduced")
        return ", ".join(parts)


def _sums(spares: tuple[int, ...]) -> set[int]:
    """Every total of some of these numbers (the empty choice included)."""
    out = {0}
    for n in spares[:8]:                      # bound the choices: more units than that share one total anyway
        out |= {t + n for t in out}
    return out


def _steps(game: Game, c: Counter) -> tuple[Optional[int], int]:
    """The counter's steps, and how many fewer it may have where the tree's default is unsure of it."""
    u = game.unit(c.unit)
    if u is None:
        return None, 0
    if REDUCED in c.state:
        return max(u.steps - 1, 1), 0
    return u.steps, (0 if u.steps_sure else u.steps - 1)


def side_outcome(game: Game, position: Position, pieces: Sequence[str], losses: dict[str, Loss]) -> SideOutcome:
    had, lost, removed, reduced = 0, 0, 0, 0
    unsure_removed: list[int] = []
    unsure_kept: list[int] = []
    for p in pieces:
        c = position.counter(p)
        s, spare = _steps(game, c) if c else (None, 0)
        had = None if had is None or s is None else had + s
        loss = losses.get(p)
        if loss and loss.removed:
            removed += 1
            lost = None if lost is None or s is None else lost + s
            if spare:
                unsure_removed.append(spare)
        elif loss and loss.reduced:
            reduced += 1
            lost = None if lost is None else lost + 1
        elif spare:
            unsure_kept.append(spare)
    return SideOutcome(tuple(pieces), had, lost, removed, reduced, tuple(unsure_removed), tuple(unsure_kept))


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
        if e.retreat is not None:                # losses a retreat replaced: a blocked one, or stiff resistance
            retreat_blocked.append("deplete" if e.or_steps is not None else e.blocked)
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
    fit = _compare(o.steps_lost, want, retreat_blocked, f"{want} step(s) lost", o, blocked_judge)
    if fit[0] != NO:
        return fit
    for had, lost in o.fewer_steps():
        low = min(steps, had) if steps else 0
        if _compare(lost, low, retreat_blocked, f"{low} step(s) lost", o, blocked_judge)[0] != NO:
            return UNKNOWN, (f"{fit[1]}, which fits only if a unit removed had one step: the tree does not say "
                             f"which units have one (counters.yaml default_steps_unsure)")
    return fit


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
        steps = lambda ps: sum(_steps(game, position.counter(p))[0] or 1 for p, _ in ps)
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
    terrains may be judged by any of them; a path through it with a combat effect of its own is one more. A
    function of the tree and the hex: worked out once for each (`_TERRAINS`), whichever battle asks."""
    key = (id(game), hex_id)
    hit = _TERRAINS.get(key)
    if hit is None or hit[0] is not game:
        if len(_TERRAINS) >= MAX_TERRAINS:
            _TERRAINS.clear()
        opts, why = _terrain_options(game, hex_id)
        hit = _TERRAINS[key] = (game, tuple(opts), why)
    return list(hit[1]), hit[2]


_TERRAINS: dict = {}                  # (game, hex) -> (the game, its terrain effects, why they may be incomplete)
MAX_TERRAINS = 8192


def _terrain_options(game: Game, hex_id: str) -> tuple[list[TerrainEffect], Optional[str]]:
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


def battle_strengths(b: "_Battle", ct: CombatTable, attackers: Sequence[str], defenders: Sequence[str],
                     multiplier: Optional[int]) -> tuple[Optional[Strengths], Optional[str]]:
    """The strengths the column is entered with: exact from the printed factors where the tree declares them
    complete; else ranges, from the printed factors and the modifiers the table names (`strength_modifiers`:
    each applies as its condition says, both ways where the log cannot tell). None, with why, where a
    factor is not printed or the tree does not say what changes the printed strengths."""
    game, spec, position = b.game, ct.table.strengths, b.position
    att = [_factor(game, position.counter(p), spec.attack) for p in attackers]
    dfn = [_factor(game, position.counter(p), spec.defense) for p in defenders]
    missing = [position.counter(p).unit for p, f in zip(list(attackers) + list(defenders), att + dfn) if f is None]
    if missing:
        return None, f"the factors of {', '.join(dict.fromkeys(missing))} are not printed"
    if spec.complete:
        if multiplier is None:
            return None, "what the defender's terrain does to its strength is not in the tree"
        return Strengths((sum(att), sum(att)), (sum(dfn) * multiplier,) * 2, (), (sum(att), sum(dfn))), None
    if not ct.table.strength_modifiers:
        return None, (f"the printed strengths do not fix the column ({spec.rule or ct.table.rule}) and the tree "
                      "does not say what changes them")
    markers = b.markers()
    shown = b.shown()

    def units(pieces, factors):
        return [(position.counter(p), position.where(p).hex, f, markers.get(position.where(p).hex, ()), shown)
                for p, f in zip(pieces, factors)]
    a, why_a = strength_range(game, ct.table, units(attackers, att), "attack", lambda c: side_of(game, c))
    d, why_d = strength_range(game, ct.table, units(defenders, dfn), "defense", lambda c: side_of(game, c))
    if multiplier is None:
        d, why_d = (d[0], None), why_d + ("the defender's terrain",)
    else:
        d = (d[0] * multiplier, None if d[1] is None else d[1] * multiplier)
    return Strengths(a, d, tuple(dict.fromkeys(why_a + why_d)), (sum(att), sum(dfn))), None


def _span(ct: CombatTable, st: Strengths) -> tuple:
    """The combat values (odds or differential) from the weakest to the strongest reading of the strengths
    (None: no bound that way)."""
    (a_lo, a_hi), (d_lo, d_hi) = st.attack, st.defense
    lo = ct.value(a_lo, d_hi) if d_hi is not None else None
    hi = ct.value(a_hi, d_lo) if a_hi is not None else None
    return lo, hi


def _every_column(ct: CombatTable, why: str) -> list[Lookup]:
    """Every column of the table: an unprinted terrain line may send a combat to any of them."""
    return [Lookup(c.index, label=why) for c in ct.headings.columns]


def columns_for(ct: CombatTable, te: TerrainEffect, st: Optional[Strengths], shifts: tuple[int, int] = (0, 0)
                ) -> list[Lookup]:
    """The columns a battle may use: those its strengths give (every one where they are not known), then
    shifted (terrain) by each shift from shifts[0] to shifts[1] (negative: left), as the table's clamp says.
    A function of the table, the terrain, the span of combat values and the shifts alone: each such reading
    is worked out once (`_COLUMNS`), whichever battle asks."""
    lo, hi = _span(ct, st) if st else (None, None)
    key = (id(ct), te.terrain, lo, hi, shifts[0], shifts[1])
    hit = _COLUMNS.get(key)
    if hit is not None and hit[0] is ct:
        return list(hit[1])
    lines: list[Optional[ColumnLine]]
    if te.terrain is None and ct.lines:
        lines = list(ct.lines) + [None]      # unknown terrain: any printed line, or one not printed
    else:
        lines = [ct.line_for(te.terrain) if te.terrain else ct.headings]
    out: list[Lookup] = []
    for line in lines:
        if line is None:
            out += _every_column(ct, f"any column: the tree prints no line for the terrain of the defender "
                                     f"on {ct.table.name}")
            continue
        found = line.lookups(lo, hi) or [line.lookup(lo)]
        for s in range(shifts[0], shifts[1] + 1):
            out += [x for lk in found for x in shifted(ct, line, lk, s)]
    out = _one_per_column(out)
    if len(_COLUMNS) >= MAX_COLUMN_READINGS:
        _COLUMNS.clear()
    _COLUMNS[key] = (ct, tuple(out))
    return out


_COLUMNS: dict = {}                   # (table, terrain, span, shifts) -> (the table, its columns)
MAX_COLUMN_READINGS = 4096
_LOSS_FITS: dict = {}                 # (cell, each side's losses) -> (the cell, its fit)
MAX_LOSS_FITS = 4096


def _one_per_column(lookups: list[Lookup]) -> list[Lookup]:
    """One reading per column reached (the first way it was reached names it): the cells, and so the fits,
    are the column's, however many strengths and shifts lead there."""
    seen: dict = {}
    for lk in lookups:
        seen.setdefault((lk.column, None) if lk.column is not None else (None, lk.reason, lk.label), lk)
    return list(seen.values())


def shifted(ct: CombatTable, line: ColumnLine, lk: Lookup, shift: int) -> list[Lookup]:
    """A column moved `shift` columns (negative: left); past the first or last column, the clamp's
    shift_below / shift_above says where it lands (lowest/highest) or that it may not be made; where it
    says nothing, both readings."""
    if lk.column is None or not shift:
        return [lk]
    used = [c.index for c in line.columns if c.bounds is not None] or [c.index for c in line.columns]
    to = lk.column + shift
    how = None
    if to < min(used):
        how, edge, side = line.clamp.shift_below, min(used), "left of the first"
    elif to > max(used):
        how, edge, side = line.clamp.shift_above, max(used), "right of the last"
    label = f"{line.columns[lk.column].printed} shifted {_shift_text(shift)}"
    if how is not None:
        past = f"shifted past {line.columns[edge].printed}"
        if how == "prohibited":
            return [Lookup(None, PROHIBITED, label=past)]
        if how not in ("lowest", "highest"):
            return [Lookup(edge, label=f"{label}, {side} column: read as {line.columns[edge].printed}"),
                    Lookup(None, MAYBE_PROHIBITED, label=past)]
        to = edge
    return [Lookup(to, label=label)]


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
NON_COMBAT = "non-combat"             # a unit flag: takes no part in battles


def _fights(game: Game, c: Counter) -> bool:
    u = game.unit(c.unit)
    return c.kind == "unit" and not (u and NON_COMBAT in u.flags)


def _idle(game: Game) -> frozenset:
    """The ids of the tree's units that take no part in battles (a unit of another id fights: `_fights`),
    read once per game."""
    hit = _IDLE.get(id(game))
    if hit is None or hit[0] is not game:
        if len(_IDLE) >= 32:
            _IDLE.clear()
        hit = _IDLE[id(game)] = (game, frozenset(u.id for u in game.units if NON_COMBAT in u.flags))
    return hit[1]


_IDLE: dict = {}


def _units_at(game: Game, position: Position, hex_id: str, phasing: bool, side: str,
              stacks: Optional[dict] = None) -> list[str]:
    """Combat units of the phasing side (or of the others) in a hex; a unit of no known side is neither.
    `stacks`: the position's stacks where the caller has them (one pass over the position, not one a hex)."""
    here = position.at(hex_id) if stacks is None else stacks.get(hex_id, ())
    return [c.piece for c in here
            if _fights(game, c) and (s := side_of(game, c)) is not None and (s == side) == phasing]


def _adjacent_attackers(game: Game, position: Position, hex_id: str, side: str,
                        stacks: Optional[dict] = None) -> list[str]:
    return [p for n in game.grid.neighbours(hex_id) for p in _units_at(game, position, n, True, side, stacks)]


def _hexes_of(game: Game, position: Position, side: str, pieces: Iterable[str]) -> list[str]:
    hit: list[str] = []
    for p in pieces:
        c, w = position.counter(p), position.where(p)
        if c and w and w.hex and _fights(game, c) and side_of(game, c) not in (None, side) and w.hex not in hit:
            hit.append(w.hex)
    return hit


def defender_hexes(game: Game, position: Position, side: str, losses: dict[str, Loss],
                   stacks: Optional[dict] = None) -> tuple[list[str], bool]:
    """Hexes of the non-phasing units the record shows losing steps (else, moving: a retreat, from a hex next
    to a phasing unit where some are: no battle is fought against another); else every non-phasing hex next
    to a phasing unit. The flag says whether the record named the battle's hex(es); otherwise several are
    possible and any that fits makes the roll legal."""
    hit = _hexes_of(game, position, side, [p for p, x in losses.items() if x.removed or x.reduced])
    if hit:
        return hit, True
    moved = _hexes_of(game, position, side, [p for p, x in losses.items() if x.moved])
    moved = [h for h in moved if _adjacent_attackers(game, position, h, side, stacks)] or moved
    if len(moved) == 1:
        return moved, True
    if moved:
        return sorted(moved), False          # which of them retreated from a battle (if any) is not known
    near = _next_to_losing_attackers(game, position, side, losses, stacks)
    if near:
        return near, False                   # an attacker lost a step: its battle was next to it
    if isinstance(stacks, HexStacks):
        return sorted(stacks.front(side, _idle(game), game.grid.neighbours)), False
    stacks = stacks if stacks is not None else position.stacks()
    out = [h for h, stack in stacks.items()
           if any(_fights(game, c) and side_of(game, c) not in (None, side) for c in stack)
           and _adjacent_attackers(game, position, h, side, stacks)]
    return sorted(out), False


def _next_to_losing_attackers(game: Game, position: Position, side: str, losses: dict[str, Loss],
                              stacks: Optional[dict]) -> list[str]:
    """The defender hexes next to every unit of the attacking side the record shows losing a step after the roll
    (a battle's attacker stands next to its defender); [] where none lost one, or no hex is next to them all."""
    lost = [p for p, x in losses.items() if (x.removed or x.reduced) and (c := position.counter(p)) is not None
            and side_of(game, c) == side]
    near: Optional[set] = None
    for p in lost:
        w = position.where(p)
        if w is None or w.hex is None:
            return []
        here = {n for n in game.grid.neighbours(w.hex) if _units_at(game, position, n, False, side, stacks)}
        near = here if near is None else near & here
    return sorted(near) if near else []


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
    cell_reasons: dict[str, None] = field(default_factory=dict)   # of readings of a printed cell: said first
    no_reasons: dict[str, None] = field(default_factory=dict)
    fits: dict[tuple, tuple[str, Optional[str]]] = field(default_factory=dict)   # memo of cell_fit
    notes: dict[str, None] = field(default_factory=dict)                         # readings taken as standard
    best: Optional[Candidate] = None                                             # the cheapest reading so far
    tried: set = field(default_factory=set)      # the readings judged (each judged once, whatever gave it)
    done: set = field(default_factory=set)       # the attacker subsets whose readings were all judged
    best_rank: int = NOFIT + 1                   # the rank of `best` (above every rank while there is none)
    legal_only: bool = False                     # only whether a reading fits outright is asked: readings
                                                 # that cannot (`_cannot_fit`) are left untried

    @property
    def found(self) -> bool:                 # a reading fits outright: stop
        return self.best_rank == LEGAL

    def add(self, c: Candidate, outcome_key: tuple = ()) -> None:
        k = (c.table, c.defender_hex, c.terrain, c.column, c.roll, c.cell, c.fit, c.reason, c.unlikely, c.faults,
             c.breaks, outcome_key)
        if k not in self.candidates:
            self.put(k, c)

    def put(self, k: tuple, c: Candidate) -> None:
        """A reading not tried before (`k`: its key, as `add` makes it)."""
        self.candidates[k] = c
        rank = c.rank
        if rank < self.best_rank or (rank == ADVANCE == self.best_rank and _fault_cost(c) < _fault_cost(self.best)):
            self.best, self.best_rank = c, rank
        into = ((self.cell_reasons if c.cell and not c.unprinted else self.reasons) if c.fit == UNKNOWN
                else self.no_reasons if c.fit == NO else None)
        if into is not None and c.reason:
            for part in c.reason.split("; "):
                into[part] = None

    def has(self, fit: str) -> bool:
        return any(c.fit == fit for c in self.candidates.values())

    def all(self) -> list[Candidate]:
        return list(self.candidates.values())

    def kept(self) -> tuple[Candidate, ...]:
        return tuple(sorted(self.all(), key=lambda c: c.rank)[:MAX_CANDIDATES_KEPT])


def _fault_cost(c: Candidate) -> tuple[int, int]:
    """Of two readings with faults, the cheaper: fewer faults, then the first of them later (the log up to it
    has a legal reading: the violation is where none is left)."""
    return len(c.faults), -min((f[3] or 0 for f in c.faults), default=0)


@dataclass(frozen=True)
class Limits:
    """What the phase's earlier battles leave for this one (from the ledger): the pieces that attacked and
    the hexes attacked, and the rules that bind them (`rules.combat`, each the number of its rule)."""
    attackers: frozenset = frozenset()
    hexes: frozenset = frozenset()
    attack_once: Optional[str] = None
    defend_once: Optional[str] = None
    one_hex: Optional[str] = None
    classes: frozenset = frozenset()          # the movement classes that may attack in the phase (empty: all)
    classes_rule: Optional[str] = None
    before: frozenset = frozenset()           # pieces that attacked in an earlier phase barring them from this one
    before_rule: Optional[str] = None


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
    limits: Limits = Limits()
    stacks: Optional[dict] = None             # hex -> its counters (the replay's, where it has them)
    events: tuple = ()                        # the events after the roll ...
    event_steps: Optional[Sequence[int]] = None   # ... and the step of each, where known
    later: frozenset = frozenset()            # pieces whose drags after the roll may be a later phase's moves
    now: frozenset = frozenset()              # ... that the battle's phase itself lets move
    inferred: bool = False                    # the battle's phase is inferred (neither the marker nor the chat names it)
    memo: dict = field(default_factory=dict)

    def moment(self, step: int) -> Position:
        """The position once the events after the roll up to a step (that step's too) are applied."""
        key = ("moment", step)
        if key not in self.memo:
            steps = self.event_steps or ()
            self.memo[key] = _apply(self.position, (e for e, n in zip(self.events, steps) if n is not None
                                                    and n <= step))
        return self.memo[key]

    def markers(self) -> "_HexMarkers":
        """Hex -> the markers in it (read per hex, once a battle, and only where a strength modifier asks)."""
        if "markers" not in self.memo:
            self.memo["markers"] = _HexMarkers(self.position)
        return self.memo["markers"]

    def defenders(self, hex_id: str) -> list[str]:
        """The combat units of the defending sides in a hex (`_units_at`), read once a battle."""
        key = ("defenders", hex_id)
        out = self.memo.get(key)
        if out is None:
            out = self.memo[key] = _units_at(self.game, self.position, hex_id, False, self.side, self.stacks)
        return out

    def adjacent(self, hex_id: str) -> list[str]:
        """The attacking side's combat units next to a hex (`_adjacent_attackers`), read once a battle."""
        key = ("adjacent", hex_id)
        out = self.memo.get(key)
        if out is None:
            out = self.memo[key] = _adjacent_attackers(self.game, self.position, hex_id, self.side, self.stacks)
        return out

    def shown(self) -> dict:
        """Marker id -> the unit states it shows (worked out once per game: every battle of an audit asks)."""
        return shown_states(self.game)


class _HexMarkers:
    """The marker ids standing in each hex, read hex by hex from the position's index (a battle asks only
    about the hexes of its units)."""

    def __init__(self, position: Position):
        self._position, self._hexes = position, {}

    def get(self, hex_id: Optional[str], default=()) -> tuple[str, ...]:
        out = self._hexes.get(hex_id)
        if out is None:
            here = self._position.at(hex_id) if hex_id is not None else ()
            out = self._hexes[hex_id] = tuple(c.unit for c in here if c.kind == "marker")
        return out or default


@dataclass(frozen=True)
class _Pass:
    """One pass over the readings: `clean` tries only readings that break no limit; `movers_attack` makes
    every phasing unit that moved after the roll an attacker (else it may be one that did not attack)."""
    clean: bool
    movers_attack: bool


PASSES = (_Pass(True, True), _Pass(True, False), _Pass(False, True))


def _breaks(b: _Battle, hex_id: str, attackers: Iterable[str]) -> tuple:
    lim = b.limits
    out = []
    attackers = tuple(attackers)
    if lim.defend_once and hex_id in lim.hexes:
        out.append(("defend_once", hex_id))
    twice = tuple(p for p in attackers if p in lim.attackers) if lim.attack_once else ()
    if twice:
        out.append(("attack_once", twice))
    barred = tuple(p for p in attackers if _class_barred(b, p)) if lim.classes else ()
    if barred:
        out.append(("attack_class", barred))
    earlier = tuple(p for p in attackers if p in lim.before)
    if earlier:
        out.append(("attacked_before", earlier))
    return tuple(out)


def _class_barred(b: _Battle, piece: str) -> bool:
    """The piece's movement class may not attack in the phase (`Limits.classes`; a class not known may)."""
    c = b.position.counter(piece)
    u = b.game.unit(c.unit) if c is not None else None
    return u is not None and u.movement_class is not None and u.movement_class not in b.limits.classes


def _judge_hex(b: _Battle, hex_id: str, tally: _Tally, ps: _Pass) -> None:
    """Every reading of a battle against one hex: attacker subsets x terrain x hexsides x tables x columns."""
    game, position = b.game, b.position
    defenders = b.defenders(hex_id)
    adjacent = b.adjacent(hex_id)
    if not defenders or not adjacent:
        tally.add(Candidate("", hex_id, (), None, None, None, "", UNKNOWN,
                            f"no {b.side} unit is adjacent to {hex_id}" if defenders else f"no defender in {hex_id}"))
        return
    lost = [p for p in adjacent if p in b.losses and (b.losses[p].removed or b.losses[p].reduced)]
    movers = [p for p in adjacent if p in b.losses and p not in lost]
    required = lost + (movers if ps.movers_attack else [])
    optional = [p for p in adjacent if p not in required]
    if ps.clean:
        if _breaks(b, hex_id, required):
            return
        optional = [p for p in optional if not (b.limits.attack_once and p in b.limits.attackers)
                    and not (b.limits.classes and _class_barred(b, p)) and p not in b.limits.before]
    complete = any(ct.table.strengths.complete for ct in b.tables)
    if complete and len(optional) > MAX_SUBSET_ATTACKERS:
        tally.add(Candidate("", hex_id, tuple(adjacent), None, None, None, "", UNKNOWN,
                            f"{len(adjacent)} attackers adjacent to {hex_id}: too many subsets to try"))
        return
    d_out = side_outcome(game, position, defenders, b.losses)
    terrains, why_terrain = terrain_options(game, hex_id)
    subsets = _subsets(required, optional) if complete else _subsets_by_outcome(game, position, required, optional)
    for attackers in subsets:
        if attackers in tally.done:
            continue                         # an earlier pass judged every reading with these attackers
        _judge_attackers(b, hex_id, tally, attackers, defenders, movers, d_out, terrains, why_terrain)
        if tally.found:
            return
        tally.done.add(attackers)


def _judge_attackers(b: _Battle, hex_id: str, tally: _Tally, attackers: tuple, defenders: list, movers: list,
                     d_out: SideOutcome, terrains: list, why_terrain: Optional[str]) -> None:
    """Every reading of the battle against one hex with these attackers: terrain x tables x hexsides x columns
    (a function of the attackers, whichever pass asks; a reading another subset gave is not tried again)."""
    game, position, tried = b.game, b.position, tally.tried
    breaks = _breaks(b, hex_id, attackers)
    if breaks and tally.legal_only:
        return                               # a reading breaking a limit never fits outright
    a_out = side_outcome(game, position, attackers, b.losses)
    a_hexes = frozenset(position.where(p).hex for p in attackers)
    for te, ct in itertools.product(terrains, b.tables):
        if te.prohibited:
            continue
        facts = BattleFacts(tuple(position.counter(p).unit for p in attackers), a_hexes, hex_id, te.terrain)
        if ct.table.requires is not None and condition_holds(game, ct.table.requires, facts) == NO:
            continue
        after = _after_battle(b, ct, hex_id, attackers, defenders, movers)
        drms, _ = table_drms(game, ct, b.side)
        named = table_drm_features(drms)
        te_drm = 0 if te.terrain in named else te.drm      # the table's own DRM for that terrain
        for hx in hexside_readings(game, a_hexes, hex_id, named):
            sums, open_ended = modifier_sums(game, ct, b.side, facts, te_drm + hx.drm)
            if tally.legal_only and _cannot_fit(ct, b.roll.total, sums):
                continue
            st, why_st = battle_strengths(b, ct, attackers, defenders, _times(te.multiplier, hx.multiplier))
            known = te.terrain is not None and map_known(game)
            least, most, why_shift = shift_span(game, ct.table, te.shift + hx.shift, facts, known,
                                                len(ct.headings.columns))
            for n in (te.assumption,) + hx.assumptions:
                if n:
                    tally.notes[n] = None
            reading = (ct.id, a_out.key(), te, st, least, most, frozenset(sums),
                       after.key() if after else (), breaks)
            if reading in tried:
                continue                 # another subset already gave this reading
            tried.add(reading)
            why = "; ".join(w for w in (why_terrain if te.terrain is None else None, why_st, why_shift) if w)
            mods = f"{', '.join(st.why)} may change the strengths" if st and st.why else None
            base = Candidate(ct.id, hex_id, attackers, te.terrain, None, None, "", UNKNOWN, breaks=breaks,
                             odds=_odds_text(ct, st), varies="; ".join(w for w in (why_st, mods, why_shift) if w)
                             or None)
            for lk in columns_for(ct, te, st, (least, most)):
                _judge_column(b, ct, lk, base, (a_out, d_out), why or None, tally, (sums, open_ended), after)
                if tally.found:
                    return


def _cannot_fit(ct: CombatTable, roll: int, sums: Iterable[int]) -> bool:
    """No cell at any modified roll and column may fit outright: none is printed, certain and likely (as
    `cell_fit` and `Candidate.rank` read a cell), whatever the column. A function of the table and the
    rolls alone (`CombatTable.may_fit`)."""
    return not any(ct.may_fit(roll + m) for m in sums)


def _odds_text(ct: CombatTable, st: Optional[Strengths]) -> Optional[str]:
    """"2 against 8 (1:4)": the totals exact, else as the factors print them ("printed 12 against 4 (3:1)")."""
    ex = st.exact() if st else None
    if ex is None and (st is None or st.printed is None):
        return None
    a, d = ex or st.printed
    v = ct.value(a, d)
    return ("" if ex else "printed ") + f"{a} against {d}" + (f" ({show_value(v)})" if v is not None else "")


def _after_battle(b: _Battle, ct: CombatTable, hex_id: str, attackers: Sequence[str],
                  defenders: Sequence[str], movers: Sequence[str]) -> Optional[AfterBattle]:
    """The reading's retreats and advances, where the table says how to judge them."""
    rules = ct.table.after_combat
    if rules is None:
        return None
    key = (ct.id, "map")
    if key not in b.memo:
        b.memo[key] = RetreatMap(b.game, b.position, b.after, rules, b.moment if b.event_steps else None)
    moves = {p: x.to for p, x in b.losses.items() if x.moved and not x.removed and x.to}
    paths = {p: x.path for p, x in b.losses.items() if x.moved}
    removed = frozenset(p for p, x in b.losses.items() if x.removed)
    others = [p for p, x in b.losses.items() if x.moved and not x.removed and p not in movers
              and (c := b.position.counter(p)) is not None and c.kind == "unit" and side_of(b.game, c) == b.side
              and (w := b.position.where(p)) is not None and w.hex is not None]   # an entry is no advance
    adjacent = frozenset(b.adjacent(hex_id))
    used = b.limits.attackers if b.limits.attack_once else frozenset()
    return AfterBattle(b.memo[key], hex_id, tuple(attackers), tuple(defenders), moves, removed, paths,
                       tuple(movers) + tuple(others), adjacent, used, b.later)


def _judge_column(b: _Battle, ct: CombatTable, lk: Lookup, base: Candidate,
                  outcomes: tuple[SideOutcome, SideOutcome], why_open: Optional[str], tally: _Tally,
                  modifiers: tuple[set[int], Optional[str]], after: Optional[AfterBattle]) -> None:
    """The cells of one column at every modified roll, each judged against what the sides lost."""
    if lk.column is None:
        if lk.reason in (PROHIBITED, MAYBE_PROHIBITED):
            where = lk.label or f"beyond the columns of {ct.table.name}"
            why = (f"{where}, no attack may be made ({ct.table.clamp.rule or ct.table.rule})"
                   if lk.reason == PROHIBITED else f"{where}, the attack may be one the rules forbid (the tree "
                                                   "does not say)")
            tally.add(base._replace(column=where, fit=NO, reason=why, prohibited=lk.reason))
        else:
            why = f"{why_open}; {lk.reason}" if why_open else lk.reason
            tally.add(base._replace(reason=why))
        return
    heading = ct.headings.columns[lk.column].printed + (f" ({lk.label})" if lk.label else "")
    sums, open_ended = modifiers
    if open_ended:
        tally.add(base._replace(column=heading, col=lk.column, reason=open_ended))
    a_key, d_key = outcomes[0].key(), outcomes[1].key()
    after_key = after.key() if after else ()
    fits, seen = tally.fits, tally.candidates
    for m in sorted(sums):
        total = b.roll.total + m
        for cell in ct.cells_at(total, lk.column):
            key = (id(cell), a_key, d_key, after_key)      # cells_at gives the same cells each time
            hit = fits.get(key)
            if hit is None:
                hit = fits[key] = _fit(cell, outcomes, after)
            fit, why, faults = hit
            k = (base.table, base.defender_hex, base.terrain, heading, total, cell.printed, fit, why, cell.unlikely,
                 faults, base.breaks, a_key)              # `_Tally.add`'s key, known before the reading is made
            if k not in seen:                             # the base reading at this column, roll and cell
                tally.put(k, Candidate(base.table, base.defender_hex, base.attackers, base.terrain, heading, total,
                                       cell.printed, fit, why, lk.column, cell.unlikely, faults, base.breaks,
                                       base.prohibited, base.odds, base.varies, cell.unprinted))


def _fit(cell: Cell, outcomes: tuple[SideOutcome, SideOutcome], after: Optional[AfterBattle]) -> tuple:
    """(fit, why, advance faults) of one cell: the result as losses and retreats, then the advances made.
    Where the table judges no retreat or advance, a function of the cell and of how many units and steps
    each side had and lost: worked out once for each (`_LOSS_FITS`), whichever battle asks."""
    if after is None:
        key = (id(cell), outcomes[0].key(), outcomes[1].key())
        hit = _LOSS_FITS.get(key)
        if hit is not None and hit[0] is cell:
            return hit[1]
        if len(_LOSS_FITS) >= MAX_LOSS_FITS:
            _LOSS_FITS.clear()
        fit, why = cell_fit(cell, *outcomes, None)
        _LOSS_FITS[key] = (cell, (fit, why, ()))
        return fit, why, ()
    fit, why = cell_fit(cell, *outcomes, after)
    if fit == NO or after is None or cell.state != PRINTED or cell.reason:
        return fit, why, ()
    by_side = side_effects(cell)
    fa, faults = advance_faults(after, by_side, cell.printed) if by_side else (UNKNOWN, ())
    if fa == UNKNOWN and fit == YES:
        return UNKNOWN, f"how far {cell.printed} advances is not printed", ()
    return fit, why, faults


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


def _not_a_combat_roll(game: Game, roll: DieRoll) -> str:
    """What a roll no combat table is rolled with is: the tree's note on those dice says what else they are
    rolled for (Ardennes II's 1d6: barrages, reconciliation, arrivals)."""
    die = next((d for d in game.dice if d.name == roll.dice), None)
    what = f" (the tree rolls {roll.dice} for: {die.note})" if die is not None and die.note else ""
    return f"die roll {roll.dice} = {roll.total}: no combat table of the tree is rolled with {roll.dice}{what}; " \
           f"not judged as a battle"


def judge_battle(game: Game, position: Position, phasing_side: Optional[str], roll: DieRoll,
                 following_events: Sequence[Event], step: Union[int, Step, None] = None,
                 event_steps: Optional[Sequence[int]] = None, limits: Optional[Limits] = None,
                 stacks: Optional[dict] = None,
                 later_move: Optional[Callable[[Counter], bool]] = None,
                 move_now: Optional[Callable[[Counter], bool]] = None) -> Judgement:
    """Judge the battle a combat roll resolved, from the position at the roll and the events after it
    (up to the next roll or phase change; `event_steps`: the step of each). Call it for rolls made in a
    combat phase only: the roll is taken to be a battle's. `limits`: what the phase's earlier battles used;
    `stacks`: the position's counters by hex, where the caller keeps them; `later_move`: where the phase is
    inferred, whether a later phase of the turn lets a unit move (its drags after the roll may be that phase's:
    only what a battle's reading needs of them is judged); None: every event given is the battle's phase's.
    `move_now`: whether the battle's phase itself lets a unit move (its drags after the roll may be moves)."""
    step = step.index if isinstance(step, Step) else step
    if phasing_side is None:
        return Judgement("unverified", COMBAT_UNVERIFIED, None,
                         f"combat roll {roll.total}: the attacking side is not known", reason="no phasing side",
                         step=step)
    tables = tables_for_roll(game, roll, phasing_side)
    if not tables:
        return Judgement("unverified", COMBAT_NO_TABLE_FOR_DICE, None, _not_a_combat_roll(game, roll),
                         reason="no combat table for these dice", step=step)
    losses = observed_losses(position, following_events, event_steps)
    hexes, named = defender_hexes(game, position, phasing_side, losses, stacks)
    if not hexes:
        return Judgement("unverified", COMBAT_BATTLE_UNCLEAR, None,
                         f"combat roll {roll.total}: no defender is adjacent to a {phasing_side} unit",
                         reason="no battle inferred", step=step)
    limits = limits or Limits()
    if named and len(hexes) > 1 and not limits.one_hex:
        return Judgement("unverified", COMBAT_UNVERIFIED, None,
                         f"combat roll {roll.total}: losses in {len(hexes)} defender hexes ({', '.join(hexes)}) "
                         "follow one roll", hexes=tuple(hexes), reason="a battle against several hexes is not judged",
                         step=step)
    later = frozenset(p for p, x in losses.items() if x.moved and later_move is not None
                      and (c := position.counter(p)) is not None and later_move(c))
    now = frozenset(p for p, x in losses.items() if x.moved and move_now is not None
                    and (c := position.counter(p)) is not None and move_now(c))
    battle = _Battle(game, position, phasing_side, roll, tuple(tables), losses, _apply(position, following_events),
                     limits, stacks, tuple(following_events), event_steps, later, now, later_move is not None)
    best: Optional[tuple] = None
    fitting = []
    for h in _by_cheapest(hexes, limits):
        # once a hex's best reading fits or may fit, another hex counts only where one of its readings fits
        # outright: it is searched for that alone, and again in full where it becomes the best
        legal_only = best is not None and best[1].best is not None and best[1].best.rank <= MAYBE
        tally = _search(battle, h, legal_only)
        if legal_only and tally.found and best[1].best.rank > LEGAL:
            tally = _search(battle, h)
        if best is None or tally.best is not None and (best[1].best is None or tally.best.rank < best[1].best.rank):
            best = (h, tally)
        if tally.found:
            fitting.append(h)
            if named or len(fitting) == 2:
                break                         # the log names the battle's hex: the first that fits is it; else
                                              # two that fit make the tie "possible" and the first stays best
    h, tally = best
    j = _verdict(battle, hexes if not named or len(hexes) == 1 else [h], tally, step, tables)
    return _with_battle(battle, j, h, hexes, named, tally, fitting)


def _by_cheapest(hexes: list[str], limits: Limits) -> list[str]:
    """The defender hexes in the order they are tried: those not yet attacked this phase first."""
    if not limits.defend_once:
        return list(hexes)
    return [h for h in hexes if h not in limits.hexes] + [h for h in hexes if h in limits.hexes]


def _search(b: _Battle, hex_id: str, legal_only: bool = False) -> _Tally:
    """Every reading of the battle against one hex, pass by pass, until one fits outright (`legal_only`:
    only the readings that may)."""
    tally = _Tally(legal_only=legal_only)
    movers = any(x.moved and not x.removed and (c := b.position.counter(p)) is not None and side_of(b.game, c) == b.side
                 for p, x in b.losses.items())
    for ps in PASSES:
        if ps.clean is False and not (b.limits.attack_once or b.limits.defend_once or b.limits.classes
                                      or b.limits.before):
            continue
        if not ps.movers_attack and not movers:
            continue                          # no unit of the attacking side moved: the same readings again
        _judge_hex(b, hex_id, tally, ps)
        if tally.found:
            break
    return tally


def _result_rules(tally: _Tally, tables) -> tuple[str, ...]:
    """The rules of the results a violation's possible cells give (what the record should have shown), where
    they are few."""
    if tally.best is not None and tally.best.rank < NOFIT:
        return ()
    by_id = {ct.id: ct for ct in tables}
    out: list[str] = []
    for c in tally.all():
        ct = by_id.get(c.table)
        if ct is None or not c.cell:
            continue
        out += [r.effect.rule for r in ct.read(c.cell).results if r.effect and r.effect.rule]
    rules = tuple(dict.fromkeys(out))
    return rules if len(rules) <= 2 else ()          # many possible results: the table's rule says enough


def _shown(roll: DieRoll) -> str:
    return f"roll {roll.total}" + (f" ({'+'.join(map(str, roll.faces))})" if len(roll.faces) > 1 else "")


def _verdict(b: _Battle, hexes, tally: _Tally, step, tables) -> Judgement:
    game, position, roll, losses = b.game, b.position, b.roll, b.losses
    rule = ", ".join(dict.fromkeys(x for x in (tables[0].table.rule,) + _result_rules(tally, tables) if x)) or None
    others = sorted({w.hex for p in losses if (w := position.where(p)) and w.hex} - set(hexes))
    involved = tuple(hexes) + tuple(others)
    units = _units_of(position, sorted(losses))
    shown, best = _shown(roll), tally.best
    notes = tuple(tally.notes)
    if best is not None and best.rank in (LEGAL, ADVANCE, LIMIT):
        if best.unprinted:
            name = next((ct.table.name for ct in tables if ct.id == best.table), best.table)
            notes += (f"the cell of row {best.roll} under column {best.column} of the {name} is not printed for "
                      f"certain: the result fits if it is {best.cell}, one of what the tree says it may hold "
                      "(tables.yaml unprinted)",)
        return Judgement("legal", None, rule,
                         f"combat {shown} against {best.defender_hex}: fits {best.table} column {best.column}, "
                         f"row {best.roll} ({best.cell})", tuple(hexes), units, None, tally.kept(), step, notes=notes)
    if (best is not None and best.rank == MAYBE) or not tally.candidates:
        reason = "; ".join(list(dict.fromkeys([*tally.cell_reasons, *tally.reasons]))[:4]) or \
            "no reading of the battle could be tried"
        return Judgement("unverified", COMBAT_UNVERIFIED, rule,
                         f"combat {shown} against {', '.join(hexes)}: not judged: {reason}",
                         tuple(hexes), units, reason, tally.kept(), step, notes=notes)
    if best.rank == UNLIKELY:
        cell = best.cell or "a cell the print does not show"
        return Judgement("unlikely", COMBAT_RESULT_UNLIKELY, rule,
                         f"combat {shown} against {best.defender_hex}: the applied result fits only if "
                         f"{best.unlikely}: {best.table} column {best.column}, row {best.roll} ({cell})",
                         tuple(hexes), units, best.unlikely, tally.kept(), step, notes=notes)
    if all(c.prohibited == PROHIBITED for c in tally.all()):
        widest = max(tally.all(), key=lambda c: len(c.attackers))
        odds = f" at {widest.odds}" if widest.odds else ""
        pieces = widest.attackers + tuple(b.defenders(widest.defender_hex))
        return Judgement("prohibited", COMBAT_ODDS_PROHIBITED, tables[0].table.clamp.rule or rule,
                         f"combat {shown} against {widest.defender_hex}{odds}, with every unit next to it attacking: "
                         f"{widest.reason}", involved, _units_of(position, pieces), None, tally.kept(), step,
                         tuple(sorted(losses)), notes)
    return Judgement("violation", COMBAT_RESULT_NOT_ON_TABLE, rule,
                     f"combat {shown} against {', '.join(hexes)}: {_tried(tally, roll, hexes, losses, tables)}",
                     involved, units, None, tally.kept(), step, tuple(sorted(losses)), notes)


def _tried(tally: _Tally, roll: DieRoll, hexes, losses, tables) -> str:
    """What a violation's readings were, and what the log shows against them. One column: every cell it may
    be; several (a datum the tree lacks): per table, the columns, rolls and results tried, whatever the
    missing datum."""
    tried = [c for c in tally.all() if c.cell]
    cells = sorted({f"{c.column}/{c.roll}: {c.cell}" for c in tried})
    # why, first for the readings with the most attackers (the attack the record most likely shows)
    widest = sorted(tally.all(), key=lambda c: -len(c.attackers))
    seen = "; ".join(list(dict.fromkeys(p for c in widest if c.reason and not c.prohibited
                                        for p in c.reason.split("; ")))[:2])
    if not losses:
        seen += " (no unit lost or moved after the roll)"
    if len({c.col for c in tried if c.col is not None}) <= 1 and len({c.table for c in tried}) <= 1:
        return (f"the applied result fits no cell the table gives ({len(cells)} possible: {', '.join(cells[:6])}"
                f"{' …' if len(cells) > 6 else ''}); {seen}")
    parts = []
    for ct in tables:
        mine = [c for c in tally.all() if c.table == ct.id]
        if mine:
            parts.append(_tried_on(ct, mine, roll, hexes, len(tables) > 1))
    return f"{'; '.join(parts)}; none fits what the log shows: {seen}"


def _tried_on(ct: CombatTable, cands: list[Candidate], roll: DieRoll, hexes, named: bool) -> str:
    """The readings tried on one table: "whatever the terrain of X and the column (a to b; why), a roll of n
    gives A, B or C"."""
    tried = [c for c in cands if c.cell]
    columns = sorted({c.col for c in tried if c.col is not None})
    unknown_terrain = [h for h in hexes if any(c.terrain is None and c.defender_hex == h for c in tried)]
    whatever = (f"the terrain of {', '.join(unknown_terrain)} and the column" if unknown_terrain else "the column")
    heads = _column_range(ct, columns)
    base = next((c.odds for c in sorted(tried, key=lambda c: -len(c.attackers)) if c.odds), None)
    varies = list(dict.fromkeys(p for c in tried if c.varies for p in c.varies.split("; ")))
    heads += (f"; {base}" if base else "") + (f"; {'; '.join(varies[:3])}" if varies else "")
    rolls = sorted({c.roll for c in tried})
    at = (f"a roll of {rolls[0]}" if rolls == [roll.total] else
          f"a modified roll of {rolls[0]}" if len(rolls) == 1 else f"a modified roll of {rolls[0]} to {rolls[-1]}")
    results = list(dict.fromkeys(c.cell for c in sorted(tried, key=lambda c: (c.col or 0, c.roll or 0))))
    gives = ", ".join(results[:-1]) + (" or " if len(results) > 1 else "") + results[-1] if results else "nothing"
    barred = sorted({c.reason for c in cands if c.prohibited})
    also = (" (some of them readings of cells the print does not show: every one the tree allows)"
            if any(c.unprinted for c in tried) else "") + (f"; {'; '.join(barred)}" if barred else "")
    on = f"on the {ct.table.name}, " if named else ""
    return f"{on}whatever {whatever} ({heads}), {at} gives {gives}{also}"


def _column_range(ct: CombatTable, columns: list[int]) -> str:
    """The columns tried, as printed: "1:4 to 3:1" where they run on, else listed."""
    if not columns:
        return "no column"
    name = [ct.headings.columns[i].printed for i in columns]
    if columns == list(range(columns[0], columns[-1] + 1)) and len(columns) > 2:
        return f"{name[0]} to {name[-1]}"
    return ", ".join(name)


def _with_battle(b: _Battle, j: Judgement, h: str, hexes: list[str], named: bool, tally: _Tally,
                 fitting: list[str]) -> Judgement:
    """The judgement with what the ledger keeps of the battle: who attacked and who may have, the defenders,
    how sure the roll's tie to the hex is, and what the log shows done after it that no reading allows."""
    adjacent = b.adjacent(h)
    tie, why = _tie(b, h, hexes, named, fitting)
    certain = _certain_attackers(b, adjacent, tie, h)
    best = tally.best
    chosen = best.attackers if best is not None and best.defender_hex == h else ()
    faults = best.faults if best is not None and best.rank != NOFIT else ()   # a reading breaking a limit still fits
    losses = tuple((p, "removed" if x.removed else "reduced", x.step) for p, x in b.losses.items()
                   if x.removed or x.reduced)
    moves = tuple((p, x.path) for p, x in b.losses.items() if x.moved)
    outside = _outside(b, h, adjacent, tie if b.limits.one_hex else "possible")   # else a battle may take in more
    return dataclasses.replace(
        _without(b, j, {p for p, _, _ in outside}), fit=best, attackers=certain,
        possible=tuple(p for p in chosen if p not in certain),
        defenders=tuple(b.defenders(h)), tie=tie, tie_why=why,
        faults=faults, drags=_drag_faults(b, h, best), outside=outside,
        losses=losses, moves=moves, twice=_twice(b, h, tie, certain, best))


def _advanced_only(b: _Battle, p: str, h: str) -> bool:
    """The piece, which attacked earlier in the phase, only moved into the defender's hex after this roll: an
    advance by a unit that did not attack (HF1509 says so), not proof that it attacked twice."""
    x = b.losses[p]
    return p in b.limits.attackers and not (x.removed or x.reduced) and any(hx == h for hx, _ in x.path)


def _certain_attackers(b: _Battle, adjacent: list[str], tie: str, h: str) -> tuple[str, ...]:
    """The pieces that attacked for certain: those next to the hex that lost a step or moved after the roll
    (not one that attacked earlier and only advanced into the hex: `_advanced_only`); and the only unit of the
    attacking side next to a hex the roll is tied to for certain (a battle has an attacker: it was that one,
    Meuse 8.1)."""
    certain = tuple(p for p in adjacent if p in b.losses and not _advanced_only(b, p, h))
    if not certain and tie == "certain" and len(adjacent) == 1:
        return tuple(adjacent)
    return certain


def _without(b: _Battle, j: Judgement, outside: set) -> Judgement:
    """A violation's judgement naming only the battle's units: those not in it (HF1508 reports them) are left
    out of its pieces, units and hexes, so that it and HF1508 say two things."""
    if j.verdict != "violation" or not outside:
        return j
    kept = tuple(p for p in j.pieces if p not in outside)
    held = {w.hex for p in kept if (w := b.position.where(p)) is not None}
    gone = {w.hex for p in outside if (w := b.position.where(p)) is not None} - held
    return dataclasses.replace(j, pieces=kept, units=_units_of(b.position, kept),
                               hexes=tuple(x for x in j.hexes if x not in gone or x == j.hexes[0]))


def _twice(b: _Battle, h: str, tie: str, certain: tuple, best: Optional[Candidate]) -> tuple:
    """The limits of the phase this battle breaks: for certain (an attacker that lost or moved attacked
    earlier; the hex, tied for certain, was attacked earlier), or because only a reading breaking one fits."""
    lim = b.limits
    out = list(_breaks(b, h, certain)) if tie == "certain" else [
        x for x in _breaks(b, h, certain) if x[0] in ("attack_once", "attack_class", "attacked_before")]
    if best is not None and best.rank == LIMIT:
        out += [x for x in best.breaks if x not in out]
    if not lim.defend_once:
        out = [x for x in out if x[0] != "defend_once"]
    return tuple(out)


def _moves_judged(b: _Battle) -> bool:
    """The tables say how retreats go and that no unit outside a battle is moved by one (no displacement)."""
    rules = [ct.table.after_combat for ct in b.tables]
    return all(r is not None and r.retreat and not r.displaces for r in rules)


def _displaces(b: _Battle) -> bool:
    """A table's retreat may move a friendly unit outside the battle out of its way (Aachen 8.3.1)."""
    return any(ct.table.after_combat is not None and ct.table.after_combat.displaces for ct in b.tables)


def _tie(b: _Battle, h: str, hexes: list[str], named: bool, fitting: list[str]) -> tuple[str, str]:
    """How sure it is that the roll settled the battle against h, and why."""
    s = b.game.side(b.side)
    side = s.name if s else b.side
    if named:
        return "certain", f"the log shows losses or a retreat in {h} after the roll"
    if len(hexes) == 1:
        return "certain", f"{h} is the only hex of a defending unit next to a unit of {side}"
    if fitting == [h]:
        return "likely", (f"of {len(hexes)} hexes of defending units next to a unit of {side}, {h} is the only one "
                          "against which a reading fits what the log shows")
    lim = b.limits
    open_ = [x for x in hexes if not (lim.defend_once and x in lim.hexes)]
    if open_ == [h]:
        return "likely", (f"of {len(hexes)} hexes of defending units next to a unit of {side}, {h} is the only "
                          "one not attacked yet this phase")
    return "possible", f"any of {len(hexes)} hexes of defending units next to a unit of {side} may be the battle's"


def _drag_faults(b: _Battle, h: str, best: Optional[Candidate]) -> tuple:
    """(piece, step, why) for each retreat whose drags go where no retreat goes: of the defenders and of the
    attackers that moved, where the reading's result retreats their side (a move no result allows is the
    result's question, HF1501)."""
    ct = next((t for t in b.tables if best is not None and t.id == best.table), None)
    rules = ct.table.after_combat if ct is not None else None
    if rules is None or not rules.retreat or not best.cell or best.rank == NOFIT:
        return ()                              # no reading fits (HF1501): its drags are no reading's retreats
    after = _after_battle(b, ct, h, best.attackers, b.defenders(h), ())
    by_side = side_effects(ct.read(best.cell)) or {}
    out = []
    for side, pieces in (("defender", after.defenders), ("attacker", best.attackers)):
        n = retreat_of(by_side.get(side, []))
        for p in pieces:
            if n is not None and p in after.moves and p not in after.removed:
                hit = after.drag_fault(p, n)
                if hit:
                    out.append((p, hit[0], hit[1]))
    return tuple(out)


def _outside(b: _Battle, h: str, adjacent: list[str], tie: str) -> tuple:
    """(piece, step, why) for each unit the log shows losing a step, eliminated or moving after the roll
    though it was in neither side of the battle against h: a defender elsewhere, an attacker not next to h.
    Where the roll's tie to h is only possible (or a battle may take in several hexes), only a unit no battle of
    the roll could take in (no enemy next to it). A move only where no retreat displaces a friendly unit and no
    phase may be its (`_Battle.later`); where the tables judge retreats, a phasing unit's move is an advance's
    question (HF1509); where they do not, only a unit no battle could take in, in a phase the marker or the chat
    names that does not let it move."""
    out = []
    judged, displaced = _moves_judged(b), _displaces(b)
    for p, x in b.losses.items():
        c, w = b.position.counter(p), b.position.where(p)
        if c is None or c.kind != "unit" or w is None or w.hex is None or not _fights(b.game, c):
            continue
        mine = side_of(b.game, c) == b.side
        lost = x.removed or x.reduced
        if (mine and p in adjacent) or (not mine and w.hex == h) or (mine and not lost and judged):
            continue                          # in the battle; a phasing unit's move is an advance's question
        if not lost and (displaced or p in b.later or (not judged and (b.inferred or p in b.now))):
            continue                          # a unit may be displaced by a retreat, or move in a phase
        if (tie not in ("certain", "likely") or (not lost and not judged)) and _in_some_battle(b, w.hex, mine):
            continue                          # the roll may be for a battle it was in
        what = "is eliminated" if x.removed else "loses a step" if x.reduced else \
            f"moves {' -> '.join([w.hex] + [t for t, _ in x.path])}"
        u = b.game.unit(c.unit)
        out.append((p, x.step, f"{u.name if u else c.unit} in {w.hex} {what} after the roll, though it was not in "
                               f"the battle against {h}"))
    return tuple(out)


def _in_some_battle(b: _Battle, hex_id: str, phasing: bool) -> bool:
    """A unit in this hex may have fought a battle of the roll: an enemy stands next to it."""
    return any(_units_at(b.game, b.position, n, not phasing, b.side, b.stacks) for n in b.game.grid.neighbours(hex_id))
