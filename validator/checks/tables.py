"""Checks on the combat-results and other tables, the terrain-effects chart and victory hexes."""
from __future__ import annotations

import re

from . import Finding, check


def _required_rolls(t):
    r = t.roll_range()
    return set(range(r[0], r[1] + 1)) if r else None


def _incomplete(t):
    return None if t.complete else "warning"


@check("HF601", "table-rolls-missing", "error",
       "add the missing die-roll rows, or mark the table `complete: false` if the print lacks them")
def table_rolls_missing(ctx):
    """A die-roll table with no row for some roll its dice can give.

    ## What it checks
    For each table, every roll from the lowest to the highest it must cover has a row: the table's
    `rolls` range (the modified rolls, as printed), else every total of its dice. In a table declared
    incomplete (`complete: false`) the missing rows are a warning, not an error.

    ## Why
    A roll with no row has no result: the referee could not judge it and the printed chart would show a
    gap. A table whose print lacks rows says so with `complete: false`.

    ## Reads
    `tables.yaml` `tables[]`: `rolls`, `dice`, `rows[].roll`, `complete`; `game.yaml` `dice`.

    ## Violation
    The 1d6 CRT loses its row "4-6":

        tables.yaml:2:3: error[HF601] table Combat Results Table: no row for roll(s) 4, 5, 6

    ## Near miss
    The last row written `roll: "4-6"` covers 4, 5 and 6: no finding.
    """
    for t in ctx.game.tables:
        need = _required_rolls(t)
        if need is None:
            continue
        have = {r for row in t.rows for r in row.rolls}
        missing = sorted(need - have)
        if missing:
            yield Finding(t.loc, f"table {t.name}: no row for roll(s) {', '.join(map(str, missing))}",
                          severity=_incomplete(t))


@check("HF612", "table-die-undeclared", "error",
       "name one of the dice game.yaml declares under `dice` (e.g. 1d6), or declare the die there")
def table_die_undeclared(ctx):
    """A table rolled with dice that game.yaml does not declare.

    ## What it checks
    Every table's `dice` names one of game.yaml's `dice` (by name: `1d6`, `2d6`, `D6`).

    ## Why
    The dice say which rolls a table must have rows for (HF601) and which of a log's die buttons the
    referee reads the table with; an undeclared die has neither.

    ## Reads
    `tables.yaml` `tables[].dice`; `game.yaml` `dice[].name`.

    ## Violation
    The CRT with `dice: 1d10`, in a game that declares only 1d6:

        tables.yaml:2:3: error[HF612] table Combat Results Table: die '1d10' is not declared in game.yaml (declared: 1d6)

    ## Near miss
    A die declared as `{name: D6, count: 1, sides: 6}` and the CRT with `dice: D6`: no finding.
    """
    declared = [d.name for d in ctx.game.dice]
    for t in ctx.game.tables:
        if t.dice and t.die is None:
            yield Finding(t.loc, f"table {t.name}: die {t.dice!r} is not declared in game.yaml "
                                 f"(declared: {', '.join(declared) or 'none'})")


@check("HF602", "table-cells-missing", "error",
       "every row has one cell per column; add the missing cells (or mark the table incomplete)")
def table_cells_missing(ctx):
    """A table row with fewer or more cells than the table has columns.

    ## What it checks
    Every row of every table has exactly one result per column. A short row in a table declared
    incomplete is a warning; a long row is always an error.

    ## Why
    A row with a cell too few does not say under which column the gap is, so every later cell of it may
    sit under the wrong odds; the finding never guesses which.

    ## Reads
    `tables.yaml` `tables[]`: `columns`, `rows[].results`, `complete`.

    ## Violation
    Roll 1 of the three-column CRT with two results:

        tables.yaml:12:5: error[HF602] table Combat Results Table, roll 1: 2 cells for 3 columns (1 missing; a short row does not show under which column)

    ## Near miss
    The row's three cells, the last one changed to `D2`: no finding.
    """
    for t in ctx.game.tables:
        n = len(t.columns)
        for row in t.rows:
            if len(row.results) < n:
                # a short list of cells cannot tell which column lacks one: never name a column
                gap = n - len(row.results)
                yield Finding(row.loc, f"table {t.name}, roll {row.roll}: {len(row.results)} cells for {n} columns "
                                       f"({gap} missing; a short row does not show under which column)",
                              severity=_incomplete(t))
            elif len(row.results) > n:
                yield Finding(row.loc, f"table {t.name}, roll {row.roll}: {len(row.results)} cells for {n} columns")


