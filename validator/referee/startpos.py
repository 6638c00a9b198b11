"""The starting position: the record's first snapshot against the scenario's set-up."""
from __future__ import annotations

from typing import Optional

from . import Finding, Verdict, found, rule
from .markers import shown_by_markers
from .paths import path_cost
from .scenario import at_setup
from .stacking import over_limit


def _match(v):
    """The start position's match to the set-up, when the log begins at the set-up (its first turn) and
    is not chained to an earlier log (whose end it must match instead: HF1651, HF1652)."""
    mt = v.facts.start_match
    if mt is None or v.facts.previous is not None or not at_setup(v.game, mt.scenario, v.record):
        return None
    return mt


@rule("HF1007", "log-begins-after-setup", "info",
      "not verified: the set-up is compared only for a log that begins at the scenario's first turn", on="start")
def log_begins_after_setup(v) -> Optional[Verdict]:
    """The log begins after the scenario's set-up, so its start is not compared with the set-up.

    ## What it checks
    A log (not chained to an earlier one) whose turn tracker shows, when logging began, a later turn than
    the scenario's first, or a phase of the first turn after one in which units move or fight.
    ## Why
    The set-up is what the scenario prints before its first turn is played; a later start can only be
    compared with the log before it (`--chain`).
    ## Reads
    the scenario's `first_turn`, `sequence_of_play` (`moves`, `combat`), the record's start turn and phase.
    ## Violation
    A log of turn 3 of Meuse scenario 1 audited on its own.
    ## Near miss
    The same log audited with `--chain` after the logs of turns 1 and 2.
    """
    mt = v.facts.start_match
    if mt is None or v.facts.previous is not None or at_setup(v.game, mt.scenario, v.record):
        return None
    if v.record.start_turn == mt.scenario.first_turn:
        p = v.game.phase(v.record.start_phase)
        when = f"in the {p.name if p else v.record.start_phase} of turn {v.record.start_turn}, after units could move"
    else:
        when = f"on turn {v.record.start_turn}"
    return found(Finding(message=f"the log begins {when}, not at scenario {mt.scenario.id}'s "
                                 f"set-up (turn {mt.scenario.first_turn}): the start position is not compared with it"))


def _state(s) -> str:
    return ", ".join(sorted(s)) or "full strength"


@rule("HF1001", "setup-unit-missing", "error",
      "the scenario's set-up places this unit; add it to the start position", on="start")
def setup_unit_missing(v) -> Optional[Verdict]:
    """A unit the scenario's set-up places is not in the log's start position.

    ## What it checks
    Every set-up slot of the scenario (a unit on its printed hexes) without a piece of that unit at
    the start.
    ## Why
    The game starts from the scenario's set-up (Meuse 12.1: Blue sets up first, then Red).
    ## Reads
    the scenario's `setup` (locations read as `validator.geometry.locations` reads them).
    ## Violation
    Meuse scenario 1 started without Blue's 9th Infantry Regiment in B1.17.
    ## Near miss
    The same unit on B1.17; a unit of a ranged set-up line anywhere in its range.
    """
    mt = _match(v)
    if mt is None:
        return None
    out = []
    for s in mt.missing:
        u = v.game.unit(s.unit)
        out.append(Finding(message=f"{u.name if u else s.unit} ({s.side}) set up at {s.location} in scenario "
                                   f"{mt.scenario.id} is not in the start position",
                           hexes=tuple(sorted(s.hexes or ()))[:6], units=(u.name if u else s.unit,),
                           rule=mt.scenario.rule, side=s.side))
    return found(*out)


@rule("HF1002", "setup-unit-extra", "error",
      "remove the unit: the scenario's set-up does not place it", on="start")
