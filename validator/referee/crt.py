"""A typed reading of a combat results table: columns as bounds, rows by roll, cells as results.

Everything comes from the tree's `Table` (the method falls back on the game's rules.combat): the
method (odds or differential), the rounding of a ratio, the printed column headings, the clamp
(what a combat beyond the printed columns uses), the key and its structured effects. A heading that
does not read is a `Column` with a `reason`, never an exception; a cell the print lacks is "not
printed", a "?" is "illegible".
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Optional, Union

from ..source.model import Game, ResultEffect, Table, TableClamp

Value = Union[int, Fraction]

PRINTED, NOT_PRINTED, ILLEGIBLE = "printed", "not printed", "illegible"
PROHIBITED = "prohibited"                    # a Lookup's reason: the clamp says no such attack may be made
MAYBE_PROHIBITED = "maybe prohibited"        # the tree does not say: one reading is that no such attack is made
NO_EFFECT_MARKS = ("-", "—", "–")            # a dash in a cell: no effect, whether or not the key lists it
ROUNDINGS = ("defender", "attacker", "nearest")
DEFAULT_ROUNDING = "defender"                # the standard convention where the tree prints none


@dataclass(frozen=True)
class Bounds:
    """Inclusive bounds over the rounded ratio (odds) or the differential; None leaves a side open."""
    lo: Optional[Value]
    hi: Optional[Value]

    def contains(self, v: Value) -> bool:
        return (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)


@dataclass(frozen=True)
class Column:
    index: int
    printed: str
    bounds: Optional[Bounds]                 # None: unused ("" on a terrain line) or unreadable
    reason: Optional[str] = None             # why the heading does not read


@dataclass(frozen=True)
class Result:
    """One result code in a cell: the key entry it matched, the number printed with it, its effect."""
    token: str                               # as printed: "DR2"
    code: str                                # the key's code: "DR#"
    number: Optional[int]
    effect: Optional[ResultEffect]           # None = effect unknown


@dataclass(frozen=True)
class Cell:
    printed: str
    state: str                               # printed | not printed | illegible
    results: tuple[Result, ...] = ()
    reason: Optional[str] = None             # why the cell cannot be judged (a token not in the key)
    unlikely: Optional[str] = None           # the assumption, declared unlikely by the tree, this reading rests on
    unprinted: bool = False                  # a reading of a cell the print does not show (tables.yaml unprinted)


@dataclass(frozen=True)
class Lookup:
    """Where a combat value falls: a column index, or None with the reason."""
    column: Optional[int]
    reason: Optional[str] = None             # "prohibited" or why the tree cannot tell
    label: Optional[str] = None              # on a terrain line: the differential printed there, and the line


@dataclass(frozen=True)
class ColumnLine:
    """A set of column bounds: the table's headings, or one terrain line (a differential per column)."""
    name: str
    terrain: tuple[str, ...]                 # terrain ids the line is for; () = the table's headings
    columns: tuple[Column, ...]
    clamp: TableClamp

    def at(self, c: Column) -> Lookup:
        return Lookup(c.index, label=f"{c.printed} on {self.name}" if self.terrain else None)

    def lookup(self, v: Value) -> Lookup:
        for c in self.columns:
            if c.bounds is not None and c.bounds.contains(v):
                return self.at(c)
        used = [c for c in self.columns if c.bounds is not None]
        if not used:
            return Lookup(None, f"no column of {self.name} reads")
        if all(c.bounds.lo is not None and v < c.bounds.lo for c in used):
            return self._beyond(self.clamp.below, min(used, key=lambda c: c.bounds.lo), v, "below")
        if all(c.bounds.hi is not None and v > c.bounds.hi for c in used):
            return self._beyond(self.clamp.above, max(used, key=lambda c: c.bounds.hi), v, "above")
        return Lookup(None, f"{_show(v)} falls between the columns of {self.name}")

    def _beyond(self, how: str, edge: Column, v: Value, side: str) -> Lookup:
        if how in ("lowest", "highest"):
            return self.at(edge)
        if how == "prohibited":
            return Lookup(None, PROHIBITED)
        return Lookup(None, f"{_show(v)} is {side} the columns of {self.name} and the tree does not say "
                            "which column applies")

    def lookups(self, lo: Optional[Value], hi: Optional[Value]) -> list[Lookup]:
        """Every column a combat value from lo to hi (None: no bound that way) may use on this line, and
        beyond the printed columns what the clamp says; where it says nothing, every reading it allows:
        the edge column, or (headings) no such attack, or (a terrain line) a column the line leaves blank."""
        used = [c for c in self.columns if c.bounds is not None]
        if not used:
            return [Lookup(None, f"no column of {self.name} reads")]
        out = [self.at(c) for c in used
               if (hi is None or c.bounds.lo is None or c.bounds.lo <= hi)
               and (lo is None or c.bounds.hi is None or c.bounds.hi >= lo)]
        first, last = used[0], used[-1]
        if first.bounds.lo is not None and (lo is None or lo < first.bounds.lo):
            out += self._beyond_all(self.clamp.below, first, "below")
        if last.bounds.hi is not None and (hi is None or hi > last.bounds.hi):
            out += self._beyond_all(self.clamp.above, last, "above")
        return list(dict.fromkeys(out))

    def _beyond_all(self, how: str, edge: Column, side: str) -> list[Lookup]:
        if how in ("lowest", "highest"):
            return [self.at(edge)]
        if how == "prohibited":
            return [Lookup(None, PROHIBITED, label=f"{side} {edge.printed}")]
        blank = [c for c in self.columns if c.bounds is None and c.reason is None
                 and (c.index < edge.index if side == "below" else c.index > edge.index)]
        if self.terrain and blank:             # the line's blank cells: the next columns of the table
            return [self.at(edge)] + [Lookup(c.index, label=f"{c.printed}, which {self.name} leaves blank")
                                      for c in blank]
        return [self.at(edge), Lookup(None, MAYBE_PROHIBITED, label=f"{side} {edge.printed}")]


