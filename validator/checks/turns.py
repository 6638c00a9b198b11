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
    """A scenario's first or last turn, or an order of arrival's turn, that is not on the turn track.

    ## What it checks
    Every scenario's `first_turn` and `last_turn`, and the `turn` of every turn block of the orders of
    arrival (the game's and each scenario's reinforcements), is a turn id of game.yaml's `turns`.

    ## Why
    Turn ids are written as the turn track prints them ("16 AM", "3"); an id not on the track is a
    typo, and reinforcements under it would never arrive.

    ## Reads
    `game.yaml` `turns[].id`; `scenarios/*.yaml` `first_turn`, `last_turn`, `reinforcements[].turns[].turn`;
    `orders-of-arrival.yaml` `turns[].turn`.

    ## Violation
    On a five-turn track, the red order of arrival has a block for turn 9:

        orders-of-arrival.yaml:4:5: error[HF501] red order of arrival: turn '9' is not on the turn track

    ## Near miss
    `turn: "1"`, a turn of the track: no finding.
    """
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
    """A scenario whose first turn comes after its last.

    ## What it checks
    For each scenario with both turns on the track, `first_turn` does not come after `last_turn` in
    the turn track's order.

    ## Why
    A scenario runs from its first turn to its last; reversed, it has no turns, and every reinforcement
    would fall outside it.

    ## Reads
    `scenarios/*.yaml` `first_turn`, `last_turn`; the order of `game.yaml` `turns`.

    ## Violation
    Scenario s1 with `first_turn: "5"` and `last_turn: "1"`:

        scenarios/s1.yaml:1:1: error[HF502] scenario s1: first turn 5 comes after last turn 1

    ## Near miss
    `first_turn: "3"`, `last_turn: "3"`: a one-turn scenario: no finding.
    """
    g = ctx.game
    for sc in g.scenarios:
        a, b = g.turn(sc.first_turn or ""), g.turn(sc.last_turn or "")
        if a and b and a.index > b.index:
            yield Finding(sc.loc, f"scenario {sc.id}: first turn {a.id} comes after last turn {b.id}")


@check("HF503", "turn-heading-duplicated", "error",
       "each turn appears once in an order of arrival; one of the headings is misprinted")
