"""Reinforcements and removals: units enter on their printed turn at their printed entry, in the
phases reinforcements arrive in; removed units stay out; a unit no list places does not appear.

A reinforcement dragged from its box straight to a hex beyond its entry area is read as the rules
allow (the cheapest reading, 11.2): it entered at a hex of its area, paying that hex's cost, then moved
on; the movement rules judge that leg (validator.referee.movement). Which arrival line an entering
unit uses is kept in the ledger (`arrivals_used`, `consumed`).
"""
from __future__ import annotations

from typing import Mapping, NamedTuple, Optional

from ..records.record import Moved, Placed
from . import Finding, Verdict, found, partly, rule
from .ledger import drop, put
from .movement import WRONG_ENTRY, mp
from .start import location_hexes


class ArrivalLine(NamedTuple):
    """One unit line of an order of arrival."""
    key: tuple                                # (order, turn, arrival, unit): what `arrivals_used` counts
    unit: str
    turn_index: Optional[int]
    turn: str
    hexes: Optional[frozenset[str]]           # the entry's hexes; None where not printed
    count: int
    condition: Optional[str]
    rule: Optional[str]                       # the order of arrival's rule
    entry: str                                # the entry as printed
    side: str
    gap: Optional[str]
    entry_rule: Optional[str]                 # the entry area's rule, else the order's
    terms: object = None                      # model.ArrivalTerms: the condition as data, if the tree gives it


def arrival_lines(game, scenario) -> tuple[ArrivalLine, ...]:
    out = []
    for oi, ooa in enumerate(game.scenario_arrivals(scenario) if scenario else ()):
        for b in ooa.turns:
            t = game.turn(b.turn)
            for ai, a in enumerate(b.arrivals):
                # one line per printed entry (the print may disagree with itself), all counting one arrival
                for entry, rule in ((a.entry, None),) + tuple((x.entry, x.rule) for x in a.also_printed):
                    hexes = location_hexes(game, entry)
                    area = game.area(entry.area) if getattr(entry, "area", None) else None
                    for p in a.units:
                        out.append(ArrivalLine((oi, b.turn, ai, p.unit), p.unit, t.index if t else None, b.turn,
                                               hexes, p.count, a.condition, ooa.rule, str(entry), ooa.side, a.gap,
                                               rule or (area.rule if area else None) or ooa.rule, a.terms))
    return tuple(out)


_ENTERING = (Moved, Placed)                    # the events that can bring a unit onto the map


def _entering(v):
    """(counter, hex) when an event brings a unit onto the map from off it, else None."""
    ev = v.event
    if isinstance(ev, Moved) and ev.src.hex is None and ev.dst.hex is not None:
        return ev.counter, ev.dst.hex
    if isinstance(ev, Placed) and ev.where.hex is not None:
        return ev.counter, ev.where.hex
    return None


def unit_entering(v):
    """(counter, hex) when a unit enters the map in a scenario's game (what the arrival rules judge)."""
    hit = _entering(v)
    return hit if hit is not None and hit[0].kind == "unit" and v.scenario is not None else None


def _lines_of(v, unit: str) -> list[ArrivalLine]:
    return list(v.facts.arrival_lines_of.get(unit, ()))


def due_lines(v, unit: str) -> list[ArrivalLine]:
    """The unit's lines due by this turn whose count is not used up."""
    now = v.turn_index()
    if now is None:
        return []
    used = v.ledger.arrivals_used
    return [e for e in _lines_of(v, unit) if e.turn_index is not None and e.turn_index <= now
            and used.get(e.key, 0) < e.count]


def _best(fits: list[ArrivalLine]) -> ArrivalLine:
    """The arrival line an entering unit most likely is: a printed entry before an unprinted one."""
    return max(fits, key=lambda e: (e.hexes is not None, e.turn_index))


def line_used(v, c, h: str) -> Optional[ArrivalLine]:
    due = due_lines(v, c.unit)
    fits = [e for e in due if e.hexes is None or h in e.hexes] or due
    return _best(fits) if fits else None


def consumed(v, c, h: str) -> tuple[Mapping, Mapping]:
    """The ledger's `arrivals_used` and `arrived_by` once this unit has entered at h (the line it most
    likely used)."""
    led = v.ledger
    e = line_used(v, c, h) if v.scenario is not None else None
    if e is None:
        return led.arrivals_used, led.arrived_by
    return put(led.arrivals_used, e.key, led.arrivals_used.get(e.key, 0) + 1), put(led.arrived_by, c.piece, e.key)