@check("HF603", "table-roll-unreadable", "error", "write the roll as printed: '4', '2 or 3', '1-3', '-1'")
def table_roll_unreadable(ctx):
    """A table row whose roll does not read as die rolls.

    ## What it checks
    Every row of a table with dice has a `roll` that reads as one or more totals: `4`, `2 or 3`, `1-3`,
    `-1`, `4, 5 or 6`, `7+`.

    ## Why
    The roll is how the referee and the chart find the row for a total; a roll it cannot read belongs to
    no total.

    ## Reads
    `tables.yaml` `tables[].rows[].roll`, `dice`.

    ## Violation
    A row with `roll: x`:

        tables.yaml:27:5: error[HF603] table Combat Results Table: roll 'x' does not read as die roll(s)

    ## Near miss
    `roll: "4, 5 or 6"`: no finding.
    """
    for t in ctx.game.tables:
        for row in t.rows:
            if not row.rolls and t.dice:
                yield Finding(row.loc, f"table {t.name}: roll {row.roll!r} does not read as die roll(s)")


@check("HF604", "table-roll-duplicated", "error", "each die roll has one row")
def table_roll_duplicated(ctx):
    """A die roll that two rows of one table cover.

    ## What it checks
    No total falls in two rows of a table.

    ## Why
    A roll with two rows has two results; one of the rows is misread ("1-3" for "2-3").

    ## Reads
    `tables.yaml` `tables[].rows[].roll`.

    ## Violation
    The second row widened to `roll: 1-3`, overlapping roll 1's row:

        tables.yaml:17:5: error[HF604] table Combat Results Table: roll 1 is in two rows ('1' and '1-3')

    ## Near miss
    `roll: 2-3`: no overlap: no finding.
    """
    for t in ctx.game.tables:
        seen = {}
        for row in t.rows:
            for r in row.rolls:
                if r in seen:
                    yield Finding(row.loc, f"table {t.name}: roll {r} is in two rows ({seen[r]!r} and {row.roll!r})")
                seen[r] = row.roll


ILLEGIBLE = "?"  # a result the print does not show: written "?" rather than guessed


def _code_patterns(t):
    pats = []
    for k in t.key:
        rx = re.escape(k.code).replace(r"\#", r"\d+").replace("#", r"\d+")
        pats.append(rx)
    pats.sort(key=len, reverse=True)
    return re.compile("(?:" + "|".join(pats) + ")") if pats else None


def _tokens_ok(cell: str, rx, seps) -> bool:
    s = cell.strip()
    if not s or s in ("-", "—", "–"):
        return True
    for sep in seps:
        s = s.replace(sep, " ")
    for part in s.split():
        if part == ILLEGIBLE:
            continue
        pos = 0
        while pos < len(part):
            m = rx.match(part, pos)
            if not m or m.end() == pos:
                return False
            pos = m.end()
    return True


@check("HF605", "result-not-in-key", "error",
       "every result code in a table must be explained by its key; fix the cell or add the code to `key`")
def result_not_in_key(ctx):
    """A combat table result made of codes its key does not explain.

    ## What it checks
    Every cell of a combat table with a key reads as a sequence of the key's codes (a `#` in a code
    stands for a number: `D#` reads `D1`, `D2`), separated by the table's separators; `-` and a `?`
    (illegible, HF611) are allowed.

    ## Why
    The key says what each result does (steps lost, retreats, eliminations); the referee applies it, and
    a code the key lacks would be a result nobody can carry out.

    ## Reads
    `tables.yaml` `tables[]` with `kind: combat`: `key[].code`, `rows[].results`, `separators`.

    ## Violation
    Roll 1 under 1:1 reads `Q1`:

        tables.yaml:12:5: error[HF605] table Combat Results Table, roll 1, column 1:1: result 'Q1' is not in the key

    ## Near miss
    `A2`: the key's `A#`: no finding.
    """
    for t in ctx.game.tables:
        if t.kind != "combat" or not t.key:
            continue
        rx = _code_patterns(t)
        for row in t.rows:
            for col, cell in zip(t.columns, row.results):
                if not _tokens_ok(cell, rx, t.separators):
                    yield Finding(row.loc, f"table {t.name}, roll {row.roll}, column {col}: result {cell!r} "
                                           "is not in the key")