@dataclass(frozen=True)
class CombatTable:
    table: Table
    method: Optional[str]                    # odds | differential
    rounding: str                            # how an odds ratio rounds: defender | attacker | nearest
    headings: ColumnLine
    lines: tuple[ColumnLine, ...]            # terrain lines, where the table prints them
    rows: dict                               # roll -> tuple[Cell, ...] (one per column)
    problems: tuple[str, ...]                # what does not read, said plainly
    readings: dict = None                    # (roll, column) -> the cells an unprinted or uncertain cell may be
    gaps: dict = None                        # roll of a short row -> the column most likely without its cell
    _cells: dict = field(default_factory=dict, compare=False, repr=False)   # cells_at, read once per cell
    _fits: dict = field(default_factory=dict, compare=False, repr=False)    # may_fit, read once per roll
    _read: dict = field(default_factory=dict, compare=False, repr=False)    # read, once per printed text

    @property
    def id(self) -> str:
        return self.table.id

    def line_for(self, terrain: str) -> Optional[ColumnLine]:
        """The terrain line for a terrain id; the headings when the table has no terrain lines."""
        if not self.lines:
            return self.headings
        return next((ln for ln in self.lines if terrain in ln.terrain), None)

    def value(self, attack: int, defense: int) -> Optional[Value]:
        """The combat value a column is looked up by: the rounded odds ratio or the differential."""
        if self.method == "differential":
            return attack - defense
        if self.method == "odds":
            return round_odds(attack, defense, self.rounding)
        return None

    def cells_at(self, roll: int, column: int) -> tuple[Cell, ...]:
        """The cell of a roll and column, or every cell it may be: where the tree says what an unprinted or
        uncertain cell may hold (`unprinted`), each of those; where the row prints fewer cells than there are
        columns and does not say which one is missing, each printed cell it may be and the missing one.
        Read once per roll and column (every reading of every battle asks): the same cells each time."""
        key = (roll, column)
        cells = self._cells.get(key)
        if cells is None:
            cells = self._cells[key] = self._read_cells(roll, column)
        return cells

    def read(self, printed: str) -> Cell:
        """A cell's printed text read by the table's key (`read_cell`), once per text: the readings of a
        battle name the table's own cells."""
        hit = self._read.get(printed)
        if hit is None:
            if len(self._read) >= MAX_READ:
                self._read.clear()
            hit = self._read[printed] = read_cell(printed, self.table)
        return hit

    def may_fit(self, roll: int) -> bool:
        """Some column's cell at this (modified) roll may fit a battle outright: printed, certain and not
        resting on an unlikely reading (what `combat.cell_fit` and a reading's rank ask of a cell)."""
        hit = self._fits.get(roll)
        if hit is None:
            hit = self._fits[roll] = any(
                c.state == PRINTED and not c.reason and not c.unlikely
                for col in range(len(self.headings.columns)) for c in self.cells_at(roll, col))
        return hit

    def _read_cells(self, roll: int, column: int) -> tuple[Cell, ...]:
        alts = self.readings.get((roll, column)) if self.readings else None
        if alts:
            return alts
        name = self.table.name
        cells = self.rows.get(roll)
        if cells is None:
            return (Cell("", NOT_PRINTED, reason=f"row {roll} of {name} is not printed"),)
        short = len(self.headings.columns) - len(cells)
        if short <= 0:
            return (cells[column],)
        heading = self.headings.columns[column].printed
        gap = self.gaps.get(roll) if self.gaps else None
        missing = Cell("", NOT_PRINTED, reason=f"row {roll} of {name} prints {len(cells)} cells for "
                                               f"{len(self.headings.columns)} columns and does not say which "
                                               f"is missing: column {heading} may be the one not printed")
        out = []
        for i in range(max(0, column - short), min(column, len(cells) - 1) + 1):
            # cell i stands in this column if the gap lies left of it (column - i cells to its left are missing)
            out.append(_gap_reading(cells[i], gap, column, i, short, self.headings, roll))
        out.append(_gap_reading(missing, gap, column, None, short, self.headings, roll))
        return tuple(out)

    def roll_range(self) -> Optional[tuple[int, int]]:
        if self.table.rolls:
            return self.table.rolls
        return (min(self.rows), max(self.rows)) if self.rows else None