def held_back(v) -> Optional[tuple[Mapping, Mapping]]:
    """A reinforcement dragged back from the map into the box it entered from, in the phase it entered
    (11.1: a player may hold a reinforcement back): its arrival given back (`arrivals_used`, `arrived_by`);
    None for any other drag."""
    ev, led = v.event, v.ledger
    piece = ev.counter.piece
    leg, key = led.legs.get(piece), led.arrived_by.get(piece)
    if not isinstance(ev, Moved) or ev.src.hex is None or ev.dst.hex is not None or key is None \
            or leg is None or leg.entry is None or leg.entry.box is None or leg.entry.box != ev.dst.box:
        return None
    return put(led.arrivals_used, key, max(0, led.arrivals_used.get(key, 0) - 1)), drop(led.arrived_by, piece)


def entry_area(v, c, h: str) -> Optional[frozenset[str]]:
    """The hexes a reinforcement entering at h may have come in at: its due line's entry area where h is
    in it or beyond it; {h} where it is in no due line (the arrival rules judge that); None where the
    line's entry hexes are not printed."""
    if v.scenario is None:
        return frozenset((h,))
    due = due_lines(v, c.unit)
    if not due:
        return frozenset((h,))
    fits = [e for e in due if e.hexes is not None and h in e.hexes]
    if fits:
        return _best(fits).hexes
    best = _best(due)
    return best.hexes


@rule("HF1401", "arrival-too-early", "error",
      "bring the reinforcement in on the turn its order of arrival prints", events=_ENTERING, read_as=("entry",))
def arrival_too_early(v) -> Optional[Verdict]:
    """A reinforcement enters the map before the turn its order of arrival prints.

    ## What it checks
    A unit of an order of arrival comes onto the map (dragged from its box or the palette) on a turn
    before every turn its lines print. Where a line has a condition that may bring it earlier, a note.
    ## Why
    A reinforcement arrives in its side's movement phase of the turn its scenario lists (Meuse 11.1).
    ## Reads
    the scenario's orders of arrival (`reinforcements`, `orders-of-arrival.yaml`): turn, count,
    `condition`; the turn track.
    ## Violation
    Meuse scenario 1: Red 4th Engineer Battalion, due on turn 2, enters at B16.10 on turn 1.
    ## Near miss
    The same unit entering on turn 2, or on turn 3 (held back: 11.1 allows it).
    """
    hit = unit_entering(v)
    if hit is None:
        return None
    c, h = hit
    lines, now = _lines_of(v, c.unit), v.turn_index()
    if not lines or now is None or due_lines(v, c.unit):
        return None
    if not all(e.turn_index is not None and e.turn_index > now for e in lines):
        return None
    first = min(lines, key=lambda e: e.turn_index)
    cond = next((e for e in lines if e.condition and not _never_earlier(e)), None)
    exact = next((e for e in lines if _never_earlier(e)), None)
    why = (f" (its condition, {exact.terms.rule}, brings it on that turn and no earlier)" if exact and not cond else
           f" (legal only if its condition allows it earlier: {cond.condition})" if cond else "")
    return found(Finding(
        message=f"{v.label(c)} enters at {h} on turn {v.turn}; its order of arrival brings it on turn {first.turn}{why}",
        hexes=(h,), units=(v.label(c),), rule=(exact.terms.rule if exact and not cond else None) or _when_rule(v, first),
        side=v.side_of(c), severity="info" if cond else None,
        help="not verified: the arrival's condition may bring it in earlier" if cond else None))


def _never_earlier(e: ArrivalLine) -> bool:
    """The line's condition, as data, brings the unit on its turn and never before it."""
    t = e.terms
    return t is not None and (t.earlier == "never" or t.turn_exactly is not None)


@rule("HF1402", "arrival-wrong-entry", "error",
      "bring the reinforcement in at the entry hex or area its order of arrival prints",
      events=_ENTERING, read_as=("entry",))
