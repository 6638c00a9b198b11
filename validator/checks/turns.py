"""Checks on the turn track, scenario length and orders of arrival."""
from __future__ import annotations

from collections import Counter

from . import Finding, check


def _heading(b) -> str:
    return f"heading {b.printed!r}" if b.printed else f"turn {b.turn}"


def _all_ooas(g):
    yield from g.orders_of_arrival
    for sc in g.scenarios:
        yield from sc.reinforcements


@check("HF501", "unknown-turn", "error", "use a turn id exactly as the turn track prints it (game.yaml `turns`)")
def unknown_turn(ctx):
    g = ctx.game
    for sc in g.scenarios:
        for label, t in (("first", sc.first_turn), ("last", sc.last_turn)):
            if t is not None and g.turn(t) is None:
                yield Finding(sc.loc, f"scenario {sc.id}: {label} turn {t!r} is not on the turn track")
    for o in _all_ooas(g):
        for b in o.turns:
            if g.turn(b.turn) is None:
                yield Finding(b.loc, f"{o.side} order of arrival: turn {b.turn!r} is not on the turn track")


@check("HF502", "scenario-turns-reversed", "error", "the first turn must come before the last")
def scenario_turns_reversed(ctx):
    g = ctx.game
    for sc in g.scenarios:
        a, b = g.turn(sc.first_turn or ""), g.turn(sc.last_turn or "")
        if a and b and a.index > b.index:
            yield Finding(sc.loc, f"scenario {sc.id}: first turn {a.id} comes after last turn {b.id}")


@check("HF503", "turn-heading-duplicated", "error",
       "each turn appears once in an order of arrival; one of the headings is misprinted")
def turn_heading_duplicated(ctx):
    for o in _all_ooas(ctx.game):
        counts = Counter(b.turn for b in o.turns)
        seen = set()
        for b in o.turns:
            if counts[b.turn] > 1 and b.turn in seen:
                yield Finding(b.loc, f"{o.side} order of arrival: {_heading(b)} is printed twice")
            seen.add(b.turn)


@check("HF504", "turn-headings-out-of-order", "error",
       "orders of arrival run in turn order; a heading out of order is usually a misprint")
def turn_headings_out_of_order(ctx):
    g = ctx.game
    for o in _all_ooas(g):
        prev = None
        for b in o.turns:
            t = g.turn(b.turn)
            if t is None:
                continue
            if prev is not None and t.index < prev.index:
                yield Finding(b.loc, f"{o.side} order of arrival: {_heading(b)} follows turn {prev.id}")
            prev = t


@check("HF505", "arrival-outside-game", "warning",
       "the reinforcement arrives before the scenario starts or after it ends: check the turn")
def arrival_outside_game(ctx):
    g = ctx.game
    for sc in g.scenarios:
        first, last = g.turn(sc.first_turn or ""), g.turn(sc.last_turn or "")
        if not (first and last):
            continue
        for o in sc.reinforcements:
            for b in o.turns:
                t = g.turn(b.turn)
                if t and not first.index <= t.index <= last.index:
                    yield Finding(b.loc, f"scenario {sc.id}: {o.side} reinforcements on turn {t.id}, outside the "
                                         f"game's turns {first.id}-{last.id}")
        for o in g.orders_of_arrival:
            if o.side not in sc.orders_of_arrival:
                continue
            for b in o.turns:
                t = g.turn(b.turn)
                if t and t.index < first.index and b.arrivals:
                    yield Finding(b.loc, f"scenario {sc.id}: {o.side} reinforcements of turn {t.id} would arrive "
                                         f"before the scenario's first turn {first.id}")


@check("HF509", "phase-class-unknown", "error",
       "a phase's `moves` is `all` or a list of classes from game.yaml rules.movement_classes")
def phase_class_unknown(ctx):
    g = ctx.game
    known = set(g.rules.movement_classes) | set(g.tec.movement_classes if g.tec else ())
    for ph in g.phases:
        for mc in ph.moves or ():
            if mc != "all" and mc not in known:
                yield Finding(ph.loc, f"phase {ph.id}: movement class {mc!r} is not one of the game's "
                                      f"({', '.join(sorted(known)) or 'none declared'})")


@check("HF510", "phase-not-if-moved-in-unknown", "error",
       "`not_if_moved_in.phases` names phases earlier in the sequence of play in which units move")