@check("HF611", "table-result-illegible", "warning",
       "the print does not show this result; find a clean copy of the table")
def table_result_illegible(ctx):
    """A table cell holding a result the print does not show.

    ## What it checks
    Every cell holding `?` as one of its results (written where the printed result cannot be read,
    rather than guessed) is reported.

    ## Why
    Nothing is made up: the cell stays unknown, the referee says it cannot judge a roll that lands on
    it, and the warning asks for a clean copy of the table.

    ## Reads
    `tables.yaml` `tables[].rows[].results`.

    ## Violation
    Roll 1 under 3:1 reads `? / D1`:

        tables.yaml:12:5: warning[HF611] table Combat Results Table, roll 1, column 3:1: '? / D1' has a result the print does not show

    ## Near miss
    `DE / D1`: both results read: no finding.
    """
    for t in ctx.game.tables:
        for row, col, cell in _illegible_cells(t):
            yield Finding(row.loc, f"table {t.name}, roll {row.roll}, column {col}: {cell!r} has a result "
                                   "the print does not show")


@check("HF614", "illegible-table-declared-complete", "error",
       "a table with a cell the print does not show is not complete: set `complete: false` and name the cell "
       "in `missing`")
def illegible_table_declared_complete(ctx):
    """A table declared complete although some cell holds an illegible result.

    ## What it checks
    A table with a `?` in any cell (HF611) is not declared `complete` (the default is complete).

    ## Why
    A complete table promises every result is known; the charts and the referee rely on that. A table
    with an unknown cell says `complete: false` and names the cell under `missing`.

    ## Reads
    `tables.yaml` `tables[]`: `complete`, `missing`, `rows[].results`.

    ## Violation
    The CRT, not declared incomplete, with `?` under 3:1 for roll 1:

        tables.yaml:2:3: error[HF614] table Combat Results Table is declared complete but 1 cell(s) hold '?' (roll 1 under 3:1)

    ## Near miss
    The same cell with `complete: false` and `missing: ["roll 1, 3:1"]`: no finding.
    """
    for t in ctx.game.tables:
        cells = _illegible_cells(t)
        if t.complete and cells:
            where = ", ".join(f"roll {row.roll} under {col}" for row, col, _ in cells)
            yield Finding(t.loc, f"table {t.name} is declared complete but {len(cells)} cell(s) hold "
                                 f"{ILLEGIBLE!r} ({where})")


def _illegible_cells(t) -> list:
    """(row, column, cell) for every cell holding a result the print does not show."""
    return [(row, col, cell) for row in t.rows for col, cell in zip(t.columns, row.results)
            if ILLEGIBLE in cell.replace("/", " ").split()]


@check("HF606", "table-reconstruction-uncertain", "info",
       "the printed table was damaged or staggered; compare these cells with a clean copy")
def table_reconstruction_uncertain(ctx):
    """A table cell the tree reconstructed from a damaged print and marks uncertain.

    ## What it checks
    Every entry of a table's `uncertain` list (a cell read from a damaged or staggered print) is
    reported with its note.

    ## Why
    A reconstructed cell is the editors' best reading, kept with a note; the report keeps it in view
    for a check against a clean copy.

    ## Reads
    `tables.yaml` `tables[].uncertain[]` (`roll`, `column`, `note`).

    ## Violation
    `uncertain: [{roll: "1", column: "2:1", note: smudged}]`:

        tables.yaml:2:3: note[HF606] table Combat Results Table: reconstructed cell roll 1, column 2:1 is uncertain: smudged

    ## Near miss
    A table `note: smudged but read`, with no `uncertain` entry: no finding.
    """
    for t in ctx.game.tables:
        for u in t.uncertain:
            where = ", ".join(f"{k} {v}" for k, v in u.items() if k != "note")
            yield Finding(t.loc, f"table {t.name}: reconstructed cell {where} is uncertain"
                                 + (f": {u.get('note')}" if u.get("note") else ""))