def arrival_wrong_entry(v) -> Optional[Verdict]:
    """A reinforcement comes onto the map where no path from its entry area could have brought it.

    ## What it checks
    A reinforcement's first drag ends outside its entry area, and (where the sequence of play says in
    which phases reinforcements arrive, and the move is costed) no reading lets it enter at a hex of
    its area and move there within its allowance, and it ends nearer another entry area than its own (nearer
    its own, it came in there and moved too far: HF1201 says so); outside the phases it arrives in it is
    costed alike (HF1406 says the phase). Where the sequence does not say when reinforcements arrive, its move is not costed:
    only a hex farther from its area than its allowance takes it at the TEC's cheapest cost a hex is
    certain; any other hex outside the area is a note.
    ## Why
    A reinforcement enters the map at a hex of its entry area, paying that hex's cost, then moves
    normally (Meuse 11.2). A drag from the box to a hex beyond the area is one drag of VASSAL for what
    the rules see as an entry and a move: the referee takes that reading where the rules allow it.
    ## Reads
    the orders of arrival (entry area or hex), `places.yaml` areas, the movement rules' costs.
    ## Violation
    Meuse scenario 1: Blue 30th Infantry Regiment, due at area blue-centre (A1.08, A1.09), dragged to
    A1.03, six hexes north: no path from the area is within its 4 MP.
    ## Near miss
    Red 4th Engineer Battalion dragged from its box to B14.10, two clear hexes beyond its area
    (B16.10, B16.11): entry at B16.10 (1 MP), then 2 MP: legal.
    """
    hit = unit_entering(v)
    if hit is None:
        return None
    c, h = hit
    due = due_lines(v, c.unit)
    if not due:
        return None
    fits = [e for e in due if e.hexes is None or h in e.hexes or _alternative(v, e, h)]
    if fits:
        e = _best(fits)
        notes = ((f"{v.label(c)}: the hexes of entry {e.entry} are not printed",) if e.hexes is None else ()) + \
                _condition_notes(v, c, e)
        return partly(*notes) if notes else None
    mv = v.move
    if mv is not None and mv.fault() != WRONG_ENTRY:
        return None                            # entered in its area and moved on: the movement rules judge it
    e = min(due, key=lambda e: e.turn_index)
    if mv is None:
        why = _may_not_move(v, due) or _beyond_any_reach(v, c, h, due)
        if why is None:
            return partly(f"{v.label(c)} enters at {h}, outside its entry area: whether it entered there and moved "
                          "on is not judged (the sequence of play does not say in which phase it arrives, so "
                          "its move is not costed)")
    else:
        why = _why_not_from_area(v, mv)
    return found(Finding(
        message=f"{v.label(c)} enters at {h}; its order of arrival (turn {e.turn}) brings it in at {e.entry}{why}",
        hexes=(h,) + tuple(sorted(e.hexes or ()))[:4], units=(v.label(c),), rule=e.entry_rule, side=v.side_of(c)))


def _alternative(v, e: ArrivalLine, h: str) -> bool:
    """The line lets the unit enter elsewhere where its entry hex is enemy-held (Bulge 40.6), and it did."""
    t = e.terms
    if t is None or not t.alternative_within or not e.hexes:
        return False
    held = [x for x in e.hexes if x in v.enemies(v.side_of(v.event.counter))]
    return bool(held) and any((d := v.grid.distance(x, h)) is not None and d <= t.alternative_within for x in held)


def _condition_notes(v, c, e: ArrivalLine) -> tuple[str, ...]:
    """What of the line's condition the referee leaves unjudged."""
    t = e.terms
    if t is None:
        return (f"{v.label(c)}: arrival condition not verified ({e.condition})",) if e.condition else ()
    out = []
    if not t.judged:
        out.append(f"{v.label(c)}: arrival condition not verified ({t.why or t.rule})")
    if t.roll_dice and not t.roll_success:      # with its faces, HF1409 judges it
        out.append(f"{v.label(c)}: the arrival's roll ({t.roll_dice}, {t.roll_rule or t.rule}) is not judged")
    return tuple(out)


def _may_not_move(v, due) -> Optional[str]:
    """Why the unit cannot have moved on from its entry hex: every due line forbids a move this turn."""
    rules = [e.terms.no_move_rule or e.terms.rule for e in due
             if e.terms is not None and e.terms.no_move_turn is not None and e.terms.no_move_turn == v.turn]
    if len(rules) < len(due):
        return None
    return f", and it may not move on turn {v.turn} ({rules[0]})"


def _beyond_any_reach(v, c, h: str, due) -> Optional[str]:
    """Why no entry at any hex of the due lines' areas can reach h on the unit's allowance even at the
    TEC's cheapest cost for every hex after the entry hex (no path can be cheaper); None where one might."""
    ma, cheapest = v.look.allowance(c), v.look.class_costs(c).cheapest
    area = {x for e in due for x in (e.hexes or ())}
    if ma is None or not cheapest or not area or any(e.hexes is None for e in due):
        return None
    near = [d for x in area if (d := v.grid.distance(x, h)) is not None]
    if len(near) < len(area) or min(near) * cheapest <= ma:
        return None
    return (f", {min(near)} hexes from the nearest hex of that area: more than its movement allowance of "
            f"{mp(ma)} takes it even at {mp(cheapest)} MP a hex")