def turn_heading_duplicated(ctx):
    """An order of arrival that prints the same turn's heading twice.

    ## What it checks
    Within each order of arrival (one side's list), no turn appears in two turn blocks.

    ## Why
    Each turn's reinforcements are printed under one heading; a second heading for the same turn is
    usually a misprinted heading (Ardennes II's axis list prints "Turn 6" twice; erratum ooa-1 moves one
    block to turn 3), and the two blocks' units would all arrive at once.

    ## Reads
    `orders-of-arrival.yaml` and `scenarios/*.yaml` `reinforcements`: `turns[].turn`, `printed`.

    ## Violation
    The red list's second block, headed "Turn 3", is given `turn: "2"` as well as the first:

        orders-of-arrival.yaml:12:5: error[HF503] red order of arrival: heading 'Turn 3' is printed twice

    ## Near miss
    The second block as turn 4, headed "Turn 4": each turn once: no finding.
    """
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
    """An order of arrival whose turn headings do not run in turn order.

    ## What it checks
    Within each order of arrival, each turn block's turn comes after the previous block's on the turn
    track.

    ## Why
    Printed lists run in turn order; a heading that goes back is a misprint (Ardennes II's axis list,
    as printed, has "Turn 4" after "Turn 6"), and reading it as printed would bring units on the wrong
    turn.

    ## Reads
    `orders-of-arrival.yaml` and `scenarios/*.yaml` `reinforcements`: `turns[].turn`, `printed`; the
    order of `game.yaml` `turns`.

    ## Violation
    The red list's blocks reversed, turn 3 first, then turn 2:

        orders-of-arrival.yaml:15:5: error[HF504] red order of arrival: heading 'Turn 2' follows turn 3

    ## Near miss
    The second block as turn 5, after turn 2: in order: no finding.
    """
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
    """Reinforcements that arrive before a scenario starts or after it ends.

    ## What it checks
    For each scenario, its own reinforcements arrive on turns from its `first_turn` to its `last_turn`;
    the game's orders of arrival it uses bring nobody before its first turn.

    ## Why
    A reinforcement outside the scenario's turns never enters play, which is usually a misread turn or
    scenario length. It is a warning: a campaign's list may print turns a shorter scenario does not
    reach.

    ## Reads
    `scenarios/*.yaml` `first_turn`, `last_turn`, `reinforcements`, `orders_of_arrival`;
    `orders-of-arrival.yaml`; the order of `game.yaml` `turns`.

    ## Violation
    Scenario s1 shortened to end on turn 3, while its blue reinforcement arrives on turn 4:

        scenarios/s1.yaml:44:5: warning[HF505] scenario s1: blue reinforcements on turn 4, outside the game's turns 1-3

    ## Near miss
    `last_turn: "4"`: the arrival is on the last turn, inside the game: no finding.
    """
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
    """A phase that lets a movement class move that the game does not have.

    ## What it checks
    Every phase's `moves` in the sequence of play is `all` or a list of the game's movement classes
    (`rules.movement_classes`, or the classes tec.yaml costs).

    ## Why
    The referee reads `moves` to judge who may move in each phase (a mechanized-only exploitation
    phase: `[mech]`); a class that no unit can have would let nobody move there.

    ## Reads
    `game.yaml` `sequence_of_play[].moves`, `rules.movement_classes`; `tec.yaml` `movement_classes`.

    ## Violation
    A phase "Hover Phase" with `moves: [hover]` in a game of leg and mech units:

        game.yaml:46:3: error[HF509] phase x: movement class 'hover' is not one of the game's (leg, mech)

    ## Near miss
    The same phase with `moves: [mech]`: no finding.
    """
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
    """A phase's `not_if_moved_in` naming a phase that is not an earlier movement phase.

    ## What it checks
    Each phase id listed under a phase's `not_if_moved_in.phases` is a phase earlier in the sequence of
    play in which units move (`moves` given).

    ## Why
    The rule "units that moved in the Movement Phase may not move in this one" (Aachen 5.5) looks back
    at earlier phases; naming a later phase, an unknown one or one in which nothing moves makes the
    referee's judgement of it meaningless.

    ## Reads
    `game.yaml` `sequence_of_play[]`: `id`, `moves`, `not_if_moved_in.phases`.

    ## Violation
    A "Mobile Phase" barring units that moved in blue-move, a phase with no `moves`:

        game.yaml:50:5: error[HF510] phase x: not_if_moved_in names 'blue-move', which is not an earlier phase in which units move

    ## Near miss
    The same, once blue-move has `moves: all`: no finding.
    """
    order = {ph.id: i for i, ph in enumerate(ctx.game.phases)}
    for i, ph in enumerate(ctx.game.phases):
        for pid in (ph.not_if_moved_in.phases if ph.not_if_moved_in else ()):
            j = order.get(pid)
            if j is None or j >= i or ctx.game.phases[j].moves is None:
                yield Finding(ph.not_if_moved_in.loc, f"phase {ph.id}: not_if_moved_in names {pid!r}, which is not "
                                                      f"an earlier phase in which units move")


@check("HF515", "marker-removed-in-unknown-phase", "error",
       "`markers[].removed_in.phases` names phases of game.yaml's sequence_of_play")
def marker_removed_in_unknown_phase(ctx):
    """A marker's `removed_in` naming a phase the sequence of play does not have.

    ## What it checks
    Each phase id under a marker's `removed_in.phases` (counters.yaml) is the id of a phase in game.yaml's
    `sequence_of_play`.

    ## Why
    The referee reports a marker taken off its units outside those phases (Ardennes II 3.4: DG markers only
    in the Pre-Turn's marker removal phase); a phase id it cannot find would make every removal a violation.

    ## Reads
    `counters.yaml` `markers[].removed_in.phases`; `game.yaml` `sequence_of_play[].id`.

    ## Violation
    A DG marker with `removed_in: {phases: [dg-recovery], rule: "3.4"}` in a game with no phase dg-recovery:

        counters.yaml:97:3: error[HF515] marker dg: removed_in names 'dg-recovery', which is not a phase of the sequence of play

    ## Near miss
    The same with `phases: [pre-marker-removal]`, a phase of the sequence: no finding.
    """
    ids = {ph.id for ph in ctx.game.phases}
    for m in ctx.game.markers:
        for pid in m.removed_in:
            if pid not in ids:
                yield Finding(m.loc, f"marker {m.id}: removed_in names {pid!r}, which is not a phase of the sequence "
                                     f"of play")


@check("HF516", "special-move-terms-unknown", "error",
       "a special move's units, turns and roll name what the tree has: units of counters.yaml, turns of the turn "
       "track among its `turns`, dice of game.yaml")
