"""Checks on errata and on what the tree declares it does not know."""
from __future__ import annotations

from . import Finding, check


@check("HF701", "erratum-changes-nothing", "warning", "an erratum whose `to` equals `from` patches nothing")
def erratum_changes_nothing(ctx):
    """An erratum patch that sets a value to what it already is.

    ## What it checks
    Every `set` patch of every errata file has a `to` different from its `from`.

    ## Why
    A patch that changes nothing is a transcription slip in the erratum (the corrected value copied as
    the printed one), and the correction the publisher made is then missing.

    ## Reads
    `errata/*.yaml` `items[].patches[]` (`op`, `from`, `to`).

    ## Violation
    An item whose patch sets scenario s1's `first_turn` from "1" to "1":

        errata/mini-errata.yaml:21:5: warning[HF701] erratum mini-2024 2: sets a value to what it already is

    ## Near miss
    The patch setting it from "1" to "2": no finding.
    """
    for e in ctx.game.errata:
        for it in e.items:
            for p in it.patches:
                if p.op == "set" and p.from_ == p.to:
                    yield Finding(p.loc, f"erratum {e.id} {it.id}: sets a value to what it already is")


@check("HF702", "errata-not-applied", "info", "run without --as-printed to check the corrected data")
def errata_not_applied(ctx):
    """A note that errata were left out: the tree is checked as printed.

    ## What it checks
    When `hexforge check --as-printed` runs on a tree that has errata, each errata file is reported
    once, with the number of patches skipped.

    ## Why
    Checking the data as printed shows the rulebook's own errors (HF503 and HF504 on Ardennes II's
    orders of arrival), but the players play the corrected game: the note keeps that in view.

    ## Reads
    `errata/*.yaml` (`id`, `date`, `items[].patches`); the `--as-printed` option.

    ## Violation
    `hexforge check tests/fixtures/mini --as-printed` (the tree has one errata file):

        errata/mini-errata.yaml:1:1: note[HF702] errata mini-2024 (2024-01-01) not applied: checking the data as printed (1 patch(es) skipped)

    ## Near miss
    The same tree checked without `--as-printed`: the errata are applied: no finding.
    """
    g = ctx.game
    if not g.errata_applied and g.errata:
        n = sum(len(it.patches) for e in g.errata for it in e.items)
        for e in g.errata:
            yield Finding(e.loc, f"errata {e.id} ({e.date or 'undated'}) not applied: checking the data as printed "
                                 f"({n} patch(es) skipped)")


@check("HF703", "editorial-correction", "info",
       "a correction by the tree's editors, not the publisher: review it; --as-printed skips it")
def editorial_correction(ctx):
    """A correction by the tree's editors, not the publisher, applied to the data.

    ## What it checks
    Each item with patches in an errata file of `kind: editorial` is reported when the errata are
    applied.

    ## Why
    An editorial correction fixes what the transcribers judge a misprint, without the publisher's word;
    it is applied (so the game is playable) but every run says so, for a reviewer to confirm.
    `--as-printed` leaves it out with the rest.

    ## Reads
    `errata/*.yaml` `kind`, `items[]` (`id`, `wording`, `patches`).

    ## Violation
    The errata file with `kind: editorial`:

        errata/mini-errata.yaml:6:3: note[HF703] editorial correction 1 applied (not published): The Pz Bn sets up in 0809, not 0808.

    ## Near miss
    `kind: official`: the publisher's own erratum: no finding.
    """
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
    """Data the rulebook refers to but does not print, declared as a gap.

    ## What it checks
    Every entry of game.yaml `gaps` is reported, at its own severity (`warning` by default, `info` where
    the gap is harmless).

    ## Why
    Nothing is made up: a table the rules refer to and the booklet leaves out is declared, and every run
    says what the game lacks and which rule needs it.

    ## Reads
    `game.yaml` `gaps[]`: `what`, `rule`, `note`, `severity`.

    ## Violation
    `gaps: [{id: oob, what: Order of battle card, rule: "3.4"}]`:

        game.yaml:73:3: warning[HF901] not printed: Order of battle card (3.4)

    ## Near miss
    `gaps: []`: nothing declared missing: no finding.
    """
    for gap in ctx.game.gaps:
        yield Finding(gap.loc, f"not printed: {gap.what}" + (f" ({gap.rule})" if gap.rule else "")
                      + (f" — {gap.note}" if gap.note else ""), severity=gap.severity)


@check("HF902", "value-not-printed", "info", "this value is inferred or assumed, not printed; confirm it")
def value_not_printed(ctx):
    """A value the tree infers or assumes rather than reads in print.

    ## What it checks
    Every value whose `provenance` is `inferred` or `assumed` is reported; where one file has more than
    three of one kind, one note names the first three and the count.

    ## Why
    The tree holds what the rulebook prints; a value it had to work out (a map extent from the highest
    hex IDs printed) is kept, but said on every run so a reader can confirm it from the print.

    ## Reads
    `provenance` and `note` of any entry (boards, terrain, units, set-ups ...).

    ## Violation
    map.yaml's board with `provenance: assumed, note: extent not printed`:

        map.yaml:12:15: note[HF902] assumed: map.yaml: main — extent not printed

    ## Near miss
    `provenance: printed` (the default): no finding.
    """
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
    """A scenario whose set-up is placed by the rules text, not printed as a list.

    ## What it checks
    Every scenario with `setup_printed: false` is reported once, with the number of units it places.

    ## Why
    Some scenarios say "set up as in the campaign" or describe the set-up in prose; the tree's set-up is
    then a reading of that text. The referee neither infers such a scenario from a log's start
    nor compares a log's start with it.

    ## Reads
    `scenarios/*.yaml` `setup_printed`, `setup`.

    ## Violation
    Scenario s1 with `setup_printed: false`:

        scenarios/s1.yaml:1:1: note[HF903] scenario s1: the set-up is not printed in the rulebook; 6 unit(s) placed by the rules text

    ## Near miss
    `setup_printed: true` (the default): no finding.
    """
    for sc in ctx.game.scenarios:
        if not sc.setup_printed:
            yield Finding(sc.loc, f"scenario {sc.id}: the set-up is not printed in the rulebook; "
                                  f"{sum(p.count for _, p in ctx.setup_units(sc))} unit(s) placed by the rules text")