def setup_unit_extra(v) -> Optional[Verdict]:
    """A unit stands on the map at the start that the scenario's set-up does not place.

    ## What it checks
    Pieces on the map at the start with no set-up slot of their unit left; where a set-up line is
    printed without its units (a declared gap) and the piece stands in its hexes, a note.
    ## Why
    Only the scenario's set-up units start on the map (Meuse 12.1).
    ## Reads
    the scenario's `setup`, its declared gaps.
    ## Violation
    Meuse scenario 1 started with a second Red tank battalion in B10.11.
    ## Near miss
    A unit in its holding box (a reinforcement), not on the map.
    """
    mt = _match(v)
    if mt is None:
        return None
    out = []
    for c, h, gap in mt.extra:
        if gap is not None:
            out.append(Finding(message=f"{v.label(c)} in {h} is in no set-up line; it may be the unit of the line "
                                       f"{gap.location}, which the rulebook prints without its unit", hexes=(h,),
                               units=(v.label(c),), severity="info", rule=mt.scenario.rule, side=v.side_of(c),
                               help="not verified: the set-up line's unit is not printed"))
        else:
            out.append(Finding(message=f"{v.label(c)} in {h} is not in scenario {mt.scenario.id}'s set-up",
                               hexes=(h,), units=(v.label(c),), rule=mt.scenario.rule, side=v.side_of(c)))
    return found(*out)


@rule("HF1003", "setup-unit-misplaced", "error",
      "put the unit on the hex its set-up line names", on="start")
def setup_unit_misplaced(v) -> Optional[Verdict]:
    """A set-up unit starts on a hex its set-up line does not name.

    ## What it checks
    A piece of a set-up unit whose hex is in none of its unit's set-up slots (with another slot of the
    unit left unfilled). Where the log begins in a phase in which the unit's side moves and the unit
    could have moved there from its set-up hex within its allowance, a warning instead: legal only if
    logging began after the phase's first moves (a game saved mid-phase; `--chain` judges it exactly).
    ## Why
    Each unit sets up on the hex (or in the hexes) its line prints (Meuse 12.1).
    ## Reads
    the scenario's `setup`; the unit's movement factor and the map's costs, where the log begins in a phase
    in which its side moves.
    ## Violation
    Meuse scenario 1 with Blue's 8th Infantry Regiment in A15.04 instead of A15.03 when the log begins in the
    Red Movement Phase.
    ## Near miss
    Aachen's 3rd Armored units anywhere along their printed range 2630-3028; a log that begins in the
    first turn's Red Movement Phase with a Red unit as far from its set-up hex as its allowance takes it
    (it may have moved before logging began: a warning, not an error).
    """
    mt = _match(v)
    if mt is None:
        return None
    out = []
    for c, h, s in mt.misplaced:
        moved = _moved_before_log(v, c, h, s)
        out.append(Finding(message=f"{v.label(c)} starts in {h}; scenario {mt.scenario.id} sets it up at {s.location}"
                                   + (f" ({moved})" if moved else ""), severity="warning" if moved else None,
                           hexes=(h,), units=(v.label(c),), rule=mt.scenario.rule, side=v.side_of(c)))
    return found(*out)


def _moved_before_log(v, c, h: str, slot) -> Optional[str]:
    """Why a unit off its set-up hex may have got there legally: the log begins in a phase in which its
    side moves, and from a hex of its slot it reaches h within its allowance at the cheapest (the log may
    begin after the phase's first moves). None where it may not."""
    p = v.tracker.phase()
    side = v.side_of(c)
    if p is None or not p.moves or p.side not in (None, side) or not slot.hexes or len(slot.hexes) > 64:
        return None
    ma = v.look.allowance(c)
    if ma is None:
        return f"it may have moved there in the {p.name} before the log began: its movement factor is not printed"
    costs = v.look.class_costs(c)
    for a in sorted(slot.hexes):
        seg = path_cost(v.look, v.facts.in_play, a, h, costs, limit=ma)
        if seg is not None and seg[0] <= ma:
            return f"it may have moved there in the {p.name} before the log began, within its allowance of {ma}"
    return None


@rule("HF1004", "setup-unit-state", "warning",
      "set the unit up in the state its set-up line prints (reduced, DG, ...)", on="start")