@check("HF607", "tec-incomplete", "warning", "the printed chart has rows the source lacks; add them when available")
def tec_incomplete(ctx):
    """A terrain-effects chart the tree declares incomplete.

    ## What it checks
    tec.yaml declared `complete: false`, or with rows listed under `missing`, is reported once, naming
    what is missing.

    ## Why
    The printed chart has rows this transcription lacks; terrain of those kinds cannot be costed, and
    every run says so until they are added.

    ## Reads
    `tec.yaml` `complete`, `missing`.

    ## Violation
    `complete: false, missing: [Swamp]`:

        tec.yaml:1:1: warning[HF607] terrain-effects chart is incomplete: missing Swamp

    ## Near miss
    `complete: true, missing: []`: no finding.
    """
    tec = ctx.game.tec
    if tec is not None and (not tec.complete or tec.missing):
        what = ", ".join(tec.missing) if tec.missing else "rows not listed"
        yield Finding(tec.loc, f"terrain-effects chart is incomplete: missing {what}")


@check("HF613", "tec-code-unexplained", "info",
       "say what the code means under `notes` in tec.yaml, as the chart's key prints it; until then the "
       "code is not read as a cost (a 'P' with no note is not a prohibition)")
def tec_code_unexplained(ctx):
    """A TEC movement cell printed as a code that no note explains.

    ## What it checks
    Every movement cell of tec.yaml that is a code rather than a cost ("P", "DG", "ot") has a note of
    that code under `notes`; each unexplained code is reported once, naming the cells that use it.

    ## Why
    A code means what the chart's key says: "P" is a prohibition only where the key says "Prohibited".
    Until the note is written the code is not read as a cost, and moves into such terrain are judged
    without it.

    ## Reads
    `tec.yaml` `terrain[].movement`, `notes`.

    ## Violation
    The note for `P` removed, while the lake's cells are `P`:

        tec.yaml:19:3: note[HF613] TEC movement code 'P' has no note saying what it means: Lake (leg), Lake (mech)

    ## Near miss
    `notes: {P: Not allowed.}`: reworded, still explained (and read as a prohibition): no finding.
    """
    tec = ctx.game.tec
    if tec is None:
        return
    where: dict[str, list[str]] = {}
    first: dict[str, object] = {}
    for t in tec.terrain:
        for mc, cost in t.costs.items():
            if cost.kind == "code" and cost.meaning is None:
                where.setdefault(cost.code, []).append(f"{t.name} ({mc})")
                first.setdefault(cost.code, t.loc)
    for code, rows in where.items():
        yield Finding(first[code], f"TEC movement code {code!r} has no note saying what it means: "
                                   f"{', '.join(rows)}")


@check("HF608", "terrain-not-in-tec", "error",
       "every terrain used on the map needs a row in tec.yaml; add it or fix the terrain id")