def phase_not_if_moved_in_unknown(ctx):
    order = {ph.id: i for i, ph in enumerate(ctx.game.phases)}
    for i, ph in enumerate(ctx.game.phases):
        for pid in (ph.not_if_moved_in.phases if ph.not_if_moved_in else ()):
            j = order.get(pid)
            if j is None or j >= i or ctx.game.phases[j].moves is None:
                yield Finding(ph.not_if_moved_in.loc, f"phase {ph.id}: not_if_moved_in names {pid!r}, which is not "
                                                      f"an earlier phase in which units move")


def _arrivals(g):
    for o in _all_ooas(g):
        for b in o.turns:
            for a in b.arrivals:
                yield o, b, a


@check("HF511", "arrival-condition-as-text", "warning",
       "give the condition as data (`terms`: turn, phase, delay, roll, ...) so the referee can judge it")
def arrival_condition_as_text(ctx):
    """An arrival's condition is printed text only: the referee cannot use it.

    ## What it checks
    Every arrival line with a `condition` and no `terms`.
    ## Why
    The referee judges arrivals from data (the turn, the phase, whether it may be held back, what a roll
    decides); free text it can only quote, as a note, when a unit arrives early.
    ## Reads
    `reinforcements[].turns[].arrivals[].condition`, `.terms`.
    ## Violation
    `condition: "Roll one die, it arrives on a 5 or more."` with no `terms`.
    ## Near miss
    The same line with `terms: {kind: roll, roll: {dice: 1d6, success: [5, 6], on_failure: does-not-arrive}}`.
    """
    for o, b, a in _arrivals(ctx.game):
        if a.condition and a.terms is None:
            yield Finding(a.loc, f"{o.side} arrival on turn {b.turn}: its condition is text only "
                                 f"({a.condition[:60]}{'…' if len(a.condition) > 60 else ''})")


@check("HF512", "arrival-terms-not-judged", "info",
       "the referee leaves this part of the arrival's condition unjudged: the tree lacks what it rests on")
def arrival_terms_not_judged(ctx):
    """An arrival's condition, as data, rests on something the tree does not print.

    ## What it checks
    Every arrival whose `terms` say `judged: false`, with the reason (`why`).
    ## Why
    Nothing is invented silently: what the referee cannot judge is declared and reported on every run.
    ## Reads
    `reinforcements[].turns[].arrivals[].terms.judged`, `.why`.
    ## Violation
    (a note) Aachen 15.3: the 2nd Armored Division's trigger rests on fortified hexes the map does not print.
    ## Near miss
    Bulge 40.1: the paradrop's turn, phase and delay are all data the referee judges.
    """
    for o, b, a in _arrivals(ctx.game):
        if a.terms is not None and not a.terms.judged:
            rule = f" ({a.terms.rule})" if a.terms.rule else ""
            yield Finding(a.terms.loc, f"{o.side} arrival on turn {b.turn}{rule}: not judged: "
                                       f"{a.terms.why or 'the tree says so'}")


@check("HF513", "arrival-terms-unknown-turn-or-phase", "error",
       "an arrival's `terms` name turns from the turn track and phases from the sequence of play")
def arrival_terms_unknown_turn_or_phase(ctx):
    """An arrival's terms name a turn or phase the game does not have.

    ## What it checks
    `terms.turn.exactly`, `terms.turn.from`, `terms.after_arrival.no_move_turn` against the turn track;
    `terms.phase` against the sequence of play.
    ## Why
    The referee compares the log's turn and phase with these ids; one that matches nothing judges nothing.
    ## Reads
    `game.yaml` `turns`, `sequence_of_play`; the arrival's `terms`.
    ## Violation
    `turn: {exactly: "17AM"}` on a track that prints "17 AM".
    ## Near miss
    `turn: {exactly: "17 AM"}`.
    """
    g = ctx.game
    phases = {p.id for p in g.phases}
    for o, b, a in _arrivals(g):
        t = a.terms
        if t is None:
            continue
        for what, x in (("turn", t.turn_exactly), ("turn", t.turn_from), ("no-move turn", t.no_move_turn)):
            if x is not None and g.turn(x) is None:
                yield Finding(t.loc, f"{o.side} arrival on turn {b.turn}: {what} {x!r} is not on the turn track")
        if t.phase is not None and t.phase not in phases:
            yield Finding(t.loc, f"{o.side} arrival on turn {b.turn}: phase {t.phase!r} is not in the sequence of play")
