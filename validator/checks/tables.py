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
    declared = [d.name for d in ctx.game.dice]
    for t in ctx.game.tables:
        if t.dice and t.die is None:
            yield Finding(t.loc, f"table {t.name}: die {t.dice!r} is not declared in game.yaml "
                                 f"(declared: {', '.join(declared) or 'none'})")


@check("HF602", "table-cells-missing", "error",
       "every row has one cell per column; add the missing cells (or mark the table incomplete)")
def table_cells_missing(ctx):
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
    for t in ctx.game.tables:
        for row in t.rows:
            if not row.rolls and t.dice:
                yield Finding(row.loc, f"table {t.name}: roll {row.roll!r} does not read as die roll(s)")


@check("HF604", "table-roll-duplicated", "error", "each die roll has one row")
def table_roll_duplicated(ctx):
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
    for t in ctx.game.tables:
        for row, col, cell in _illegible_cells(t):
            yield Finding(row.loc, f"table {t.name}, roll {row.roll}, column {col}: {cell!r} has a result "
                                   "the print does not show")


@check("HF614", "illegible-table-declared-complete", "error",
       "a table with a cell the print does not show is not complete: set `complete: false` and name the cell "
       "in `missing`")
def illegible_table_declared_complete(ctx):
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
    for t in ctx.game.tables:
        for u in t.uncertain:
            where = ", ".join(f"{k} {v}" for k, v in u.items() if k != "note")
            yield Finding(t.loc, f"table {t.name}: reconstructed cell {where} is uncertain"
                                 + (f": {u.get('note')}" if u.get("note") else ""))


@check("HF607", "tec-incomplete", "warning", "the printed chart has rows the source lacks; add them when available")
def tec_incomplete(ctx):
    tec = ctx.game.tec
    if tec is not None and (not tec.complete or tec.missing):
        what = ", ".join(tec.missing) if tec.missing else "rows not listed"
        yield Finding(tec.loc, f"terrain-effects chart is incomplete: missing {what}")


@check("HF613", "tec-code-unexplained", "info",
       "say what the code means under `notes` in tec.yaml, as the chart's key prints it; until then the "
       "code is not read as a cost (a 'P' with no note is not a prohibition)")
def tec_code_unexplained(ctx):
    """A movement cell printed as a code that no TEC note explains, once per code."""
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
    for v in ctx.game.places.victory:
        if v.value is None:
            yield Finding(v.loc, f"victory {'hex ' + v.hex if v.hex else 'place ' + str(v.place)} has no value",
                          hexes=(v.hex,) if v.hex else ())
        if v.hex is None and v.place is None:
            yield Finding(v.loc, "victory entry names neither a hex nor a place")


@check("HF610", "combat-table-unknown", "error", "rules.combat.table must name a table in tables.yaml")
def combat_table_unknown(ctx):
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
    Phase of the same player turn."
    ## Near miss
    Meuse, whose combat rules are all data (`attack_once`, `defend_once`, `one_hex`, `combat_phases_only`,
    `after_combat`): no note.
    """
    for u in ctx.game.rules.combat.unjudged:
        yield Finding(u.loc, "combat rule kept as text, not judged: " + (f"{u.rule}: " if u.rule else "") + u.text)


@check("HF619", "tec-cancels-unknown", "error",
       "`cancels` names the TEC terrain ids a feature removes (a bridge: river); fix the id or add the row")
def tec_cancels_unknown(ctx):
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