def _gap_reading(cell: Cell, gap: Optional[int], column: int, printed_at: Optional[int], short: int,
                 headings: "ColumnLine", roll: int) -> Cell:
    """A reading of a short row's cell under a column, marked unlikely where the tree names the column most
    likely without its cell and this reading puts the gap elsewhere (one gap: `short` == 1)."""
    if gap is None or short != 1:
        return cell
    if printed_at is None or column == gap:
        likely = printed_at is None and column == gap
    else:                                    # left of the gap a cell stands in its own column, right of it one on
        likely = (printed_at == column) == (gap > column)
    if likely:
        return cell
    where = headings.columns[gap].printed
    return replace(cell, unlikely=f"row {roll}'s missing cell is not under {where}, where the tree takes it to be")


def show_value(v: Value) -> str:
    """A combat value as a column prints it: "1:4", "3:1", "+5"."""
    return _show(v)


def _show(v: Value) -> str:
    if isinstance(v, Fraction):
        return f"{v.numerator}:{v.denominator}"
    return f"{v:+d}"


# -- odds --
def round_odds(attack: int, defense: int, rounding: str = DEFAULT_ROUNDING) -> Optional[Fraction]:
    """The ratio as a table column names it (n:1 or 1:n). Rounded in the defender's favour, the attacker
    loses the fraction when stronger (16:9 -> 1:1) and the defender keeps it when stronger (4:15 -> 1:4)."""
    if attack < 0 or defense < 0 or (attack == 0 and defense == 0):
        return None
    if defense == 0:
        return Fraction(10 ** 6)             # undefended: beyond every printed column
    if attack == 0:
        return Fraction(1, 10 ** 6)
    if attack >= defense:
        r = Fraction(attack, defense)
        n = {"defender": math.floor, "attacker": math.ceil, "nearest": _round_half_down}[rounding](r)
        return Fraction(max(n, 1))
    r = Fraction(defense, attack)
    n = {"defender": math.ceil, "attacker": math.floor, "nearest": _round_half_up}[rounding](r)
    return Fraction(1, max(n, 1))


def _round_half_down(r: Fraction) -> int:
    return math.ceil(r - Fraction(1, 2))


def _round_half_up(r: Fraction) -> int:
    return math.floor(r + Fraction(1, 2))


_ODDS = re.compile(r"(\d+)\s*[:\-]\s*(\d+)\s*(\+|-)?")


def parse_odds(printed: str) -> tuple[Optional[Bounds], Optional[str]]:
    """"3:1" -> [3, 3]; "1-2" -> [1/2, 1/2]; "7:1+" -> [7, open]; "1:8-" -> [open, 1/8]."""
    s = printed.strip()
    m = _ODDS.fullmatch(s)
    if not m:
        return None, f"column {printed!r} is not an odds ratio (a:b)"
    a, b = int(m.group(1)), int(m.group(2))
    if a == 0 or b == 0:
        return None, f"column {printed!r} has a zero term"
    if a != 1 and b != 1:
        return None, f"column {printed!r} is neither n:1 nor 1:n"
    r = Fraction(a, b)
    if m.group(3) == "+":
        return Bounds(r, None), None
    if m.group(3) == "-":
        return Bounds(None, r), None
    return Bounds(r, r), None