def terrain_not_in_tec(ctx):
    """Terrain on the map, or a hexside or path feature, that the TEC has no row for.

    ## What it checks
    terrain.yaml's `default`, every terrain of every hex, every hexside feature and every path feature is
    an id of a tec.yaml row. A feature the TEC declares `missing` (by id or name) is a warning.

    ## Why
    Moves are costed and combat is modified by the TEC row of the terrain; terrain without a row (a typo,
    or a row not transcribed) could be neither.

    ## Reads
    `terrain.yaml` `default`, `hexes`, `hexsides[].feature`, `paths[].feature`; `tec.yaml`
    `terrain[].id`, `missing`.

    ## Violation
    Hex 0606 given `[swamp]`, a terrain the TEC does not have:

        terrain.yaml:8:3: error[HF608] hex 0606: terrain 'swamp' is not in the TEC

    ## Near miss
    `"0606": [woods]`, a TEC row: no finding.
    """
    g = ctx.game
    if g.tec is None:
        return
    known = {t.id for t in g.tec.terrain}
    missing = {m.strip().lower() for m in g.tec.missing}  # rows the tree declares absent, by id or name
    if g.terrain.default and g.terrain.default not in known:
        yield Finding(g.terrain.loc, f"default terrain {g.terrain.default!r} is not in the TEC")
    for h in g.terrain.hexes:
        for tid in h.terrain:
            if tid not in known:
                sev = "warning" if tid.lower() in missing else None
                yield Finding(h.loc, f"hex {h.hex}: terrain {tid!r} is not in the TEC", hexes=(h.hex,), severity=sev)
    for hs in g.terrain.hexsides:
        if hs.feature not in known:
            yield Finding(hs.loc, f"hexside feature {hs.feature!r} is not in the TEC", hexes=hs.between,
                          severity="warning" if hs.feature.lower() in missing else None)
    for p in g.terrain.paths:
        if p.feature not in known:
            yield Finding(p.loc, f"path feature {p.feature!r} is not in the TEC",
                          severity="warning" if p.feature.lower() in missing else None)


@check("HF609", "victory-hex-without-value", "warning", "give the victory hex its printed value")
def victory_hex_without_value(ctx):
    """A victory hex or place without its value, or a victory entry naming neither.

    ## What it checks
    Every entry of places.yaml `victory` has a `value` and names a `hex` or a `place`.

    ## Why
    Victory points decide the game; a victory hex with no value cannot be scored, and the value is
    always printed with it.

    ## Reads
    `places.yaml` `victory[]`: `hex`, `place`, `value`.

    ## Violation
    The victory hex 0505 with `value: null`:

        places.yaml:8:3: warning[HF609] victory hex 0505 has no value

    ## Near miss
    `value: 0` is a value: no finding.
    """
    for v in ctx.game.places.victory:
        if v.value is None:
            yield Finding(v.loc, f"victory {'hex ' + v.hex if v.hex else 'place ' + str(v.place)} has no value",
                          hexes=(v.hex,) if v.hex else ())
        if v.hex is None and v.place is None:
            yield Finding(v.loc, "victory entry names neither a hex nor a place")


@check("HF610", "combat-table-unknown", "error", "rules.combat.table must name a table in tables.yaml")
def combat_table_unknown(ctx):
    """A combat rule naming a table tables.yaml does not have.

    ## What it checks
    game.yaml's `rules.combat.table` is the id of a table in tables.yaml.

    ## Why
    The referee reads each combat roll against that table; a missing table leaves every combat
    unjudged.

    ## Reads
    `game.yaml` `rules.combat.table`; `tables.yaml` `tables[].id`.

    ## Violation
    `rules: {combat: {table: crt2}}`, with only `crt` in tables.yaml:

        game.yaml:51:3: error[HF610] the combat table 'crt2' is not in tables.yaml

    ## Near miss
    `table: crt`: no finding.
    """
    g = ctx.game
    t = g.rules.combat.table
    if t and t not in {x.id for x in g.tables}:
        yield Finding(g.rules.loc, f"the combat table {t!r} is not in tables.yaml")


@check("HF615", "combat-rule-as-text", "info",
       "the referee does not judge a rule kept only as text; give it as data (game.yaml rules.combat, tables.yaml) "
       "when the format has a field for it")