def _why_not_from_area(v, mv) -> str:
    if mv is None:
        return ""
    lc = mv.cost
    cheapest = f" (the cheapest way from it costs {mp(lc.total)} MP, entering at {lc.entry})" if lc.total else ""
    return (f", and no path from a hex of that area reaches {mv.leg.ends[-1]} within its movement allowance "
            f"of {mv.ma}{cheapest}")


@rule("HF1403", "unit-from-nowhere", "error",
      "only units of the scenario's set-up and orders of arrival enter play", events=_ENTERING, read_as=("entry",))
def unit_from_nowhere(v) -> Optional[Verdict]:
    """A unit that no set-up and no order of arrival of the scenario places comes onto the map.

    ## What it checks
    A unit enters the map that is in no set-up line and no order of arrival of the scenario and was not
    removed earlier in the log. Where the scenario declares a line printed without its units (a gap), a
    note.
    ## Why
    Only the scenario's units take part (Meuse 12.0): a unit from the counter palette that the scenario
    does not list is not in the game.
    ## Reads
    the scenario's `setup` and orders of arrival, its declared `gaps`.
    ## Violation
    Meuse scenario 1: Red 9th Airborne's tank battalion dragged from the palette onto B16.03 (scenario 1
    brings it on turn 3: that is HF1401); a counter of scenario 2 only (none in scenario 1) from the
    palette is this code.
    ## Near miss
    A unit that was removed and comes back (HF1404 says that), or one of a declared gap's side (a note).
    """
    hit = unit_entering(v)
    if hit is None:
        return None
    c, h = hit
    if c.piece in v.ledger.removed or c.unit in v.facts.setup_units or _lines_of(v, c.unit):
        return None
    gap = _gap_for_side(v, v.side_of(c))
    what = f"{v.label(c)} enters at {h} but is in no set-up or order of arrival of scenario {v.scenario.id}"
    if gap:
        return found(Finding(message=f"{what}; it may stand for a line printed without its units (gap {gap})",
                             hexes=(h,), units=(v.label(c),), severity="info", side=v.side_of(c),
                             help="not verified: a declared gap may hide this unit"))
    return found(Finding(message=what, hexes=(h,), units=(v.label(c),), side=v.side_of(c)))


def _gap_for_side(v, side) -> Optional[str]:
    """A declared gap that may hide this side's unit (a set-up or arrival line printed without units)."""
    for grp in v.scenario.setup:
        if grp.gap and grp.side == side:
            return grp.gap
    return next((e.gap for e in v.facts.arrival_lines if e.gap and e.side == side), None)


@rule("HF1404", "removed-unit-returns", "warning",
      "a unit removed from play comes back only where the rules allow it (replacements)",
      events=_ENTERING, read_as=("entry",))
def removed_unit_returns(v) -> Optional[Verdict]:
    """A piece removed from play earlier in the log comes back onto the map.

    ## What it checks
    A piece that a step removed (deleted in VASSAL) is put on the map again.
    ## Why
    An eliminated unit stays out of play unless the rules bring it back (replacements); a warning,
    since a player may also have deleted a piece by mistake and put it back.
    ## Reads
    the ledger's removals.
    ## Violation
    A unit deleted at step 10 and dragged back onto its hex at step 12.
    ## Near miss
    A unit undone back onto the map with VASSAL's Undo (the removal is taken back, not reversed).
    """
    hit = _entering(v)
    if hit is None:
        return None
    c, h = hit
    gone = v.ledger.removed.get(c.piece)
    if gone is None:
        return None
    return found(Finding(message=f"{v.label(c)}, removed from {gone.where} at step {gone.step}, comes back at {h}",
                         hexes=(h,), units=(v.label(c),), side=v.side_of(c)))


@rule("HF1405", "arrival-beyond-count", "error",
      "bring in only as many of a unit as its orders of arrival print by this turn",
      events=_ENTERING, read_as=("entry",))