# -- differentials --
_NUM = r"[+\-]?\d+"
_DIFF_RANGE = re.compile(rf"({_NUM})\s*(?:to|\.\.|–)\s*({_NUM})")


def _norm(s: str) -> str:
    return s.replace("−", "-").replace("≤", "<=").replace("≥", ">=").replace(" ", "")


def parse_differential(printed: str) -> tuple[Optional[Bounds], Optional[str]]:
    """"-1" -> [-1, -1]; "+2, +3" -> [2, 3]; "≤-2" -> [open, -2]; "11+" -> [11, open]; "" -> unused."""
    s = _norm(printed.strip())
    if not s:
        return None, None
    try:
        if s.startswith("<="):
            return Bounds(None, int(s[2:])), None
        if s.startswith(">="):
            return Bounds(int(s[2:]), None), None
        if s.endswith("+") and re.fullmatch(rf"{_NUM}\+", s):
            return Bounds(int(s[:-1]), None), None
        if s.endswith("-") and re.fullmatch(rf"{_NUM}-", s):
            return Bounds(None, int(s[:-1])), None
        m = _DIFF_RANGE.fullmatch(printed.strip().replace("−", "-"))
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            return (Bounds(lo, hi), None) if lo <= hi else (None, f"column {printed!r} runs backwards")
        values = sorted(int(p) for p in s.split(","))
        if values != list(range(values[0], values[-1] + 1)):
            return None, f"column {printed!r} lists differentials that are not consecutive"
        return Bounds(values[0], values[-1]), None
    except ValueError:
        return None, f"column {printed!r} is not a differential"


def _columns(printed: tuple[str, ...], parse) -> tuple[tuple[Column, ...], list[str]]:
    cols, problems = [], []
    for i, p in enumerate(printed):
        b, why = parse(str(p))
        cols.append(Column(i, str(p), b, why))
        if why:
            problems.append(why)
    return tuple(cols), problems


def _terrain_lines(t: Table, n: int) -> tuple[tuple[ColumnLine, ...], list[str]]:
    """A table that prints a differential per column for each defender terrain (extra.terrain_rows)."""
    lines, problems = [], []
    for r in t.extra.get("terrain_rows") or ():
        diffs = tuple(str(d) for d in r.get("differentials") or ())
        cols, why = _columns(diffs, parse_differential)
        problems += [f"terrain line {r.get('printed')!r}: {w}" for w in why]
        if len(cols) != n:
            problems.append(f"terrain line {r.get('printed')!r} has {len(cols)} cells for {n} columns")
        cl = r.get("clamp")
        clamp = TableClamp(cl.get("below", "unknown"), cl.get("above", "unknown"), cl.get("rule")) if cl else t.clamp
        lines.append(ColumnLine(f"the {r.get('printed')} line", tuple(r.get("terrain") or ()), cols, clamp))
    return tuple(lines), problems


# -- cells --
MAX_READ = 1024                        # texts a table keeps read (its own cells' are far fewer)


def _key_patterns(t: Table) -> list[tuple[re.Pattern, object]]:
    """Key codes as patterns ("DR#" -> DR(\\d+)), longest first so "DR2" is not read as "D" + "R2"."""
    pats = []
    for k in sorted(t.key, key=lambda k: len(k.code), reverse=True):
        rx = re.escape(k.code).replace(r"\#", r"(\d+)").replace("#", r"(\d+)")
        pats.append((re.compile(rx), k))
    return pats


def _tokens(cell: str, t: Table) -> list[str]:
    s = cell
    for sep in t.separators:
        s = s.replace(sep, " ")
    return s.split()


def read_cell(cell: str, t: Table, pats=None) -> Cell:
    pats = pats if pats is not None else _key_patterns(t)
    s = cell.strip()
    if not s:
        return Cell(cell, NOT_PRINTED, reason="the cell is not printed")
    results: list[Result] = []
    for part in _tokens(s, t):
        if part == "?":
            return Cell(cell, ILLEGIBLE, reason=f"the cell {cell!r} has a result the print does not show")
        if part in NO_EFFECT_MARKS and not any(k.code == part for k in t.key):
            results.append(Result(part, part, None, ResultEffect(None)))
            continue
        pos = 0
        while pos < len(part):
            for rx, k in pats:
                m = rx.match(part, pos)
                if m and m.end() > pos:
                    num = int(m.group(1)) if m.groups() else None
                    results.append(Result(m.group(0), k.code, num, k.effect))
                    pos = m.end()
                    break
            else:
                return Cell(cell, PRINTED, tuple(results), reason=f"{part[pos:]!r} in {cell!r} is not in the key")
    return Cell(cell, PRINTED, tuple(results))