def setup_unit_state(v) -> Optional[Verdict]:
    """A set-up unit starts in another state than its line prints.

    ## What it checks
    A piece on its set-up hex whose state (reduced, DG, ...) differs from what the line prints, where
    no marker in the hex shows the missing state.
    ## Why
    Set-up lines print states (Ardennes II: units set up DG); the module may show them on the piece or
    as a marker beside it.
    ## Reads
    the set-up's `state`, `markers` and the states they show.
    ## Violation
    A unit printed reduced set up at full strength with no marker.
    ## Near miss
    The same unit with a DG marker in its hex, where the line prints it DG.
    """
    mt = _match(v)
    if mt is None:
        return None
    shown = shown_by_markers(v.game, v.record.start, v.facts.marker_states)
    out = []
    for c, h, s in sorted(mt.pairs, key=lambda p: (p[1], p[0].piece)):
        if frozenset(c.state) == s.state:
            continue
        lacking = s.state - frozenset(c.state)
        budget = shown.get(h)
        if not (frozenset(c.state) - s.state) and budget is not None and all(budget[x] > 0 for x in lacking):
            budget.subtract(lacking)           # a marker in the hex shows the state for this unit
            continue
        out.append(Finding(message=f"{v.label(c)} in {h} starts {_state(c.state)}; the set-up prints it "
                                   f"{_state(s.state)} (the module's pieces may not show that state, and no marker "
                                   "in the hex shows it)",
                           hexes=(h,), units=(v.label(c),), rule=mt.scenario.rule, side=v.side_of(c)))
    return found(*out)


@rule("HF1005", "setup-overstacked", "info",
      "not the players' doing: the set-up placed these units together", on="start")
def setup_overstacked(v) -> Optional[Verdict]:
    """The start position holds a stack over the limit.

    ## What it checks
    Stacks over the limit at the start: a note where the set-up prints them so or the module's set-up
    put a ranged line's units in its first hex; a warning where the set-up does not place them together.
    ## Why
    An over-stack the set-up made is not the players' doing; the stacking rules (HF1301) judge only
    the stacks players make.
    ## Reads
    `rules.stacking`, the scenario's `setup`.
    ## Violation
    (a warning) two units set up in different hexes found together at the start.
    ## Near miss
    Aachen: the 3rd Armored's ranged set-up units all in the range's first hex, as the module's set-up
    puts them (a note).
    """
    if v.facts.previous is not None:
        return None                            # a chained log starts where the last one ended: HF1652
    mt = _match(v)
    st = v.game.rules.stacking
    slots = {c.piece: s for c, _, s in mt.pairs} if mt else {}
    out = []
    for h, side, units, n in over_limit(v, v.record.start):
        located = [slots.get(c.piece) for c in units]
        names = tuple(v.label(c) for c in units)
        what = f"the start position stacks {n} {st.counts} in {h}, over the stacking limit of {st.limit}"
        if all(s is not None and not s.exact for s in located):
            where = sorted({s.location for s in located})
            out.append(Finding(message=f"{what}: the set-up places them along {', '.join(where)} and the module's "
                                       f"set-up put them all in {h}", hexes=(h,), units=names, rule=st.rule, side=side))
        elif all(s is not None for s in located):
            out.append(Finding(message=f"{what}, as the scenario's set-up prints it", hexes=(h,), units=names,
                               rule=st.rule, side=side))
        else:
            out.append(Finding(message=what, hexes=(h,), units=names, rule=st.rule, side=side, severity="warning",
                               help="the set-up does not place these units together; separate them"))
    return found(*out)


@rule("HF1006", "scenario-inferred", "info",
      "name the scenario with --scenario to judge the log against another one", on="start")
def scenario_inferred(v) -> Optional[Verdict]:
    """The scenario was inferred from the log's start position.

    ## What it checks
    Where no `--scenario` is given, the scenario whose set-up the start position matches best, with
    how many units stand on their set-up hexes.
    ## Why
    The referee judges a log against one scenario (its set-up, reinforcements, length, victory).
    ## Reads
    every scenario's `setup`.
    ## Violation
    (a note) any log audited without `--scenario`.
    ## Near miss
    The same log audited with `--scenario 1`.
    """
    mt = v.facts.start_match
    if mt is None or not v.facts.scenario_inferred:
        return None
    where = (f"{len(mt.pairs)} of {mt.total} units on their set-up hexes" if not mt.boxed else
             f"{mt.boxed} of {mt.total} units in the holding boxes its set-up and reinforcements fill")
    return found(Finding(message=f"scenario inferred from the start position: {mt.scenario.id} ({mt.scenario.name}), "
                                 f"{where} (score {mt.score:.2f})", rule=mt.scenario.rule))