def arrival_beyond_count(v) -> Optional[Verdict]:
    """More pieces of a unit enter than its orders of arrival bring by this turn.

    ## What it checks
    A piece of a unit enters when every line of its orders of arrival due by this turn is used up.
    ## Why
    An order of arrival prints how many of each unit arrive (Meuse 11.1): a further counter of the same
    unit is not in the game yet.
    ## Reads
    the orders of arrival's counts and turns; the ledger's arrivals used.
    ## Violation
    A scenario bringing two Blue infantry regiments on turn 2: a third piece of that unit enters.
    ## Near miss
    The second of the two entering on turn 3 (held back).
    """
    hit = unit_entering(v)
    if hit is None:
        return None
    c, h = hit
    now = v.turn_index()
    lines = _lines_of(v, c.unit)
    if not lines or now is None or c.piece in v.ledger.removed or c.unit in v.facts.setup_units:
        return None
    due = [e for e in lines if e.turn_index is not None and e.turn_index <= now]
    if not due or due_lines(v, c.unit):
        return None
    return found(Finding(message=f"{v.label(c)} enters at {h}: its orders of arrival bring {sum(e.count for e in due)} "
                                 f"by turn {v.turn}, and as many have entered already", hexes=(h,),
                         units=(v.label(c),), rule=due[0].rule, side=v.side_of(c)))


@rule("HF1406", "arrival-outside-arrival-phase", "error",
      "bring reinforcements on in the phases the sequence of play gives them (their side's movement phase)",
      events=_ENTERING, read_as=("entry",))
def arrival_outside_arrival_phase(v) -> Optional[Verdict]:
    """A reinforcement comes onto the map in a phase in which no reinforcement of its side arrives.

    ## What it checks
    Where the sequence of play marks the phases reinforcements arrive in (`arrivals: true`), a unit
    enters the map when no such phase of its side is left this turn: in a combat phase, the other
    side's phases, or its own exploitation phase; or in an arrival phase whose `moves` does not name its
    movement class (only the units that move in a phase arrive in it).
    ## Why
    A reinforcement arrives in its side's movement phase (Meuse 11.1); none arrives in the exploitation
    phase (9.1). Aachen 15.0: "Mobile units may arrive at the beginning of the Mobile Movement Phase", in which
    "Only mobile units can move" (4.1).
    ## Reads
    `sequence_of_play[].arrivals` and `side`; the turn tracker's phase.
    ## Violation
    Meuse: Red 4th Engineer Battalion, due on turn 2, dragged from its box in the Red Combat Phase of
    turn 2.
    ## Near miss
    The same unit entering in the Red Movement Phase of turn 2, or of turn 3 (held back, 11.1).
    """
    hit = unit_entering(v)
    if hit is None or v.tracker.index is None:
        return None
    c, h = hit
    if not _lines_of(v, c.unit):
        return None
    where = v.tracker.name(v.tracker.index)
    own = _own_phase(v, c)
    if own is not None:
        return found(Finding(message=f"{v.label(c)} enters at {h} in the {where} of turn {v.turn}: its arrival "
                                     f"({own.terms.rule}) is made in the {v.tracker.name(_phase_index(v, own))}",
                             hexes=(h,), units=(v.label(c),), rule=own.terms.rule, side=v.side_of(c)))
    if v.reading is not None or not v.tracker.knows_arrivals():
        return None
    p, cls = v.tracker.phase(), v.class_of(c)
    if p is not None and p.arrivals and p.side in (None, v.side_of(c)) and p.moves and not p.moves_class(cls):
        return found(Finding(message=f"{v.label(c)} ({cls}) enters at {h} in the {where} of turn {v.turn}: only "
                                     f"{', '.join(p.moves)} units arrive in it, as only they move in it",
                             hexes=(h,), units=(v.label(c),), rule=p.arrivals_rule or _arrival_rule(v),
                             side=v.side_of(c)))
    return found(Finding(message=f"{v.label(c)} enters at {h} in the {where} of turn {v.turn}: reinforcements of "
                                 f"{v.side_name(v.side_of(c))} arrive only in {_arrival_phases(v, v.side_of(c))}",
                         hexes=(h,), units=(v.label(c),), rule=_arrival_rule(v), side=v.side_of(c)))


def _phase_index(v, e: ArrivalLine) -> Optional[int]:
    return next((i for i, p in enumerate(v.tracker.phases) if p.id == e.terms.phase), None)


def _own_phase(v, c) -> Optional[ArrivalLine]:
    """The due line whose terms name the phase of its arrival, where the entry certainly falls in another:
    the phase is pinned to another one, or the one named has passed this turn."""
    t = v.tracker
    for e in due_lines(v, c.unit):
        i = _phase_index(v, e) if e.terms is not None and e.terms.phase else None
        if i is not None and (t.index > i or (t.pinned() and t.index != i)):
            return e
    return None