def read_table(game: Game, t: Table) -> CombatTable:
    """The typed reading of one combat table of the tree."""
    method = t.method or game.rules.combat.method
    problems: list[str] = []
    if method == "odds":
        cols, why = _columns(t.columns, parse_odds)
    elif method == "differential" and not t.extra.get("terrain_rows"):
        cols, why = _columns(t.columns, parse_differential)
    else:
        # columns numbered as printed; the bounds are on the terrain lines (or unknown)
        cols, why = tuple(Column(i, str(c), None) for i, c in enumerate(t.columns)), []
        if method not in ("odds", "differential"):
            why = [f"table {t.name}: the combat method {method!r} is neither odds nor differential"]
    problems += why
    lines, why = _terrain_lines(t, len(cols)) if method == "differential" else ((), [])
    problems += why
    rounding = t.rounding or DEFAULT_ROUNDING
    if rounding not in ROUNDINGS:
        problems.append(f"rounding {rounding!r} is not one of {', '.join(ROUNDINGS)}")
        rounding = DEFAULT_ROUNDING
    pats = _key_patterns(t)
    rows: dict[int, tuple[Cell, ...]] = {}
    for row in t.rows:
        if not row.rolls:
            problems.append(f"row {row.roll!r} does not read as die roll(s)")
        cells = tuple(read_cell(c, t, pats) for c in row.results)
        for r in row.rolls:
            rows[r] = cells
    readings, gaps = _unprinted_readings(t, cols, rows, pats, problems)
    return CombatTable(t, method, rounding, ColumnLine(f"table {t.name}", (), cols, t.clamp), lines, rows,
                       tuple(problems), readings, gaps)


def _unprinted_readings(t: Table, cols: tuple[Column, ...], rows: dict, pats,
                        problems: list) -> tuple[dict, dict]:
    """(roll, column) -> the cells the tree says an unprinted or uncertain cell may be (`unprinted` with
    `any_of`), each but the `likely` one marked unlikely; and the likely gap column of each short row."""
    readings: dict = {}
    gaps: dict = {}
    by_heading = {c.printed: c.index for c in cols}
    rng = t.roll_range()
    every_roll = tuple(range(rng[0], rng[1] + 1)) if rng else tuple(rows)
    for u in t.unprinted:
        columns = [by_heading.get(h) for h in u.columns] if u.columns else [c.index for c in cols]
        if None in columns:
            problems.append(f"unprinted: a column of {', '.join(u.columns)} is not a heading of {t.name}")
            continue
        if u.gap_likely is not None:
            if u.gap_likely not in by_heading:
                problems.append(f"unprinted: gap_likely {u.gap_likely!r} is not a heading of {t.name}")
            else:
                gaps.update({r: by_heading[u.gap_likely] for r in (u.rows or every_roll)})
        alts = _cells_of(u, t, pats)
        if not alts:
            continue
        for r in u.rows or every_roll:
            for c in columns:
                readings[(r, c)] = alts
    return readings, gaps


def _cells_of(u, t: Table, pats) -> tuple[Cell, ...]:
    """The cells an `unprinted` entry says a cell may hold, each read against the key."""
    if u.key:
        cells = [Cell(k.code, PRINTED, (Result(k.code, k.code, None, k.effect),)) for k in t.key]
    else:
        cells = [read_cell(x, t, pats) for x in u.any_of]
    why = f" ({u.note})" if u.note else ""
    out = []
    for c in cells:
        unlikely = (f"the cell is {c.printed!r}, not the {u.likely!r} the tree takes as likely{why}"
                    if u.likely is not None and c.printed != u.likely else None)
        out.append(replace(c, unlikely=unlikely, unprinted=True))
    return tuple(out)


_READ: list = [None, ()]                      # the last game asked about, and its tables read


def combat_tables(game: Game) -> list[CombatTable]:
    """Every combat table of the tree, the one rules.combat names first (read once for the game
    being audited: every battle asks)."""
    if _READ[0] is not game:
        ts = [t for t in game.tables if t.kind == "combat"]
        ts.sort(key=lambda t: t.id != game.rules.combat.table)
        _READ[:] = [game, tuple(read_table(game, t) for t in ts)]
    return list(_READ[1])
