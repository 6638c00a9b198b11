"""Checks on errata and on what the tree declares it does not know."""
from __future__ import annotations

from . import Finding, check


@check("HF701", "erratum-changes-nothing", "warning", "an erratum whose `to` equals `from` patches nothing")
def erratum_changes_nothing(ctx):
    for e in ctx.game.errata:
        for it in e.items:
            for p in it.patches:
                if p.op == "set" and p.from_ == p.to:
                    yield Finding(p.loc, f"erratum {e.id} {it.id}: sets a value to what it already is")


@check("HF702", "errata-not-applied", "info", "run without --as-printed to check the corrected data")
def errata_not_applied(ctx):
    g = ctx.game
    if not g.errata_applied and g.errata:
        n = sum(len(it.patches) for e in g.errata for it in e.items)
        for e in g.errata:
            yield Finding(e.loc, f"errata {e.id} ({e.date or 'undated'}) not applied: checking the data as printed "
                                 f"({n} patch(es) skipped)")


@check("HF703", "editorial-correction", "info",
       "a correction by the tree's editors, not the publisher: review it; --as-printed skips it")
def editorial_correction(ctx):
    g = ctx.game
    if not g.errata_applied:
        return
    for e in g.errata:
        if e.kind == "editorial":
            for it in e.items:
                if it.patches:
                    yield Finding(it.loc, f"editorial correction {it.id} applied (not published): {it.wording}")


@check("HF901", "data-not-printed", "warning", "the rulebook refers to this data but does not print it")
def data_not_printed(ctx):
    for gap in ctx.game.gaps:
        yield Finding(gap.loc, f"not printed: {gap.what}" + (f" ({gap.rule})" if gap.rule else "")
                      + (f" — {gap.note}" if gap.note else ""), severity=gap.severity)


@check("HF902", "value-not-printed", "info", "this value is inferred or assumed, not printed; confirm it")
def value_not_printed(ctx):
    # one note per file and kind: a manifest inferred unit by unit would otherwise bury the report
    groups: dict = {}
    for a in ctx.game.assumptions:
        groups.setdefault((a.loc.file, a.provenance), []).append(a)
    for (_, prov), items in groups.items():
        if len(items) <= 3:
            for a in items:
                yield Finding(a.loc, f"{a.provenance}: {a.what}" + (f" — {a.note}" if a.note else ""))
        else:
            names = ", ".join(a.what.split(": ", 1)[-1] for a in items[:3])
            yield Finding(items[0].loc, f"{prov}: {len(items)} entries of {items[0].loc.file} ({names}, …); "
                                        "each says why in its note")


@check("HF903", "setup-not-printed", "info", "the scenario's set-up is not printed in the rulebook")
def setup_not_printed(ctx):
    for sc in ctx.game.scenarios:
        if not sc.setup_printed:
            yield Finding(sc.loc, f"scenario {sc.id}: the set-up is not printed in the rulebook; "
                                  f"{sum(p.count for _, p in ctx.setup_units(sc))} unit(s) placed by the rules text")