def combat_rule_as_text(ctx):
    """A combat rule the tree keeps only as printed text: a gap the referee cannot use.

    ## What it checks
    Each entry of `rules.combat.unjudged` in game.yaml: a combat rule the rulebook prints that the source
    format has no field for, kept with its rule number and the printed words; one note each.
    ## Why
    Nothing is left out silently (issue 17: what each rulebook prints, as data; free text that remains is
    reported as a gap). The referee does not judge these rules, so a log breaking one is not found.
    ## Reads
    `game.yaml` `rules.combat.unjudged` (`rule`, `text`).
    ## Violation
    (a note) Aachen: "8.2: A mobile unit cannot attack in both the Combat Phase and again in the Mobile Combat
    Phase of the same player turn." On the test tree, `unjudged: [{text: "every unit in an enemy ZOC must
    attack", rule: "9.2"}]` under `rules.combat`:

        game.yaml:70:7: note[HF615] combat rule kept as text, not judged: 9.2: every unit in an enemy ZOC must attack

    ## Near miss
    Meuse, whose combat rules are all data (`attack_once`, `defend_once`, `one_hex`, `combat_phases_only`,
    `after_combat`): no note.
    """
    for u in ctx.game.rules.combat.unjudged:
        yield Finding(u.loc, "combat rule kept as text, not judged: " + (f"{u.rule}: " if u.rule else "") + u.text)


@check("HF619", "tec-cancels-unknown", "error",
       "`cancels` names the TEC terrain ids a feature removes (a bridge: river); fix the id or add the row")
def tec_cancels_unknown(ctx):
    """A TEC row whose `cancels` names terrain the TEC does not have.

    ## What it checks
    Every id in a TEC row's `cancels` (the terrain a feature removes where both are present: a bridge
    cancels the river it spans) is the id of a TEC row.

    ## Why
    The referee costs a bridged river as no river at all; a misspelt id would cancel nothing, and every
    move over the bridge would pay for the river.

    ## Reads
    `tec.yaml` `terrain[].cancels`, `terrain[].id`.

    ## Violation
    A ford row with `cancels: [stream]` in a TEC that has a river and no stream:

        tec.yaml:40:3: error[HF619] TEC row ford: cancels 'stream', which is not in the TEC

    ## Near miss
    `cancels: [river]`: no finding.
    """
    tec = ctx.game.tec
    if tec is None:
        return
    known = {t.id for t in tec.terrain}
    for t in tec.terrain:
        for tid in t.cancels:
            if tid not in known:
                yield Finding(t.loc, f"TEC row {t.id}: cancels {tid!r}, which is not in the TEC")


@check("HF620", "table-drm-condition-unknown", "error",
       "a DRM's `if:` names TEC terrain ids, unit types and movement classes of the tree; fix the name")
def table_drm_condition_unknown(ctx):
    """A die-roll modifier whose condition names terrain, unit types or classes the tree lacks.

    ## What it checks
    Every name in a table DRM's `if:` condition is the tree's: `defender_terrain` a TEC terrain id,
    `across` a TEC hexside id, `attacker_type` a unit type of counters.yaml, `attacker_class` a
    movement class.

    ## Why
    The referee applies a DRM only where its condition holds; a misspelt name never holds, so the DRM
    would silently never apply.

    ## Reads
    `tables.yaml` `tables[].drm[].if`; `tec.yaml` `terrain[]` (`id`, `kind`); `counters.yaml`
    `units[].type`, `movement_class`; `game.yaml` `rules.movement_classes`.

    ## Violation
    A DRM `{value: 1, when: attacked across a river, if: {across: [rivr]}}`:

        tables.yaml:2:3: error[HF620] table Combat Results Table: the DRM 'attacked across a river' names across 'rivr', which the tree does not have

    ## Near miss
    `if: {across: [river], attacker_type: [infantry]}`: both names the tree's: no finding.
    """
    # a misspelt name would make the condition never hold: the referee would then never apply the DRM
    g = ctx.game
    terrain = {t.id for t in g.tec.terrain} if g.tec else set()
    hexsides = {t.id for t in g.tec.terrain if t.kind == "hexside"} if g.tec else set()
    kinds = {"attacker_type": {u.type for u in g.units},
             "attacker_class": set(g.rules.movement_classes) | {u.movement_class for u in g.units},
             "defender_terrain": terrain, "across": hexsides}
    for t in g.tables:
        for d in t.drm:
            if d.condition is None:
                continue
            for part, known in kinds.items():
                bad = [x for x in getattr(d.condition, part) if x not in known]
                if bad:
                    yield Finding(t.loc, f"table {t.name}: the DRM {d.when!r} names {part} "
                                         f"{', '.join(map(repr, bad))}, which the tree does not have")