def special_move_terms_unknown(ctx):
    """A phase's special move naming a unit, a turn or dice the tree does not have.

    ## What it checks
    Each `sequence_of_play[].special_moves[]`: its `units` are units of counters.yaml; its `turns` and the turns
    of its `roll.success` are turns of the turn track, the roll's among the move's `turns` where those are given;
    `roll.dice` is a die of game.yaml's `dice`.

    ## Why
    The referee lets those units move in the phase on those turns and judges the roll they need first (Bulge
    43.3: "On turn 16 AM the unit may advance on a roll of 1 or 2"); a name it cannot find lets nobody move, or
    makes every move a violation.

    ## Reads
    `game.yaml` `sequence_of_play[].special_moves[]` (`units`, `turns`, `roll`), `turns`, `dice`;
    `counters.yaml` `units`.

    ## Violation
    A special move whose roll succeeds on turn "17 AM", which is not among its turns:

        game.yaml:40:3: error[HF516] phase blue-move: special move of b1-a: the roll's turn '17 AM' is not among its turns (1, 2)

    ## Near miss
    The same with the roll's turn "1": no finding.
    """
    g = ctx.game
    dice = {d.name for d in g.dice}
    for ph in g.phases:
        for sm in ph.special_moves:
            who = f"phase {ph.id}: special move of {', '.join(sm.units)}"
            for u in sm.units:
                if g.unit(u) is None:
                    yield Finding(ph.loc, f"{who}: {u!r} is not a unit of counters.yaml")
            for t in sm.turns:
                if g.turn(t) is None:
                    yield Finding(ph.loc, f"{who}: turn {t!r} is not on the turn track")
            for t, _ in (sm.roll.success if sm.roll else ()):
                if g.turn(t) is None or (sm.turns and t not in sm.turns):
                    yield Finding(ph.loc, f"{who}: the roll's turn {t!r} is not among its turns "
                                          f"({', '.join(sm.turns) or 'the turn track'})")
            if sm.roll is not None and sm.roll.dice not in dice:
                yield Finding(ph.loc, f"{who}: the roll's dice {sm.roll.dice!r} are not declared in game.yaml")


def _arrivals(g):
    for o in _all_ooas(g):
        for b in o.turns:
            for a in b.arrivals:
                yield o, b, a


@check("HF514", "arrival-entry-printed-twice", "info",
       "the rulebook prints this arrival's entry in two ways; the audit accepts either until an erratum settles it")
def arrival_entry_printed_twice(ctx):
    """An arrival whose entry the rulebook prints differently in two places.

    ## What it checks
    Every arrival line with `also_printed`: the entry as another rule prints it, where the print disagrees
    with itself; one note each, naming both.
    ## Why
    A tree is transcribed as printed and never fixed silently; where the print disagrees with itself the
    referee accepts an entry at any of the printings (no player is accused on one printing when another
    allows the play), and check says so, for an errata editor to settle.
    ## Reads
    `reinforcements[].turns[].arrivals[].entry`, `.also_printed[]` (`entry`, `rule`).
    ## Violation
    (a note) Ardennes II: the German order of arrival prints vdH "w/i 1 B17.49", 4.1 "w/i 1 of B17.29". On the
    mini tree, the first red arrival given `also_printed: [{entry: {hex: A1.01}, rule: "9.9"}]`:

        orders-of-arrival.yaml:13:9: note[HF514] red arrival on turn 2: its entry is printed as area E and, by 9.9, as A1.01; the audit accepts either

    ## Near miss
    An arrival printed one way only: no note.
    """
    for o, b, a in _arrivals(ctx.game):
        for x in a.also_printed:
            yield Finding(x.loc, f"{o.side} arrival on turn {b.turn}: its entry is printed as {a.entry} and"
                                 + (f", by {x.rule}," if x.rule else "") + f" as {x.entry}; the audit accepts either")


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
    The mini tree's first red arrival with `condition: Roll one die.` and no `terms`:

        orders-of-arrival.yaml:7:7: warning[HF511] red arrival on turn 2: its condition is text only (Roll one die.)

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
    (a note) Aachen 15.3: the 2nd Armored Division's trigger rests on fortified hexes the map does not print;
    on the mini tree, terms `{kind: trigger, judged: false, why: the bridge is not printed}`:

        orders-of-arrival.yaml:13:9: note[HF512] red arrival on turn 2: not judged: the bridge is not printed

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
    `turn: {exactly: "9"}` on the mini tree, whose track ends with turn 8:

        orders-of-arrival.yaml:13:9: error[HF513] red arrival on turn 2: turn '9' is not on the turn track

    ## Near miss
    `turn: {exactly: "2"}`.
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