def _arrival_phases(v, side) -> str:
    names = [v.tracker.name(i) for i, p in enumerate(v.tracker.phases) if p.arrivals and p.side in (None, side)]
    return " and ".join(names) or "no phase"


def _when_rule(v, line) -> Optional[str]:
    """The rule an arrival on the wrong turn breaks: its line's, unless that is only the scenario that prints the
    schedule (Meuse 12.2), where the rule saying reinforcements come on the turn listed is the phases'
    (11.1: "A reinforcement arrives in its side's movement phase of the turn its scenario lists")."""
    sc = v.scenario
    if sc is not None and line.rule is not None and line.rule == sc.rule:
        return _arrival_rule(v) or line.rule
    return line.rule


def _arrival_rule(v) -> Optional[str]:
    return next((p.arrivals_rule for p in v.tracker.phases if p.arrivals and p.arrivals_rule), None)


@rule("HF1407", "arrival-delayed", "error",
      "bring the reinforcement in on the turn its condition fixes: it may not be held back",
      events=_ENTERING, read_as=("entry",))
def arrival_delayed(v) -> Optional[Verdict]:
    """A reinforcement that may not be held back enters after its turn.

    ## What it checks
    An arrival whose condition, as data, forbids a delay (`terms.delay: forbidden`, or `turn.exactly`)
    entering on a later turn than its line's.
    ## Why
    Some arrivals happen on one turn or not at all (Bulge 40.1: the paradrop "cannot be delayed"; 42.1:
    the commandos "appear mandatorily on 16 PM"); most may be held back (Meuse 11.1, Bulge 16.8).
    ## Reads
    an arrival's `terms` (`delay`, `turn`), its turn block.
    ## Violation
    Bulge scenario 45: the Von der Heydte battalion dropped on JJ6 on 17 PM.
    ## Near miss
    The same drop on 17 AM; a Meuse reinforcement brought on a turn late (11.1 allows it).
    """
    hit = unit_entering(v)
    if hit is None:
        return None
    c, h = hit
    now, due = v.turn_index(), due_lines(v, c.unit)
    if now is None or not due or not all(_no_delay(e) for e in due):
        return None
    late = [e for e in due if e.turn_index < now]
    if len(late) < len(due):
        return None                            # a line is for this turn: on time
    e = late[0]
    return found(Finding(message=f"{v.label(c)} enters at {h} on turn {v.turn}: its arrival ({e.terms.rule}) is on turn "
                                 f"{e.turn} and may not be delayed", hexes=(h,), units=(v.label(c),),
                         rule=e.terms.rule, side=v.side_of(c)))


def _no_delay(e: ArrivalLine) -> bool:
    t = e.terms
    return t is not None and (t.delay == "forbidden" or (t.turn_exactly is not None and t.delay != "allowed"))


@rule("HF1408", "moved-on-arrival-turn", "error",
      "a unit its arrival's terms keep in place may not move on that turn", events=(Moved,), read_as=("move", "unread"))
def moved_on_arrival_turn(v) -> Optional[Verdict]:
    """A unit moves on the turn its arrival's terms say it may not.

    ## What it checks
    A map move by a unit whose arrival line, as data, says it may not move on a turn
    (`terms.after_arrival.no_move_turn`), on that turn, once it has arrived.
    ## Why
    Bulge 40.3: "If the drop succeeds the battalion may not move on 17 AM."
    ## Reads
    an arrival's `terms`, the turn track.
    ## Violation
    Bulge: the Von der Heydte battalion, dropped on JJ6 on 17 AM, moves to JJ7 in the same movement phase.
    ## Near miss
    The same battalion moving on 17 PM.
    """
    c = v.event.counter
    lines = [e for e in _lines_of(v, c.unit) if e.terms is not None and e.terms.no_move_turn == v.turn]
    if not lines or v.scenario is None:
        return None
    rule_no = lines[0].terms.no_move_rule or lines[0].terms.rule
    return found(Finding(message=f"{v.label(c)} moves {v.event.src} -> {v.event.dst} on turn {v.turn}, the turn of its "
                                 f"arrival, on which it may not move ({rule_no})",
                         hexes=(v.event.src.hex, v.event.dst.hex), units=(v.label(c),), rule=rule_no,
                         side=v.side_of(c)))
